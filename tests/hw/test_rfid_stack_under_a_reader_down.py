"""Two tiles stacked on a slot whose reader then goes down (rfid73 NIT 3).

The status said "two tiles on the draw slot: leave one" while the reader was down, and
after both tiles were lifted: a reader down reads no stack, and the tray (before firmware
1.3.4) repeats the slot's ERR COLLISION after every SNAP. The player was told to do what
they had done, and never that the reader was not answering. Now the stack is dropped
when its reader goes down (the COLLISION a tray before 1.3.4 repeats after a SNAP is taken
for none while it is down), and a SNAP is asked for when it is up again, whose COLLISION
tells whether the tiles still lie stacked.

A host that learns of the down reader from a SNAP instead (the game restarted while the
tray stayed powered, a reconnection, a READER_DOWN lost in an overflow) got, from a tray
before firmware 1.3.4, the stack's COLLISION after that SNAP while the reader is down, and
none at its READER_UP: the COLLISION is remembered so that the READER_UP asks for a SNAP
(reviewr73 RISK 1). Firmware 1.3.4 keeps the collision while the reader is down, sends no
COLLISION after a SNAP for it, and sends it again right after the READER_UP (reviewa74
D1); the SNAP asked for does no harm.

The tray's firmware logic (the current one) runs in the simulator, on a pseudo-terminal;
the last tests feed the host firmware 1.3.3's lines by hand (reviewa74 R1), as the
simulator no longer sends them.
"""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, LineReader, encode
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import STALE_AFTER_SECONDS, TrayReader
from tests.hw.rfid_sim_helpers import PATIENT, UID_5P, pump, ready
from tests.hw.rfid_tray_helpers import TtyPort, tags

STACKED = "two tiles on the draw slot: leave one"
DOWN = "the reader under the draw slot is not answering"


def until_status(sim: TraySimulator, tray: TrayReader, start: str) -> str:
    """Pump until the status begins with ``start``; the status then."""
    pump(sim, tray, until=lambda events: tray.status().message.startswith(start))
    return tray.status().message


