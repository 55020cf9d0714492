"""Grapples on the board and MA/Budo options, each against its seed line, folded into engine
revision 4: a knocked-back grappled pair moves as one (CO-GRAP-1, CO-MELEE-2); three leg hits
refuse a Jump (CO-CALL-1, CO-SKILL-6); a choke or throw meets whatever bars a strike (CO-MA-2,
CO-GRAP-6 with CO-STUN-1, CO-TURN-4, CO-DODGE-4/8); 004's choke and throw may roll Budo
(CO-GRAP-6) and throw at an enemy only (CO-GRAP-8). Entries played by revision 3 replay as
they were played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Choke,
    Delay,
    Fight,
    Grapple,
    Jump,
    Place,
    Throw,
)
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import OLD, at, duel, held_roll, pass_to, patch, push, replays

P003, P004 = Profile.P003, Profile.P004
SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}



# --- CO-GRAP-1 with CO-MELEE-2 (003) ---------------------------------------------------------

def test_a_knocked_back_grappled_pair_moves_as_one_003() -> None:
    """003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考える」 and l.27
    (knockback): Bob holds Cult on e4; Ann's 11 from d3 pushes Cult to f5 and Bob with it.
    Revision 3 moved Cult alone, out of its grappler's square."""
    def fight(engine: int) -> Fight:
        f = at(engine, duel(P003, SWORD, {"fist": 50}, third={"grapple": 90}))
        push(f, Place("Ann", "d3", "N"))
        push(f, Place("Cult", "d4", "S"))
        push(f, Place("Bob", "e4", "W"))
        push(f, Delay("Ann"))
        push(f, Grapple("Bob", "Cult"), (100, 10), *held_roll(engine))
        pass_to(f, "Ann")
        text = push(f, Attack("Ann", "Cult"), (100, 10), (10, 9), (4, 2))
        assert "knockback! Cult is pushed to f5" in text
        return f

    f = fight(ENGINE)
    assert f.state.get("Cult").square == f.state.get("Bob").square == "f5"
    assert "Bob goes with Cult to f5: one unit (CO-GRAP-1)" in f.journal[-1].text
    replays(f)
    old = fight(OLD)
    assert (old.state.get("Cult").square, old.state.get("Bob").square) == ("f5", "e4")
    replays(old)


# --- CO-CALL-1 with CO-SKILL-6 (003) ---------------------------------------------------------

def test_three_leg_hits_refuse_a_jump_003() -> None:
    """003 l.76 「脚部：移動の選択可能回数-1（三回当てればその場から動けなくなる）」: with three
    leg hits Ann cannot leave her square, by a Jump either; two still let her jump. Revision 3
    let her jump with three."""
    def fight(engine: int, hits: int) -> Fight:
        f = at(engine, duel(P003, {"jump": 60}, {}))
        push(f, Place("Ann", "b2"))
        push(f, Place("Cult", "c3"))
        patch(f, "Ann", leg_hits=hits)
        return f

    with pytest.raises(IllegalAction, match=r"cannot move from the spot, no jump \(CO-CALL-1"):
        fight(ENGINE, 3).push(Jump("Ann", "Cult"), ScriptedDice([]))
    f = fight(ENGINE, 2)
    assert "leaps over Cult to d4" in push(f, Jump("Ann", "Cult"), (100, 30))
    old = fight(OLD, 3)
    assert "leaps over Cult to d4" in push(old, Jump("Ann", "Cult"), (100, 30))


# --- CO-MA-2 / CO-GRAP-6: a choke or throw is a strike ---------------------------------------

def held_003(engine: int) -> Fight:
    """Ann's MA grapple holds Cult in round 1; round 2, Ann's turn."""
    f = at(engine, duel(P003, {"grapple": 90, "martial_arts": 90}, {"fist": 50}))
    push(f, Grapple("Ann", "Cult", ma=True), (100, 10), *held_roll(engine))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    assert f.state.round == 2
    return f


def held_004(engine: int, ann: dict[str, Any] | None = None,
             third: dict[str, Any] | None = None) -> Fight:
    """Ann restrains Cult in round 1; round 2, Ann's turn."""
    f = at(engine, duel(P004, ann or {"grapple": 90}, {"fist": 50}, third=third))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    assert f.state.round == 2
    return f


