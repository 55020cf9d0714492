"""A tile lying on a single RDM6300 when the session starts is not counted, however late the
session's second poll comes (flaky64 P1).

The start-up rule (``ReadState.update``) takes an RDM6300's first readings for tiles that lay
there if they come within ``startup_seconds`` of the poll that first found it answering. It
judged by when the poll read them: a second poll more than a second after the first (a Pi
starved at boot, a slow first screen) made a tile lying there a fresh draw, counted again
after a power cut and ``--resume``. A reading may have waited in the port since the poll
before, and that poll's time is judged. The tray (its snapshot comes with its hello, no
window) and the camera (no stickers) are judged as before.
"""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from typing import Any

import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import RDM6300_STARTUP_SECONDS, ReadState, TableTiles
from companion.hw.buttons import Press
from companion.hw.ports import Slot, SlotReading
from companion.hw.rfid.rdm6300 import Rdm6300Reader, Rdm6300Settings, frame
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.session_helpers import StepClock

TAG = "0F00A1B2C3"
THREE_SOU = Tile.from_notation("3s")


def sticker(uid: str = TAG, label: str = "3s") -> SlotReading:
    return SlotReading(Slot.DRAW, label, 1.0, uid=uid)


def one_slot_state(clock: StepClock) -> ReadState:
    return ReadState(clock=clock, startup=True, startup_seconds=RDM6300_STARTUP_SECONDS)


@pytest.mark.parametrize("late", [1.2, 3.0])
def test_a_sticker_read_by_a_late_second_poll_lay_there_at_start(late: float) -> None:
    """The first poll finds the RDM6300 answering, no tag read yet; the next comes ``late`` s
    after: the tag it reads may have come just after the first. (It was fresh.)"""
    clock = StepClock()
    state = one_slot_state(clock)
    state.update([], working=True)
    clock.now = late
    state.update([sticker()], working=True)
    assert Slot.DRAW in state.at_start and Slot.DRAW not in state.fresh
    assert state.used[Slot.DRAW] == TAG  # its flicker is no new tile either


def test_a_sticker_read_after_polls_through_the_window_is_fresh() -> None:
    """Polls found nothing for the whole second: a tile read after them was laid since (the
    tile is asked for only once the reader is ready, past the window)."""
    clock = StepClock()
    state = one_slot_state(clock)
    for clock.now in (0.0, 0.5, 1.05):
        state.update([], working=True)
    assert state.ready()
    clock.now = 1.1
    state.update([sticker()], working=True)
    assert Slot.DRAW in state.fresh and not state.at_start


def test_the_trays_first_readings_are_judged_as_before() -> None:
    """No window (the tray's snapshot comes with its hello, in the poll that finds it
    working): a first batch read by a later poll is fresh, as it was."""
    clock = StepClock()
    state = ReadState(clock=clock, startup=True)
    state.update([], working=True)
    clock.now = 0.05
    state.update([sticker()], working=True)
    assert Slot.DRAW in state.fresh and not state.at_start


class Module:
    """The RDM6300's side of the UART, with the tag lying on it; and the session's clock."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.clock = StepClock()
        self.reader = Rdm6300Reader(self.port, TagMap({TAG: THREE_SOU}), clock=self.clock,
                                    settings=Rdm6300Settings(absent_after=0.5))
        self.lying = True  # the tag is on the reader
        self.laid_again_at = 0.0

    def repeat(self) -> None:
        """The module repeats the frame of a tag in its field, read by the next poll."""
        if self.lying and self.reader.link.is_open:
            os.write(self.master, frame(TAG))
            self.reader.wait(5.0)

    def close(self) -> None:
        self.reader.close()
        os.close(self.master)
        os.close(self.slave)


class Hands:
    """No press; the player lifts the tile at 3 s and lays it again at 9 s (lifted for more
    than ReadState.relay_seconds, so it is no flicker). Each poll is a frame's time."""

    def __init__(self, module: Module) -> None:
        self.module = module

    def poll(self) -> list[Press]:
        now = self.module.clock.now
        if now > 20:
            raise TimeoutError("the tile laid again was never counted")
        lying = not 3.0 <= now < 9.0
        if lying and not self.module.lying:
            self.module.laid_again_at = now
        self.module.lying = lying
        self.module.repeat()
        return []


@pytest.fixture
def module() -> Iterator[Module]:
    m = Module()
    yield m
    m.close()


def test_a_tile_lying_on_the_reader_when_a_slow_session_starts_counts_only_laid_again(
        module: Module) -> None:
    """The session's first screen after the port opened takes 1.2 s to draw (a Pi starved at
    boot): the tile lying on the reader is refused as lying there at start-up, and counts when
    lifted and laid again. (It was offered, then counted 0.5 s later: a double count.)"""
    tiles = TableTiles(module.reader, Controls([Hands(module)], clock=module.clock),
                       accept_seconds=0.5, poll_seconds=0.05, sleep=module.clock.sleep,
                       clock=module.clock, one_slot=True)
    statuses: list[tuple[float, str]] = []
    slow = [True]

    def show(prompt: str, **kwargs: Any) -> None:
        statuses.append((module.clock.now, kwargs.get("status", "")))
        if module.reader.link.is_open and slow:
            slow.clear()
            module.clock.now += 1.2  # the first screen drawn after the port opened

    tile = tiles.next_tile(TileAsk("Draw a tile 牌を引いて", Slot.DRAW, TileLedger()), show)
    assert tile == THREE_SOU
    assert module.clock.now > module.laid_again_at >= 9.0  # counted only once laid again
    refused = [at for at, status in statuses
               if status.startswith("a tile lay on the draw slot at start-up")]
    assert refused and refused[0] < 2.0
