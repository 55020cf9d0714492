"""Audit rfid63 (fix63r): the tray's lines as the host takes them, over pyserial's ``loop://``
or a pseudo-terminal, with a fake clock where timing matters."""

from __future__ import annotations

import pytest
import serial

from companion.app.session.reads import ReadState
from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, crc16, encode
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import EMPTY
from tests.hw.rfid_tray_helpers import UID_5P, UID_7Z, TtyPort, said_hello, tags

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


# -- R2: the handshake timeout names the cause the counters hold -------------------------


def framed(body: bytes, crc: int | None = None) -> bytes:
    return body + b" *%04X\n" % (crc16(body) if crc is None else crc)


@pytest.mark.parametrize(("lines", "said", "counter"), [
    # A noisy cable: the tray's HELLO and SNAP arrive, each failing its CRC.
    ([framed(b"J1 0 HELLO 1.3.1 5", 0), framed(b"J1 1 SNAP - - - - -", 0)],
     "2 tray lines came from loop:// but failed their checksum: a bad USB cable or hub? "
     "(bad_crc)", "bad_crc"),
    ([framed(b"J1 0 HELLO 1.3.1 5", 0)],
     "1 tray line came from loop:// but failed its checksum", "bad_crc"),
    # A newer tray's HELLO, of a shape this host does not read.
    ([framed(b"J1 0 HELLO 2.0.0 5 extra")],
     "1 tray line came from loop:// in a shape this companion does not read: update the "
     "companion or the tray's firmware (firmware/README.md) (malformed)", "malformed"),
])
def test_a_handshake_timeout_names_tray_lines_that_failed(
        wire: serial.Serial, lines: list[bytes], said: str, counter: str) -> None:
    """Audit rfid63 R2: tray lines that failed their CRC, or came in a shape this host does
    not read, timed out the handshake with "N bytes came from ... but no tray line: an
    RDM6300 there needs the rdm6300 kind", sending the player to change the reader kind."""
    now = [0.0]
    tray = said_hello(wire, now)
    wire.write(b"".join(lines))
    tray.poll_events()
    now[0] = 3.5  # past hello_timeout
    tray.poll_events()
    status = tray.status()
    assert status.counters["timeouts"] == 1 and status.counters[counter] == len(lines)
    assert said in status.message
    assert "rdm6300" not in status.message and "bytes came" not in status.message


def test_a_bad_line_of_an_earlier_handshake_is_not_blamed_for_a_later_one() -> None:
    """Only what came since this HELLO went out counts: a port that turns silent after a
    noisy line says "no hello", not "failed its checksum"."""
    now = [0.0]
    tray = TrayReader("loop://", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: serial.serial_for_url(device, timeout=0))
    try:
        tray.poll_events()
        assert tray.link.serial is not None
        tray.link.serial.write(framed(b"J1 0 HELLO 1.3.1 5", 0))
        tray.poll_events()
        now[0] = 3.5
        tray.poll_events()  # timed out, dropped
        assert "failed its checksum" in tray.status().message
        now[0] = 4.0
        tray.poll_events()  # reopened, HELLO sent again; nothing more comes
        now[0] = 7.5
        tray.poll_events()
        status = tray.status()
    finally:
        tray.close()
    assert status.counters["timeouts"] == 2 and status.counters["bad_crc"] == 1
    assert "no hello from loop://" in status.message and "checksum" not in status.message


# -- R3: a backlog is read whole in one poll --------------------------------------------