def stacked_then_down(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.place(0, UID_5P)
    sim.stack(0)
    assert until_status(sim, tray, STACKED).startswith(STACKED)
    sim.break_reader(0)
    assert until_status(sim, tray, DOWN).startswith(DOWN)


def test_a_reader_down_under_a_stack_says_so_and_not_the_stack(
        sim: TraySimulator, patient_tray: TrayReader) -> None:
    """Its tiles lifted meanwhile, and a SNAP (a game's ask after a pause), which a tray
    before firmware 1.3.4 followed with its repeated ERR COLLISION: the status still says
    the reader is not answering."""
    tray = patient_tray
    stacked_then_down(sim, tray)
    sim.stack(0, False)
    sim.remove(0)
    pump(sim, tray, timeout=0.3)
    assert tray.status().message.startswith(DOWN)
    assert tray.what_to_check() is not None
    time.sleep(STALE_AFTER_SECONDS + 0.1)  # the next poll catches up: it asks for a SNAP
    pump(sim, tray, until=lambda events: not tray.catching_up and tray.status().ok is False
         and tray.status().message.startswith(DOWN), timeout=2.0)
    pump(sim, tray, timeout=0.3)
    assert tray.status().message.startswith(DOWN)
    assert not tray.stacked


def test_a_stack_still_there_when_its_reader_is_up_again_is_said_again(
        sim: TraySimulator, patient_tray: TrayReader) -> None:
    tray = patient_tray
    stacked_then_down(sim, tray)
    sim.break_reader(0, False)
    assert until_status(sim, tray, STACKED).startswith(STACKED)


def test_a_stack_lifted_while_its_reader_was_down_is_gone_when_it_is_up(
        sim: TraySimulator, patient_tray: TrayReader) -> None:
    tray = patient_tray
    stacked_then_down(sim, tray)
    sim.stack(0, False)
    sim.remove(0)
    sim.break_reader(0, False)
    pump(sim, tray, until=lambda events: tray.status().ok)
    assert tray.status().ok, tray.status().message


@pytest.fixture
def restarted(sim: TraySimulator, patient_tray: TrayReader,
              tag_map: TagMap) -> Iterator[TrayReader]:
    """The game restarted while the tray ran on, two tiles stacked on the draw slot and its
    reader down: a new host, which learns of the down reader from its first SNAP."""
    stacked_then_down(sim, patient_tray)
    patient_tray.close()
    tray = TrayReader(lambda: sim.port if sim.plugged else None, tag_map, settings=PATIENT)
    assert until_status(sim, tray, DOWN).startswith(DOWN)
    pump(sim, tray, timeout=0.3)  # its SNAP (before 1.3.4, then a COLLISION for the slot)
    assert tray.status().message.startswith(DOWN) and not tray.stacked
    yield tray
    tray.close()


def test_a_stack_a_restarted_game_met_under_a_down_reader_is_said_when_it_is_up(
        sim: TraySimulator, restarted: TrayReader) -> None:
    """The tiles still stacked at the READER_UP: firmware 1.3.4 sends the COLLISION again
    right after it (before 1.3.4, none came, and only the SNAP asked for then said it; see
    the 1.3.3 tests below). It said "ok" while two tiles lay there."""
    sim.break_reader(0, False)
    assert until_status(sim, restarted, STACKED).startswith(STACKED)
    pump(sim, restarted, timeout=0.3)
    assert restarted.status().message.startswith(STACKED)
    assert [slot.name for slot in restarted.stacked] == ["DRAW"]


def test_a_stack_a_restarted_game_met_and_lifted_while_down_is_gone_when_it_is_up(
        sim: TraySimulator, restarted: TrayReader) -> None:
    sim.stack(0, False)
    sim.remove(0)
    sim.break_reader(0, False)
    pump(sim, restarted, until=lambda events: restarted.status().ok
         and not restarted.stacked and not restarted.down)
    pump(sim, restarted, timeout=0.5)  # the SNAP asked for at the READER_UP, and after
    assert restarted.status().ok, restarted.status().message
    assert not restarted.stacked


# -- firmware 1.3.3's lines, fed by hand (reviewa74 R1) ---------------------------------

DRAW_DOWN = ("?", "-", "-", "-", "-")
DRAW_5P = (UID_5P, "-", "-", "-", "-")


class OldTray:
    """A tray with firmware 1.3.3 on a port the test feeds: it repeats a stack's ERR
    COLLISION after every SNAP while the slot's reader is down, and sends none at its
    READER_UP. ``host_said`` is what the host wrote since the last call."""

    def __init__(self) -> None:
        self.port = TtyPort()
        self.seq = 0
        self.now = [0.0]
        self.host = TrayReader("/dev/ttyACM0", tags(), clock=lambda: self.now[0],
                               opener=lambda device, baud: self.port)
        self.host.poll_events()  # its HELLO goes out

    def says(self, kind: Kind, *args: str) -> None:
        self.port.waiting += encode(self.seq, kind, *args)
        self.seq += 1

    def host_said(self) -> list[Kind]:
        said = [message.kind for message in LineReader().feed(bytes(self.port.written))]
        self.port.written.clear()
        return said

    def snap_down_with_a_collision_then_up(self, heartbeat: str) -> None:
        """A SNAP saying the draw slot's reader is down, 1.3.3's COLLISION after it and a
        heartbeat: the host shows the reader down and no stack. Then its READER_UP: the host
        asks for a SNAP (and for nothing else)."""
        self.says(Kind.SNAP, *DRAW_DOWN)
        self.says(Kind.ERR, "COLLISION", "0")
        self.says(Kind.HB, heartbeat)
        self.host.poll_events()
        assert self.host.status().message.startswith(DOWN) and not self.host.stacked
        self.host_said()
        self.says(Kind.ERR, "READER_UP", "0")
        self.host.poll_events()
        assert self.host_said() == [Kind.SNAP]


def test_firmware_1_3_3_a_stack_met_under_a_down_reader_is_asked_for_at_its_reader_up(
        ) -> None:
    """A game restarted while the tray ran on: its first SNAP says the draw slot's reader is
    down, and firmware 1.3.3 follows it with the stack's ERR COLLISION. Not shown while the
    reader is down, but remembered: at the READER_UP (after which 1.3.3 sends no COLLISION)
    the host asks for a SNAP, whose COLLISION says the stack again."""
    tray = OldTray()
    tray.says(Kind.HELLO, "1.3.3", "5")
    tray.snap_down_with_a_collision_then_up("1")
    tray.says(Kind.SNAP, *DRAW_5P)
    tray.says(Kind.ERR, "COLLISION", "0")
    tray.says(Kind.HB, "2")
    tray.host.poll_events()
    assert tray.host.stacked == {Slot.DRAW}
    assert tray.host.status().message.startswith(STACKED)
    tray.host.close()


def test_firmware_1_3_3_a_stack_whose_reader_goes_down_is_not_shown_and_asked_for_after(
        ) -> None:
    """The stack told, then READER_DOWN: 1.3.3's COLLISION after each SNAP while the reader
    is down is taken for no stack (the status says the reader is not answering); the tiles
    lifted meanwhile, the SNAP asked for at READER_UP comes with no COLLISION: no stack."""
    tray = OldTray()
    tray.says(Kind.HELLO, "1.3.3", "5")
    tray.says(Kind.SNAP, *DRAW_5P)
    tray.says(Kind.ERR, "COLLISION", "0")
    tray.says(Kind.HB, "1")
    tray.host.poll_events()
    assert tray.host.stacked == {Slot.DRAW}
    tray.says(Kind.ERR, "READER_DOWN", "0")
    tray.snap_down_with_a_collision_then_up("2")
    tray.says(Kind.SNAP, *DRAW_5P)
    tray.says(Kind.HB, "3")
    tray.host.poll_events()
    assert not tray.host.stacked and tray.host.status().ok, tray.host.status().message
    tray.host.close()
