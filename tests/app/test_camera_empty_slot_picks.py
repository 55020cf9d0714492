"""The tile camera's list of every legal tile, for a slot read as empty (long ITEM press).

fixcam71c: a tile the camera reads as empty (a blank White 5z 白 taken for bare paper) can be
given. The item button's long press (MENU, key m), which does nothing while a tile is awaited
and none is offered, opens every legal tile to pick (misread_picks, the two-rejects list);
the status says so once the slot has read empty for EMPTY_HINT_SECONDS, with a camera only."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.session.controls import Confirm, Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import (
    EMPTY_HINT,
    EMPTY_HINT_SECONDS,
    MISREAD_HINT,
    OTHER,
    READS_EMPTY,
    STARTING_STATUS,
    ReadState,
    TableTiles,
    misread_picks,
    wait_for_tile,
)
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader
from companion.hw.display.screen import ScreenDisplay
from companion.hw.ports import Slot, SlotReading
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, EMPTY
from companion.systems.jongrogue.wall import TileLedger
from tests.app.camera_pick_helpers import (
    PickScreen,
    ScriptedReader,
    Stop,
    play_to_first_tile,
    resumed_from_save,
    stop_at_first_tile,
)
from tests.app.camera_table_helpers import POLL, StillMat, Table
from tests.app.session_helpers import StepClock
from tests.app.status_fit_helpers import fits


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


class Player:
    """A player who laid a 5z the camera reads as bare paper: holds item once the status says
    how (or at ``press_at`` game seconds), then picks ``want`` among the picks."""

    def __init__(self, now: Callable[[], float], want: str = "5z",
                 press_at: float | None = None) -> None:
        self.now, self.want, self.press_at = now, want, press_at
        self.shown: list[tuple[float, str, tuple[str, ...]]] = []
        self.pressed = False

    def show(self, status: str, picks: tuple[str, ...]) -> None:
        self.shown.append((self.now(), status, picks))

    def poll(self) -> list[Press]:
        status, picks = (self.shown[-1][1], self.shown[-1][2]) if self.shown else ("", ())
        if self.want in picks and self.now() - self.opened_at() > 1.0:
            return [Pick(picks.index(self.want))]
        due = status == EMPTY_HINT if self.press_at is None else self.now() >= self.press_at
        if due and not self.pressed:
            self.pressed = True
            return [Button.MENU]
        return []

    def opened_at(self) -> float:
        return next(t for t, _, picks in self.shown if picks)


def _empty_table(classifier: TileClassifier) -> tuple[Table, Player]:
    """The real camera reader over a rendered mat whose draw slot shows bare paper."""
    table = Table(classifier, {}, TileLedger())
    player = Player(lambda: table.now)
    table.tiles = TableTiles(table.reader, Controls([player], clock=lambda: table.now),
                             accept_seconds=3.0, poll_seconds=POLL, sleep=table.sleep,
                             clock=lambda: table.now)
    shown = table.show

    def show(prompt: str, **kwargs: object) -> None:
        shown(prompt, **kwargs)
        player.show(table.shown[-1][1], table.shown[-1][3])

    table.show = show  # type: ignore[method-assign]
    return table, player


def test_a_tile_the_camera_reads_as_empty_is_picked_after_a_long_press_of_item(
        classifier: TileClassifier) -> None:
    """The real reader calls the draw slot empty (a blank White lies there, bare paper to it):
    nothing was offered and the player waited for ever. After EMPTY_HINT_SECONDS the status
    says to hold item; that opens every legal tile, the list the two-rejects path offers,
    and the 5z picked counts."""
    table, player = _empty_table(classifier)
    ledger = TileLedger()
    tile = table.read(TileAsk("Draw a tile", Slot.DRAW, ledger), limit=30.0)
    assert str(tile) == "5z"
    hinted = [t for t, status, _ in player.shown if status == EMPTY_HINT]
    assert hinted and hinted[0] >= EMPTY_HINT_SECONDS
    assert all(not picks for t, _, picks in player.shown if t < hinted[0])  # nothing before
    quiet = ("", STARTING_STATUS, EMPTY_HINT)
    assert all(status in quiet for _, status, picks in player.shown if not picks)
    # With the hint, "Other tile…" alone, to tap (fixcam71d); the long press opens the list.
    assert next(picks for _, _, picks in player.shown if picks) == (OTHER,)
    offered = next(picks for _, _, picks in player.shown if len(picks) > 1)
    reading = table.tiles.state.latest[Slot.DRAW]
    assert reading.label == EMPTY
    assert offered == tuple(map(str, misread_picks(reading, ledger, "")))
    assert sorted(offered) == sorted(map(str, ALL_KINDS))
    status = next(status for _, status, picks in player.shown if len(picks) > 1)
    assert status == READS_EMPTY + MISREAD_HINT


def test_the_long_press_opens_the_picks_before_the_hint_too(classifier: TileClassifier) -> None:
    """A player who knows the press need not wait for the hint."""
    table, player = _empty_table(classifier)
    player.press_at = 2.0
    tile = table.read(TileAsk("Draw a tile", Slot.DRAW, TileLedger()), limit=8.0)
    assert str(tile) == "5z"
    assert not any(status == EMPTY_HINT for _, status, _ in player.shown)


def test_a_tile_picked_on_a_slot_read_empty_is_saved_and_replayed_on_resume(
        tmp_path: Path, classifier: TileClassifier) -> None:
    """The pick is the player's word, journalled as any pick: `play --resume` replays it."""
    clock = StepClock()
    player = Player(clock)
    game, save_path = Game("plus"), tmp_path / "game.json"
    sleep = stop_at_first_tile(game, clock, 40, lambda: player.shown)
    reader = CameraTileReader(StillMat({}), classifier, ledger=game.ledger)
    play_to_first_tile(game, save_path, reader, player, PickScreen(player), sleep, clock,
                       poll_seconds=POLL)
    assert str(game.inputs[0]) == "5z"
    resumed_from_save(game, save_path, "5z")


