"""004's choke 締め付け and throw 投げ roll Grapple (or Budo) again (CO-GRAP-6 「もう一度武道
（組技系）を使用」), and from engine revision 23 that roll's line says what it is for, whom
and its rule (grapple75 NIT 5): revision 22's read as a grapple, so ``coc fight log``
showed a failed choke as ``CO-CORE-1 Ann 組み付き/Grapple … 失敗/failure``, a new grapple
that missed. Revision-22 lines replay as they were."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.systems.coc.combat import ENGINE, Choke, Fight, Grapple, Side, Throw
from companion.systems.coc.combat.fight import line_rules
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, pass_to, person, push, replays

RULES = load_rules(Profile.P004)
FAILED = "Ann 組み付き/Grapple (1D100<=80) ＞ 95 ＞ 失敗/failure"


def restrained(engine: int = ENGINE) -> Fight:
    """Ann restrains Cult in round 1 (CO-GRAP-6); round 2 is Ann's turn, Dan another foe."""
    f = at(engine, Fight(RULES, [
        (person(RULES, "Ann", 14, grapple=80), Side.INVESTIGATORS),
        (person(RULES, "Cult", 10), Side.FOES), (person(RULES, "Dan", 8), Side.FOES)],
        ScriptedDice([])))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Ann")
    return f


@pytest.mark.parametrize("action, said, rule", [
    (Choke("Ann"), "choke 締め付け of Cult, CO-GRAP-7", "CO-GRAP-7"),
    (Throw("Ann"), "throw 投げ of Cult, CO-GRAP-8", "CO-GRAP-8"),
    (Throw("Ann", at="Dan"), "throw 投げ of Cult at Dan, CO-GRAP-8", "CO-GRAP-8"),
])
def test_a_failed_choke_or_throw_says_so_and_its_rule(action: Choke | Throw, said: str,
                                                      rule: str) -> None:
    f = restrained()
    assert push(f, action, (100, 95)) == f"{FAILED} ({said})"
    assert line_rules(f.journal[-1].lines)[0][0] == rule  # the log's rule column
    assert f.state.get("Cult").held_by == "Ann"
    replays(f)


def test_a_made_choke_says_it_too() -> None:
    f = restrained()
    made = push(f, Choke("Ann"), (100, 10), (6, 3), (4, 2)).split("\n")
    assert made[0] == ("Ann 組み付き/Grapple (1D100<=80) ＞ 10 ＞ スペシャル/special "
                       "(choke 締め付け of Cult, CO-GRAP-7)")
    assert made[1].startswith("choke: (1D6+1D4)")
    replays(f)


def test_revision_22_lines_stay_the_grapples_and_replay() -> None:
    f = restrained(22)
    assert push(f, Choke("Ann"), (100, 95)) == FAILED
    pass_to(f, "Ann")
    assert push(f, Throw("Ann", at="Dan"), (100, 95)) == FAILED
    replays(f)
