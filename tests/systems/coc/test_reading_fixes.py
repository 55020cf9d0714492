"""Open readings of an audit, each against its seed line. Fixes in engine revision 5:
a critical grapple takes no dodge or parry and a fumbled one falls (CO-MELEE-3/4); a stun
takes its AP off a turn held to DEX/2 (CO-STUN-1); a move without its square is refused on
the board and to the held (CO-TURN-2/5, CO-GRAP-1); no parry with a two-handed weapon in a
003 grapple (CO-GRAP-3). Readings kept, where the seeds are silent: a stun's CON×5 at the
start of its turn (CO-STUN-1), 004 concentration does not dodge one attack's later bullets
(CO-DODGE-7/8), a DEX/2 tie by the Default ``CO-TURN-1.half_dex_ties``, the held still
dodge. Entries played by revision 4 (the last before them) replay as they were played.
From revision 18 (coc70) the turn that begins stunned has no attack whatever its CON×5
roll (CO-STUN-1, seed 003 「相手は次回攻撃が選択できず」); revision 17 freed it on a success."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Concentrate,
    Defence,
    Delay,
    EndTurn,
    Fight,
    Grapple,
    Move,
    Place,
    Side,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, held_roll, pass_to, person, push, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before these fixes, the one the last release played.
OLD = 4


# --- 1: CO-MELEE-3/4 for a grapple (003) ----------------------------------------------------

def test_a_critical_grapple_takes_no_dodge_003() -> None:
    """003 「〇近接攻撃〈組み付き〉について」 is a melee attack, and 〇近接攻撃について
    「クリティカル(ダイス目01～05)が出た場合、攻撃対象は回避・受け流しをすることができない」:
    Ann's grapple rolls 03, so Cult's declared dodge is not rolled and Cult is held.
    Revision 4 let Cult dodge it (10 ≤ 60) and go free."""
    f = duel(P003, {"grapple": 60}, {"dodge": 60})
    text = push(f, Grapple("Ann", "Cult", defence=Defence.DODGE), (100, 3), (100, 90))
    assert "critical: no dodge or parry (CO-MELEE-3)" in text
    assert f.state.get("Cult").held_by == "Ann" and f.state.get("Cult").dodges == 0
    replays(f)
    old = at(OLD, duel(P003, {"grapple": 60}, {"dodge": 60}))
    push(old, Grapple("Ann", "Cult", defence=Defence.DODGE), (100, 3), (100, 10))
    assert old.state.get("Cult").held_by == ""
    replays(old)


def test_a_fumbled_grapple_falls_003() -> None:
    """〇近接攻撃について 「ファンブル(ダイス目95～00)が出た場合、バランスを崩して転んだという事で
    次ラウンドは行動選択を出来ない。もしくは、使用した武器が破損する」: a grapple has no weapon to
    break, so Ann, rolling 97, falls and is skipped in round 2. Revision 4 read nothing."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, {"grapple": 60}))
        text = push(f, Grapple("Ann", "Cult"), (100, 97))
        assert ("fumble: Ann falls and loses next round's actions (CO-MELEE-4)" in text) is (
            engine >= 5)
        pass_to(f, "Cult")
        push(f, EndTurn("Cult"))
        return f

    f = fight(ENGINE)
    assert f.state.round == 2 and f.state.current is not None
    assert f.state.current.name == "Cult" and "Ann is skipped" in f.journal[-1].text
    replays(f)
    old = fight(OLD)
    assert old.state.current is not None and old.state.current.name == "Ann"
    replays(old)


# --- 2: CO-STUN-1 timing (003) --------------------------------------------------------------

