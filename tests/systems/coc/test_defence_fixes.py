"""Seventh round of coc fixes, each against its seed line, folded into engine revision 4: an
ally's blade is drawn for Iai only from an ally within reach (CO-IAI-1); a declared parry
meets a pommel strike or a disarm (CO-IAI-4, CO-DISARM-1, CO-BASE-7); a bystander's dodge
takes dodge concentration (CO-DODGE-1); the dark halves the defender's dodge and parry too
(CO-SURP-3); a blow-off declared on a burst is played (CO-BODY-4 with CO-FIRE-8);
Psychoanalysis does not treat oneself (CO-SKILL-4); turning is free while concentrating
(CO-DODGE-1)."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    Attack,
    Choke,
    Concentrate,
    Defence,
    Face,
    Grapple,
    Place,
    SanLoss,
    Treat,
)
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, pass_to, patch, push

P003, P004 = Profile.P003, Profile.P004


# --- 1: CO-IAI-1 (003) ----------------------------------------------------------------------

def test_iai_draws_no_blade_from_an_ally_across_the_board_003() -> None:
    """003 l.50 「移動中、または移動先に隣接していた他の探索者から」: Ann, who has not moved,
    cannot draw Bob's sword from h8, seven squares away. Revision 3 let her."""
    f = duel(P003, {"weapons": ("fist",), "iai": 60}, {"fist": 50},
             third={"weapons": ("japanese_sword",)})
    push(f, Place("Ann", "a1", "N"))
    push(f, Place("Cult", "a2", "S"))
    push(f, Place("Bob", "h8", "S"))
    with pytest.raises(IllegalAction, match=r"Bob is 7 squares away.*\(CO-IAI-1\)"):
        f.push(Attack("Ann", "Cult", iai=True, borrow="Bob"), ScriptedDice([]))
    push(f, Place("Bob", "b1", "N"))  # next to her: drawn as before
    assert "draws Bob's" in push(f, Attack("Ann", "Cult", iai=True, borrow="Bob", pommel=True),
                                 (100, 90))


# --- 2: CO-IAI-4, CO-DISARM-1 with CO-BASE-7 -----------------------------------------------

def test_a_pommel_strike_meets_the_declared_parry_003() -> None:
    """003 l.53 (the pommel strike stuns) names no exception to l.98's parry: Cult's knife
    parry (10 ≤ 60) stops it and Cult is not stunned. Revision 3 skipped the parry."""
    f = duel(P003, {"weapons": ("bokuto",), "iai": 70}, {"weapons": ("knife",), "knife": 60})
    text = push(f, Attack("Ann", "Cult", iai=True, pommel=True, defence=Defence.PARRY),
                (100, 30), (100, 10))
    assert "Cult parries the pommel strike: no effect (CO-IAI-4, CO-DODGE-2)" in text
    assert f.state.get("Cult").stun == 0 and f.state.get("Cult").parries == 1


def test_a_disarm_meets_the_declared_parry_004() -> None:
    """004 l.45–47 (the disarm) names no exception to l.18's parry: Cult's knife parry holds
    and the knife stays in hand. Revision 3 skipped the parry and the knife fell."""
    f = duel(P004, {"fist": 80, "martial_arts": 10}, {"weapons": ("knife",), "knife": 60})
    text = push(f, Attack("Ann", "Cult", disarm=True, defence=Defence.PARRY), (100, 30),
                (100, 10))
    assert "Cult parries the disarm: no effect (CO-DISARM-1, CO-BASE-7)" in text
    assert not f.state.get("Cult").sheet.weapons[0].dropped


# --- 3: CO-DODGE-1 (003) --------------------------------------------------------------------

def test_a_knockback_bystander_dodges_with_concentration_003() -> None:
    """003 l.96 「回避集中」: 「＜回避＞…の成功率を+20%」, whatever is dodged: Bob, concentrating,
    dodges the knocked-back Cult at 60 + 20 = 80, and 70 succeeds. Revision 3 rolled 60."""
    f = duel(P003, {"weapons": ("japanese_sword",), "japanese_sword": 90}, {"fist": 90},
             third={"dodge": 60})
    push(f, Concentrate("Bob"))
    text = push(f, Attack("Ann", "Cult", behind="Bob"), (100, 10), (10, 9), (4, 2), (100, 70))
    assert "Bob concentrates on dodging: +20 (CO-DODGE-1)" in text
    assert "(1D100<=80) ＞ 70" in text and f.state.get("Bob").hp == 13


