"""Rules revision 5 (audit of seed 000, F1, F7 and F8; sweep 53 items 6 and 7): melee on
a monster that sleeps steps into its room first, a fumbled defence against a wraith drains
a level, and gold is not an item, so it may be taken while monsters sleep. Revision 4,
which a game saved or logged before it still replays by, is checked beside each."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Profile, load_profile
from companion.systems.jongrogue.state import Position, Sleeping
from tests.systems.jongrogue.script import feed, of, options

STEPPED_IN = "the PC stepped into the room"


def room(preset: str, floor: int, tiles: str, revision: int = RULES_REVISION,
         profile: Profile = DEFAULT_PROFILE, hp: int = 200) -> Game:
    """Start room 5 holds ``tiles`` on ``floor``; the PC, tough enough to watch, on its door."""
    game = Game(preset, profile, revision=revision)
    game.floor = floor
    game.pc.hp = game.pc.max_hp = hp
    feed(game, f"5m {tiles}")
    assert game.position is Position.DOOR
    return game


def asleep(game: Game) -> list[int]:
    return [m.uid for m in game.room_monsters() if m.sleep is not Sleeping.AWAKE]


def test_jr_state_1_melee_on_a_sleeping_monster_steps_into_the_room() -> None:
    """JR-STATE-1, seed l.126-133: 「PCがドアの上から通路に引き返せば モンスターは起きません。
    PCがドアの上から部屋の中に入ると その部屋の睡眠状態のモンスターが、全て起きます。…
    PCが攻撃すると その熟睡状態のモンスターが起きます。」 The attack wakes only a 熟睡
    monster, so the seed has a 睡眠 one attacked only once it is awake: by a PC that stepped
    in, which wakes every 睡眠 monster there. A sleeping monster does not come to the door
    (its one place, l.421-422), so melee on it from the door is a step in, then the blow.
    Revision 4 let the PC strike it from the door and wake it alone (audit F1)."""
    tiles = "1m 5m 6m 1z"  # EZ floor 1: snake, snake, hobgoblin, all 睡眠
    game = room("ez", 1, tiles)
    assert "fight:2" in options(game)
    events = feed(game, "fight:2 9m")  # snake 2 falls; the others, woken, attack
    assert game.position is Position.ROOM and asleep(game) == []
    assert [(w["uid"], w["why"]) for w in of(events, Kind.WAKE)] == [
        (1, STEPPED_IN), (2, STEPPED_IN), (3, STEPPED_IN)]
    turn = of(events, Kind.TURN)[0]
    assert (turn["position"], turn["cap"], turn["attackers"]) == ("room", 4, [1, 2, 3])
    assert not game.monster(2).alive
    old = room("ez", 1, tiles, revision=4)
    events = feed(old, "fight:2 9m")
    assert old.position is Position.DOOR and asleep(old) == [1, 3]
    assert [w["uid"] for w in of(events, Kind.WAKE)] == [2]


def test_jr_state_1_a_deeply_asleep_target_steps_in_too() -> None:
    """JR-STATE-1: the bat (熟睡) is woken by the attack (l.132-133), the snake (睡眠) by
    the step in (l.128-129), which a blow on the bat from the door now takes."""
    game = room("ez", 1, "4m 5m 1z 1z")  # bat 熟睡, snake 睡眠
    events = feed(game, "fight:1 9m")
    assert game.position is Position.ROOM and asleep(game) == []
    assert [(w["uid"], w["why"]) for w in of(events, Kind.WAKE)] == [
        (2, STEPPED_IN), (1, "attacked")]
    old = room("ez", 1, "4m 5m 1z 1z", revision=4)
    feed(old, "fight:1 9m")
    assert old.position is Position.DOOR and asleep(old) == [2]


def test_jr_state_1_an_awake_monster_is_still_fought_from_the_door() -> None:
    """JR-MULTI-1 (l.421-422: ドアの上 1体): an awake monster comes to the door and is fought
    there; the room's sleepers sleep on (l.126-127: no one wakes while the PC is not in)."""
    game = room("plus", 1, "1m 2m 1z 1z")  # snake awake (1, 1 even), hawk asleep (1, 2)
    assert asleep(game) == [2]
    events = feed(game, "fight:1 9m")
    assert game.position is Position.DOOR and asleep(game) == [2]
    assert of(events, Kind.TURN)[0]["cap"] == 1 and not game.monster(1).alive


def test_jr_ranged_2_a_shot_from_the_door_wakes_only_the_monster_shot_at() -> None:
    """JR-RANGED-2, JR-STATE-1: unlike a blow, a shot is no step in. The seed fights ranged
    combat from where the PC stands (「ドアの上に移動する」 is one of its options, l.411),
    so a miss at a 睡眠 snake from the door wakes it alone and the PC stays on the door."""
    game = room("ez", 1, "1m 5m 6m 1z")  # EZ floor 1: snake, snake, hobgoblin, all 睡眠
    assert game.pc.arrows > 0 and "shoot:2" in options(game)
    events = feed(game, "shoot:2 3m 1m")  # ranged goes on, then the shot misses
    assert [c["what"] for c in of(events, Kind.CHECK)] == [
        "ranged combat goes on", "ranged (arrows) vs 大蛇"]
    assert [(w["uid"], w["why"]) for w in of(events, Kind.WAKE)] == [(2, "shot at")]
    assert game.position is Position.DOOR and asleep(game) == [1, 3]


