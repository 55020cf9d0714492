"""Rules revision 10 (review64j DEFECTs 2 and 3, RISK 1): a flight leaves by the door the PC
came in by, and a pursued flight never runs back through its pursuers (JR-FLEE-1,
JR-FLEE-2, JR-STATE-1, JR-STATE-2). Seed 000 l.429, l.437: 「逃げる場合はドアから通路に出て、
来た道を引き返します。」; l.439-440 (Plus 挟み撃ち): 「PCが移動する度に、遭遇マップ上の
モンスターの牌を…隣接する様に、その方向へ動かします。」; l.126: 「PCがドアの上から通路に
引き返せば」; l.130-131: 「PCが別のドアから通路に出るには その部屋の起きているモンスターを、
全て倒す必要が有ります。」

Revision 9 kept the route walked whole, walks back included, but a flight took the route's
last room whatever door the PC stood on:

- after a walk back and forth, a pursued flight ran back through the monsters following it,
  once for every walk back (DEFECT 2; Plus cautious seeds 628, 3574 and 4103 do it in
  auto-play, on floor 21);
- after a flight into a room, a second flight left by that room's far door, past a monster
  woken there (DEFECT 3);
- after a flight, a walk to the room fled from was taken as crossing the room, and a walk to
  the route's older room as going back out (RISK 1).

From revision 10 the game keeps ``came_by``, the room behind the door the PC came in by: a
flight with no monster following leaves by that door, a walk there is the walk back, and a
pursued flight goes on back along the route the PC really walked, walks back included, but
never to the room just fled from (the PC is cornered and fights). As first committed
(fed1d167), revision 10 also cut the route's loop where a flight ended, taking up the way
back the PC had when it first came there; review65j found that this let a followed flight
cross a room the PC had never entered, past a 睡眠 monster that entering wakes (l.128-129:
「PCがドアの上から部屋の中に入ると その部屋の睡眠状態のモンスターが、全て起きます」;
DEFECT 1), and cornered the PC where the way it came was open (RISK 1), so revision 10, not
yet released, was changed in place: no cut. The readings are in ``rules defaults``
(JR-FLEE-1 (door), JR-FLEE-2 (back)). A game saved or logged by revision 9 replays by revision 9.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from companion.app.commands.replay import read_log, replay_game
from companion.systems.jongrogue.actions import ChoiceRequest, Verb, input_from_notation
from companion.systems.jongrogue.autoplay import HeadlessPlayer, play
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import Position, Sleeping
from tests.systems.jongrogue.revision_helpers import resumed_by_its_revision
from tests.systems.jongrogue.script import feed, of, options

DATA = Path(__file__).parent / "data"

# Plus: start room 5 empty; room 2 holds an emu (大うずら, 眠: asleep) at its door; back to
# room 5 and on to room 2 again; a blow at the emu wakes it (review64j DEFECT 2, repro 1).
BACK_AND_FORTH = "5m 1z 2z 3z 4z | move:2 3m 1z 2z 3z | move:5 move:2 | fight:1 1m"
# Plus: rooms 5, 6 and 3 empty; 5 → 6 → 3, back to 6, on to 9, where a blow wakes an emu
# (the walk of plus cautious seed 628 on floor 21).
DEAD_END = ("5m 1z 2z 3z 4z | move:6 1z 2z 3z 4z | move:3 1z 2z 3z 4z | move:6 "
            "| move:9 3m 5z 6z 7z | fight:1 1m")
# Plus: start room 5 holds a bat (大こうもり, 熟睡: a top-left honour sleeps it) that the PC
# crosses; 5 → 2 → 1, back to 2, on to 5 (crossing room 2), where a blow wakes the bat.
LOOP_TO_START = ("5m 1z 4m 2z 3z | move:2 1z 2z 3z 4z | move:1 1z 5z 6z 7z | move:2 "
                 "| move:5 | fight:1 1m")
# EZ: start room 5 empty; room 2 holds a bat (熟睡), the PC crossing it; room 1 a snake
# (睡眠). A blow at the snake, a flight to room 2's door to room 1, a blow at the bat
# (review64j DEFECT 3).
FLED_INTO = "5m 1z 2z 3z 4z | move:2 4m 1z 2z 3z | move:1 1m 1z 2z 3z | fight:2 1m | flee 9m"
# Plus: room 2 holds an emu (睡眠); the PC stands on room 2's door from room 5 and walks back,
# goes 5 → 4 → 1 (room 1 holds a bat, 熟睡, left asleep as the PC crosses), stands on room 2's
# door from room 1 and walks back; a blow wakes the bat, a flight to room 2's door to room 1,
# the bat following (review65j DEFECT 1, repro 1).
NEVER_ENTERED = ("5m 1z 2z 3z 4z | move:2 3m 1z 2z 3z | move:5 | move:4 1z 2z 3z 4z "
                 "| move:1 1z 4m 2z 3z | move:2 | move:1 | fight:2 1m | flee 9m")
# Plus seed 1185, a random player's first 124 inputs (review65j DEFECT 1, repro 2): on floor
# 2 the PC, only ever on room 9's door (from 6 and from 8, walking back each time), flees an
# ice monster from room 8 to room 9's door, the monster following; room 9 holds a kestrel
# (睡眠).
SEED_1185 = ('8p 4m 7m 5z 1s fight:2 3p 7p 7z defend 7p 7s '
             '8m fight:2 4s 3p defend 9s defend 7z defend 6p defend 1m '
             'defend 4m defend 5p fight:1 5s move:5 6s 8s 4p 1z move:8 '
             'stairs 5m 4s 5z 4p 9m move:4 9p 4z 7z 1s take '
             'move:5 move:4 move:5 enter move:4 move:5 move:8 2p 2s 9p 7m move:5 '
             'move:8 take move:9 6z 2m 7p 5z move:8 unequip:9p move:5 move:8 move:5 '
             'move:6 6m 1z 9p 2s flee 2p fight:6 4z 5m move:6 move:5 '
             'shoot:3 6p 2z 3s 8s close flee 4s equip:9p 3z 3m fight:3 '
             '6s move:5 take equip:4p move:6 take move:9 move:6 move:9 move:6 move:5 move:6 '
             'move:5 move:6 move:5 move:8 move:9 move:8 shoot:4 5p 4z 5z 3s unequip:9p '
             '2m flee 6m flee')


def tough(game: Game) -> Game:
    game.pc.hp = game.pc.max_hp = 5000
    return game


def flights(game: Game, most: int = 6) -> list[tuple[int, int]]:
    """Flee while a flight is offered (at most ``most`` times): each flight's rooms, from and
    to, its defence's tiles drawn as 9m."""
    done: list[tuple[int, int]] = []
    for _ in range(most):
        if "flee" not in options(game):
            break
        before = game.room_no
        feed(game, "flee")
        while game.pending is not None and not isinstance(game.pending, ChoiceRequest):
            feed(game, "9m")
        done.append((before, game.room_no))
    return done