# --- 4: CO-SURP-3 (004) ---------------------------------------------------------------------

def test_the_dark_halves_the_parry_004() -> None:
    """004 l.43 互いに「戦闘技能を半分(％)の状態」: Cult's knife parry is at 60 / 2 = 30 in the
    dark, and 50 fails. Revision 3 halved Ann's punch only."""
    f = duel(P004, {"fist": 80}, {"weapons": ("knife",), "knife": 60})
    text = push(f, Attack("Ann", "Cult", dark=True, defence=Defence.PARRY), (100, 10),
                (3, 2), (4, 1), (100, 50))
    assert "Cult 受け流し/parry ナイフ/Knife (1D100<=30) ＞ 50" in text
    assert "(half in the dark, -30, CO-SURP-3)" in text and f.state.get("Cult").hp == 10


def test_the_dark_halves_the_dodge_004() -> None:
    """Dodge is a 戦闘技能 (6th edition, which 004 plays, l.1, lists 回避 among them): Cult's
    dodge is at 60 / 2 = 30 in the dark, and 50 fails."""
    f = duel(P004, {"fist": 80}, {"dodge": 60})
    text = push(f, Attack("Ann", "Cult", dark=True, defence=Defence.DODGE), (100, 10),
                (100, 50), (3, 2), (4, 1))
    assert "(1D100<=30) ＞ 50" in text and f.state.get("Cult").hp == 10


# --- 5: CO-BODY-4 with CO-FIRE-8 (004) ------------------------------------------------------

def test_a_burst_blows_a_leg_off_004() -> None:
    """004 l.99 (blow off when the heavy weapon's damage ≥ SIZ×2 for a leg) and l.64 (a
    burst's damage is the weapon's × the hits): three AK-47 hits of 13 each, 39 ≥ 26, take
    Cult's leg. Revision 3 accepted the declaration and dropped it."""
    f = duel(P004, {"weapons": ("ak47",), "rifle": 90}, {"fist": 50})
    patch(f, "Cult", hp=200)
    dice = [(100, 30), (20, 3)] + [(6, 6), (6, 6)] * 3 + [(4, 1), (3, 1), (6, 1)]
    text = push(f, Attack("Ann", "Cult", burst=True, body="blow_off", part="leg"), *dice)
    assert "the burst's damage: 39 (CO-FIRE-8, CO-BODY-4)" in text
    assert f.state.get("Cult").lost == ("leg",)


# --- 6: CO-SKILL-4 (003) --------------------------------------------------------------------

def test_psychoanalysis_does_not_treat_oneself_003() -> None:
    """003 l.90 「隣接した者の一時的狂気状態を回復」 (First Aid, l.87: 「自分・隣接した者」):
    refused before any die. Revision 3 rolled it."""
    f = duel(P003, {"psychoanalysis": 80})
    push(f, SanLoss("Ann", 6), (100, 30))
    with pytest.raises(IllegalAction, match=r"Psychoanalysis cannot treat oneself"):
        f.push(Treat("Ann", "Ann", skill="psychoanalysis"), ScriptedDice([]))


# --- 7: CO-DODGE-1 with CO-TURN-5 (003) -----------------------------------------------------

def test_turning_is_free_while_concentrating_003() -> None:
    """003 l.16 「向きの変更は行動ポイントを消費しない」 (under 移動) and l.96 「行動選択は移動しか
    選択できない」: turning is no action, so concentrating allows it. Revision 3 refused it."""
    f = duel(P003, {"dodge": 60})
    push(f, Place("Ann", "a1", "N"))
    push(f, Concentrate("Ann"))
    assert "no AP (CO-TURN-5)" in push(f, Face("Ann", "E"))
    assert f.state.get("Ann").facing == "E" and f.state.get("Ann").ap == 3


# --- a review of revision 4 ---------------------------------------------------------------

