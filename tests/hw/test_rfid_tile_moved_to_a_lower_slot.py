"""mutation13: a gap in the tests of the host's reconciling of a snapshot
(companion/hw/rfid/tray.py ``_publish``) that a hand-made mutant survived: a tile moved to
a lower slot while the tray was unplugged leaves its old slot before it lies on the new one,
so a session never counts the one tile on two slots at once."""

from __future__ import annotations

import time

from companion.hw.ports import Slot
from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_sim_helpers import UID_7Z, pump


def test_a_tile_moved_to_a_lower_slot_leaves_the_old_one_first(
        sim: TraySimulator, tray: TrayReader) -> None:
    sim.place(2, UID_7Z)
    sim.settle()
    assert len(pump(sim, tray, until=bool)) == 1
    sim.unplug()
    pump(sim, tray, timeout=0.1)
    sim.remove(2)  # while unplugged, the player moves the tile from top-right to top-left
    sim.place(1, UID_7Z)
    sim.settle()
    sim.replug()
    deadline = time.monotonic() + 10.0  # a loaded CI machine reconnects slowly; ends at 2 events
    events: list[TagEvent] = []
    while time.monotonic() < deadline and len(events) < 2:
        events += pump(sim, tray, until=bool, timeout=0.2)
    assert [(e.action, e.slot) for e in events] == [(TagAction.REMOVED, Slot.ROOM_TR),
                                                    (TagAction.PLACED, Slot.ROOM_TL)]
