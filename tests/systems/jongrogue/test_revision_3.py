"""Rules revision 3 (audits of seed 000): a monster sitting on gold holds no exit, a
pursuing mimic's item lies beside the PC, a pursuer is never shot, a confused PC's shot may
be lost, the gaze is checked in ranged turns. Each fix is checked against revision 2,
which a game saved before it still replays by (the gaze's, against revision 3 itself: from
revision 4 a PC on the door is not gazed at, test_revision_4)."""

from __future__ import annotations

from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from tests.systems.jongrogue.script import feed, of, options


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
    assert game.pc.arrows > 0
    assert "shoot:1" not in options(game) and "fight:1" in options(game)
    assert "shoot:1" in options(fled_from_a_xeroc(2))
    # Revision 7 takes its melee as begun (test_ranged_combat_refused_with_pursuers); from
    # revision 3 the pursuer was no target even before that.
    six = fled_from_a_xeroc(6)
    assert not six.melee_started and "shoot:1" not in options(six)


def test_jr_pc_3_a_confused_pc_s_shot_may_be_lost() -> None:
    """JR-PC-3: confused (混乱), each attack turn 1d9 >= 5 or the turn is lost; a shot is
    an attack turn too (revision 2 shot on regardless)."""
    def shoot(revision: int) -> list[str]:
        game = Game("plus", revision=revision)
        game.floor = 18
        game.pc.hp = game.pc.max_hp = 300
        feed(game, "5m 1z 5m 1z 1z enter 1m")  # a medusa woken; its gaze is not resisted
        assert "confused" in {s.value for s in game.pc.states}
        events = feed(game, "shoot:1 3m 2m")  # ranged goes on; then the confusion check
        return [c["what"] for c in of(events, Kind.CHECK)]

    assert shoot(RULES_REVISION) == ["ranged combat goes on", "act while confused (混乱)"]
    assert shoot(2)[-1].startswith("ranged (arrows) vs")


def test_jr_ab_gaze_is_checked_at_the_start_of_each_ranged_turn() -> None:
    """JR-AB-GAZE: 「PCがモンスターと同じ部屋にいる時」 the gaze is checked at the start of
    every turn; a sleeping medusa woken by the first shot gazes before the second ranged
    turn (revision 2 let ranged combat go on without it). The PC shoots from the door, where
    revision 3 gazed and revision 4 does not (test_revision_4), so this is revision 3's."""
    def shots(revision: int) -> list[str]:
        game = Game("plus", revision=revision)
        game.floor = 18
        game.pc.hp = game.pc.max_hp = 300
        feed(game, "5m 1z 5m 1z 1z")  # a medusa asleep (honour corner)
        events = feed(game, "shoot:1 3m 1m 3m")  # a miss wakes it; the next turn begins
        return [c["what"] for c in of(events, Kind.CHECK)]

    assert shots(3)[-1] == "resist the gaze (睨み判定)"
    assert shots(2)[-1] == "ranged combat goes on"
