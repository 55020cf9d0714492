"""Sixth round of coc fixes, each against its seed line, folded into engine revision 4: a
first strike is attacking, for the −60 dodge (CO-DODGE-5) and for dodge concentration
(CO-DODGE-4/8); the restrained cannot strike first (CO-GRAP-6); a knockback's bystander and
one a throw lands on dodge with the round's dodge, if left (CO-MELEE-2, CO-MA-2 with
CO-DODGE-2); CO-TURN-6 counts each weapon's own attacks, in any order; one put down out of
turn (a Keeper's burn or fall, a first strike) loses the rest of its turn (CO-DEATH-1,
CO-BASE-8). Entries played by revision 3 replay as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    BreakFree,
    Burn,
    Concentrate,
    Defence,
    Delay,
    EndTurn,
    Fall,
    Fight,
    Grapple,
    Side,
    Throw,
    Treat,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import (
    OLD,
    at,
    duel,
    held_roll,
    hurt,
    pass_to,
    patch,
    person,
    push,
    replays,
)

P003, P004 = Profile.P003, Profile.P004
#: Ann's revolver (3 attacks a round) with Dodge.
GUN: dict[str, Any] = {"weapons": ("revolver",), "handgun": 50, "dodge": 70}
#: Ann's Japanese sword (1 attack a round) and revolver (3).
SWORD_AND_GUN: dict[str, Any] = {"weapons": ("japanese_sword", "revolver"),
                                 "japanese_sword": 50, "handgun": 50, "iai": 50}


# --- D5: CO-DODGE-5 (004) -------------------------------------------------------------------

def test_a_dodge_after_a_first_strike_is_at_minus_60_004() -> None:
    """004 l.10 「"攻撃した後の回避"は"-60％の下方補正"」 and l.51 (a first strike spends one of
    the weapon's attacks): Ann's first strike is attacking, though her turn passes without
    another: her dodge of Cult's blow is at 70 − 60 = 10, and 40 fails. Revision 3 let her
    dodge at 70."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P004, GUN, {"fist": 90}))
        push(f, Attack("Ann", "Cult", first_strike=True), (100, 80))  # a miss
        push(f, EndTurn("Ann"))
        return f

    f = fight(ENGINE)
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 40),
                (3, 2), (4, 1))
    assert "Ann 回避/Dodge" in text and "(CO-DODGE-4, −60 after attacking, CO-DODGE-5)" in text
    assert f.state.get("Ann").hp == 10
    replays(f)
    old = fight(OLD)
    text = push(old, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 40))
    assert "CO-DODGE-5" not in text and old.state.get("Ann").hp == 13
    replays(old)


# --- D6: CO-DODGE-4/8 (004) -----------------------------------------------------------------

def test_no_dodge_concentration_after_a_first_strike_004() -> None:
    """004 l.6 「回避をした者(回避する者)は攻撃をすることはできない」 (CO-DODGE-4; CO-DODGE-8's
    concentration, no attack that round): declared after Ann's first strike, still before
    the round's first action, it is refused; next round she may. Revision 3 took it."""
    f = duel(P004, GUN)
    push(f, Attack("Ann", "Cult", first_strike=True), (100, 80))
    with pytest.raises(IllegalAction, match=r"Ann has attacked this round: no dodge "
                                            r"concentration \(CO-DODGE-8, CO-DODGE-4\)"):
        f.push(Concentrate("Ann"), ScriptedDice([]))
    push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))
    assert "concentrates on dodging" in push(f, Concentrate("Ann"))
    replays(f)
    old = at(OLD, duel(P004, GUN))
    push(old, Attack("Ann", "Cult", first_strike=True), (100, 80))
    push(old, Concentrate("Ann"))
    assert old.state.get("Ann").concentrating
    replays(old)


# --- D7: CO-GRAP-6 (004) --------------------------------------------------------------------