def moves(events: list[Event]) -> list[tuple[int, str]]:
    return [(m["room"], m["position"]) for m in of(events, Kind.MOVE)]


def test_revision_10_is_played_still() -> None:
    """Revisions 11 (tests/app/test_jongrogue_bound_pc_and_ability_lines.py), 12
    (test_item_kinds.py) and 13 (tests/app/test_replay.py, test_abilities.py) came after
    it; a game saved by revision 10 plays by it."""
    assert RULES_REVISION == 13 and Game("plus", revision=10).revision == 10


def test_jr_flee_2_a_pursued_flight_does_not_double_back_after_a_walk_back() -> None:
    """JR-FLEE-2: walked 5 → 2 → 5 → 2, the PC flees the emu to room 5, the emu following.
    The way back from room 5 is room 2, the room just fled from, the emu between: no
    flight. Revision 9 fled back to room 2 through the emu, and on to room 5 again, once for
    every walk back (review64j DEFECT 2)."""
    game = tough(Game("plus"))
    feed(game, BACK_AND_FORTH)
    assert flights(game) == [(2, 5)]
    assert game.pursuers and game.path == [5, 2] and game.came_by == 2
    assert options(game) == ["fight:1", "defend"]
    old = tough(Game("plus", revision=9))
    feed(old, BACK_AND_FORTH)
    assert flights(old) == [(2, 5), (5, 2), (2, 5)]


def test_jr_flee_2_a_pursued_flight_retraces_the_walk_into_a_dead_end_and_is_cornered() -> None:
    """JR-FLEE-2: walked 5 → 6 → 3 → 6 → 9, the PC flees the emu from room 9 to room 6, then
    back the way it came, into the dead end (room 3) it walked back out of; there the way
    back is room 6, the room just fled from, the emu between: it is cornered and fights.
    Revision 9 fled on back through the emu to room 6, and on to room 5 (plus cautious seed
    628, floor 21). Revision 10 as first committed cut the loop and fled 9 → 6 → 5."""
    game = tough(Game("plus"))
    feed(game, DEAD_END)
    assert game.path == [5, 6, 3, 6]
    assert flights(game) == [(9, 6), (6, 3)]
    assert (game.room_no, game.path, game.came_by) == (3, [5, 6], 6) and game.pursuers
    assert "flee" not in options(game) and "defend" in options(game)
    old = tough(Game("plus", revision=9))
    feed(old, DEAD_END)
    assert flights(old) == [(9, 6), (6, 3), (3, 6), (6, 5)]


