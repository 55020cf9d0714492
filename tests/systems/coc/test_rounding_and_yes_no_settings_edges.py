"""The coc engine's rounding setting (§0.3) and yes/no reading settings: their edges.

mutation13: gaps in the tests of §0.3's rounding setting (coc61) and of coc62's settings
that hand-made mutants survived: the rounding of a defence's special and of a dodge in the
dark, a lost eye's half Spot Hidden, an impale's "DB twice" for a weapon with no DB and
for a half DB rolled then halved, a follow-up whose own roll is a partial success, the
follow-up ×1 in a fight file of format 1, the −50 after dodging only where CO-DODGE-4 bars
the attack, and 003 playing no part of CO-DODGE-5 even with its cell set on."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import Attack, Defence, Delay, EndTurn, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push

P003, P004 = Profile.P003, Profile.P004


def rounding(how: str) -> dict[str, Any]:
    return {"§0.3": {"rounding": how}}


def test_a_dodges_special_is_the_fifth_rounded_by_the_setting_004() -> None:
    """A defence's check takes §0.3 as an attack's does: dodge 48 under nearest has its
    special up to 10 (9.6), down to 9."""
    for how, word in (("nearest", "スペシャル/special"), ("down", "成功/success")):
        f = duel(P004, {"fist": 60}, {"dodge": 48}, settings=rounding(how))
        text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
        assert f"Cult 回避/Dodge (1D100<=48) ＞ 10 ＞ {word}" in text


def test_a_dodge_in_the_dark_is_halved_by_the_setting_004() -> None:
    """CO-SURP-3's half of the defender's dodge, 45 → 22.5: up gives 23 (down, 22)."""
    for how, dodge in (("up", 23), ("down", 22)):
        f = duel(P004, {"fist": 60}, {"dodge": 45}, settings=rounding(how))
        text = push(f, Attack("Ann", "Cult", dark=True, defence=Defence.DODGE),
                    (100, 20), (100, 90), (3, 1), (4, 1))
        assert f"Cult 回避/Dodge (1D100<={dodge}) ＞ 90" in text
        assert f"(half in the dark, -{45 - dodge}, CO-SURP-3)" in text


def test_a_lost_eye_halves_spot_hidden_by_the_setting_004() -> None:
    """CO-BODY-5 (004 l.109 「目星が半分の数値」): Spot Hidden 45 → 22.5, up gives 23."""
    for how, half in (("up", 23), ("down", 22)):
        f = duel(P004, {"weapons": ("knife",), "knife": 90}, {"spot_hidden": 45},
                 settings=rounding(how))
        text = push(f, Attack("Ann", "Cult", body="gouge", part="eye"),
                    (100, 5), (4, 1), (4, 1))
        assert f"目星/Spot Hidden 45 → {half} (CO-BODY-5)" in text


def test_db_twice_says_nothing_of_a_db_for_a_weapon_that_has_none_003() -> None:
    """A revolver's impale under db_twice: its damage has no DB, so none is said twice."""
    f = duel(P003, {"weapons": ("revolver",), "handgun": 60},
             settings={"CO-BASE-2": {"db_twice": True}})
    text = push(f, Attack("Ann", "Cult"), (100, 8), (10, 3), (10, 2))
    assert "damage (1D10+1D10) ＞ 3[3]+2[2]=5 (impale, CO-BASE-2) = 5" in text


JAVELIN = {"key": "javelin", "ja": "投槍", "en": "Javelin", "kind": "thrown", "skill": "throw",
           "damage": "1D6", "db": "half", "attacks": 1, "impaling": True}


def test_db_twice_rolls_and_halves_a_half_db_for_each_roll_003() -> None:
    """CO-BASE-2.db_twice with CO-BASE-4.roll_then_halve: a thrown impale's ½DB is rolled and
    halved for each of its two rolls."""
    f = duel(P003, {"weapons": (JAVELIN,), "throw": 60},
             settings={"CO-BASE-2": {"db_twice": True}, "CO-BASE-4": {"roll_then_halve": True}})
    text = push(f, Attack("Ann", "Cult"), (100, 8), (6, 3), (6, 2), (4, 3), (4, 1))
    assert ("damage (1D6+1D6) ＞ 3[3]+2[2]=5 + ½((1D4) ＞ 3) 2 + ½((1D4) ＞ 1) 1 (impale, DB "
            "twice, CO-BASE-2) = 8") in text
    assert f.state.get("Cult").hp == 13 - 8


def test_a_follow_ups_own_roll_that_is_a_partial_success_misses_004() -> None:
    """CO-MA-4.own_roll: only a full success (成功, both succeeding) lands it."""
    f = duel(P004, {"fist": 80, "martial_arts": 60}, settings={"CO-MA-4": {"own_roll": True}})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up"),
                (100, 10), (3, 2), (3, 2), (4, 1), (100, 70))
    assert "＞ 70[成功,失敗] ＞ 部分的成功/partial success (the follow-up's own roll" in text
    assert "the follow-up misses: it needs both to succeed (CO-MA-4)" in text
    assert f.state.get("Cult").hp == 13 - 5


def test_the_follow_up_x1_holds_in_a_fight_file_of_format_1_004() -> None:
    """Format 1 adds the follow-up before armour (CO-MA-4), and takes CO-MA-4.damage too."""
    f = duel(P004, {"fist": 80, "martial_arts": 80}, settings={"CO-MA-4": {"damage": "normal"}},
             legacy=True)
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up"),
                (100, 10), (3, 2), (3, 2), (4, 1), (3, 1), (4, 1))
    assert "follow-up: damage (1D3+1D4) ＞ 1[1]+1[1]=2 = 2 (CO-MA-4)" in text
    assert f.state.get("Cult").hp == 13 - 7


def test_with_co_dodge_4_off_a_grapple_after_dodging_takes_no_minus_50_004() -> None:
    """CO-DODGE-5's −50 relaxes CO-DODGE-4's bar: with CO-DODGE-4 off nothing bars the
    grapple, so attack_needs_keeper = false puts no −50 on it."""
    settings = {"CO-DODGE-5": {"attack_needs_keeper": False}, "CO-DODGE-4": {"p004": "off"}}
    f = duel(P004, {"fist": 70, "dodge": 60, "grapple": 60}, {"fist": 60}, settings=settings)
    push(f, Delay("Ann"))
    push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    text = push(f, Grapple("Ann", "Cult"), (100, 30))
    assert "Ann 組み付き/Grapple (1D100<=60) ＞ 30 ＞ 成功/success\n" in text


def test_003_plays_no_dodge_after_attacking_rule_even_with_co_dodge_5_set_on_003() -> None:
    """CO-DODGE-5 is 004's: in 003 one who attacked dodges as ever (CO-DODGE-2), and
    dodge_needs_fatal_blow refuses nothing there."""
    settings = {"CO-DODGE-5": {"p003": "on", "dodge_needs_fatal_blow": True}}
    f = duel(P003, {"fist": 70, "dodge": 60}, {"fist": 60}, settings=settings)
    push(f, Attack("Ann", "Cult"), (100, 90))
    push(f, EndTurn("Ann"))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    assert "Ann 回避/Dodge (1D100<=60) ＞ 10 ＞ スペシャル/special (CO-DODGE-2)" in text
