"""rfid71 DEFECT 1: a tile laid and lifted while the game was not reading the tray.

A game reads the tray only while it asks for a tile. Meanwhile the host's buffer fills
(minutes of heartbeats; here the tray's heartbeat is sped up so seconds do) and the tray,
as MicroPython does, drops the lines it cannot send: the backlog keeps the PLACE of a tile
laid then and loses the REMOVE of its lift. The real firmware logic (TraySimulator, on a
pty) and the real TrayReader and wait_for_tile: no button is pressed, so only the
timeout counts what is offered.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import ReadState, wait_for_tile
from companion.hw.buttons import Press
from companion.hw.ports import Slot
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger

UID_7P = "04000009"
UID_3M = "04000001"


class NoHands:
    """Buttons nobody presses."""

    def poll(self) -> list[Press]:
        return []


class Table:
    """The simulated tray, counting the lines it could not send (a full buffer)."""

    def __init__(self) -> None:
        self.sim = TraySimulator(retry_ms=50, heartbeat_ms=2)  # 500 times a real tray's
        self.dropped = 0
        self.sim.inject = self._inject  # type: ignore[method-assign]
        self.reader = TrayReader(lambda: self.sim.port if self.sim.plugged else None,
                                 TagMap({UID_7P: Tile.from_notation("7p"),
                                         UID_3M: Tile.from_notation("3m")}))
        self.state = ReadState(startup=True)

    def _inject(self, data: bytes) -> None:
        try:
            if os.write(self.sim._master, data) < len(data):
                self.dropped += 1
        except BlockingIOError:
            self.dropped += 1  # as MicroPython's USB stdout after its 500 ms: dropped

    def step(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sim.step(5)
            time.sleep(0.002)

    def start(self) -> None:
        for _ in range(200):
            self.sim.step(5)
            self.state.update(self.reader.poll(), working=self.reader.status().ok)
            if self.state.ready() and self.reader.status().ok:
                return
            time.sleep(0.005)
        raise AssertionError(self.reader.status().message)

    def busy_until_lines_are_dropped(self) -> None:
        """The game reads nothing until the tray drops lines (at most 30 s)."""
        end = time.monotonic() + 30
        while not self.dropped and time.monotonic() < end:
            self.sim.step(5)
            time.sleep(0.002)
        assert self.dropped, "the host's buffer never filled"

    def ask(self, then_lay: str | None, after: float = 1.5) -> tuple[Tile, list[object]]:
        """The draw asked for; ``then_lay`` is laid ``after`` seconds if nothing counted."""
        began = time.monotonic()
        shown: list[object] = []

        def sleep(seconds: float) -> None:
            if then_lay is not None and time.monotonic() - began > after \
                    and self.sim.readers[0].uid is None:
                self.sim.place(0, then_lay)
            self.step(seconds)
            assert time.monotonic() - began < 20, "no tile counted"

        def show(status: str, tile: Tile | None, *_: object) -> None:
            shown.append(tile)

        tile = wait_for_tile(self.reader, self.state, Slot.DRAW, TileLedger(),
                             Controls([NoHands()]), Confirm(0.5), show, 0.02, sleep)
        return tile, shown


@pytest.fixture
def table() -> Iterator[Table]:
    made = Table()
    yield made
    made.reader.close()
    made.sim.close()


def test_a_tile_laid_and_lifted_while_nothing_read_the_tray_is_not_counted(
        table: Table) -> None:
    table.start()
    table.sim.place(0, UID_7P)  # laid on the draw slot during a fight...
    table.sim.settle()
    table.busy_until_lines_are_dropped()
    table.sim.remove(0)  # ...and taken back: its REMOVE cannot be sent
    table.sim.settle()
    assert table.sim.readers[0].uid is None

    tile, shown = table.ask(then_lay=UID_3M)

    # At HEAD the 7p was offered at once and counted 0.5 s later, lying on no slot.
    assert str(tile) == "3m"
    assert Tile.from_notation("7p") not in shown
    assert table.reader.status().ok


def test_a_tile_laid_while_nothing_read_the_tray_and_still_there_counts_when_asked(
        table: Table) -> None:
    """What the code did before and docs/playing.md keeps: a tile laid ahead of its ask
    lies there fresh, and counts once its slot is asked for."""
    table.start()
    table.busy_until_lines_are_dropped()
    table.sim.place(0, UID_7P)  # its PLACE is dropped with the rest, or waits
    table.sim.settle()

    tile, _ = table.ask(then_lay=None)

    assert str(tile) == "7p"


def test_the_answer_to_a_snap_asked_before_the_gap_is_old_news() -> None:
    """The last poll before a long menu found a gap and asked for a SNAP; its answer, in the
    backlog, shows the 7p then lying on the draw slot, whose REMOVE the tray dropped. That
    answer does not end the catching up: the SNAP asked for after the menu does."""
    from companion.hw.rfid.protocol import Kind, encode
    from tests.hw.rfid_tray_helpers import TtyPort

    now = [0.0]
    port = TtyPort()
    tray = TrayReader("/dev/ttyACM0", TagMap({UID_7P: Tile.from_notation("7p")}),
                      clock=lambda: now[0], opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += encode(0, Kind.HELLO, "1.3.3", "5") + encode(1, Kind.SNAP, *"-----")
    tray.poll_events()
    port.waiting += encode(5, Kind.HB, "1")  # 3 lines lost: a SNAP is asked for
    assert tray.poll_events() == [] and port.written.count(b" SNAP ") == 1
    now[0] += 200.0  # a fight: nothing polls the tray
    port.waiting += (encode(6, Kind.PLACE, "0", UID_7P) + encode(7, Kind.SNAP, UID_7P, *"----")
                     + encode(30, Kind.HB, "150"))  # the REMOVE among the lines dropped
    assert tray.poll_events() == []
    assert port.written.count(b" SNAP ") >= 2  # asked as the poll began
    assert tray.status().ok  # for the moment a SNAP takes, as before: no flash at an ask
    now[0] += 0.6
    assert tray.poll_events() == []
    status = tray.status()
    assert not status.ok and "catching up" in status.message
    now[0] += 0.05
    port.waiting += encode(31, Kind.SNAP, *"-----")  # the answer: the draw slot is empty
    assert tray.poll_events() == []
    assert tray.status().ok, tray.status().message
    # A tile laid now is news again.
    now[0] += 0.05
    port.waiting += encode(32, Kind.PLACE, "0", UID_7P)
    assert [(e.action.value, e.slot) for e in tray.poll_events()] == [("placed", Slot.DRAW)]


def test_a_snap_shaped_as_the_hosts_does_not_end_catching_up() -> None:
    """A line shaped as the host's SNAP (no fields: an echo, loop:// here, a tray's REPL
    echoing) is no snapshot: it ended catching up with nothing, and the stale PLACE before
    it was published."""
    import serial

    from companion.hw.rfid.protocol import Kind, encode

    now = [0.0]
    wire = serial.serial_for_url("loop://", timeout=0)
    tray = TrayReader("loop://", TagMap({UID_7P: Tile.from_notation("7p")}),
                      clock=lambda: now[0], opener=lambda device, baud: wire)
    try:
        tray.poll_events()  # its HELLO comes back off the loop, ignored in the handshake
        wire.write(encode(0, Kind.HELLO, "1.3.3", "5") + encode(1, Kind.SNAP, *"-----"))
        tray.poll_events()
        assert tray.status().ok, tray.status().message
        now[0] += 200.0
        wire.write(encode(2, Kind.PLACE, "0", UID_7P) + encode(9, Kind.HB, "150"))
        assert tray.poll_events() == []  # the host's SNAP, echoed, is read in this poll too
        assert tray.poll_events() == [] and tray.catching_up
        wire.write(encode(10, Kind.SNAP, *"-----"))
        assert tray.poll_events() == [] and not tray.catching_up
    finally:
        tray.close()