def test_a_cover_dodge_after_attacking_is_at_minus_60_004() -> None:
    """CO-DODGE-5 (004 「"攻撃した後の回避"は"-60％の下方補正"」) with CO-DODGE-7: Ann shot,
    then takes cover by Dodge against Cult's shot: 70 − 50 − 60, so it cannot succeed and
    asks no die (CO-CORE-1, from revision 14) (the cover dodge had no −60 while a plain dodge
    and a burst's had)."""
    gun = {"weapons": ("revolver",), "handgun": 50, "dodge": 70}
    f = duel(P004, gun, {"weapons": ("revolver",), "handgun": 90})
    push(f, Attack("Ann", "Cult"), (100, 99))
    text = push(f, Attack("Cult", "Ann", cover="dodge"), (100, 10), (10, 1))
    assert "−60 after attacking, CO-DODGE-5" in text and "cannot succeed, not rolled" in text
    assert f.state.get("Ann").hp < f.state.get("Ann").sheet.max_hp


def test_no_disarm_with_a_burst_004() -> None:
    """CO-DISARM-1 with CO-FIRE-8: a disarm is one aimed blow or shot; declared on a burst it
    took the −40 and disarmed nobody. It is refused before any die."""
    f = duel(P004, {"weapons": ("smg",), "smg": 80}, {"weapons": ("knife",), "knife": 50})
    with pytest.raises(IllegalAction, match=r"no disarm with a burst"):
        f.push(Attack("Ann", "Cult", burst=True, disarm=True), ScriptedDice([]))


def test_a_choke_refused_after_a_dodge_offers_no_after_dodge_004() -> None:
    """CO-DODGE-4: a choke (which has no after_dodge field) refused after a dodge does not
    tell the Keeper to allow it 'with after_dodge=true'."""
    f = duel(P004, {"grapple": 90}, {"fist": 50})
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    patch(f, "Ann", dodges=1)
    with pytest.raises(IllegalAction) as refused:
        f.push(Choke("Ann"), ScriptedDice([]))
    assert str(refused.value) == (  # grapple75 NIT 6: the reading that says so, named
        "Ann dodged this round and cannot attack (CO-DODGE-4): no −50% for a choke 締め付け (the "
        "reading CO-DODGE-5 (choke and throw), coc defaults)")


def test_a_dodgers_choke_is_refused_in_003_only_where_co_dodge_4_is_switched_on() -> None:
    """reviewcoc75 NIT 4: the reading "CO-DODGE-5 (choke and throw)" names 003's CO-MA-2
    choke only where the Keeper switches CO-DODGE-4 on (off in 003): by default 003's dodger
    chokes the one it holds; with CO-DODGE-4 on it is refused in 004's words."""
    for settings in (None, {"CO-DODGE-4": {"p003": "on"}}):
        f = duel(P003, {"grapple": 90, "martial_arts": 60}, {"fist": 50},
                 settings=settings)
        patch(f, "Ann", grappling="Cult", grapple_options=True, dodges=1)
        patch(f, "Cult", held_by="Ann")
        if settings is None:
            assert "Cult takes 5" in push(f, Choke("Ann"), (6, 3), (4, 2))
            continue
        with pytest.raises(IllegalAction, match=r"\(CO-DODGE-4\): no −50% for a choke 締め上げ "
                           r"\(the reading CO-DODGE-5 \(choke and throw\), coc defaults\)$"):
            f.push(Choke("Ann"), ScriptedDice([]))


def test_a_second_dodge_by_luck_against_a_burst_rolls_luck_004() -> None:
    """CO-DODGE-4 (004 「2回目の回避は幸運技能を使用することが出来る」) against a burst: the
    Keeper's second dodge is a Luck roll (POW×5 = 50), as against a blow; it rolled Dodge."""
    f = duel(P004, {"weapons": ("smg",), "smg": 80}, {"dodge": 60})
    patch(f, "Cult", dodges=1)
    text = push(f, Attack("Ann", "Cult", burst=True, defence=Defence.DODGE, luck_dodge=True),
                (100, 10), (20, 3), (100, 20), (10, 2), (10, 2))
    assert "Cult dodges again: 幸運/Luck (1D100<=50)" in text
    assert "回避/Dodge" not in text


def test_no_surprise_with_a_burst_004() -> None:
    """CO-SURP-1 with CO-FIRE-8: a surprise declared on a burst was taken and ignored (no
    Hide roll, the target dodged as ever); it is refused before any die."""
    f = duel(P004, {"weapons": ("smg",), "smg": 80, "hide": 60})
    with pytest.raises(IllegalAction, match=r"a surprise attack is one blow or shot"):
        f.push(Attack("Ann", "Cult", burst=True, surprise="hide"), ScriptedDice([]))
