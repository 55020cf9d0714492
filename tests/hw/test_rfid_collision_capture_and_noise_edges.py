"""The RFID tray reader where mutation round 12 found no test looking: each test names what
a player would see were it broken.

The far end is pyserial's ``loop://``: what the test writes to the port is what the tray said.
"""

from __future__ import annotations

import os

import serial

from companion.hw.rfid.link import StreamPort
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.rdm6300 import Rdm6300Framer
from companion.hw.rfid.rdm6300 import frame as rdm6300_frame
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_link_helpers import ALL_EMPTY, UID_5P, listening


def test_a_snapshot_without_a_collision_ends_the_two_tiles_warning(wire: serial.Serial) -> None:
    """The tray follows every SNAP with an ERR COLLISION for each slot still holding two
    tiles. A SNAP with none after it means the second tile was taken off: the status is ok
    again, not 'two tiles on the draw slot' for the rest of the game."""
    tray = listening(wire)
    wire.write(encode(1, Kind.SNAP, *ALL_EMPTY) + encode(2, Kind.ERR, "COLLISION", "0"))
    tray.poll_events()
    assert "two tiles" in tray.status().message
    wire.write(encode(3, Kind.SNAP, UID_5P, "-", "-", "-", "-"))
    tray.poll_events()
    assert tray.status().ok, tray.status().message


def test_a_replayed_capture_that_ran_out_is_not_opened_again() -> None:
    """`rfid monitor --port -` replays a capture: once it runs out there is nothing to
    reopen. Looked for again after the backoff, the capture's port would be opened anew
    (a file replayed from its start again: every tile laid twice)."""
    now = [0.0]
    opened: list[str] = []
    read_end, write_end = os.pipe()
    os.write(write_end, encode(1, Kind.SNAP, UID_5P, "-", "-", "-", "-"))
    os.close(write_end)
    stream = os.fdopen(read_end, "rb", buffering=0)

    def opener(device: str, baudrate: int) -> StreamPort:
        opened.append(device)
        return StreamPort(stream)

    tray = TrayReader("-", TagMap({UID_5P: Tile.from_notation("5p")}),
                      settings=TraySettings(passive=True), clock=lambda: now[0], opener=opener)
    try:
        events = []
        for _ in range(5):
            events += tray.poll_events()
        assert [e.uid for e in events] == [UID_5P] and tray.link.ended
        for now[0] in (10.0, 100.0, 1000.0):
            assert tray.poll_events() == []
        assert opened == ["-"]
    finally:
        stream.close()


def test_a_run_of_noise_before_an_rdm6300_frame_counts_once() -> None:
    """Line noise before a frame is one piece of garbage (the status calls the port a
    problem after JUNK_BEFORE_PROBLEM pieces with no valid frame). Left in the buffer and
    stepped over a byte at a time, two bytes of noise would count as 4, and a little noise
    on the line would call the port a problem sooner."""
    framer = Rdm6300Framer()
    assert framer.feed(b"\xff\x00" + rdm6300_frame("0F00A1B2C3")) == ["0F00A1B2C3"]
    assert framer.counters == {"frames": 1, "garbage": 1, "bad_checksum": 0}
    assert framer.feed(b"\x13") == [] and framer.counters["garbage"] == 2
