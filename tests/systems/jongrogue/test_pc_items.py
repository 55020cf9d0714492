"""The PC sheet, levels and items: JR-PC-*, JR-LVL-1, JR-ITEM-1."""

from __future__ import annotations

import dataclasses

import pytest

from companion.systems.jongrogue.actions import TileRequest
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Ring
from companion.systems.jongrogue.state import PC, PCState
from companion.systems.jongrogue.tables import TABLES
from tests.systems.jongrogue.script import feed, of, options


def test_jr_pc_1_starting_sheet() -> None:
    """JR-PC-1: level 1, 0 XP, full HP, strength 0, no gold, mace 2, short bow 1 with 20
    arrows, ring mail 3, no rings."""
    pc = PC.new(DEFAULT_PROFILE)
    assert (pc.level, pc.xp, pc.hp, pc.max_hp, pc.strength, pc.gold) == (
        1, 0, DEFAULT_PROFILE.max_hp(1), DEFAULT_PROFILE.max_hp(1), 0, 0)
    assert (pc.weapon.name_ja, pc.weapon.value) == ("メイス", 2)
    assert (pc.ranged.name_en, pc.ranged.value, pc.arrows) == ("short bow", 1, 20)
    assert (pc.armour.name_en, pc.armour.value) == ("ring mail", 3)
    assert pc.rings == [] and pc.states == set()


def test_jr_pc_2_strength_stops_at_minus_three() -> None:
    """JR-PC-2: strength never drops below −3."""
    game = Game("plus")
    game.floor = 3
    game.pc.hp = game.pc.max_hp = 200
    game.pc.strength = -3
    events = feed(game, "5m 8m 2z 1z 1z | fight:1 1m")  # a rattlesnake's poison
    assert game.pc.strength == -3 and of(events, Kind.ABILITY)[-1]["effect"] == "none"


def test_jr_pc_3_bound_cannot_move_until_it_breaks_free() -> None:
    """JR-PC-3: bound (拘束): no moving or fleeing until 1d9 >= 5 at the start of a turn,
    nor stepping in from the door to take the gold (revision 3; revision 2 took it). With
    nothing else to do the turns pass, each with its check: a PC bound by a flytrap it then
    killed was asked to choose among no options, and the game stopped there."""
    game = Game("plus")
    feed(game, "5m 1z 2z 3z 4z")
    game.pc.states.add(PCState.BOUND)
    events = feed(game, "move:2 1s 2s 3s 4s 1m 2m")  # this turn's check fails, and the next
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["break free (拘束)"] * 2
    assert isinstance(game.pending, TileRequest)  # a third turn's check, no empty choice
    feed(game, "5m")
    assert PCState.BOUND not in game.pc.states
    assert "take" in options(game) and any(o.startswith("move") for o in options(game))
    old = Game("plus", revision=2)
    feed(old, "5m 1z 2z 3z 4z")
    old.pc.states.add(PCState.BOUND)
    feed(old, "move:2 1s 2s 3s 4s 1m")
    assert options(old) == ["take"]


def test_jr_pc_3_confused_may_lose_the_attack_turn() -> None:
    """JR-PC-3: confused (混乱): each attack turn 1d9 >= 5 or the turn is lost. The blow at
    the sleeping (睡眠) snake stepped in from the door and woke it (JR-STATE-1, revision 5),
    so the lost turn is one the snake attacks in."""
    game = Game("ez")
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 1m 1z 2z 3z")
    game.pc.states.add(PCState.CONFUSED)
    events = feed(game, "fight:1 4m 9m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["act while confused (混乱)",
                                                           "defend vs 大蛇"]
    assert game.monster(1).alive
    events = feed(game, "fight:1 5m 9m")
    assert of(events, Kind.DEFEAT)


@pytest.mark.parametrize("ends", [True, False])
def test_jr_pc_3_confusion_ends_in_the_next_room_as_the_profile_says(ends: bool) -> None:
    """[DEFAULT] combat.confusion_ends_next_room: on, reaching another room ends 混乱."""
    import dataclasses

    game = Game("plus", dataclasses.replace(DEFAULT_PROFILE, confusion_ends_next_room=ends))
    feed(game, "5m 1z 2z 3z 4z")
    game.pc.states.add(PCState.CONFUSED)
    feed(game, "move:2 1s 2s 3s 4s")
    assert (PCState.CONFUSED in game.pc.states) is not ends


