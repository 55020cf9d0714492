"""An RDM6300's frames that waited in the port while nobody read it are old news (rfid73
DEFECT 1).

A game reads the reader only while it asks for a tile: during a menu or a fight the
module's frames wait in the tty buffer. A tile laid and lifted meanwhile was read at the
next ask as laid then, offered, and counted 3 s later (on one slot a lift withdraws no
offer), though nothing had lain on the reader since the menu. Now a poll a second or more
after the one before takes what it reads as no news and times the tag's absence from then;
a tile still lying there is read again from its next frame (it repeats every 0.1-0.3 s)
and counts, as the tray's catching up does. The start-up window is judged as before.

The reader's UART is a pty; the clock is the test's, moved by hand.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.rdm6300 import STALE_AFTER_SECONDS, Rdm6300Reader, frame
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rdm6300_helpers import Uart, uart_fixture  # noqa: F401 (asked for as uart)

LAID = "0F00A1B2C3"
OTHER = "0F00A1B2C4"
#: When the menu ends and the game asks again: past the start-up window and the pause.
ASK = 10.0


@pytest.fixture
def reader(uart: Uart) -> Iterator[Rdm6300Reader]:
    rdm = Rdm6300Reader(uart.port, TagMap({LAID: Tile.from_notation("7p"),
                                           OTHER: Tile.from_notation("3m")}), clock=uart.clock)
    # The session starts and polls through the start-up window, nothing on the reader.
    for uart.now in (0.0, 0.5, 1.0, 1.5, 2.0):
        assert rdm.poll_events() == []
    yield rdm
    rdm.close()


def moves(events: list[TagEvent]) -> list[tuple[TagAction, str, bool]]:
    return [(e.action, e.uid, e.at_start) for e in events]


def test_a_tile_laid_and_lifted_during_a_menu_gives_nothing_at_the_next_ask(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """Laid for a second of the menu, then lifted: its frames wait in the port. (Read at the
    ask, they gave a PLACED, and the tile counted.)"""
    uart.send(reader, LAID, times=8)
    uart.now = ASK
    assert reader.poll_events() == []
    for uart.now in (ASK + 0.05, ASK + 0.3, ASK + 0.6, ASK + 1.0):
        assert reader.poll_events() == []  # no removal either: nothing was told
    assert reader.uid is None
    assert reader.status().counters["frames"] == 8  # read and counted, as old news


def test_a_tile_laid_during_a_menu_and_still_lying_there_counts(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """Laid ahead during the menu and left: its next frame, read just after the ask, is a
    tile laid, not one lying there at start-up."""
    uart.send(reader, LAID, times=8)
    uart.now = ASK
    assert reader.poll_events() == []
    uart.send(reader, LAID)
    uart.now = ASK + 0.05
    assert moves(reader.poll_events()) == [(TagAction.PLACED, LAID, False)]


def test_a_known_tile_lying_through_the_menu_is_neither_lifted_nor_laid_again(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """A tile read before the menu lies there through it: its backlog and its next frame are
    repeats, no REMOVED and PLACED that would offer it again."""
    uart.send(reader, LAID)
    uart.now = 2.05
    assert moves(reader.poll_events()) == [(TagAction.PLACED, LAID, False)]
    uart.send(reader, LAID, times=30)
    uart.now = ASK
    assert reader.poll_events() == []
    uart.send(reader, LAID)
    uart.now = ASK + 0.2
    assert reader.poll_events() == []
    assert reader.uid == LAID


def test_a_known_tile_swapped_during_the_menu_is_told_from_the_next_frame(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """7p lay there before the menu; during it the player put 3m in its place. The backlog
    (both tags) says nothing; the next frame, 3m's, replaces 7p."""
    uart.send(reader, LAID)
    uart.now = 2.05
    reader.poll_events()
    uart.send(reader, LAID, times=5)
    uart.send(reader, OTHER, times=5)
    uart.now = ASK
    assert reader.poll_events() == []
    uart.send(reader, OTHER)
    uart.now = ASK + 0.1
    assert moves(reader.poll_events()) == [(TagAction.REMOVED, LAID, False),
                                           (TagAction.PLACED, OTHER, False)]


def test_a_tile_lifted_during_the_menu_is_removed_once_silence_is_heard(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """A tile lifted during the menu: its absence is timed from the ask (absent_after, 0.5 s),
    as after a reopening, not from its last frame long before."""
    uart.send(reader, LAID)
    uart.now = 2.05
    reader.poll_events()
    uart.now = ASK
    assert reader.poll_events() == []
    uart.now = ASK + 0.6
    assert moves(reader.poll_events()) == [(TagAction.REMOVED, LAID, False)]


def test_polls_closer_than_the_pause_read_every_frame_as_news(
        uart: Uart, reader: Rdm6300Reader) -> None:
    """Just under a second between two polls (a slow screen) is no pause: the frame read is
    a tile laid."""
    uart.send(reader, LAID)
    uart.now = 2.0 + STALE_AFTER_SECONDS - 0.01
    assert moves(reader.poll_events()) == [(TagAction.PLACED, LAID, False)]


class StallsOnce:
    """``rfid monitor``'s stop flag: past the start-up window, the monitor stalls 1.2 s
    (Ctrl-Z and fg, a slow terminal) while a tile is laid on the RDM6300 and lifted; it
    stops once the monitor has shown the tile, or after 10 s."""

    def __init__(self, uart: Uart, capsys: pytest.CaptureFixture[str]) -> None:
        self.uart, self.capsys = uart, capsys
        self.out = ""
        self.stalled = False
        self.start = time.monotonic()

    @property
    def stopped(self) -> bool:
        self.out += self.capsys.readouterr().out
        elapsed = time.monotonic() - self.start
        if not self.stalled and elapsed > 1.5:
            self.stalled = True
            os.write(self.uart.master, frame(LAID) * 5)
            time.sleep(1.2)
        return '"placed"' in self.out or elapsed > 10

    def __enter__(self) -> StallsOnce:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_the_monitor_shows_a_tile_read_during_a_stall(
        uart: Uart, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The monitor reads the reader all the time: a backlog after a stall holds what its
    user watches for, not a game's stale news (as its tray's, reviewr71 RISK 2)."""
    from companion.app import cli
    from companion.app.commands import rfid

    stop = StallsOnce(uart, capsys)
    monkeypatch.setattr(rfid, "StopSignal", lambda: stop)
    cli.main(["rfid", "monitor", "--port", uart.port, "--kind", "rdm6300", "--json"])
    stop.out += capsys.readouterr().out
    assert stop.stalled and '"placed"' in stop.out, stop.out
