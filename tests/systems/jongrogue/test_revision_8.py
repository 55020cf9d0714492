"""Rules revision 8 (door62): in ranged combat a PC standing on the door is not offered
"To the door ドアへ" (JR-RANGED-2). The seed's option is a move, 「ドアの上に移動する（遠隔戦闘は
終了）」 (l.411); on the door there is none to make, and revision 7 offered it there as a
second "Close in 近接戦闘": both ended ranged combat and left the PC where it stood. In the
room it is still offered, and moves the PC onto the door. The engine puts the PC only on a
door or in a room (the corridor is passed through in a flight, never stood in), and the
auto-played games below meet ranged combat in both. A game saved by revision 7 replays as
played and plays on by it; its logs, all the auto-player's, play the same under both
revisions (test_golden_games: no strategy moves onto the door)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.app.commands.play import resumed_mode
from companion.app.config import load_config
from companion.app.session.save import CorruptSave, SaveGame
from companion.errors import IllegalAction
from companion.systems.jongrogue.actions import ChoiceRequest, Verb, input_from_notation
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import Position
from tests.systems.jongrogue.script import feed, of, options

# Plus, floor 1, start room 5: an awake snake (大蛇) met from the door; a shot missed and the
# next ranged turn's check holding.
AT_THE_DOOR = "5m 1m 6z 6z 6z shoot:1 3m 2m 4m".split()
# The same snake asleep (睡眠: an honour tile in the room's top-left corner), woken by the PC
# stepping into the room, then shot at from there as above.
IN_THE_ROOM = "5m 1z 1m 2z 3z enter shoot:1 3m 2m 4m".split()


def played(script: list[str], revision: int = RULES_REVISION) -> Game:
    game = Game("plus", revision=revision)
    game.pc.hp = game.pc.max_hp = 200
    feed(game, " ".join(script))
    assert game.pending is not None and game.pending.prompt.startswith("Ranged combat")
    return game


def test_jr_ranged_2_on_the_door_the_pc_closes_in_and_is_not_offered_the_door() -> None:
    game = played(AT_THE_DOOR)
    assert game.position is Position.DOOR
    assert options(game) == ["shoot:1", "close"]
    with pytest.raises(IllegalAction, match="door is not a choice now"):
        feed(game, "door")
    events = feed(game, "close")
    assert of(events, Kind.RANGED) == [{"action": "end"}] and game.melee_started
    assert game.position is Position.DOOR and options(game) == ["fight:1", "defend"]


def test_revision_7_offered_the_door_on_it_as_a_second_close_in() -> None:
    """Revision 7's "door" on the door did what "close" does: the same events, the PC on the
    door, in melee."""
    assert options(played(AT_THE_DOOR, 7)) == ["shoot:1", "close", "door"]
    ends = {}
    for verb in ("close", "door"):
        game = played(AT_THE_DOOR, 7)
        ends[verb] = ([e.to_json() for e in feed(game, verb)], game.position, options(game))
    assert ends["door"] == ends["close"]
    assert ends["door"][1:] == (Position.DOOR, ["fight:1", "defend"])


@pytest.mark.parametrize("revision", [RULES_REVISION, 7])
def test_jr_ranged_2_in_the_room_the_pc_may_move_onto_the_door(revision: int) -> None:
    game = played(IN_THE_ROOM, revision)
    assert game.position is Position.ROOM
    assert options(game) == ["shoot:1", "close", "door"]
    events = feed(game, "door")
    assert of(events, Kind.RANGED) == [{"action": "end"}] and game.melee_started
    assert game.position is Position.DOOR and options(game) == ["fight:1", "defend"]


# The move onto the door, as the PC's arrival at a door says it (door62b): from revision 8
# the log says it, before the ranged combat it ends ends; revision 7 moved the PC unsaid,
# and its games replay event for event as they were logged and saved.
MOVED = [("move", {"room": 5, "position": "door"}), ("ranged", {"action": "end"})]


@pytest.mark.parametrize(("revision", "said"), [(RULES_REVISION, MOVED), (7, MOVED[1:])])
def test_the_move_onto_the_door_from_the_room_is_told_from_revision_8(
        revision: int, said: list[tuple[str, dict[str, object]]]) -> None:
    game = played(IN_THE_ROOM, revision)
    events = feed(game, "door")
    assert [(e.kind.value, e.data) for e in events] == said
    assert game.events[-len(said):] == events
    if revision >= 8:
        assert [e.describe() for e in events] == [
            "The PC is on the door of room 5 (部屋5のドア)", "  Ranged combat ends (遠隔戦闘終了)"]
    # Closing in moves nothing, and says no move by either revision.
    game = played(IN_THE_ROOM, revision)
    assert [(e.kind.value, e.data) for e in feed(game, "close")] == MOVED[1:]
    assert game.position is Position.ROOM


def moved_in_the_room(rules: int, counted_by: int) -> SaveGame:
    """A save that moved onto the door from the room in ranged combat, then fought on, its
    events counted as ``counted_by`` plays them."""
    inputs = [*IN_THE_ROOM, "door", "fight:1", "9m"]
    game = Game.replay([input_from_notation(i) for i in inputs], "plus", revision=counted_by)
    return SaveGame(seed=1, preset="plus", input_kind="camera", inputs=inputs,
                    events=len(game.events), rules=rules)


def test_a_revision_7_save_that_moved_onto_the_door_from_the_room_replays_unsaid() -> None:
    """A revision-7 save's events are counted when it resumes: it replays by revision 7, the
    move unsaid, so its count holds; a revision-8 game says the move, one event more."""
    game = resumed_mode(moved_in_the_room(7, 7), "camera", load_config()).game
    assert game.revision == 7 and Kind.MOVE not in [e.kind for e in game.events[-4:]]
    counted = moved_in_the_room(7, 7).events
    game = resumed_mode(moved_in_the_room(8, 8), "camera", load_config()).game
    assert game.revision == 8 and len(game.events) == counted + 1
    with pytest.raises(CorruptSave, match=rf"the save expected {counted} events, replaying its "
                                          rf"inputs gave {counted + 1}: the save was edited, or "
                                          r"this companion plays its rules revision 8 "
                                          r"differently"):
        resumed_mode(moved_in_the_room(8, 7), "camera", load_config())


def test_ranged_combat_is_met_on_the_door_and_in_the_room_only() -> None:
    """Every ranged turn of 50 auto-played games (plus and EZ, cautious: the strategy that
    shoots) stands on a door or in a room, both met; the door is offered in the room only."""
    seen: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for preset in ("plus", "ez"):
        for seed in range(25):
            game, player = Game(preset), HeadlessPlayer(seed, "cautious")
            while game.pending is not None:
                request = game.pending
                if isinstance(request, ChoiceRequest) and request.prompt.startswith("Ranged"):
                    ends = tuple(str(c) for c in request.options
                                 if c.verb in (Verb.CLOSE, Verb.DOOR))
                    seen[game.position.value, ends] += 1
                game.push(player.answer(game))
    assert set(seen) == {("door", ("close",)), ("room", ("close", "door"))}


def saved(rules: int) -> SaveGame:
    """A save whose journal chose "door" on the door in ranged combat, then fought on (the
    snake falls) and walked to room 2's door, where another snake waits."""
    inputs = [*AT_THE_DOOR, "door", "fight:1", "9m", "move:2", "1m", "7z", "7z", "7z"]
    game = Game.replay([input_from_notation(i) for i in inputs], "plus", revision=7)
    assert (game.room_no, game.position) == (2, Position.DOOR)
    return SaveGame(seed=1, preset="plus", input_kind="camera", inputs=inputs,
                    events=len(game.events), rules=rules)


def test_a_revision_7_save_that_moved_onto_the_door_on_it_replays_and_plays_on_by_7() -> None:
    """Resumed, the revision-7 save plays on by revision 7, which offers the door on the
    door again in the next ranged combat; read as revision 8 its journal does not replay at
    the "door"."""
    game = resumed_mode(saved(7), "camera", load_config()).game
    assert game.revision == 7 and options(game) == ["fight:2", "shoot:2", "defend", "flee"]
    feed(game, "shoot:2 3m 2m 4m")
    assert game.position is Position.DOOR and options(game) == ["shoot:2", "close", "door"]
    with pytest.raises(CorruptSave, match=r"does not replay at input 10 \('door'\)"):
        resumed_mode(saved(8), "camera", load_config())