def test_jr_pc_4_two_rings_at_most() -> None:
    """JR-PC-4: rings found are worn while a hand is free; a third waits in the pack."""
    game = Game("ez")
    feed(game, "5m 6p 7p 8p 1z | take")
    assert game.pc.ring_kinds == [Ring.STEALTH, Ring.STRENGTH]
    assert [str(t) for t in game.pc.spare_rings] == ["8p"]
    assert "equip:8p" not in options(game) and "unequip:6p" in options(game)
    feed(game, "unequip:6p")
    assert "equip:8p" in options(game)
    feed(game, "equip:8p")
    assert game.pc.ring_kinds == [Ring.STRENGTH, Ring.ARMOUR_PROTECTION]


@pytest.mark.parametrize(
    ("xp", "level"), [(0, 1), (9, 1), (10, 2), (79, 4), (80, 5), (1299, 8), (1300, 9),
                      (80000, 15), (10**9, 15)],
)
def test_jr_lvl_1_thresholds(xp: int, level: int) -> None:
    """JR-LVL-1: the official XP thresholds; 15 is the highest level."""
    assert TABLES.level_for_xp(xp) == level


def test_jr_lvl_1_level_up_raises_max_hp() -> None:
    """JR-LVL-1: max HP is 12 at level 1 and +5 a level [DEFAULT]; a level up shows."""
    assert [DEFAULT_PROFILE.max_hp(n) for n in (1, 2, 10)] == [
        DEFAULT_PROFILE.max_hp_base + DEFAULT_PROFILE.max_hp_per_level * k for k in (0, 1, 9)]
    game = Game("ez")
    game.pc.xp = 9
    events = feed(game, "5m 1m 1z 2z 3z | fight:1 9m")
    level = of(events, Kind.LEVEL)[0]
    assert level["level"] == 2 and level["max_hp"] == DEFAULT_PROFILE.max_hp(2)


@pytest.mark.parametrize("heal", [True, False])
def test_jr_lvl_1_level_up_heals_by_the_max_hp_gained(heal: bool) -> None:
    """JR-LVL-1 with the profile's ``heal_on_level_up`` [DEFAULT true]: a level up raises HP
    by the max HP gained; switched off, HP stays where it was."""
    assert DEFAULT_PROFILE.heal_on_level_up is True
    profile = dataclasses.replace(DEFAULT_PROFILE, heal_on_level_up=heal)
    game = Game("ez", profile)
    game.pc.xp, game.pc.hp = 9, 7
    events = feed(game, "5m 1m 1z 2z 3z | fight:1 9m")
    gained = DEFAULT_PROFILE.max_hp(2) - DEFAULT_PROFILE.max_hp(1)
    assert gained > 0
    # +1: the room revealed (JR-MAP-4 regen) before the fight
    assert game.pc.hp == 7 + 1 + (gained if heal else 0)
    assert of(events, Kind.LEVEL)[0]["hp"] == game.pc.hp


def test_jr_item_1_item_table() -> None:
    """JR-ITEM-1: potion, shuriken ×5 (attack 2), arrows ×10, floor-scaled weapon and
    armour (equipped only if chosen), four rings."""
    game = Game("ez")
    game.floor = 10
    feed(game, "5m 2p 3p 4p 5p | take")
    assert game.pc.shuriken == 5 and game.pc.shuriken_attack == 2 and game.pc.arrows == 30
    assert "equip:4p" in options(game) and "keep" in options(game)
    events = feed(game, "equip:4p")
    assert {"action": "equipped", "tile": "4p", "value": 4} in of(events, Kind.ITEM)
    assert game.pc.weapon.value == 4  # 2 + floor 10 // 5
    feed(game, "keep")
    assert game.pc.armour.value == 3  # kept the ring mail over a 5
    game = Game("ez")
    feed(game, "5m 1p 6p 1z 1z | take")
    assert [str(t) for t in game.pc.potions] == ["1p"]
    assert game.pc.wears(Ring.STEALTH) == 1


def test_jr_item_1_stealth_ring_counts_for_the_sleep_check() -> None:
    """JR-ITEM-1 / JR-SLEEP-3: a worn ring of stealth changes the sleep check's row."""
    game = Game("plus")
    feed(game, "5m 6p 1z 1z 1z | take | move:2 3m 1m 2z 2z")
    encounter = of(game.events, Kind.ENCOUNTER)[-1]
    assert encounter["sleep_check"]["rings"] == 1 and encounter["sleep"] == "asleep"
