"""The coc table's Choke button and log name the choke in the fight's profile's word, as the
engine's refusals and rolls do (grapples.option_ja, 1a497ab7): 003's 締め上げ (l.43,
CO-MA-2), 004's 締め付け (l.165, CO-GRAP-7). A 003 table's button read "Choke 締め付け" while
its refusal read "holds nobody to choke 締め上げ" (r77data NIT on 1e5124b4)."""

from __future__ import annotations

import re

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import ScriptedDice, SimulatedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Choke, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import holding
from tests.systems.coc.scripted_fight_helpers import entrant


def refusal_word(profile: Profile) -> str:
    """The word the engine refuses a choke with when nobody is held."""
    rules = load_rules(profile)
    fight = Fight(rules, [entrant(rules, "Ann", 14, ("fist",), Side.INVESTIGATORS),
                          entrant(rules, "Cult", 10, ("fist",), Side.FOES)], ScriptedDice([]))
    with pytest.raises(IllegalAction) as refused:
        fight.push(Choke("Ann"), ScriptedDice([]))
    found = re.search(r"holds nobody to choke (\S+)", str(refused.value))
    assert found, refused.value
    return found.group(1)


@pytest.mark.parametrize("profile, word", [(Profile.P003, "締め上げ"), (Profile.P004, "締め付け")])
def test_the_choke_button_and_log_say_the_engine_s_word(profile: Profile, word: str) -> None:
    assert refusal_word(profile) == word
    mode = CocFightMode(holding(profile))
    menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    labels = {o.choice: o.label for o in menu.options}
    assert labels["choke"] == f"Choke {word}"
    if profile is Profile.P004:  # 003 chokes by its MA hold only (CO-MA-2): no Budo button
        assert labels["choke_budo"] == f"Budo choke 武道で{word}"
    assert not [label for label in labels.values()
                if {"締め付け", "締め上げ"} - {word} & set(re.findall(r"締め..", label))]
    mode.fight.push(Choke("Ann"), SimulatedDice.seeded(1))
    assert mode.describe(mode.fight.journal[-1].action) == f"Ann {word} chokes → Cult"
    assert mode.fight_view().log[-1].startswith(f"Ann {word} chokes → Cult ＞")