def test_jr_flee_2_a_pursued_flight_retraces_the_way_the_pc_came_until_cornered() -> None:
    """JR-FLEE-2 (review65j RISK 1): walked 5 → 2 → 1 → 2 → 5, the PC flees the bat from the
    start room to room 2, then on back the way it came to room 1 (it had crossed room 2 on
    its way 1 → 2 → 5, and the bat follows from room 5's side); from room 1 the way back is
    room 2, the room it fled from, the bat between: the PC is cornered (no flight), though
    the route is not empty. Revision 9 fled on back to room 2, then back to room 5 through
    the bat; revision 10 as first committed cut the loop and cornered the PC in room 2."""
    game = tough(Game("plus"))
    feed(game, LOOP_TO_START)
    assert (game.room_no, game.path) == (5, [5, 2, 1, 2])
    assert flights(game) == [(5, 2), (2, 1)]
    assert game.pursuers and (game.path, game.came_by) == ([5, 2], 2)
    assert options(game) == ["fight:1", "defend"]
    old = tough(Game("plus", revision=9))
    feed(old, LOOP_TO_START)
    assert flights(old) == [(5, 2), (2, 1), (1, 2), (2, 5)]


def _doubled_back(seed: int, revision: int) -> list[tuple[int, int, int]]:
    """The pursued flights of plus cautious ``seed``'s auto-played game that land in the
    room the flight before them left: (floor, that room, the room fled from)."""
    played = play(seed, "plus", "cautious", revision=revision)
    game = Game("plus", revision=revision)
    fled: tuple[int, int] | None = None  # the flight that brought the PC here
    found = []
    for value in played.inputs:
        before, pursued, floor = game.room_no, bool(game.pursuers), game.floor
        verb = getattr(value, "verb", None)
        game.push(value)
        if verb is Verb.FLEE:
            if pursued and fled is not None and fled[1] == before and game.room_no == fled[0]:
                found.append((floor, fled[0], before))
            fled = (before, game.room_no)
        elif verb in (Verb.MOVE, Verb.STAIRS):
            fled = None
    return found


@pytest.mark.parametrize("seed", [628, 3574, 4103])
def test_jr_flee_2_auto_played_games_do_not_run_back_through_their_pursuers(seed: int) -> None:
    """Review64j DEFECT 2 met in auto-play: on floor 21 the cautious player walks 5 → 6 → 3
    → 6 → 9 and flees the monster following it 9 → 6 → 3, then back to room 6 through it.
    By revision 10 no pursued flight lands in the room the flight before it left."""
    assert _doubled_back(seed, 9) == [(21, 6, 3)]
    assert _doubled_back(seed, RULES_REVISION) == []


def test_jr_flee_1_a_flight_after_a_flight_leaves_by_the_door_the_pc_stands_on() -> None:
    """JR-FLEE-1 and JR-STATE-2 (l.130-131): fled from room 1 to room 2's door to room 1, the
    PC wakes the bat in room 2 and flees again: out by the door it stands on, back to room 1
    (EZ: the snake did not follow), not by room 2's far door to room 5 past the awake bat, as
    revision 9 fled (review64j DEFECT 3)."""
    for revision, flight in ((RULES_REVISION, [(2, "corridor"), (1, "door")]),
                             (9, [(2, "corridor"), (5, "door")])):
        game = tough(Game("ez", revision=revision))
        feed(game, FLED_INTO)
        assert (game.room_no, game.position, game.path) == (2, Position.DOOR, [5])
        feed(game, "fight:1 1m")
        assert "flee" in options(game), revision
        assert moves(feed(game, "flee 9m")) == flight, revision


