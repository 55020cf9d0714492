"""The RFID tray's framing, link and reader where mutation round 11 found no test looking:
each test names what a player would see were it broken.

The far end is pyserial's ``loop://`` (what the test writes to the port is what the tray
said) or a pseudo-terminal, handed to the reader by its ``opener``; time is a fake clock the
reader accepts.
"""

from __future__ import annotations

import errno
import fcntl
import os
import termios

import serial

from companion.hw.ports import Slot
from companion.hw.rfid.link import Backoff, Port, open_serial
from companion.hw.rfid.protocol import Kind, LineReader, crc16, encode
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import EMPTY
from tests.hw.rdm6300_helpers import Pty
from tests.hw.rfid_link_helpers import ALL_EMPTY, UID_5P, listening


def framed(body: bytes) -> bytes:
    """``body`` with its CRC and newline: a line that no CRC check stops."""
    return body + b" *%04X\n" % crc16(body)


# -- framing (protocol.py) -------------------------------------------------------------


def test_encode_writes_a_count_past_65535_as_the_wires_wrapped_number() -> None:
    """PROTOCOL.md: a line's number is 0..65535, wrapping to 0. ``encode`` takes any count
    and writes it wrapped: written whole, 65543 would be a malformed line that the far end
    drops (a simulator or tool counting its lines would lose each one past 65535)."""
    [message] = LineReader().feed(encode(0x10000 + 7, Kind.HB, "1"))
    assert message.seq == 7


def test_a_place_line_with_an_extra_word_is_malformed_not_a_tile_laid() -> None:
    """PLACE carries exactly a slot and a UID. A CRC-valid PLACE from other firmware with a
    third word glued on would otherwise be taken as a tile laid on the tray."""
    reader = LineReader()
    assert reader.feed(framed(b"J1 3 PLACE 0 04A1B2C3 EXTRA")) == []
    assert reader.counters["malformed"] == 1


def test_a_snapshot_field_that_is_no_uid_is_no_sticker(wire: serial.Serial) -> None:
    """A SNAP field is '-', '?' or a UID of 8, 14 or 20 hex digits. A UID that lost its
    leading zero ('4A1B2C3', firmware printing bytes without padding) would otherwise become
    a tile with an unknown sticker on that slot. Since rfid63 R1 the field spoils its own
    slot only (unreadable, counted as bad_uid), not the whole line."""
    tray = listening(wire)
    wire.write(framed(b"J1 4 SNAP - 4A1B2C3 - - -") + framed(b"J1 5 SNAP - hello - - -"))
    assert tray.poll_events() == []
    assert tray.uids[Slot.ROOM_TL] is None and tray.unreadable == {Slot.ROOM_TL: "hello"}
    assert tray.counters["bad_uid"] == 2 and tray.lines.counters["malformed"] == 0


def test_a_reconnect_forgets_an_overlong_line_being_skipped() -> None:
    """After a reconnect the next line is the new session's (the tray's HELLO answer). Were
    it skipped as the tail of the old session's overlong line, the handshake would wait its
    whole timeout and try again: the tray seems slow to come back."""
    reader = LineReader()
    assert reader.feed(b"J" * 300) == []  # overlong, its newline not come yet
    reader.reset()
    [message] = reader.feed(encode(1, Kind.HELLO, "1.1.0", "5"))
    assert message.kind is Kind.HELLO


# -- the tray reader (tray.py, link.py) --------------------------------------------------


def test_a_tile_laid_as_the_tray_connects_is_read_once_not_then_empty(
        wire: serial.Serial) -> None:
    """The first snapshot (the draw slot empty) and a PLACE on the draw slot come in one
    read: the player laid the drawn tile as the tray connected. The draw slot reads the
    tile, once; read as the tile and then 'empty', the draw would be lost."""
    tray = listening(wire)
    wire.write(encode(1, Kind.SNAP, *ALL_EMPTY) + encode(2, Kind.PLACE, "0", UID_5P))
    readings = tray.poll()
    assert [(r.uid, r.label) for r in readings if r.slot is Slot.DRAW] == [(UID_5P, "5p")]
    assert {r.label for r in readings if r.slot is not Slot.DRAW} == {EMPTY}


def test_a_snapshot_that_reads_a_slot_ends_its_reader_being_down(wire: serial.Serial) -> None:
    """A slot the snapshot reads (a UID or '-') has a working reader, though the tray's
    READER_UP line was lost: the status is ok again, not 'reader ... not answering' until
    another READER_UP comes."""
    tray = listening(wire)
    wire.write(encode(1, Kind.SNAP, *ALL_EMPTY) + encode(2, Kind.ERR, "READER_DOWN", "1"))
    tray.poll_events()
    assert "not answering" in tray.status().message
    wire.write(encode(4, Kind.SNAP, "-", UID_5P, "-", "-", "-"))  # line 3, READER_UP, lost
    tray.poll_events()
    assert tray.status().ok, tray.status().message


