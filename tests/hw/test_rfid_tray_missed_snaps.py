"""The tray's status after a catch-up whose SNAPs went unanswered (CATCH_UP_ASKS).

reviewz71 NIT 2: a good tray whose two SNAP answers are lost in a row (dropped or
garbled) was told to "update the tray's firmware" until its next catch-up. The advice
now waits for a tray that has never answered a SNAP, or for two catch-ups in a row.

A fake tray on a fake clock: each test says which lines the tray sends and when; the
host's SNAPs are counted in what it wrote."""

from __future__ import annotations

from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import (
    CATCH_UP_REASK_SECONDS,
    IGNORES_SNAP,
    MISSED_SNAPS,
    TrayReader,
    TraySettings,
)
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_tray_helpers import TtyPort

UID_7P = "04000009"
FIRMWARE_ADVICE = "update the tray's firmware"


class Tray:
    """A tray on a five-slot board, empty, past its handshake at clock 0; each reconnect
    opens a new port, as a replug or reopen of the real one does."""

    def __init__(self) -> None:
        self.now = 0.0
        self.ports: list[TtyPort] = []
        self.reader = TrayReader("/dev/ttyACM0", TagMap({UID_7P: Tile.from_notation("7p")}),
                                 settings=TraySettings(), clock=lambda: self.now,
                                 opener=self._open)
        self.answered = 0
        self.hello()

    def _open(self, device: str, baud: int) -> TtyPort:
        self.ports.append(TtyPort())
        self.seq = 0
        return self.ports[-1]

    @property
    def port(self) -> TtyPort:
        return self.ports[-1]

    def send(self, kind: Kind, *args: str) -> None:
        self.port.waiting += encode(self.seq, kind, *args)
        self.seq += 1

    def hello(self) -> None:
        """Open the port (after the backoff) and say hello with the HELLO's SNAP."""
        opened = len(self.ports)
        for _ in range(100):
            self.reader.poll_events()
            if len(self.ports) > opened:
                break
            self.now += 0.5
        assert len(self.ports) == opened + 1, self.reader.status().message
        self.answered = 0
        self.send(Kind.HELLO, "1.3.3", "5")
        self.send(Kind.SNAP, *"-----")
        self.reader.poll_events()
        assert self.reader.status().ok, self.reader.status().message

    @property
    def snaps_asked(self) -> int:
        return self.port.written.count(b" SNAP ")

    def answer(self, lose: bool = False) -> None:
        """Answer each SNAP asked for on this port, or lose the answers."""
        while self.snaps_asked > self.answered:
            self.answered += 1
            if not lose:
                self.send(Kind.SNAP, *"-----")

    def catch_up(self, lose: bool) -> str | None:
        """A pause (a menu), then polls until the tray's word is read or the link dropped:
        the drop's problem, or None."""
        self.now += 2.0
        self.send(Kind.HB, str(int(self.now)))
        ports = len(self.ports)
        self.reader.poll_events()
        assert self.reader.catching_up
        for _ in range(40):
            self.answer(lose)
            self.now += CATCH_UP_REASK_SECONDS / 5
            self.reader.poll_events()
            if not self.reader.catching_up or not self.reader.link.is_open:
                break
        if self.reader.link.is_open:
            assert not self.reader.catching_up and len(self.ports) == ports
            return None
        status = self.reader.status()
        assert not status.ok
        return status.message


def test_a_good_tray_that_lost_two_answers_once_is_not_told_to_update_its_firmware() -> None:
    """It answered the SNAP of an earlier catch-up, so its firmware answers SNAP: the
    drop and the status after the reconnect say what happened, and no firmware advice."""
    tray = Tray()
    assert tray.catch_up(lose=False) is None  # it answers SNAP
    problem = tray.catch_up(lose=True)
    assert problem == ("the tray on /dev/ttyACM0 did not answer SNAP twice; reconnecting "
                       "トレイがSNAPに2回無応答: 再接続中")
    tray.hello()
    status = tray.reader.status()
    assert status.ok and status.message.endswith(f"; {MISSED_SNAPS}"), status.message
    assert FIRMWARE_ADVICE not in status.message
    # Its next catch-up answered: the note goes.
    assert tray.catch_up(lose=False) is None
    status = tray.reader.status()
    assert status.ok and "SNAP" not in status.message, status.message


def test_a_tray_that_misses_snaps_at_two_catch_ups_in_a_row_is_told_to_update_it() -> None:
    tray = Tray()
    assert tray.catch_up(lose=False) is None
    assert FIRMWARE_ADVICE not in (tray.catch_up(lose=True) or "")
    tray.hello()
    problem = tray.catch_up(lose=True)
    assert problem == f"the tray on /dev/ttyACM0 {IGNORES_SNAP}; reconnecting"
    tray.hello()
    status = tray.reader.status()
    assert status.ok and status.message.endswith(f"; {IGNORES_SNAP}"), status.message
    assert MISSED_SNAPS not in status.message


def test_a_tray_that_never_answered_a_snap_is_told_at_once() -> None:
    """Only its HELLO's SNAP came (which answers no SNAP asked for): an old or foreign
    firmware, told at its first catch-up, as before."""
    tray = Tray()
    problem = tray.catch_up(lose=True)
    assert problem == f"the tray on /dev/ttyACM0 {IGNORES_SNAP}; reconnecting"
    tray.hello()
    status = tray.reader.status()
    assert status.ok and FIRMWARE_ADVICE in status.message, status.message


def test_a_good_tray_reflashed_with_another_firmware_has_to_answer_a_snap_again() -> None:
    """What an earlier firmware answered says nothing of the one the tray now runs."""
    tray = Tray()
    assert tray.catch_up(lose=False) is None
    tray.reader.link.drop("replugged")
    tray.reader.poll_events()
    opened = len(tray.ports)
    for _ in range(100):
        tray.reader.poll_events()
        if len(tray.ports) > opened:
            break
        tray.now += 0.5
    tray.send(Kind.HELLO, "0.9.0", "5")
    tray.send(Kind.SNAP, *"-----")
    tray.reader.poll_events()
    assert tray.reader.status().ok, tray.reader.status().message
    tray.answered = 0
    problem = tray.catch_up(lose=True)
    assert problem == f"the tray on /dev/ttyACM0 {IGNORES_SNAP}; reconnecting"