def test_jr_flee_1_a_start_room_fled_back_into_is_fled_from_by_the_door_came_in_by() -> None:
    """JR-FLEE-1 (EZ: the monsters do not follow): fled from room 2's snake back into the
    start room, the PC wakes the bat there and flees again, out by the door it stands on,
    back to room 2 (as ez cautious 1733 does on floor 22, test_golden_games). Revision 9
    ended the way back there, no flight offered. With monsters following (Plus: the snake
    follows the PC back into the start room) the PC is cornered there still, its way back
    the room just fled from (as revision 9 gave no flight there, test_revision_9)."""
    script = "5m 4m 1z 1z 1z | move:2 1m 1z 2z 3z | fight:2 1m | flee 9m | fight:1 1m"
    game = tough(Game("ez"))
    feed(game, script)
    assert (game.room_no, game.path, game.came_by) == (5, [], 2)
    assert moves(feed(game, "flee 9m")) == [(5, "corridor"), (2, "door")]
    old = tough(Game("ez", revision=9))
    feed(old, script)
    assert "flee" not in options(old) and "defend" in options(old)
    plus = tough(Game("plus"))
    feed(plus, "5m 1z 2z 3z 4z | move:2 1m 1z 2z 3z | flee 9m")
    assert (plus.room_no, plus.path, plus.came_by) == (5, [], 2) and plus.pursuers
    assert "flee" not in options(plus) and "defend" in options(plus)


@pytest.mark.parametrize(("walk", "rev10", "rev9"), [
    ("move:1", [(1, "door")], [(2, "room"), (1, "door")]),
    ("move:5", [(2, "room"), (5, "door")], [(5, "door")]),
])
def test_jr_state_2_after_a_flight_the_walk_back_is_to_the_room_fled_from(
        walk: str, rev10: list[tuple[int, str]], rev9: list[tuple[int, str]]) -> None:
    """JR-STATE-1 l.126 (ドアの上から通路に引き返せば) and JR-STATE-2: after the flight from room
    1 the PC is on room 2's door to room 1, so a walk to room 1 goes back out through it,
    and a walk to room 5 crosses room 2 (the PC steps in). Revision 9 had them the other
    way round (review64j RISK 1)."""
    for revision, walked in ((RULES_REVISION, rev10), (9, rev9)):
        game = tough(Game("ez", revision=revision))
        feed(game, FLED_INTO)
        assert moves(feed(game, walk)) == walked, revision


def test_a_revision_9_log_whose_walk_follows_a_flight_replays_by_revision_9() -> None:
    """``play --headless --seed 114 --preset ez --strategy cautious --log`` (revision 8's log,
    revision 9 playing it the same): on floor 21 the PC flees from room 9 to room 8's door
    to room 9 and walks back to room 9. Read by revision 9 it replays to the end; read by
    revision 10 the walk goes back out through the door, no step into room 8 (RISK 1)."""
    (logged,) = read_log(DATA / "log_rev8_walk_back_flee.jsonl")
    logged.header["rules"] = 9
    assert replay_game(logged).difference is None
    logged.header["rules"] = RULES_REVISION
    difference = replay_game(logged).difference
    assert difference is not None
    assert ('the log has {"kind": "move", "position": "room", "room": 8}, the replay gives '
            '{"kind": "move", "position": "door", "room": 9}') in difference


@pytest.mark.parametrize(("rules", "room"), [(9, 5), (RULES_REVISION, 1)])
def test_a_save_resumes_by_its_revision(rules: int, room: int) -> None:
    """A save of the flight after a flight resumes by the revision that played it: revision
    9's PC ends in room 5, revision 10's in room 1, every event as played."""
    inputs = [*FLED_INTO.replace("|", " ").split(), "fight:1", "1m", "flee", "9m"]
    game = resumed_by_its_revision(inputs, rules)
    assert (game.room_no, game.position) == (room, Position.DOOR)


def test_jr_flee_2_a_pursued_flight_never_crosses_a_room_never_entered() -> None:
    """JR-FLEE-2 and JR-STATE-1 (review65j DEFECT 1): the PC was only ever on room 2's door,
    from room 5 and from room 1, walking back each time; fled from room 1 to room 2's door
    to room 1, the bat following, its way back is room 1, the room it fled from: it is
    cornered. Revision 10 as first committed cut the route back to room 5 and fled through
    room 2 to room 5, past its sleeping emu (睡眠), which entering wakes (l.128-129), never
    waking it."""
    game = tough(Game("plus"))
    feed(game, NEVER_ENTERED)
    assert (game.room_no, game.position, game.came_by) == (2, Position.DOOR, 1)
    assert game.pursuers and game.path[-1] == 1
    emu = next(m for m in game.monsters if m.room == 2)
    assert emu.sleep is Sleeping.ASLEEP
    assert options(game) == ["fight:1", "fight:2", "defend"]