def test_a_stun_shaken_off_at_the_turn_s_start_bars_that_turn_s_attack_003() -> None:
    """CO-STUN-1, 003 〇スタンについて 「相手は次回攻撃が選択できず行動ポイントを-1ポイントする。
    この状態は敵のラウンド時CON×5に成功するまで持続する。成功した場合行動ポイントは1回復する」:
    the hit bars the target's next attack whatever the roll; the CON×5 at that turn's start
    (the spec's Default) decides whether the stack and its AP come back now. Cult, stunned
    before its turn, succeeds there: stun 1 → 0 and its 3 AP, but no attack in that turn
    (from engine revision 18, coc70 finding 5); in round 2 it attacks again. Revision 17
    let the success attack at once (kept as it was played)."""
    def stunned_cult(engine: int) -> tuple[Fight, str]:
        f = at(engine, duel(P003, {"weapons": ("stun_gun",), "fist": 90}, {"fist": 50}))
        push(f, Attack("Ann", "Cult"), (100, 10))
        return f, push(f, EndTurn("Ann"), (100, 10))

    f, text = stunned_cult(ENGINE)
    assert "(CO-STUN-1: stun 1 → 0; no attack this turn)" in text and "Cult's turn: 3 AP" in text
    cult = f.state.get("Cult")
    assert cult.stun == 0 and cult.ap == 3
    with pytest.raises(IllegalAction, match=r"^Cult shook the stun off at its turn's start, "
                                            r"but cannot attack in that turn \(CO-STUN-1"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    push(f, EndTurn("Cult"))  # round 2: free again
    pass_to(f, "Cult")
    assert "Cult こぶし" in push(f, Attack("Cult", "Ann"), (100, 90))
    replays(f)
    old, text = stunned_cult(17)
    assert "(CO-STUN-1: stun 1 → 0)" in text and "Cult's turn: 3 AP" in text
    assert "Cult こぶし" in push(old, Attack("Cult", "Ann"), (100, 90))
    replays(old)


def test_a_stun_kept_at_the_turn_s_start_bars_it_and_its_ap_003() -> None:
    """CO-STUN-1: a failed CON×5 keeps the stack: no attack, 1 AP off, as before; its next
    turn rolls again, and a success there frees the turn after (revision 18)."""
    f = duel(P003, {"weapons": ("stun_gun",), "fist": 90}, {"fist": 50})
    push(f, Attack("Ann", "Cult"), (100, 10))
    text = push(f, EndTurn("Ann"), (100, 95))
    assert "(CO-STUN-1: stun 1 → 1; no attack this turn)" in text and "Cult's turn: 2 AP" in text
    with pytest.raises(IllegalAction, match=r"^Cult is stunned and cannot attack \(CO-STUN-1\)"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    push(f, EndTurn("Cult"))
    text = push(f, EndTurn("Ann"), (100, 10))  # round 2: Cult's roll succeeds
    assert "(CO-STUN-1: stun 1 → 0; no attack this turn)" in text
    with pytest.raises(IllegalAction, match="CO-STUN-1"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    push(f, EndTurn("Cult"))
    push(f, EndTurn("Ann"))  # round 3: no stun left, no roll, the attack is free
    assert "Cult こぶし" in push(f, Attack("Cult", "Ann"), (100, 90))
    replays(f)


def test_a_stun_takes_its_ap_off_a_turn_held_to_dex_half_003() -> None:
    """003 「相手は次回攻撃が選択できず行動ポイントを-1ポイントする」: Bob delayed to DEX/2 with
    his 3 AP and is stunned before that turn, his next: it has 2 AP. Revision 4 said
    "−1 AP" and gave the held turn all 3."""
    def fight(engine: int) -> str:
        f = at(engine, duel(P003, {"fist": 50}, {"weapons": ("stun_gun",), "fist": 90},
                            third={"fist": 50}))
        push(f, EndTurn("Ann"))
        push(f, Delay("Bob"))
        push(f, Attack("Cult", "Bob"), (100, 10))
        replays(f)
        return push(f, EndTurn("Cult"))

    assert "Bob acts at DEX/2 (6): 2 AP (CO-TURN-1)" in fight(ENGINE)
    assert "Bob acts at DEX/2 (6): 3 AP (CO-TURN-1)" in fight(OLD)


# --- 3: CO-DODGE-8 against several shots (004) ----------------------------------------------

def concentrating_cult(engine: int, settings: dict[str, Any] | None = None) -> Fight:
    f = at(engine, duel(P004, {"weapons": ("revolver",), "handgun": 90}, {"dodge": 50},
                        settings=settings, third={"weapons": ("knife",), "knife": 80}))
    push(f, Concentrate("Cult"))
    return f


def test_concentration_dodges_each_bullet_004() -> None:
    """004 l.17 「回避に"専念"する場合、技能に"+10％"の上方補正が付き、
    更に複数回の攻撃に対して何度でも回避技能を使用することが出来るようになる」
    comes right after l.13 「銃弾の"回避"は、基本的に「初弾のみ」を躱せるものとし、
    複数回攻撃が来るタイプの銃弾は全て当たる」: 「基本的に」 marks the usual case, and
    「複数回の攻撃に対して何度でも」 names l.13's 「複数回攻撃が来るタイプ」, so
    concentrating lifts the first-bullet limit (CO-DODGE-8's Default every_bullet, engine
    revision 11; it was read as lifting only the round's one dodge, which every_bullet =
    false keeps). Concentrating Cult dodges Ann's three bullets, each at 50 + 10: two
    dodged, the third hits; Bob's blow, another attack, is dodged again."""
    f = concentrating_cult(ENGINE)
    text = push(f, Attack("Ann", "Cult", shots=3, defence=Defence.DODGE), (100, 30),
                (100, 10), (100, 30), (100, 20), (100, 30), (100, 70), (10, 1))
    assert text.count("(1D100<=60)") == 3 and "CO-DODGE-7" not in text
    assert f.state.get("Cult").hp == 12
    push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert f.state.get("Cult").dodges == 4 and f.state.get("Cult").hp == 12
    replays(f)


@pytest.mark.parametrize("engine, settings", [
    (ENGINE, {"CO-DODGE-8": {"every_bullet": False}}), (10, None)])
def test_the_first_bullet_only_with_every_bullet_off_or_by_revision_10_004(
        engine: int, settings: dict[str, Any] | None) -> None:
    """every_bullet = false, and a fight played by revision 10, keep CO-DODGE-7's limit:
    Cult's dodge stops the first bullet; the other two hit."""
    f = concentrating_cult(engine, settings)
    text = push(f, Attack("Ann", "Cult", shots=3, defence=Defence.DODGE), (100, 30),
                (100, 10), (100, 30), (10, 1), (100, 30), (10, 1))
    assert "(1D100<=60) ＞ 10" in text
    assert text.count("a later bullet: Cult's dodge stopped the first only (CO-DODGE-7)") == 2
    push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert f.state.get("Cult").dodges == 2 and f.state.get("Cult").hp == 11
    replays(f)


def test_no_shots_while_concentrating_004() -> None:
    """004 l.6 「回避をした者(回避する者)は攻撃をすることはできない」: who concentrates on dodging
    fires no shot, one or several (CO-DODGE-8). Kept as it was."""
    f = duel(P004, {"fist": 50}, {"weapons": ("revolver",), "handgun": 90})
    push(f, Concentrate("Cult"))
    pass_to(f, "Cult")
    with pytest.raises(IllegalAction, match=r"no attack \(CO-DODGE-8\)"):
        f.push(Attack("Cult", "Ann", shots=2), ScriptedDice([]))


# --- 4: a DEX/2 tie, a Default (CO-TURN-1) ---------------------------------------------------

@pytest.mark.parametrize("profile", [P003, P004])
@pytest.mark.parametrize("ties,order", [("after", ("Ann", "Cult", "Ann")),
                                        ("before", ("Ann", "Ann", "Cult"))])
def test_a_dex_half_turn_tying_a_dex_goes_by_the_default(profile: Profile, ties: str,
                                                         order: tuple[str, ...]) -> None:
    """003 「三回目の射撃はDEX1/2の数値で行動順に組み込まれる」, 004 l.74 (DEX halved): no tie rule.
    Ann (DEX 12) delays to 6, Cult's DEX: by the Default she waits behind Cult ("after", as
    before); "before" puts her ahead."""
    rules = load_rules(profile).with_overrides({"CO-TURN-1": {"half_dex_ties": ties}})
    f = Fight(rules, [(person(rules, "Ann", 12), Side.INVESTIGATORS),
                      (person(rules, "Cult", 6), Side.FOES)], ScriptedDice([]))
    push(f, Delay("Ann"))
    assert f.state.order == order
    replays(f)


def test_a_dex_half_tie_is_after_or_before() -> None:
    """The Default takes one of its two words, "after" unless set (as before)."""
    with pytest.raises(DataError, match="half_dex_ties"):
        load_rules().with_overrides({"CO-TURN-1": {"half_dex_ties": "die"}}, "--set")
    assert load_rules().default("CO-TURN-1", "half_dex_ties") == "after"


# --- 5: a Move without its square (003) -----------------------------------------------------

def test_a_move_on_the_board_names_its_square_003() -> None:
    """003 「戦闘時は基本チェス盤(8×8マス)を用いて位置情報を再現する」: Ann, on a1, cannot spend
    2 AP on a move that goes nowhere; off the board a number of squares is still a move.
    Revision 4 spent the AP and left her square as it was."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, {"fist": 50}))
        push(f, Place("Ann", "a1", "N"))
        push(f, Place("Cult", "h8", "S"))
        return f

    f = fight(ENGINE)
    with pytest.raises(IllegalAction, match=r"Ann stands on a1: name the square it moves to"):
        f.push(Move("Ann", squares=2), ScriptedDice([]))
    assert "to a3 (CO-TURN-5, CO-TURN-2)" in push(f, Move("Ann", to="a3"))
    assert "moves 2 square(s) (CO-TURN-5)" in push(duel(P003, {"fist": 50}), Move("Ann", 2))
    old = fight(OLD)
    push(old, Move("Ann", squares=2))
    assert old.state.get("Ann").square == "a1" and old.state.get("Ann").ap == 1
    replays(old)


def test_the_held_do_not_move_without_a_square_either_003() -> None:
    """003 「＜組みつき＞に成功した場合、相手を拘束することができる…ひと固まりとして考える」: held
    Cult moves only with Ann, off the board as on it. Revision 4 let it move a square."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, {"grapple": 90}))
        push(f, Grapple("Ann", "Cult"), (100, 10), *held_roll(engine))
        pass_to(f, "Cult")
        return f

    with pytest.raises(IllegalAction, match=r"Cult is held and moves with its grappler"):
        fight(ENGINE).push(Move("Cult"), ScriptedDice([]))
    old = fight(OLD)
    assert "Cult moves 1 square(s)" in push(old, Move("Cult"))
    replays(old)


# --- 6: the held defending (003, 004) -------------------------------------------------------

SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 60, "dodge": 50}


def test_no_two_handed_parry_in_a_grapple_003() -> None:
    """003 「＜組みつき＞中は…両手を使う武器は使用できない」 (both in the grapple, the spec's
    Default) and 〇回避行動 「受け流しに使用した武器」: a parry uses the weapon, so held Cult
    cannot parry Bob's knife with its two-handed sword, nor Ann, holding, Cult's; a dodge
    is no weapon's and stays. Revision 4 parried."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, {"grapple": 90}, SWORD,
                            third={"weapons": ("knife",), "knife": 80}))
        push(f, Grapple("Ann", "Cult"), (100, 10))
        pass_to(f, "Bob")
        return f

    f = fight(ENGINE)
    with pytest.raises(IllegalAction, match=r"Cult is in a grapple: no parry with a "
                                            r"two-handed weapon \(CO-GRAP-3\)"):
        f.push(Attack("Bob", "Cult", defence=Defence.PARRY), ScriptedDice([]))
    text = push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "Cult 回避/Dodge" in text and f.state.get("Cult").hp == 13
    old = fight(OLD)
    text = push(old, Attack("Bob", "Cult", defence=Defence.PARRY), (100, 30), (4, 1), (4, 1),
                (100, 10))
    assert "parried" in text
    replays(old)
    g = duel(P003, {"grapple": 90, **SWORD}, {"weapons": ("knife",), "knife": 80})
    push(g, Grapple("Ann", "Cult"), (100, 10), (100, 90))
    with pytest.raises(IllegalAction, match=r"Ann is in a grapple: no parry"):
        g.push(Attack("Cult", "Ann", defence=Defence.PARRY), ScriptedDice([]))


def test_the_restrained_still_dodge_004() -> None:
    """004 l.163 「組み付いた相手を行動不能にする」: no action on its turn but breaking free (the
    spec's CO-GRAP-6 Default); up to revision 18 a dodge was a reaction, not an action
    (CO-BASE-5), as for the thrown 「行動不可能」 (CO-STUN-3 Default), so restrained Cult
    dodged Bob. From revision 19 (coc71 item 6) the engine follows its reading "a restrained
    target acts only to break free": no dodge (tests/systems/coc/test_grapple_tackle_pin.py)."""
    f = at(18, duel(P004, {"grapple": 90}, {"dodge": 50},
                    third={"weapons": ("knife",), "knife": 80}))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    assert f.state.get("Cult").held_by == "Ann"
    text = push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "Cult 回避/Dodge" in text and f.state.get("Cult").hp == 13
