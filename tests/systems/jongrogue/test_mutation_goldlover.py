"""Mutation round 8 on rules revision 6's gold-lovers (JR-AB-GOLDLOVER): the test that kills
a survivor a player would see."""

from __future__ import annotations

from companion.systems.jongrogue.game import Game
from tests.systems.jongrogue.script import feed, options


def test_jr_ab_goldlover_a_pile_is_taken_only_by_a_monster_of_its_own_room() -> None:
    """The pile a gold-lover sits on is one no monster of *its room* sits on: an orc left
    sitting on spot 2 of room 5 does not keep room 6's orc off room 6's spot 2 (spots are
    counted per room). Counting every monster met on the floor put it on the 2s, and the
    PC took 10 gold instead of 20."""
    game = Game("ez")
    game.floor = 4  # 9m: an orc, オーク, the one 金塊好き
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 9m 1z 1s 1z")  # room 5: an orc on its one pile, at spot 2
    assert [m.on_gold for m in game.room_monsters()] == [2]
    feed(game, "move:6 9m 1z 1s 2s")  # room 6: an orc, gold 10 (1s) at 2 and 20 (2s) at 3
    assert game.room.number == 6
    assert [m.on_gold for m in game.room_monsters()] == [2]
    assert "take" in options(game)
    gold = game.pc.gold
    feed(game, "take")
    assert game.pc.gold == gold + 20
