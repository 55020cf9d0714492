"""The coc engine's defences refused because the profile does not play their rule say so.

review59a D2: a defence refused because its rule is not played in the fight's profile
says so, not that the rule forbids this attack: 003's MA counter was refused as "an MA
counter goes only against an unarmed humanoid's attack (CO-MA-5)" against Ann's fist,
which is just such an attack; CO-MA-5 is optional in 003, and off. The same for a hands
parry (CO-PARRY-2), a Grapple parry (CO-GRAP-5) and an Iai parry in 004 (CO-IAI-2)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Defence
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel

ANN: dict[str, Any] = {"weapons": ("fist",), "fist": 60}
FIST: dict[str, Any] = {"weapons": ("fist",), "fist": 50}


def refusal(profile: Profile, cult: dict[str, Any], **defence: Any) -> str:
    f = duel(profile, ANN, cult)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", **defence), ScriptedDice([]))
    return str(refused.value)


def test_a_counter_in_003_says_co_ma_5_is_not_played() -> None:
    assert refusal(Profile.P003, FIST, defence=Defence.COUNTER, parry_weapon=0) == (
        "Cult cannot counter now: no MA counter: CO-MA-5 is not played in profile 003 "
        "(optional, not switched on)")


def test_a_counter_in_004_against_a_weapon_still_names_what_it_goes_against() -> None:
    cult = {"weapons": ("fist",), "fist": 50}
    armed = {"weapons": ("knife",), "knife": 60}
    f = duel(Profile.P004, armed, cult)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", defence=Defence.COUNTER, parry_weapon=0),
               ScriptedDice([]))
    assert str(refused.value) == ("Cult cannot counter now: an MA counter goes only against "
                                  "an unarmed humanoid's attack (CO-MA-5)")


def test_a_hands_parry_in_003_says_co_parry_2_is_not_played() -> None:
    assert refusal(Profile.P003, FIST, defence=Defence.PARRY, parry_with="hands") == (
        "Cult cannot parry now: no hands parry: CO-PARRY-2 is not played in profile 003 "
        "(optional, not switched on); 003 takes an MA parry (parry_with=ma, CO-DODGE-2)")


def test_a_grapple_parry_in_003_says_co_grap_5_is_not_played() -> None:
    assert refusal(Profile.P003, FIST, defence=Defence.PARRY, parry_with="grapple") == (
        "Cult cannot parry now: no Grapple parry: CO-GRAP-5 is not played in profile 003 "
        "(optional, not switched on)")


def test_an_iai_parry_in_004_says_co_iai_2_is_not_played() -> None:
    katana = {"weapons": ("japanese_sword",), "iai": 50}
    assert refusal(Profile.P004, katana, defence=Defence.PARRY, parry_with="iai",
                   parry_weapon=0) == (
        "Cult cannot parry now: no Iai parry: CO-IAI-2 is not played in profile 004 (off)")


def test_a_hands_parry_in_004_against_a_weapon_still_cites_co_parry_2() -> None:
    armed = {"weapons": ("knife",), "knife": 60}
    f = duel(Profile.P004, armed, FIST)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="hands"),
               ScriptedDice([]))
    assert str(refused.value) == ("Cult cannot parry now: no hands parry against this "
                                  "attack (CO-PARRY-2)")
