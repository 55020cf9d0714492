"""reviewr71: catching up after a gap between polls (rfid71 DEFECT 1), its edges.

A fake tray on a fake clock (``TtyPort``): each test says which lines the tray sends and
when; the host's SNAPs are counted in what it wrote."""

from __future__ import annotations

from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile
from tests.hw.test_rfid_fix63r import TtyPort

UID_7P = "04000009"


class FakeTray:
    """A reader past its handshake on an empty five-slot tray, at clock 0."""

    def __init__(self, settings: TraySettings | None = None) -> None:
        self.now = 0.0
        self.port = TtyPort()
        self.reader = TrayReader("/dev/ttyACM0", TagMap({UID_7P: Tile.from_notation("7p")}),
                                 settings=settings or TraySettings(), clock=lambda: self.now,
                                 opener=lambda device, baud: self.port)
        self.reader.poll_events()
        self.seq = 0
        self.send(Kind.HELLO, "1.3.3", "5")
        self.send(Kind.SNAP, *"-----")
        self.reader.poll_events()
        assert self.reader.status().ok, self.reader.status().message

    def send(self, kind: Kind, *args: str) -> None:
        self.port.waiting += encode(self.seq, kind, *args)
        self.seq += 1

    @property
    def snaps_asked(self) -> int:
        return self.port.written.count(b" SNAP ")

    def placed(self) -> list[tuple[str, Slot]]:
        return [(e.action.value, e.slot) for e in self.reader.poll_events()]


def test_a_raised_stale_after_reads_a_poll_after_a_gap_as_news() -> None:
    """reviewr71 NIT 2: the gap is a setting a test on the real clock may raise."""
    tray = FakeTray(TraySettings(stale_after=5.0))
    tray.now += 2.0
    tray.send(Kind.PLACE, "0", UID_7P)
    assert tray.placed() == [("placed", Slot.DRAW)]
    assert tray.snaps_asked == 0 and not tray.reader.catching_up


def test_by_default_a_poll_after_a_gap_of_a_second_catches_up() -> None:
    tray = FakeTray()
    tray.now += 1.0
    tray.send(Kind.PLACE, "0", UID_7P)
    assert tray.placed() == [] and tray.snaps_asked == 1 and tray.reader.catching_up
    tray.now += 0.05
    tray.send(Kind.SNAP, UID_7P, *"----")
    assert tray.placed() == [("placed", Slot.DRAW)] and not tray.reader.catching_up
