"""Rules revision 4 (audit of seed 000, F3): the medusa's gaze (睨み判定) is checked only
while the PC is in its room, not while the PC stands on its door. Revision 3, which a game
saved or logged before it still replays by, gazed on the door too (test_revision_3)."""

from __future__ import annotations

from companion.systems.jongrogue.actions import ChoiceRequest
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import PCState, Position
from tests.systems.jongrogue.script import feed, of, options

GAZE = "resist the gaze (睨み判定)"


def medusa(revision: int, room: str) -> Game:
    """Plus, floor 18, the PC tough enough to watch; start room 5 holds ``room``."""
    game = Game("plus", revision=revision)
    game.floor = 18
    game.pc.hp = game.pc.max_hp = 300
    feed(game, f"5m {room}")
    return game


def gazes(game: Game, script: str = "") -> list[str]:
    return [c["what"] for c in of(feed(game, script), Kind.CHECK) if c["what"] == GAZE]


def test_jr_ab_gaze_the_pc_on_the_door_is_not_gazed_at() -> None:
    """JR-AB-GAZE: 「PCがモンスターと同じ部屋にいる時」, and the seed tells ドアの上 from
    部屋の中 (JR-STATE-1, JR-MULTI-1). An awake medusa met with the PC on the door asked
    for the gaze check before the PC could act, and at every turn it fought from the door;
    now the PC on the door is asked what to do, and turns at the door bring no check."""
    game = medusa(RULES_REVISION, "5m 1z 1z 1z")  # an awake medusa (sleep check 5, 5)
    assert game.position is Position.DOOR and game.monster(1).sleep.value == "awake"
    assert isinstance(game.pending, ChoiceRequest)
    assert {"fight:1", "defend"} <= set(options(game))
    assert gazes(game, "defend 9m | fight:1 1m") == []  # a defended turn, a missed blow
    assert not game.monster(1).sealed and PCState.CONFUSED not in game.pc.states
    old = medusa(3, "5m 1z 1z 1z")
    assert not isinstance(old.pending, ChoiceRequest)  # revision 3: the gaze's draw first
    feed(old, "1m")
    assert old.monster(1).sealed and PCState.CONFUSED in old.pc.states


def test_jr_ab_gaze_is_checked_as_the_pc_steps_into_the_room() -> None:
    """JR-AB-GAZE: on the door the PC is not gazed at (revision 3 gazed at the PC on the
    door); stepping in (JR-STATE-1) wakes the medusa asleep (睡眠), and the gaze is checked
    at the start of the PC's first turn in the room: a failed 1d9 >= 4 confuses, and the
    medusa is sealed, its one check made."""
    awake = medusa(RULES_REVISION, "5m 1z 1z 1z")  # awake (sleep check 5, 5): the door
    assert gazes(awake) == [] and isinstance(awake.pending, ChoiceRequest)
    asleep = medusa(RULES_REVISION, "1z 5m 1z 1z")  # asleep (an honour corner)
    assert gazes(asleep) == [] and "enter" in options(asleep)
    events = feed(asleep, "enter")
    assert asleep.position is Position.ROOM and asleep.monster(1).sleep.value == "awake"
    assert of(events, Kind.WAKE) and not isinstance(asleep.pending, ChoiceRequest)
    events = feed(asleep, "1m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == [GAZE]
    assert PCState.CONFUSED in asleep.pc.states and asleep.monster(1).sealed
    assert gazes(asleep, "defend 9m") == []  # sealed: gazes once

