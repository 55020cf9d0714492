"""A USB replug power-cycles the tray; tiles that stayed put are not reported again
(audit hw61 R1, firmware/PROTOCOL.md "Host behaviour" 3).

The host opens the new port and says HELLO as soon as USB has enumerated, before the
firmware's main.py runs (TraySimulator.power_cycle): the tray's first snapshot must already
hold what lies on it.
"""

from __future__ import annotations

from companion.hw.ports import Slot
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_sim_helpers import (
    UID_5P,
    UID_7Z,
    connect_with_two_tiles,
    host_only,
    placed,
    pump,
    removed,
)


def test_a_replug_with_the_power_cut_reports_no_tile_that_stayed(
        sim: TraySimulator, tray: TrayReader) -> None:
    connect_with_two_tiles(sim, tray)
    sim.power_cycle()
    events = host_only(tray, 0.05)  # the port is there before main.py runs: HELLO waits
    events += pump(sim, tray, until=lambda e: tray.status().ok)
    assert tray.status().ok, tray.status().message
    events += pump(sim, tray, timeout=0.3)
    assert events == []
    assert tray.uids[Slot.DRAW] == UID_5P and tray.uids[Slot.ROOM_TL] == UID_7Z


def test_a_tile_moved_while_the_power_was_cut_is_reported(
        sim: TraySimulator, tray: TrayReader) -> None:
    connect_with_two_tiles(sim, tray)
    sim.remove(1)
    sim.place(3, UID_7Z)
    sim.power_cycle()
    events = host_only(tray, 0.05)
    events += pump(sim, tray, until=lambda e: tray.status().ok)
    events += pump(sim, tray, timeout=0.3)
    assert removed(events) == [(Slot.ROOM_TL, UID_7Z)]
    assert placed(events) == [(Slot.ROOM_BL, UID_7Z, "7z")]
