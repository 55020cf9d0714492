"""reviewr71: catching up after a gap between polls (rfid71 DEFECT 1), its edges.

A fake tray on a fake clock (``TtyPort``): each test says which lines the tray sends and
when; the host's SNAPs are counted in what it wrote."""

from __future__ import annotations

from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_tray_helpers import TtyPort

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


class AnswersSnaps(FakeTray):
    """A tray that answers each SNAP the host asked for, showing the 7p on the draw slot,
    save the ones whose answers it is told to lose (dropped, or garbled on the wire)."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = 0

    def answer(self, lose: bool = False) -> None:
        while self.snaps_asked > self.answered:
            self.answered += 1
            if not lose:
                self.send(Kind.SNAP, UID_7P, *"----")


def test_a_lost_answer_to_a_snap_is_asked_again_within_half_a_second() -> None:
    """reviewr71 RISK 3: the answer to a SNAP asked at a gap is lost; after the next menu the
    answer to the SNAP asked then was taken for the lost one, old news, until the SNAP was
    asked again after hello_timeout (3 s): the 7p laid during the menu came 3.1 s late."""
    tray = AnswersSnaps()
    tray.seq += 3  # three lines lost: the host asks for a SNAP
    tray.send(Kind.HB, "1")
    assert tray.placed() == [] and tray.snaps_asked == 1
    tray.answer(lose=True)
    tray.now += 60.0  # a menu; meanwhile the 7p is laid on the draw slot
    tray.send(Kind.HB, "60")
    start = tray.now
    while tray.now - start < 5.0:
        events = tray.placed()
        if events:
            break
        tray.answer()
        tray.now += 0.05
    assert events == [("placed", Slot.DRAW)]
    assert tray.now - start <= 0.6  # the SNAP asked again after 0.5 s, answered at once


def test_a_tray_that_never_answers_snap_is_reconnected_saying_to_update_its_firmware() -> None:
    """reviewr71 RISK 1: a stand-in tray on a pty answers HELLO with its SNAP, sends HB and
    moves, and ignores every SNAP the host asks for. Catching up waited for it for ever,
    asking every 3 s, the 7p laid meanwhile never told, the status saying only "catching
    up". After two unanswered asks the link is dropped, the status saying why and what to
    do; the reconnect's HELLO brings the SNAP that tells of the 7p."""
    import time

    from companion.hw.rfid.simulator import TraySimulator

    with TraySimulator(heartbeat_ms=100) as sim:
        tray = sim.tray
        answers = tray.command

        def ignores_snap(line: bytes, now: int) -> None:
            if b" SNAP" not in line:
                answers(line, now)

        tray.command = ignores_snap
        reader = TrayReader(sim.port, TagMap({UID_7P: Tile.from_notation("7p")}))
        try:
            deadline = time.monotonic() + 10
            while not reader.status().ok and time.monotonic() < deadline:
                sim.step()
                reader.poll_events()
                time.sleep(0.01)
            assert reader.status().ok, reader.status().message
            sim.place(0, UID_7P)  # during a 1.2 s menu: nothing polls the tray
            pause = time.monotonic() + 1.2
            while time.monotonic() < pause:
                sim.step()
                time.sleep(0.01)
            said: list[str] = []
            events: list[tuple[str, Slot]] = []
            deadline = time.monotonic() + 8
            while not events and time.monotonic() < deadline:
                sim.step()
                events += [(e.action.value, e.slot) for e in reader.poll_events()]
                said.append(reader.status().message)
                time.sleep(0.01)
            final = reader.status()
        finally:
            reader.close()
    assert events == [("placed", Slot.DRAW)], said[-1]
    assert any(message.startswith(f"the tray on {sim.port} does not answer SNAP")
               and "update the tray's firmware (firmware/README.md" in message
               for message in said), said[-1]
    # Working again, and still saying it until the tray answers a SNAP.
    assert final.ok and "does not answer SNAP" in final.message, final.message
    assert reader.counters["timeouts"] == 1 and reader.counters["reconnects"] == 1
