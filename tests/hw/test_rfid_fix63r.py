"""Audit rfid63 (fix63r): the tray's lines as the host takes them, over pyserial's ``loop://``
or a pseudo-terminal, with a fake clock where timing matters."""

from __future__ import annotations

import serial

from companion.app.session.reads import ReadState
from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import EMPTY, Tile

UID_5P = "04A1B2C3"
UID_7Z = "04112233445566"


def tags() -> TagMap:
    return TagMap({UID_5P: Tile.from_notation("5p"), UID_7Z: Tile.from_notation("7z")})


def said_hello(wire: serial.Serial, now: list[float]) -> TrayReader:
    """A reader on ``wire`` whose HELLO has gone out, the tray's answer not yet come."""
    tray = TrayReader("loop://", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: wire)
    assert tray.poll_events() == []  # its own HELLO comes back off the loop, and is ignored
    assert tray.state.value == "handshake"
    return tray


# -- R1: one UID of a length no line carries -------------------------------------------


def test_one_sticker_sent_as_no_uid_spoils_its_slot_not_the_snapshot(
        wire: serial.Serial) -> None:
    """Audit rfid63 R1: tray firmware 1.3.0 cut a 4-byte UID beginning 0x88 to 3 bytes and
    sent it. The host dropped that SNAP whole as malformed: the 5p on the draw slot was not
    read, the first snapshot never given, so play waited at "starting the reader" with the
    status ok. Now only that slot is unreadable, and the status names it."""
    now = [0.0]
    tray = said_hello(wire, now)
    state = ReadState(startup=True)
    wire.write(encode(0, Kind.HELLO, "1.3.0", "5")
               + encode(1, Kind.SNAP, UID_5P, "-", "A1B2C3", "-", "-"))
    state.update(tray.poll(), tray.status().ok)
    assert state.ready()
    assert state.latest[Slot.DRAW].label == "5p"
    assert {slot: state.latest[slot].label for slot in (Slot.ROOM_TL, Slot.ROOM_BL)} == {
        Slot.ROOM_TL: EMPTY, Slot.ROOM_BL: EMPTY}
    assert Slot.ROOM_TR not in state.latest  # not known: neither a tile nor empty
    status = tray.status()
    assert not status.ok
    assert status.message.startswith("the top-right room slot reads a sticker as A1B2C3, "
                                      "no UID the companion takes")
    assert status.counters["bad_uid"] == 1 and status.counters["malformed"] == 0
    # The odd sticker taken off and a real one laid there: read, and the status ok again.
    wire.write(encode(2, Kind.REMOVE, "2", "A1B2C3") + encode(3, Kind.PLACE, "2", UID_7Z))
    readings = tray.poll()
    assert [(r.slot, r.label) for r in readings] == [(Slot.ROOM_TR, "7z")]
    assert tray.status().ok, tray.status().message
    # A PLACE of no UID over the 7z (REMOVE first, as the tray sends them): empty, unreadable.
    wire.write(encode(4, Kind.REMOVE, "2", UID_7Z) + encode(5, Kind.PLACE, "2", "88A1B2"))
    assert [(r.slot, r.label) for r in tray.poll()] == [(Slot.ROOM_TR, EMPTY)]
    assert "top-right room slot reads a sticker as 88A1B2" in tray.status().message
    # The next snapshot reads the slot empty: the problem is gone.
    wire.write(encode(6, Kind.SNAP, UID_5P, "-", "-", "-", "-"))
    tray.poll()
    assert tray.status().ok, tray.status().message
    assert tray.counters["bad_uid"] == 2