def test_jr_flee_2_seed_1185_is_cornered_at_the_door_of_a_room_never_entered() -> None:
    """Review65j DEFECT 1 met in random play (Plus seed 1185, floor 2): the PC on room 9's
    door to room 8, the ice monster following; room 9's kestrel (睡眠) asleep, the PC never
    having entered room 9. The way back is room 8, fled from: no flight. Revision 10 as first
    committed fled 9 → 6 across room 9, the kestrel asleep."""
    inputs = [input_from_notation(token) for token in SEED_1185.split()]
    game = Game.replay(inputs[:-1], "plus")
    assert (game.floor, game.room_no, game.position, game.came_by) == (2, 9, Position.DOOR, 8)
    assert game.pursuers
    kestrel = next(m for m in game.monsters if m.room == 9 and m not in game.pursuers)
    assert kestrel.sleep is Sleeping.ASLEEP
    assert str(inputs[-1]) == "flee" and "flee" not in options(game)


def _random_flights(seed: int, preset: str,
                    most: int = 2500) -> tuple[list[tuple[str, int, int]], Counter[str]]:
    """Play ``preset`` with a random player weighted to flee, walk back and take the door
    (review65j's fuzz player, its tiles drawn as the auto-player draws them for ``seed``);
    list each flight that breaks JR-FLEE-1 (door) or JR-FLEE-2 (back): ("door", from, to)
    for one with no monster following that does not go out by the door the PC came in by
    (``came_by``, ドアから通路に出て, l.429); ("back", from, to) for a followed one back to
    the room just fled from; ("sleeper", from, to) for a followed one that crosses a room
    holding a 睡眠 monster (entering it wakes them, l.128-129, so a crossing there would not
    pass by). Also count the flights checked, "unfollowed" and "followed" (review65j2
    NIT 1: EZ has no monsters following, so without the door check its half checked none)."""
    game, player = Game(preset), HeadlessPlayer(seed)
    rng = random.Random(seed * 31 + 7)
    broken: list[tuple[str, int, int]] = []
    checked: Counter[str] = Counter()
    for _ in range(most):
        request = game.pending
        if request is None:
            break
        if not isinstance(request, ChoiceRequest):
            game.push(player.draw(game))
            continue
        offered = list(request.options)
        flee = [o for o in offered if o.verb is Verb.FLEE]
        door = [o for o in offered if o.verb is Verb.DOOR]
        stairs = [o for o in offered if o.verb is Verb.STAIRS]
        came = (game.path[-1],) if game.path else ()
        back = [o for o in offered
                if o.verb is Verb.MOVE and int(str(o.arg)) in (*came, game.came_by)]
        r = rng.random()
        if flee and r < 0.55:
            choice = flee[0]
        elif door and r < 0.5:
            choice = door[0]
        elif back and r < 0.4:
            choice = rng.choice(back)
        elif stairs and r < 0.5:
            choice = stairs[0]
        else:
            choice = rng.choice(offered)
        room, came_by, floor = game.room_no, game.came_by, game.floor
        followed = bool(game.pursuers)
        asleep = [m for m in game.room_monsters()
                  if m.sleep is Sleeping.ASLEEP and m not in game.pursuers] if room else []
        events = game.push(choice)
        if choice.verb is not Verb.FLEE:
            continue
        while game.pending is not None and not isinstance(game.pending, ChoiceRequest):
            events += game.push(player.draw(game))  # the flee turn's defence, then the way
        to = next((m["room"] for m in of(events, Kind.MOVE) if m["position"] == "door"), None)
        if game.floor != floor or (to is None and game.pending is None):
            continue  # the PC fell to the defence before it left
        if not followed:
            checked["unfollowed"] += 1
            if to != came_by:
                broken.append(("door", room, to))
            continue
        checked["followed"] += 1
        if to == came_by:
            broken.append(("back", room, to))
        elif to is not None and asleep:
            broken.append(("sleeper", room, to))
    return broken, checked


@pytest.mark.parametrize("preset", ["ez", "plus"])
def test_jr_flee_2_no_followed_flight_goes_back_or_past_a_sleeper_in_random_play(
        preset: str) -> None:
    """JR-FLEE-2 (back) over 20 random games of each preset (seeds 1166-1185, Plus 1185
    being the game where revision 10 as first committed crossed room 9 past its kestrel,
    review65j DEFECT 1): no flight with monsters following goes back to the room just fled
    from, nor crosses a room holding a 睡眠 monster; and JR-FLEE-1 (door): every flight with
    none following goes out by the door the PC came in by, the only check EZ can fail (no
    monster follows in EZ, review65j2 NIT 1), so the games must hold such flights, and in
    Plus followed ones too."""
    broken: dict[int, list[tuple[str, int, int]]] = {}
    checked: Counter[str] = Counter()
    for seed in range(1166, 1186):
        found, counted = _random_flights(seed, preset)
        checked.update(counted)
        if found:
            broken[seed] = found
    assert broken == {}
    assert checked["unfollowed"] > 0
    assert (checked["followed"] > 0) is (preset == "plus")
