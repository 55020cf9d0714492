"""Fixed readings whose spec entry asks a yes/no question, made settings with the reading
played so far as their Default (task coc62, spec §0.1): CO-BASE-1 (HP and DB worked out
again), CO-BASE-2 (an impale's DB twice), CO-MA-3 (a forced hit doubled), CO-MA-4 (the
follow-up ×1, its own roll), CO-DODGE-5 (the −60 dodge only against a certainly fatal blow,
the −50 attack without the Keeper's OK). Each is played both ways through a fight; the
non-default fights replay from their file."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Burn, Defence, Delay, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

P003, P004 = Profile.P003, Profile.P004
KNIFE: dict[str, Any] = {"weapons": ("knife",), "knife": 60}
MA: dict[str, Any] = {"fist": 80, "martial_arts": 80}
SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}


# --- CO-BASE-2: an impale's DB once (Default) or twice -------------------------------------

def test_an_impale_adds_the_db_once_by_default_003() -> None:
    f = duel(P003, KNIFE)
    text = push(f, Attack("Ann", "Cult"), (100, 8), (4, 3), (4, 2), (4, 1))
    assert "damage (1D4+2+1D4+2+1D4) ＞ 3[3]+2+2[2]+2+1[1]=10 (impale, CO-BASE-2) = 10" in text
    assert f.state.get("Cult").hp == 3


def test_db_twice_adds_the_db_to_each_roll_of_an_impale_003() -> None:
    f = duel(P003, KNIFE, settings={"CO-BASE-2": {"db_twice": True}})
    text = push(f, Attack("Ann", "Cult"), (100, 8), (4, 3), (4, 2), (4, 1), (4, 4))
    assert ("damage (1D4+2+1D4+2+1D4+1D4) ＞ 3[3]+2+2[2]+2+1[1]+4[4]=14 "
            "(impale, DB twice, CO-BASE-2) = 14") in text
    assert f.state.get("Cult").hp == -1
    replays(f)


# --- CO-MA-3: the forced hit's damage normal (Default) or doubled --------------------------

@pytest.mark.parametrize(("doubled", "dice", "hp"), [
    (False, ((3, 2), (4, 1)), 10), (True, ((3, 2), (3, 2), (4, 1)), 8)])
def test_the_forced_hit_deals_normal_or_doubled_damage_004(
        doubled: bool, dice: tuple[tuple[int, int], ...], hp: int) -> None:
    f = duel(P004, MA, settings={"CO-MA-3": {"doubled": doubled}})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="forced", defence=Defence.DODGE),
                (100, 10), *dice)
    how = "doubled" if doubled else "normal"
    assert f"forced hit: the dodge is used up, {how} damage (CO-MA-3)" in text
    assert ("(doubled, CO-BASE-6)" in text) is doubled
    assert f.state.get("Cult").hp == hp and f.state.get("Cult").dodges == 1
    replays(f)


# --- CO-MA-4: the follow-up doubled (Default) or ×1; no roll (Default) or its own ----------

FOLLOW_UP = Attack("Ann", "Cult", ma=True, ma_option="follow_up")
FIRST = ((100, 10), (3, 2), (3, 2), (4, 1))  # a full success, 2D3+1D4 = 5


def test_the_follow_up_deals_the_doubled_damage_again_by_default_004() -> None:
    f = duel(P004, MA)
    text = push(f, FOLLOW_UP, *FIRST, (3, 1), (3, 2), (4, 1))
    assert "follow-up: damage (2D3+1D4) ＞ 3[1,2]+1[1]=4 (doubled, CO-BASE-6) = 4" in text
    assert f.state.get("Cult").hp == 13 - 5 - 4


def test_the_follow_up_at_same_multiplier_deals_the_normal_damage_004() -> None:
    """「もう一度等倍のダメージ」 read literally: ×1, the technique's 1D3+DB."""
    f = duel(P004, MA, settings={"CO-MA-4": {"damage": "normal"}})
    text = push(f, FOLLOW_UP, *FIRST, (3, 1), (4, 1))
    assert "follow-up: damage (1D3+1D4) ＞ 1[1]+1[1]=2 = 2 (CO-MA-4)" in text
    assert f.state.get("Cult").hp == 13 - 5 - 2
    replays(f)


def test_the_follow_up_with_its_own_roll_lands_on_a_full_success_only_004() -> None:
    f = duel(P004, MA, settings={"CO-MA-4": {"own_roll": True}})
    text = push(f, FOLLOW_UP, *FIRST, (100, 95))
    assert "follow-up 追撃 (1d100<=80,80) ＞ 95" in text
    assert "the follow-up misses: it needs both to succeed (CO-MA-4)" in text
    assert f.state.get("Cult").hp == 13 - 5
    replays(f)
    g = duel(P004, MA, settings={"CO-MA-4": {"own_roll": True}})
    text = push(g, FOLLOW_UP, *FIRST, (100, 10), (3, 1), (3, 2), (4, 1))
    assert "(the follow-up's own roll, CO-MA-4, CO-BASE-3)" in text
    assert g.state.get("Cult").hp == 13 - 5 - 4


# --- CO-BASE-1: HP and DB worked out again (Default) or kept -------------------------------