class Reader(ScriptedReader):
    """Every slot read empty, then nothing new; ``still`` makes it a camera (TellsStill)."""

    def __init__(self, uid: str | None = None) -> None:
        self.script = deque([[SlotReading(slot, EMPTY, 1.0, uid=uid) for slot in Slot]])


class CameraReader(Reader):
    def still(self, slot: Slot) -> bool:
        return True


@pytest.mark.parametrize("reader", [Reader(), CameraReader(uid="04040300")],
                         ids=["rfid-or-sim", "a-sticker-reading"])
def test_without_a_camera_s_empty_read_nothing_changes(reader: Reader) -> None:
    """RFID and sim input read no tile as empty: no hint, and MENU still does nothing."""
    clock = StepClock()
    shown: list[tuple[str, tuple[str, ...]]] = []
    menu: list[Press] = [Button.MENU]
    nothing: list[Press] = []
    presses = deque([menu] * 3 + [nothing] * 150 + [menu])

    class Hands:
        def poll(self) -> list[Press]:
            return presses.popleft() if presses else []

    def sleep(seconds: float) -> None:
        if clock.now > 20:
            raise Stop
        clock.sleep(seconds)

    with pytest.raises(Stop):
        wait_for_tile(reader, ReadState(startup=True, clock=clock), Slot.DRAW, TileLedger(),
                      Controls([Hands()]), Confirm(3.0, clock),
                      lambda status, t, picks, lit, guided: shown.append(
                          (status, tuple(map(str, picks)))),
                      poll_seconds=0.1, sleep=sleep)
    assert shown and all(status == "" and not picks for status, picks in shown)


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_hint_and_the_status_beside_every_legal_tile_fit_the_screen(size: str) -> None:
    screen = ScreenDisplay(size)
    assert fits(screen, EMPTY_HINT)
    picks = misread_picks(SlotReading(Slot.DRAW, EMPTY, 1.0), TileLedger(), "")
    assert fits(screen, READS_EMPTY + MISREAD_HINT, picks=picks)