def test_the_restrained_cannot_strike_first_004() -> None:
    """004 l.163 「組み付いた相手を行動不能にする」 (CO-GRAP-6): held by Cult, Ann cannot shoot
    first in the next round, before any die; on her turn she may still break free.
    Revision 3 let her shoot."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P004, GUN, {"grapple": 90}))
        push(f, EndTurn("Ann"))
        push(f, Grapple("Cult", "Ann"), (100, 10))
        assert f.state.get("Ann").held_by == "Cult" and f.state.round == 2
        return f

    f = fight(ENGINE)
    with pytest.raises(IllegalAction, match=r"Ann is restrained: no first strike, only "
                                            r"breaking free on its turn \(CO-GRAP-6\)"):
        f.push(Attack("Ann", "Cult", first_strike=True), ScriptedDice([]))
    assert "CO-GRAP-6" in push(f, BreakFree("Ann"), (100, 90))
    replays(f)
    old = fight(OLD)
    assert "CO-FIRE-7" in push(old, Attack("Ann", "Cult", first_strike=True), (100, 80))
    replays(old)


# --- D8: CO-MELEE-2 and CO-MA-2 with CO-DODGE-2 (003) ------------------------------------------

SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}
BOB: dict[str, Any] = {"dodge": 60}


def test_a_knockback_dodge_uses_the_round_s_dodge_003() -> None:
    """003 l.27 「回避スキルで回避しなければ当たった者に1D3」 and l.97 「1ラウンド中に＜回避＞を
    1回」 (CO-MELEE-2, CO-DODGE-2): Bob, behind Cult, dodges the knockback with his dodge of
    the round, so Cult's blow later that round finds him without one. Revision 3 did not
    count it."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, SWORD, {"fist": 90}, third=BOB))
        text = push(f, Attack("Ann", "Cult", behind="Bob"), (100, 10), (10, 9), (4, 2),
                    (100, 20))
        assert "knockback!" in text and f.state.get("Cult").hp == 2
        push(f, EndTurn("Ann"))
        push(f, EndTurn("Bob"))
        return f

    f = fight(ENGINE)
    assert f.state.get("Bob").dodges == 1
    assert "(CO-MELEE-2, CO-DODGE-2)" in f.journal[0].text
    with pytest.raises(IllegalAction, match="Bob cannot dodge now"):
        f.push(Attack("Cult", "Bob", defence=Defence.DODGE), ScriptedDice([]))
    replays(f)
    old = fight(OLD)
    assert old.state.get("Bob").dodges == 0
    push(old, Attack("Cult", "Bob", defence=Defence.DODGE), (100, 10), (100, 20))
    replays(old)


