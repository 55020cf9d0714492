"""Two tiles stacked on a slot whose reader then goes down (rfid73 NIT 3).

The status said "two tiles on the draw slot: leave one" while the reader was down, and
after both tiles were lifted: a reader down reads no stack, and the tray repeats the
slot's ERR COLLISION after every SNAP. The player was told to do what they had done, and
never that the reader was not answering. Now the stack is dropped when its reader goes down
(the COLLISION repeated after a SNAP is taken for none while it is down), and a SNAP is
asked for when it is up again, whose COLLISION tells whether the tiles still lie stacked.

The tray's firmware logic runs in the simulator, on a pseudo-terminal.
"""

from __future__ import annotations

import time

from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import STALE_AFTER_SECONDS, TrayReader
from tests.hw.rfid_sim_helpers import UID_5P, pump, ready

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
    """Its tiles lifted meanwhile, and a SNAP (a game's ask after a pause) whose repeated
    ERR COLLISION follows: the status still says the reader is not answering."""
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
