"""Each check's number pinned by a tile on either side of it (audit jr64, RISK 1): a test
that feeds only a tile far from the target passes a wrong target too. Seed 000's numbers:
JR-AB-DRAINSTR 「1d9>=4」 (l.331) and the EZ 100 gold (l.322), JR-AB-GAZE 「1d9>=4」 (l.317),
JR-AB-FREEZE's thaw 「1d9>=8」, and a ring of strength (増強の指輪) stopping the Plus poison
and drain before any check (JR-AB-POISON, JR-AB-DRAINSTR)."""

from __future__ import annotations

import pytest

from companion.systems.jongrogue.actions import ChoiceRequest, TileRequest
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.state import PCState
from tests.systems.jongrogue.ability_helpers import meet, wear
from tests.systems.jongrogue.script import feed, of, options


@pytest.mark.parametrize(("tile", "strength"), [("3m", -1), ("4m", 0)])
def test_jr_ab_drainstr_plus_resisted_at_4(tile: str, strength: int) -> None:
    """JR-AB-DRAINSTR (Plus: pc_states), l.331 「1d9>=4」: a vampire's (バンパイア) hit, then
    3 loses 1 strength and 4 resists it."""
    plus = meet("plus", 19, "6m 2z 1z 1z")  # a vampire, awake
    events = feed(plus, f"fight:1 1m {tile}")  # the blow misses; it hits: the drain check
    check = of(events, Kind.CHECK)[-1]
    assert check["what"] == "strength drain (強さドレイン判定)" and check["target"] == 4
    assert check["success"] is (strength == 0)
    assert plus.pc.strength == strength
    assert isinstance(plus.pending, ChoiceRequest)


def test_jr_ab_drainstr_ez_takes_100_gold_once() -> None:
    """JR-AB-DRAINSTR (EZ), l.322: the vampire's first hit takes 100 gold (金塊), and only
    the first: it is sealed (封魔) by it."""
    ez = meet("ez", 19, "6m 1z 1z 1z")
    ez.pc.gold = 250
    events = feed(ez, "fight:1 1m")
    assert [(g["amount"], g["gold"]) for g in of(events, Kind.ITEM)
            if g["action"] == "gold"] == [(-100, 150)]
    assert ez.monster(1).sealed
    feed(ez, "fight:1 1m")
    assert ez.pc.gold == 150


@pytest.mark.parametrize(("tile", "confused"), [("3m", True), ("4m", False)])
def test_jr_ab_gaze_resisted_at_4(tile: str, confused: bool) -> None:
    """JR-AB-GAZE (Plus: pc_states), l.317 「1d9>=4」で失敗したら混乱状態: stepping in wakes
    the medusa (メデューサ) and it gazes; 3 confuses the PC, 4 resists. Either way it is
    sealed, and gazes no more."""
    game = meet("plus", 18, "1z 5m 1z 1z", hp=300)  # a medusa asleep (睡眠): the PC on the door
    events = feed(game, f"enter {tile}")
    check = of(events, Kind.CHECK)[0]
    assert check["what"] == "resist the gaze (睨み判定)" and check["target"] == 4
    assert (PCState.CONFUSED in game.pc.states) is confused
    assert game.monster(1).sealed


@pytest.mark.parametrize(("monster", "floor"), [("8m", 3), ("6m", 19)])
def test_jr_ab_poison_and_drainstr_a_ring_of_strength_stops_them_before_a_check(
        monster: str, floor: int) -> None:
    """JR-AB-POISON / JR-AB-DRAINSTR (Plus): wearing a ring of strength (増強の指輪), the
    rattlesnake's (ガラガラ蛇) or the vampire's hit is without effect: no check is asked
    for, the ability's effect is "none", and the next choice is the PC's."""
    plus = meet("plus", floor, f"{monster} 2z 1z 1z")
    wear(plus, "7p")
    events = feed(plus, "fight:1 1m")
    assert isinstance(plus.pending, ChoiceRequest), plus.pending
    assert of(events, Kind.ABILITY)[-1]["effect"] == "none"
    assert plus.pc.strength == 0
    assert len(of(events, Kind.CHECK)) == 1  # the blow's, no poison or drain check


def test_jr_ab_freeze_thaws_at_8_not_7() -> None:
    """JR-AB-FREEZE, 「1ターン毎に「1d9>=8」で判定して、成功したら「凍結」が解除されます」: a
    frozen PC's 7 keeps it frozen (the turn defended), its 8 thaws it."""
    game = meet("ez", 2, "7m 1z 1z 1z")  # an ice monster (氷の怪物)
    feed(game, "fight:1 1m 2m 9m")  # frozen, survives the cold
    assert PCState.FROZEN in game.pc.states
    events = feed(game, "7m")
    thaw = of(events, Kind.CHECK)[0]
    assert thaw["what"] == "thaw (凍結)" and thaw["target"] == 8 and not thaw["success"]
    assert PCState.FROZEN in game.pc.states and isinstance(game.pending, TileRequest)
    feed(game, "9m")  # the frozen turn's defence holds
    events = feed(game, "8m")
    assert of(events, Kind.STATE)[-1] == {"who": "pc", "state": "frozen", "on": False}
    assert "fight:1" in options(game)
