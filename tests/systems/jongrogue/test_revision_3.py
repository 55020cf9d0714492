"""Rules revision 3 (an audit of seed 000): a monster sitting on gold holds no exit, a
pursuing mimic's item lies beside the PC, a pursuer is never shot. Each fix is checked
against revision 2, which a game saved before it still replays by."""

from __future__ import annotations

from companion.systems.jongrogue.game import RULES_REVISION, Game
from tests.systems.jongrogue.script import feed, options


def orc_on_gold(revision: int) -> Game:
    """Floor 4, room 2: an orc (9m) awake on a gold pile (3s), the stairs (5z); entered."""
    game = Game("ez", revision=revision)
    game.floor = 4
    feed(game, "5m 1z 2z 3z 4z | move:2 9m 3s 5z 1z | enter")
    return game


def test_jr_flee_1_a_monster_sitting_on_gold_holds_no_exit() -> None:
    """JR-FLEE-1: 「モンスターが眠っていたり、金塊の上に乗っていたりして攻撃してくるモンスターが
    1体も居ない場合は…自由に移動や行動が出来ます」: the orc on its gold attacks no one, so
    the PC may take the stairs or another door (JR-STATE-2 holds them for the awake that
    fight). Revision 2 let the PC only go back or fight."""
    game = orc_on_gold(RULES_REVISION)
    orc = game.monster(1)
    assert orc.sleep.value == "awake" and orc.on_gold is not None and not game.attackers()
    assert {"stairs", "move:1", "move:3", "move:5"} <= set(options(game))
    assert "take" not in options(game)  # JR-STATE-2: no pick-up while a monster lives
    feed(game, "move:3 1z 2z 3z 4z")
    assert game.room_no == 3
    stairs = orc_on_gold(RULES_REVISION)
    feed(stairs, "stairs")
    assert stairs.floor == 5
    old = orc_on_gold(2)
    assert set(options(old)) == {"fight:1", "shoot:1", "move:5"}


def fled_from_a_xeroc(revision: int) -> Game:
    """Plus, floor 16: a xeroc (擬態, 3m) met in room 2 follows the PC fleeing to room 5."""
    game = Game("plus", revision=revision)
    game.floor = 16
    game.pc.hp = game.pc.max_hp = 300
    feed(game, "5m 1z 2z 3z 4z | move:2 3m 1z 2z 4z | fight:1 1m | flee 9m")
    assert game.room_no == 5 and [m.monster.ability.value for m in game.pursuers] == ["mimic"]
    return game


def test_jr_ab_mimic_a_pursuer_s_item_lies_beside_the_pc() -> None:
    """JR-AB-MIMIC with JR-FLEE-2: a pursuer's tile was moved next to the PC (「PCに隣接する
    様に…動かします」), so the item the mimic turns into is there, in room 5, to be taken;
    revision 2 put it back in room 2, where it was met."""
    game = fled_from_a_xeroc(RULES_REVISION)
    feed(game, "fight:1 7z 1p")  # a critical hit; the mimic draws an item tile
    assert [str(t) for t in game.rooms[5].drops] == ["1p"]
    assert "1p" not in [str(t) for t in game.rooms[2].tiles]
    assert "take" in options(game)
    old = fled_from_a_xeroc(2)
    feed(old, "fight:1 7z 1p")
    assert "1p" in [str(t) for t in old.rooms[2].tiles] and not old.rooms[5].drops


def test_jr_ranged_1_a_pursuer_is_not_shot() -> None:
    """JR-RANGED-1: ranged combat comes 「近接戦闘を始める前に」; the xeroc's melee began in
    room 2, so after the flight the PC cannot shoot it one-sidedly (revision 2 could)."""
    game = fled_from_a_xeroc(RULES_REVISION)
    assert game.pc.arrows > 0 and not game.melee_started
    assert "shoot:1" not in options(game) and "fight:1" in options(game)
    assert "shoot:1" in options(fled_from_a_xeroc(2))