def test_a_knockback_finds_a_bystander_without_a_dodge_003() -> None:
    """The other way round: Bob dodged Cult's blow, then Ann (at DEX/2) knocks Cult into him:
    with no dodge left he does not dodge (「回避スキルで回避しなければ」) and takes the 1D3.
    Revision 3 rolled a second dodge."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, SWORD, {"fist": 90}, third=BOB))
        push(f, Delay("Ann"))
        push(f, EndTurn("Bob"))
        push(f, Attack("Cult", "Bob", defence=Defence.DODGE), (100, 10), (100, 20))
        push(f, EndTurn("Cult"))
        assert f.state.current is not None and f.state.current.name == "Ann"
        return f

    f = fight(ENGINE)
    text = push(f, Attack("Ann", "Cult", behind="Bob"), (100, 10), (10, 9), (4, 2), (3, 2))
    assert "Bob has no dodge left this round: no dodge (CO-MELEE-2, CO-DODGE-2)" in text
    assert f.state.get("Bob").hp == 11
    replays(f)
    old = fight(OLD)
    push(old, Attack("Ann", "Cult", behind="Bob"), (100, 10), (10, 9), (4, 2), (100, 20))
    assert old.state.get("Bob").hp == 13
    replays(old)


def test_one_landed_on_dodges_with_the_round_s_dodge_003() -> None:
    """003 l.44 投げ「その先に誰かがいた場合は回避行動を行わなかった場合1D3」 and l.97: Bob,
    who dodged Deep's blow this round, has no dodge for Cult thrown onto him and takes the
    1D3. Revision 3 rolled it."""
    def fight(engine: int) -> Fight:
        rules = load_rules(P003)
        f = Fight(rules, [(person(rules, "Deep", 16, fist=90), Side.FOES),
                          (person(rules, "Ann", 14, grapple=60, martial_arts=60),
                           Side.INVESTIGATORS),
                          (person(rules, "Bob", 12, dodge=60), Side.INVESTIGATORS),
                          (person(rules, "Cult", 10), Side.FOES)], ScriptedDice([]))
        f.engine = engine
        push(f, EndTurn("Deep"))
        push(f, Grapple("Ann", "Cult", ma=True), (100, 20))
        pass_to(f, "Deep", *held_roll(engine))
        push(f, Attack("Deep", "Bob", defence=Defence.DODGE), (100, 10), (100, 20))
        push(f, EndTurn("Deep"))
        assert f.state.current is not None and f.state.current.name == "Ann"
        return f

    f = fight(ENGINE)
    text = push(f, Throw("Ann", at="Bob", at_dodges=True), (6, 3), (2, 1), (3, 2))
    assert "Bob has no dodge left this round: no dodge (CO-MA-2, CO-DODGE-2)" in text
    assert f.state.get("Bob").hp == 11
    replays(f)
    old = fight(OLD)
    push(old, Throw("Ann", at="Bob", at_dodges=True), (6, 3), (2, 1), (100, 20))
    assert old.state.get("Bob").hp == 13
    replays(old)


# --- D9: CO-TURN-6 (003) --------------------------------------------------------------------

def test_each_weapon_its_own_attacks_in_any_order_003() -> None:
    """003 l.21 「武器に設定された攻撃回数分のみ行動ポイントを割り振ることができる(火かき棒⇒1回
    拳銃⇒3回)」: each weapon's attack AP against its own count. A revolver shot then the
    sword is as allowed as the sword then a shot (revision 3 refused the first order); a
    second sword blow is refused, a second shot taken; an Iai (no AP) after two shots too;
    the count starts again next round."""
    f = duel(P003, SWORD_AND_GUN)
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    push(f, Attack("Ann", "Cult", weapon=0), (100, 90))
    with pytest.raises(IllegalAction, match=r"日本刀/Japanese Sword allows 1 attack AP a "
                                            r"round \(CO-TURN-6\)"):
        f.push(Attack("Ann", "Cult", weapon=0), ScriptedDice([]))
    assert f.state.get("Ann").weapon_attacks == ((0, 1), (1, 1))
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    push(f, EndTurn("Ann"))  # 0 AP, an Iai still open (CO-IAI-2)
    pass_to(f, "Ann")
    assert f.state.round == 2 and f.state.get("Ann").weapon_attacks == ()
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    assert "Iai, no AP" in push(f, Attack("Ann", "Cult", weapon=0, iai=True), (100, 90))
    replays(f)
    old = at(OLD, duel(P003, SWORD_AND_GUN))
    push(old, Attack("Ann", "Cult", weapon=1), (100, 90))
    with pytest.raises(IllegalAction, match=r"allows 1 attack AP a round \(CO-TURN-6\)"):
        old.push(Attack("Ann", "Cult", weapon=0), ScriptedDice([]))
    replays(old)


# --- D10: CO-DEATH-1 / CO-BASE-8 ------------------------------------------------------------

def test_a_burn_that_puts_the_actor_down_ends_its_turn_004() -> None:
    """CO-BASE-8 (HP ≤ 0: dying, unconscious, no actions): the Keeper's burn takes Ann to HP
    0 in her own turn: her turn ends there, as after a blow, and Bob's comes; she cannot
    attack. Revision 3 left the turn hers, and she attacked."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P004, GUN, third=BOB))
        push(f, Burn("Ann", 13, lose="APP"), (6, 2))
        assert f.state.get("Ann").hp == 0 and f.state.get("Ann").out
        return f

    f = fight(ENGINE)
    assert "Ann is unconscious: its turn ends (CO-BASE-8)" in f.journal[-1].text
    assert f.state.current is not None and f.state.current.name == "Bob"
    with pytest.raises(IllegalAction, match="it is Bob's turn, not Ann's"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    replays(f)
    old = fight(OLD)
    assert old.state.current is not None and old.state.current.name == "Ann"
    push(old, Attack("Ann", "Cult"), (100, 80))
    replays(old)


def test_a_fall_that_puts_the_actor_down_ends_its_turn_003() -> None:
    """CO-DEATH-1 (003 「耐久力が-2～0の値になった場合意識不明」): a fall of 9 m (3D6 = 13) in
    Ann's turn takes her to HP 0, unconscious and dying: her AP are lost and Bob's turn
    comes. Revision 3 left the turn hers."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, SWORD, third=BOB))
        push(f, Fall("Ann", 9), (6, 6), (6, 6), (6, 1))
        assert f.state.get("Ann").hp == 0 and f.state.get("Ann").out
        return f

    f = fight(ENGINE)
    assert "Ann is unconscious: its turn ends (CO-DEATH-1)" in f.journal[-1].text
    assert f.state.current is not None and f.state.current.name == "Bob"
    replays(f)
    old = fight(OLD)
    assert old.state.current is not None and old.state.current.name == "Ann"
    replays(old)


def test_a_first_strike_that_puts_the_current_one_down_ends_its_turn_004() -> None:
    """CO-FIRE-7 then CO-BASE-8: Cult shoots first and takes Ann, whose turn it is, to HP 0:
    her turn ends before she acts. Revision 3 let her act."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P004, GUN, {"weapons": ("revolver",), "handgun": 90}, third=BOB))
        push(f, Burn("Ann", 5))  # HP 8: less than half, no APP or CON lost
        push(f, Attack("Cult", "Ann", first_strike=True), (100, 10), (10, 8))
        assert f.state.get("Ann").hp == 0
        return f

    f = fight(ENGINE)
    assert "Ann is unconscious: its turn ends (CO-BASE-8)" in f.journal[-1].text
    assert f.state.current is not None and f.state.current.name == "Bob"
    replays(f)
    old = fight(OLD)
    assert old.state.current is not None and old.state.current.name == "Ann"
    replays(old)


# --- CO-SKILL-1 (003): each other skill once a round, treatments too ----------------------

def test_each_other_skill_once_a_round_treatments_too_003() -> None:
    """「その他技能は例外を除き1回のみ選択ができる」 read as the spec reads it, each other skill
    once a round (as Spot Hidden and Jump are): Medicine after a First Aid that worked is
    another skill and is taken (it was refused, "First Aid again only after a failure");
    First Aid again is refused unless the first failed (CO-SKILL-2's exception); Medicine
    and Psychoanalysis once a round. Revision 3 allowed one treatment skill a round."""
    skills = {"first_aid": 60, "medicine": 60, "psychoanalysis": 60}
    f = duel(P003, skills, third={})
    hurt(f, "Bob")
    push(f, Treat("Ann", "Bob"), (100, 30), (3, 1))
    with pytest.raises(IllegalAction, match=r"First Aid again only after a failure"):
        f.push(Treat("Ann", "Bob"), ScriptedDice([]))
    assert "CO-SKILL-3" in push(f, Treat("Ann", "Bob", "medicine"), (100, 30), (3, 1))
    g = duel(P003, skills, third={})
    hurt(g, "Bob")
    push(g, Treat("Ann", "Bob", "medicine"), (100, 90))
    with pytest.raises(IllegalAction, match=r"Medicine once a round \(CO-SKILL-1, CO-SKILL-3\)"):
        g.push(Treat("Ann", "Bob", "medicine"), ScriptedDice([]))
    assert "CO-SKILL-2" in push(g, Treat("Ann", "Bob"), (100, 30), (3, 1))
    replays(f)
    old = duel(P003, skills, third={})
    old.engine = OLD
    push(old, Treat("Ann", "Bob"), (100, 30), (3, 1))
    with pytest.raises(IllegalAction, match=r"First Aid again only after a failure"):
        old.push(Treat("Ann", "Bob", "medicine"), ScriptedDice([]))


# --- both sides down at once ---------------------------------------------------------------

def test_both_sides_down_at_once_stops_the_fight_004() -> None:
    """Ann's blow and Cult's MA counter (CO-MA-5) put both down in one action: no side stands
    and nobody can act, so the fight stops there and says so (new rounds with no turn in
    them recursed until Python gave up, and the action could not be played or saved)."""
    from companion.dice import SimulatedDice

    f = duel(P004, {"fist": 90, "martial_arts": 90}, {"fist": 90, "martial_arts": 90})
    patch(f, "Ann", hp=3)
    patch(f, "Cult", hp=3)
    entry = f.push(Attack("Ann", "Cult", ma=True, defence=Defence.COUNTER, parry_weapon=0),
                   SimulatedDice.seeded(0))
    assert f.state.get("Ann").out and f.state.get("Cult").out
    assert f.state.current is None and f.state.outcome() is None
    assert entry.text.endswith("nobody is left standing on either side: the fight stops "
                               "(the Keeper tells what follows)")
    assert f.journal[-1] is entry and f.to_json()["journal"]  # played, and it saves