def test_a_tile_laid_and_lifted_during_a_long_menu_is_not_offered() -> None:
    """Audit rfid63 R3: the game polls the tray only when it asks for a tile. After a long
    menu, the tray's backlog (heartbeats, a PLACE of 5p on the draw slot, more heartbeats,
    its REMOVE) came one 4 KB read per poll: the first poll gave 5p on the draw slot,
    which play offered and counted though the slot was empty. Read whole, the draw slot
    reads empty."""
    now = [0.0]
    port = TtyPort()
    tray = TrayReader("/dev/ttyACM0", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += encode(0, Kind.HELLO, "1.3.1", "5") + encode(1, Kind.SNAP, *"-----")
    tray.poll()
    assert tray.status().ok, tray.status().message
    lines = [encode(2 + i, Kind.HB, str(i)) for i in range(150)]
    lines.append(encode(152, Kind.PLACE, "0", UID_5P))
    lines += [encode(153 + i, Kind.HB, str(150 + i)) for i in range(150)]
    lines.append(encode(303, Kind.REMOVE, "0", UID_5P))
    port.waiting += b"".join(lines)
    # One tty read holds the PLACE, not the REMOVE.
    assert port.waiting.index(b" PLACE ") < TtyPort.CHUNK < port.waiting.index(b" REMOVE ")
    readings = tray.poll()
    assert [(r.slot, r.label) for r in readings] == [(Slot.DRAW, EMPTY)]
    assert not port.waiting and tray.status().counters["lost"] == 0


def test_a_port_that_never_stops_talking_does_not_hold_one_poll() -> None:
    """The backlog is read up to a bound: a port with bytes always waiting (a device
    spewing junk) gives back the poll after some 64 KB."""
    port = TtyPort(endless=b"junk at the wrong speed\n")
    tray = TrayReader("/dev/ttyACM0", tags(), clock=lambda: 0.0,
                      opener=lambda device, baud: port)
    tray.poll_events()
    assert port.reads <= 64 * 1024 // TtyPort.CHUNK + 1
    assert 0 < tray.status().counters["garbage"] <= 64 * 1024 // len(port.endless) + 1


@pytest.mark.parametrize("mid_read", [False, True], ids=["behind its backlog", "mid-read"])
def test_a_tray_pulled_out_gives_what_came_then_goes(mid_read: bool) -> None:
    """The backlog is read to the port's fault: what the tray said before it went is
    handled first (its PLACE), and the fault is told at the next poll; also when the
    device, gone, still says bytes are waiting, so the fault comes inside the read loop
    (review63a R1: a fault there never came in the first case)."""
    now = [0.0]

    class Pulled(TtyPort):
        @property
        def in_waiting(self) -> int:
            return self.CHUNK if mid_read else super().in_waiting

        def read(self, size: int = 1) -> bytes:
            if not self.waiting and self.reads:
                raise OSError(5, "Input/output error")
            return super().read(size)

    port = Pulled()
    tray = TrayReader("/dev/ttyACM0", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += (encode(0, Kind.HELLO, "1.3.1", "5") + encode(1, Kind.SNAP, *"-----")
                     + encode(2, Kind.PLACE, "0", UID_5P))
    events = tray.poll_events()
    assert [(e.slot, e.uid) for e in events] == [(Slot.DRAW, UID_5P)]
    tray.poll_events()
    assert "/dev/ttyACM0 went away: [Errno 5] Input/output error" in tray.status().message


# -- N3: a count of one is singular -------------------------------------------------------


@pytest.mark.parametrize(("junk", "said"), [
    (b"\x02", "1 byte came from /dev/ttyACM0 but no tray line: an RDM6300 there needs"),
    (b"\x02\x03", "2 bytes came from /dev/ttyACM0 but no tray line"),
])
def test_the_bytes_that_came_instead_of_a_hello_are_counted_in_good_english(
        junk: bytes, said: str) -> None:
    """Audit rfid63 N3: "1 bytes came from ..." (and "ignored 1 lines", test_rfid_tray)."""
    now = [0.0]
    port = TtyPort()  # unlike loop://, its HELLO does not come back as a line
    tray = TrayReader("/dev/ttyACM0", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += junk
    tray.poll_events()
    now[0] = 3.5
    tray.poll_events()
    assert tray.status().message.startswith(said)