ARM = ((100, 50), (10, 5), (4, 2), (3, 2), (4, 3))  # 7 damage; STR −2, SIZ −1, DEX −3


@pytest.mark.parametrize(("recompute", "max_hp", "hp", "db"), [
    (True, 12, 5, "0"), (False, 13, 6, "+1D4")])
def test_a_lost_arm_recomputes_hp_and_db_or_keeps_them_004(
        recompute: bool, max_hp: int, hp: int, db: str) -> None:
    """STR 11 + SIZ 12 = 23 gives DB 0 and ceil((12 + 12) / 2) = 12 when worked out again."""
    f = duel(P004, SWORD, settings={"CO-BASE-1": {"recompute": recompute}})
    text = push(f, Attack("Ann", "Cult", body="cut", part="arm"), *ARM)
    cult = f.state.get("Cult")
    assert (cult.sheet.max_hp, cult.hp, cult.sheet.db) == (max_hp, hp, db)
    assert ("maximum HP 13 and DB +1D4 stay as they were (CO-BASE-1)" in text) is not recompute
    replays(f)


@pytest.mark.parametrize(("recompute", "max_hp", "hp"), [(True, 12, 5), (False, 13, 6)])
def test_con_lost_to_fire_recomputes_hp_or_keeps_it_004(
        recompute: bool, max_hp: int, hp: int) -> None:
    f = duel(P004, {}, settings={"CO-BASE-1": {"recompute": recompute}})
    text = push(f, Burn("Ann", 7, "oil", lose="CON"), (6, 2))
    ann = f.state.get("Ann")
    assert ann.sheet.stat("CON") == 10 and (ann.sheet.max_hp, ann.hp) == (max_hp, hp)
    assert ("maximum HP 13 stays as it was (CO-BASE-1)" in text) is not recompute
    replays(f)


# --- CO-DODGE-5: the −60 dodge always (Default) or only against a certainly fatal blow ------

def punched() -> tuple[dict[str, Any], dict[str, Any]]:
    return {"fist": 60, "dodge": 80}, {"fist": 60}


def test_one_who_attacked_dodges_at_minus_60_by_default_004() -> None:
    f = duel(P004, *punched())
    push(f, Attack("Ann", "Cult"), (100, 90))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    assert "Ann 回避/Dodge (1D100<=20) ＞ 10 ＞ 成功/success (CO-DODGE-4, −60 after attacking, " \
        "CO-DODGE-5)" in text


def test_with_dodge_needs_fatal_blow_only_a_blow_ruled_fatal_is_dodged_004() -> None:
    f = duel(P004, *punched(), settings={"CO-DODGE-5": {"dodge_needs_fatal_blow": True}})
    push(f, Attack("Ann", "Cult"), (100, 90))
    with pytest.raises(IllegalAction, match=r"Ann cannot dodge now: Ann has attacked this "
                       r"round: a dodge after attacking only against a blow the Keeper rules "
                       r"certainly fatal, fatal_blow=true \(CO-DODGE-5\)"):
        f.push(Attack("Cult", "Ann", defence=Defence.DODGE), ScriptedDice([]))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE, fatal_blow=True),
                (100, 10), (100, 10))
    assert "(1D100<=20) ＞ 10 ＞ 成功/success (CO-DODGE-4, −60 after attacking" in text
    replays(f)
    # one who has not attacked dodges as ever
    g = duel(P004, *punched(), settings={"CO-DODGE-5": {"dodge_needs_fatal_blow": True}})
    push(g, Delay("Ann"))
    assert "(1D100<=80)" in push(g, Attack("Cult", "Ann", defence=Defence.DODGE),
                                 (100, 10), (100, 10))


# --- CO-DODGE-5: the −50 attack with the Keeper's OK (Default) or with none asked ------------

def dodged(settings: dict[str, Any] | None = None) -> Any:
    """004: Ann delays, dodges Cult's punch, and it is her DEX/2 turn."""
    f = duel(P004, {"fist": 70, "dodge": 60, "grapple": 60}, {"fist": 60}, settings=settings)
    push(f, Delay("Ann"))
    push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    return f


def test_an_attack_after_dodging_needs_the_keepers_ok_by_default_004() -> None:
    f = dodged()
    for action in (Attack("Ann", "Cult"), Grapple("Ann", "Cult")):
        with pytest.raises(IllegalAction, match=r"after_dodge=true \(CO-DODGE-5\)"):
            f.push(action, ScriptedDice([]))


OPEN = {"CO-DODGE-5": {"attack_needs_keeper": False}}


def test_with_no_ok_needed_one_who_dodged_attacks_at_minus_50_004() -> None:
    f = dodged(OPEN)
    text = push(f, Attack("Ann", "Cult"), (100, 30))
    assert "-50 (after dodging, CO-DODGE-5) = 20" in text and "(1D100<=20)" in text
    replays(f)
    g = dodged(OPEN)
    text = push(g, Grapple("Ann", "Cult"), (100, 30))
    assert "(1D100<=10) ＞ 30 ＞ 失敗/failure (-50%, after dodging, CO-DODGE-5)" in text
    replays(g)
