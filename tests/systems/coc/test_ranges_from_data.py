"""The Keeper's penalties of CO-SURP-3 (004 l.44 「-10％～-50％」) and CO-BODY-3 (l.91
「-60％~-80％」) are checked against their [limits] in the rules data, and dodge
concentration's +20% (CO-DODGE-1) and +10% (CO-DODGE-8) are said from [source], as
CO-DISARM-1's range is: edited data is what is played and said, never a number in code."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Concentrate, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import person, push
from tests.systems.coc.rules_file_helpers import edited


def fight(profile: Profile, header: str, key: str, value: str, **ann: int) -> Fight:
    rules = load_rules(profile, texts={"rules.toml": edited(header, key, value)})
    return Fight(rules, [(person(rules, "Ann", 14, ("knife",), **ann), Side.INVESTIGATORS),
                         (person(rules, "Cult", 10), Side.FOES)], ScriptedDice([]))


def test_the_hiding_penalty_is_checked_against_its_limits_in_the_data() -> None:
    f = fight(Profile.P004, 'limits."CO-SURP-3"', "hidden_penalty",
              "{ min = -40, max = -10 }", hide=95)
    with pytest.raises(IllegalAction, match=r"^the Keeper's hiding penalty must be from -40 to "
                                            r"-10 \(CO-SURP-3\), found -45$"):
        f.push(Attack("Ann", "Cult", surprise="hide", hidden=-45), ScriptedDice([(100, 40)]))


def test_the_gouging_penalty_is_checked_against_its_limits_in_the_data() -> None:
    f = fight(Profile.P004, 'limits."CO-BODY-3"', "penalty", "{ min = -70, max = -60 }")
    with pytest.raises(IllegalAction, match=r"^the gouging penalty must be from -70 to -60 "
                                            r"\(CO-BODY-3\), found -75$"):
        f.push(Attack("Ann", "Cult", body="gouge", part="arm", penalty=-75), ScriptedDice([]))


@pytest.mark.parametrize("profile, header, said", [
    (Profile.P003, 'source."CO-DODGE-1"', "concentrates on dodging: +25% to Dodge"),
    (Profile.P004, 'source."CO-DODGE-8"', "concentrates on dodging: +25% and any number"),
])
def test_dodge_concentration_says_the_datas_bonus(profile: Profile, header: str,
                                                   said: str) -> None:
    f = fight(profile, header, "bonus", "25")
    assert said in push(f, Concentrate("Cult"))