@pytest.mark.parametrize("action", [Choke("Ann"), Throw("Ann")])
@pytest.mark.parametrize("bar,changes", [
    ("stunned and cannot attack (CO-STUN-1)", {"stun": 1}),
    ("another skill (CO-TURN-4)", {"other_skill": True}),
    ("sheathed this round", {"sheathed": True}),
])
def test_what_bars_a_strike_bars_a_choke_or_throw_003(action: Any, bar: str,
                                                       changes: dict[str, Any]) -> None:
    """003 l.80 スタン「相手は次回攻撃が選択できず」, l.85 「その他技能を選択したラウンドは…攻撃を
    選択できない」: MA's choke and throw (l.42-44) are attacks, refused before any die as a
    blow is. Revision 3 let the stunned choke and throw."""
    f = held_003(ENGINE)
    patch(f, "Ann", **changes)
    with pytest.raises(IllegalAction, match=re.escape(bar)):
        f.push(action, ScriptedDice([]))
    old = held_003(OLD)
    patch(old, "Ann", **changes)
    half = isinstance(action, Throw)  # a throw's ½DB is a D2
    assert "(CO-MA-2)" in push(old, action, (6, 3), (2, 1) if half else (4, 2))


@pytest.mark.parametrize("action", [Choke("Ann"), Throw("Ann")])
@pytest.mark.parametrize("bar,changes", [
    ("concentrates on dodging: no attack (CO-DODGE-8)", {"concentrating": True}),
    ("dodged this round and cannot attack (CO-DODGE-4)", {"dodges": 1}),
])
def test_what_bars_a_strike_bars_a_choke_or_throw_004(action: Any, bar: str,
                                                       changes: dict[str, Any]) -> None:
    """004 l.8-10 (one who dodges does not attack; dodge concentration 「攻撃できない」): the
    grappler's Budo again (l.165) to choke or throw is an attack, refused before any die.
    Revision 3 rolled it."""
    f = held_004(ENGINE)
    patch(f, "Ann", **changes)
    with pytest.raises(IllegalAction, match=re.escape(bar)):
        f.push(action, ScriptedDice([]))
    old = held_004(OLD)
    patch(old, "Ann", **changes)
    assert "組み付き/Grapple" in push(old, action, (100, 95))  # a miss


# --- CO-GRAP-6: Grapple or Budo (004) --------------------------------------------------------

@pytest.mark.parametrize("kind", [Choke, Throw])
def test_a_choke_or_throw_may_roll_budo_004(kind: Any) -> None:
    """004 l.165 「又はもう一度武道（組技系）を使用することで・締め付け・投げ飛ばしに派生できる」
    (the spec's "Grapple or Budo (grappling)"): Ann, Grapple 50 and Budo 90, rolls 80 on Budo
    and succeeds; the default stays Grapple, where 80 fails."""
    ann = {"grapple": 50, "budo": 90}
    f = held_004(ENGINE, ann)
    text = push(f, kind("Ann", skill="budo"), (100, 80), (6, 4), (4, 2), *(
        [(100, 99)] if kind is Throw else []))  # the thrown one's CON×4
    assert "武道/Budo (1D100<=90) ＞ 80" in text and f.state.get("Cult").hp == 7
    replays(f)
    g = held_004(ENGINE, ann)
    assert "組み付き/Grapple (1D100<=50) ＞ 80" in push(g, kind("Ann"), (100, 80))
    assert g.state.get("Cult").hp == 13


def test_budo_only_from_the_sheet_and_only_in_004() -> None:
    """Budo where the sheet has it; 003's choke rolls nothing, so it takes no skill."""
    with pytest.raises(IllegalAction, match="Ann's sheet has no budo"):
        held_004(ENGINE).push(Choke("Ann", skill="budo"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="rolls grapple or budo"):
        held_004(ENGINE).push(Throw("Ann", skill="dodge"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="003's choke rolls nothing"):
        held_003(ENGINE).push(Choke("Ann", skill="budo"), ScriptedDice([]))


# --- CO-GRAP-8 (004): at another enemy --------------------------------------------------------

def test_a_throw_is_at_an_enemy_not_an_ally_004() -> None:
    """004 l.169 「拘束していなかった他の敵に対して投げることもできる」: Ann may not throw Cult
    at Bob, her ally; refused before any die. Revision 3 threw it and stunned Bob."""
    f = held_004(ENGINE, third={"fist": 50})
    with pytest.raises(IllegalAction, match=r"Bob is Ann's ally: throw at another enemy"):
        f.push(Throw("Ann", at="Bob"), ScriptedDice([]))
    old = held_004(OLD, third={"fist": 50})
    text = push(old, Throw("Ann", at="Bob"), (100, 10), (6, 3), (4, 2), (100, 99), (6, 2),
                (100, 99))
    assert "Bob is hit by the thrown body" in text
