"""A choke's roll lines name it as the seeds do from engine revision 25 (a77data NIT 4):
003's 締め上げ (l.43) and 004's 締め付け (l.165, CO-GRAP-7); revision 24 said 絞め, a word
of neither, and its saved lines replay as they were."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Choke, Fight, Grapple, Side
from companion.systems.coc.combat.grapples import SEED_CHOKE
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, pass_to, person, push, replays

RULES = load_rules(Profile.P004)


def restrained(engine: int) -> Fight:
    f = at(engine, Fight(RULES, [
        (person(RULES, "Ann", 14, grapple=80), Side.INVESTIGATORS),
        (person(RULES, "Cult", 10), Side.FOES)], ScriptedDice([])))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Ann")
    return f


def test_004s_choke_is_締め付け_and_revision_24s_stays_絞め() -> None:
    now = push(restrained(SEED_CHOKE), Choke("Ann"), (100, 10), (6, 3), (4, 2))
    assert "(choke 締め付け of Cult, CO-GRAP-7)" in now and "絞め" not in now
    old = restrained(SEED_CHOKE - 1)
    then = push(old, Choke("Ann"), (100, 10), (6, 3), (4, 2))
    assert "(choke 絞め of Cult, CO-GRAP-7)" in then and "締め付け" not in then
    replays(old)


def test_003s_choke_is_締め上げ() -> None:
    f = duel(Profile.P003, {"grapple": 90, "martial_arts": 60}, {"fist": 50})
    with pytest.raises(IllegalAction, match=r"^Ann holds nobody to choke 締め上げ \(CO-MA-2\)$"):
        f.push(Choke("Ann"), ScriptedDice([]))
