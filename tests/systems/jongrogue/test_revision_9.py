"""Rules revision 9 (audit jr64, DEFECT 1): the route walked on a floor is kept whole
(JR-FLEE-1, JR-STATE-2). Seed 000 l.429: 「逃げる場合はドアから通路に出て、来た道を引き返します。」;
l.130-131: 「PCが別のドアから通路に出るには その部屋の起きているモンスターを、全て倒す必要が
有ります。」

Revision 8 and before took a walk back to the room the PC came from as undoing the last
step of the route. After room 2 → room 1 → back to room 2 the PC stands on room 2's door
to room 1, yet a flight left by room 2's far door to the room before, past the awake
monster; and a start room walked back into offered no flight at all. From revision 9 a walk
back adds the room left to the route, as any walk does, so the flight goes back through the
door the PC stands on.

A game saved or logged by revision 8 replays as it was played (its journal and events are
that revision's): a scripted revision-8 game with a walk back then a flight, its events as
revision 8 recorded them (``data/backflee_rev8.jsonl``), a save of the same game, and a
``play --log`` log revision 8 wrote of an auto-played game that walks back, then flees
(``data/log_rev8_walk_back_flee.jsonl``). Most of the auto-player's games are the same under
both revisions, but a cautious player that walks back, then flees, plays another game
(review64j: 6 of 18,400 games, e.g. ez cautious 1824, kept in test_golden_games as revision
9's game), so a game of revision 8 is no longer offered again by its seed
(``SAME_HEADLESS_GAMES_SINCE`` became 9; revision 10, test_revision_10, raised it to 10).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.commands.replay import Replayed, read_log, replay_game
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import Position
from tests.systems.jongrogue.revision_helpers import resumed_by_its_revision
from tests.systems.jongrogue.script import feed, of, options

DATA = Path(__file__).parent / "data"

# EZ: start room 5 empty; room 2 holds a bat (大こうもり, 熟睡 in EZ: walking through room 2
# lets it sleep on); on to room 1 (empty) and back to room 2, on its door to room 1; a blow
# at the bat misses and the bat, awake, strikes.
WALKED_BACK = "5m 1z 2z 3z 4z | move:2 4m 1z 2z 3z | move:1 1z 2z 3z 4z | move:2 | fight:1 1m"
# EZ: start room 5 holds a bat (熟睡); room 2 is empty; back to the start room, where a blow
# at the bat misses.
START_ROOM_AGAIN = "5m 4m 1z 1z 1z | move:2 1z 2z 3z 4z | move:5 | fight:1 1m"


def tough(game: Game) -> Game:
    game.pc.hp = game.pc.max_hp = 200
    return game


def test_revision_9_is_still_played() -> None:
    """Revision 10 (test_revision_10) came after it; a game of revision 9 still plays by it."""
    assert RULES_REVISION > 9 and Game("ez", revision=9).revision == 9


def test_jr_flee_1_a_flight_after_a_walk_back_retraces_the_way_the_pc_came() -> None:
    """JR-FLEE-1 (l.429: 来た道を引き返します): the PC came into room 2 from room 1, so it
    flees to room 1, through the door it stands on; revision 8 sent it out by room 2's far
    door to room 5, past the awake bat (JR-STATE-2, l.130-131)."""
    game = tough(Game("ez", revision=9))
    feed(game, WALKED_BACK)
    assert game.room_no == 2 and game.path[-1] == 1 and "flee" in options(game)
    events = feed(game, "flee 9m")
    assert [m["room"] for m in of(events, Kind.MOVE)] == [2, 1]
    assert (game.room_no, game.position) == (1, Position.DOOR)
    old = tough(Game("ez", revision=8))
    feed(old, WALKED_BACK)
    assert [m["room"] for m in of(feed(old, "flee 9m"), Kind.MOVE)] == [2, 5]


def test_jr_flee_1_a_start_room_walked_back_into_may_be_fled_from() -> None:
    """JR-FLEE-1 by revision 9: no flight from a floor's start room only while the way back
    is empty; walked back into from room 2, it is fled from back to room 2. Revision 8
    offered no flight."""
    game = tough(Game("ez", revision=9))
    feed(game, START_ROOM_AGAIN)
    assert game.room_no == 5 and game.attackers()
    assert "flee" in options(game)
    events = feed(game, "flee 9m")
    assert [m["room"] for m in of(events, Kind.MOVE)] == [5, 2]
    old = tough(Game("ez", revision=8))
    feed(old, START_ROOM_AGAIN)
    assert "flee" not in options(old) and not old.path


def test_jr_flee_1_a_start_room_fled_back_into_offers_no_flight() -> None:
    """JR-FLEE-1 (revision 9's reading in ``rules defaults``): Plus, start room 5, then room 2
    with an awake snake; the PC flees back into room 5, the snake following (JR-FLEE-2).
    The way back ends there, so no flight is offered, though the PC had left the start
    room. (Revision 10 corners the PC there too, its pursuers at the only door back:
    test_revision_10.)"""
    game = tough(Game("plus", revision=9))
    feed(game, "5m 1z 2z 3z 4z | move:2 1m 1z 2z 3z")
    assert game.room_no == 2 and "flee" in options(game)
    feed(game, "flee 9m")
    assert game.room_no == 5 and game.pursuers and not game.path
    assert "flee" not in options(game) and "defend" in options(game)

def test_jr_state_2_a_walk_on_after_a_walk_back_crosses_the_room() -> None:
    """JR-STATE-2: on room 2's door to room 1, a walk to room 5 goes through room 2 (the PC
    steps into it, as on any walk from a door to another room); revision 8 took room 5 as
    the way back and the PC passed room 2 by without entering it."""
    for revision, crossed in ((9, True), (8, False)):
        game = tough(Game("ez", revision=revision))
        feed(game, "5m 1z 2z 3z 4z | move:2 4m 1z 2z 3z | move:1 1z 2z 3z 4z | move:2")
        events = feed(game, "move:5")
        moves = [(m["room"], m["position"]) for m in of(events, Kind.MOVE)]
        assert moves == ([(2, "room"), (5, "door")] if crossed else [(5, "door")]), revision


def test_the_route_keeps_the_walks_back() -> None:
    """JR-FLEE-1: by revision 9 the route is every room walked from, walks back included:
    5 → 2 → 1 → 2 → 3 leaves 5, 2, 1, 2 to retrace: room 3 is fled from back to room 2,
    and room 2 would be from back to room 1; revision 8 kept 5, 2, the walk back to room 2
    taken off with the step before it."""
    walk = ("5m 1z 2z 3z 4z | move:2 1z 2z 3z 4z | move:1 1z 2z 3z 4z | move:2 "
            "| move:3 1m 1z 2z 3z")
    game, old = Game("ez", revision=9), Game("ez", revision=8)
    feed(game, walk)
    feed(old, walk)
    assert game.path == [5, 2, 1, 2] and old.path == [5, 2]
    feed(game, "fight:1 1m")  # room 3's snake (睡眠) woken by a blow from the door
    assert [(m["room"], m["position"]) for m in of(feed(game, "flee 9m"), Kind.MOVE)] == [
        (3, "corridor"), (2, "door")]
    assert game.path == [5, 2, 1]


def _recorded() -> tuple[dict[str, object], list[dict[str, object]]]:
    header, *events = (json.loads(line) for line in
                       (DATA / "backflee_rev8.jsonl").read_text("utf-8").splitlines())
    return header, events


def _played(header: dict[str, object], revision: int) -> list[dict[str, object]]:
    game = Game(str(header["preset"]), revision=revision)
    game.pc.hp = game.pc.max_hp = int(str(header["hp"]))
    feed(game, str(header["inputs"]))
    return [json.loads(json.dumps(e.to_json(), ensure_ascii=False)) for e in game.events]


def test_a_revision_8_game_with_a_walk_back_then_a_flight_gives_the_events_it_gave() -> None:
    """The walk back and the flight played by revision 8 (``data/backflee_rev8.jsonl``, its
    events as revision 8 recorded them) give the same events, event for event, as a saved
    or logged game replays by its revision; read by revision 9 the flight ends in room 1."""
    header, recorded = _recorded()
    assert header["rules"] == 8
    assert _played(header, 8) == recorded
    newest = _played(header, 9)
    first = next(i for i, (a, b) in enumerate(zip(recorded, newest, strict=True)) if a != b)
    assert recorded[first] == {"kind": "move", "room": 5, "position": "door"}
    assert newest[first] == {"kind": "move", "room": 1, "position": "door"}
    assert recorded[first - 1] == newest[first - 1] == {
        "kind": "move", "room": 2, "position": "corridor", "flee": True}


@pytest.mark.parametrize(("rules", "room"), [(8, 5), (9, 1)])
def test_a_save_resumes_by_its_revision(rules: int, room: int) -> None:
    """A save of the walk back and the flight resumes by the revision that played it: a
    revision-8 save has the PC where revision 8 put it (room 5, then room 4 by room 5's
    door), every event counted as then; a revision-9 one has it in room 1, then room 4."""
    game = resumed_by_its_revision(str(_recorded()[0]["inputs"]).split(), rules)
    flight = next(i for i, e in enumerate(game.events) if e.data.get("flee"))
    assert game.events[flight + 1].data == {"room": room, "position": "door"}
    assert game.room_no == 4


def _flights_after_a_walk_back(events: list[dict[str, object]]) -> int:
    """How many flights of a logged game come after a walk back on the same floor: the route
    kept as revision 8 kept it (a flight or a walk back takes its last room off), a walk back
    being one to the route's last room."""
    found, room, walked_back, fled = 0, 0, False, False
    route: list[int] = []
    for event in events:
        if event["kind"] == "floor":
            route, room, walked_back = [], 0, False
        elif event["kind"] == "move" and event.get("flee"):
            fled = True
            found += walked_back
        elif event["kind"] == "move" and event["position"] == "door" and event["room"] != room:
            arrived = int(str(event["room"]))
            if fled or (route and arrived == route[-1]):
                walked_back |= not fled
                route.pop()
            elif room:
                route.append(room)
            room, fled = arrived, False
    return found


def test_a_revision_8_log_with_a_walk_back_then_a_flight_replays() -> None:
    """``companion play --headless --seed 114 --preset ez --strategy cautious --log``
    written by revision 8: on floor 21 the auto-player flees from room 6 to room 3, walks
    back to room 2, walks on to rooms 5, 8 and 9 and flees again. The log replays by its
    revision, every event matching, to the end; and by revision 9 too: the second flight is
    from a room walked on to, so the route ends in the same room (room 8) either way. (By
    revision 10 the walk from room 8's door back to room 9, fled from, no longer steps into
    room 8: test_revision_10.)"""
    path = DATA / "log_rev8_walk_back_flee.jsonl"
    (logged,) = read_log(path)
    assert logged.header["rules"] == 8
    assert _flights_after_a_walk_back(logged.events) >= 1
    assert replay_game(logged) == Replayed(difference=None, finished=True)
    logged.header["rules"] = 9
    assert replay_game(logged) == Replayed(difference=None, finished=True)