def test_a_tray_that_said_hello_is_looked_for_again_after_the_first_short_delay(
        wire: serial.Serial) -> None:
    """The backoff starts again once the tray answers: after two failed attempts (1 s, then
    2 s apart), a tray that said hello and is then unplugged is looked for again 1 s later,
    not 4 s (each replug would wait up to the backoff's longest delay)."""
    now = [0.0]
    looked: list[float] = []

    def find() -> str | None:
        looked.append(now[0])
        return "loop://" if len(looked) >= 3 else None  # no tray twice, then the tray

    tray = TrayReader(find, settings=TraySettings(backoff=Backoff(initial=1.0, maximum=8.0)),
                      clock=lambda: now[0], opener=lambda device, baud: wire)
    for now[0] in (0.0, 1.0, 3.0):
        tray.poll_events()
    assert looked == [0.0, 1.0, 3.0]
    wire.write(encode(0, Kind.HELLO, "1.1.0", "5") + encode(1, Kind.SNAP, *ALL_EMPTY))
    tray.poll_events()
    assert tray.status().ok, tray.status().message
    wire.close()  # unplugged
    tray.poll_events()
    assert "went away" in tray.status().message
    now[0] = 3.9
    tray.poll_events()
    assert looked == [0.0, 1.0, 3.0]
    now[0] = 4.0
    tray.poll_events()
    assert looked == [0.0, 1.0, 3.0, 4.0]


def stalled(pty: Pty) -> None:
    """Fill what the tray has not read of the line, so the host's next write times out."""
    flags = fcntl.fcntl(pty.slave, fcntl.F_GETFL)
    fcntl.fcntl(pty.slave, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(pty.slave, b"x" * 1024)
    except BlockingIOError:
        pass


def drained(pty: Pty) -> bytes:
    """What the host wrote to the tray, emptied from the line."""
    flags = fcntl.fcntl(pty.master, fcntl.F_GETFL)
    fcntl.fcntl(pty.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    data = b""
    try:
        while chunk := os.read(pty.master, 65536):
            data += chunk
    except BlockingIOError:
        pass
    return data


def test_a_port_that_fails_on_a_write_is_dropped_and_reconnected() -> None:
    """The tray gone or stalled as the host writes its HELLO (or a SNAP after a gap): the
    port is dropped and looked for again. Raised instead, the error would stop the game or
    `rfid monitor` with a traceback rather than 'went away ... reconnecting'."""
    pty = Pty()
    now = [0.0]
    opened: list[Port] = []

    def opener(device: str, baudrate: int) -> Port:
        opened.append(open_serial(device, baudrate))
        return opened[-1]

    tray = TrayReader(pty.port, settings=TraySettings(backoff=Backoff(initial=1.0)),
                      clock=lambda: now[0], opener=opener)
    try:
        stalled(pty)
        assert tray.poll_events() == []  # opened; its HELLO times out on the full line
        # Said at once, and counted: not "waiting for the tray to say hello" till the next.
        assert "went away" in tray.status().message and tray.counters["reconnects"] == 1
        now[0] = 0.5
        assert tray.poll_events() == [] and len(opened) == 1  # not before the backoff's delay
        status = tray.status()
        assert not status.ok and "went away" in status.message and "Write timeout" in \
            status.message
        drained(pty)
        now[0] = 1.0
        tray.poll_events()
        assert len(opened) == 2 and b" HELLO " in drained(pty)  # reopened, hello said again
        os.write(pty.master, encode(0, Kind.HELLO, "1.1.0", "5")
                 + encode(1, Kind.SNAP, *ALL_EMPTY))
        tray.wait(0.5)
        tray.poll_events()
        assert tray.status().ok, tray.status().message
    finally:
        tray.close()
        pty.close()


def test_a_tray_unplugged_between_the_open_and_the_input_reset_is_waited_for() -> None:
    """mutation11-fixes: the tray unplugged just as its port opened made pyserial's input
    reset raise termios.error, no OSError: the game or `rfid monitor` stopped with a
    traceback. It is a port that would not open, said so, and closed."""
    main, side = os.openpty()
    opened: list[serial.Serial] = []

    def unplugged_after_the_open(device: str, baudrate: int) -> Port:
        port = open_serial(device, baudrate)
        opened.append(port)
        os.close(main)  # the tray gone: the far end of its line closed
        return port

    name = os.ttyname(side)
    tray = TrayReader(name, opener=unplugged_after_the_open)
    try:
        tray.poll_events()
        assert tray.status().message.startswith(f"cannot open {name}: ")
        assert [port.is_open for port in opened] == [False]
    finally:
        os.close(side)


def test_a_tray_unplugged_as_pyserial_opens_its_port_is_waited_for() -> None:
    """review59c D2: pyserial's own open flushes the line (tcflush): the tray unplugged in
    that moment raised termios.error out of the reader, as the input reset did."""
    def unplugged_in_the_open(device: str, baudrate: int) -> Port:
        raise termios.error(errno.EIO, os.strerror(errno.EIO))  # serialposix.py's tcflush

    tray = TrayReader("/dev/ttyACM0", opener=unplugged_in_the_open)
    tray.poll_events()
    assert tray.status().message == (f"cannot open /dev/ttyACM0: {os.strerror(errno.EIO)} "
                                     "読み取り機を開けない")