def test_jr_ab_drain_a_fumbled_defence_drains_a_level() -> None:
    """JR-AB-DRAIN, seed l.278-285 「近接攻撃でのファンブルが出たら、PCのレベルを1つ下げます」.
    The seed's 近接攻撃 is the monster's blow too (l.338 breath damage 「近接攻撃と同じ計算式」
    is the monster's damage to the PC; l.441 「PCはモンスターの近接攻撃を受けません」), and one
    procedure, one 1d9 against the rate, decides attack and defence (l.351-359, 「近接戦闘と
    防御は下記の手順で行います」). So a fumble (5z) on a defend check against the wraith
    drains as one on the PC's blow does; revision 4 drained on the PC's blow only (F7)."""
    def defended(revision: int) -> Game:
        game = room("plus", 14, "1m 1z 1z 1z", revision=revision)  # an awake wraith
        pc = game.pc
        pc.level, pc.xp = 10, 3000
        pc.max_hp = pc.hp = game.profile.max_hp(10)
        assert game.attackers() == [game.monster(1)]
        feed(game, "defend 5z")
        return game

    new = defended(RULES_REVISION)
    assert (new.pc.level, new.pc.xp, new.pc.drained) == (9, 2599, True)
    assert new.pc.max_hp == new.profile.max_hp(9)
    assert (defended(4).pc.level, defended(4).pc.xp) == (10, 3000)


def test_jr_state_2_gold_is_taken_while_monsters_sleep() -> None:
    """JR-STATE-2 with gold apart [DEFAULT ``map.gold_needs_clear_room = false``]: seed
    l.134-135 needs every monster defeated to pick up an item (アイテム), and the seed keeps
    gold out of the items: l.267 「金塊はこのアイテムには含めません」, l.393-396 a drawn gold
    tile is 「アイテム以外」; l.247-248 「金塊に乗っている間は…PCが金塊を拾う事も出来ません」
    would say nothing if gold waited for the room to be cleared. With no monster attacking,
    the PC acts freely (l.431-433). So the PC steps in and takes the gold while the bat
    (熟睡) sleeps on; revision 4 offered ``take`` only in a cleared room (F8)."""
    game = room("ez", 1, "1z 3s 4m 1z")  # gold 30, a bat 熟睡
    assert "take" in options(game)
    events = feed(game, "take")
    assert game.pc.gold == 30 and game.position is Position.ROOM and asleep(game) == [1]
    assert of(events, Kind.ITEM)[0]["amount"] == 30
    assert "take" not in options(game)
    assert "take" not in options(room("ez", 1, "1z 3s 4m 1z", revision=4))
    book = dataclasses.replace(DEFAULT_PROFILE, gold_needs_clear_room=True)
    assert "take" not in options(room("ez", 1, "1z 3s 4m 1z", profile=book))


def test_jr_state_2_stepping_in_for_gold_wakes_the_sleepers() -> None:
    """JR-STATE-1 still holds: taking gold from the door is stepping in (l.128-129); a
    睡眠 snake wakes and attacks, so the gold stays where it lies and the fight begins."""
    game = room("ez", 1, "5m 3s 1z 1z")  # a snake 睡眠, gold 30
    events = feed(game, "take")
    assert game.pc.gold == 0 and [w["uid"] for w in of(events, Kind.WAKE)] == [1]
    assert "defend" in options(game) and "take" not in options(game)


def test_jr_ab_goldlover_its_gold_is_not_taken() -> None:
    """JR-AB-GOLDLOVER, l.247-248: the PC cannot take the gold the orc sits on; the other
    pile it may, the orc, awake on its gold, attacking no one (l.431-433)."""
    game = room("ez", 4, "9m 3s 4s 1z")  # an orc (睡眠) on the 3s; 4s lies free
    orc = game.monster(1)
    assert orc.on_gold == 1
    feed(game, "take")
    assert orc.sleep is Sleeping.AWAKE and orc.on_gold == 1 and game.pc.gold == 40
    assert game.room.tiles[1] is not None and "take" not in options(game)


def test_jr_state_2_the_profile_may_keep_gold_for_a_cleared_room(tmp_path: Path) -> None:
    """[DEFAULT] map.gold_needs_clear_room, read from a profile file: true keeps gold with
    the items (l.134-135 read of gold too), as revision 4 played whatever the key says."""
    mine = tmp_path / "mine.toml"
    mine.write_text("[map]\ngold_needs_clear_room = true\n", encoding="utf-8")
    profile = load_profile(mine)
    assert profile.gold_needs_clear_room and not DEFAULT_PROFILE.gold_needs_clear_room
    assert "take" not in options(room("ez", 1, "1z 3s 4m 1z", profile=profile))


def test_jr_ab_gaze_a_blow_that_steps_in_meets_the_gaze_first() -> None:
    """JR-AB-GAZE 「PCがモンスターと同じ部屋にいる時」: a blow at a sleeping medusa from the
    door steps in (JR-STATE-1), which wakes it, and with the PC now in its room the gaze is
    checked before the blow, as it is at the start of a turn after ``enter``."""
    game = room("plus", 18, "1z 5m 1z 1z")  # a medusa asleep (an honour corner)
    events = feed(game, "fight:1 9m 9m")  # the gaze resisted, then the blow
    assert [c["what"] for c in of(events, Kind.CHECK)] == [
        "resist the gaze (睨み判定)", "melee vs メデューサ"]
    assert game.monster(1).sealed or not game.monster(1).alive
    old = room("plus", 18, "1z 5m 1z 1z", revision=4)
    events = feed(old, "fight:1 9m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["melee vs メデューサ"]
