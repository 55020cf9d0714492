"""The RFID tray reader listening over pyserial's loop:// (mutation rounds 11 and 12's tests;
tidy72c: no test module imports another)."""

from __future__ import annotations

import serial

from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile

UID_5P = "04A1B2C3"


ALL_EMPTY = ("-",) * 5


def listening(wire: serial.Serial) -> TrayReader:
    """A reader of a replayed tray (passive: no hello, no heartbeat check) on ``wire``."""
    tray = TrayReader("loop://", TagMap({UID_5P: Tile.from_notation("5p")}),
                      settings=TraySettings(passive=True), opener=lambda device, baud: wire)
    # Listening; not ok until a tray line comes (rfid73 DEFECT 2: a capture of none said so).
    assert tray.poll_events() == [] and tray.link.is_open and tray.unheard
    return tray
