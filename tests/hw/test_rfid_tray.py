"""The tray driver against the tray simulator over a real pseudo-terminal.

The host side is pyserial on the pty's tty end; the far end is the firmware
logic (firmware/jrtray) with simulated MFRC522 readers, writing to the pty
master. Nothing runs in the background: ``pump`` steps both ends in turn.
"""

from __future__ import annotations

import errno
import os
import time

import pytest
import serial

from companion.hw.ports import Slot, SlotReading
from companion.hw.rfid.events import TagAction
from companion.hw.rfid.link import Port
from companion.hw.rfid.protocol import SEQ_MODULO, Kind, crc16, encode
from companion.hw.rfid.rdm6300 import frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import EMPTY
from tests.hw.rfid_sim_helpers import (
    FAST,
    FIRMWARE_VERSION,
    PATIENCE,
    UID_5P,
    UID_7Z,
    connect_with_two_tiles,
    host_only,
    placed,
    pump,
    ready,
    removed,
)

UID_NEW = "0102030405060708090A"


STACKED = "two tiles on the draw slot: leave one 引き牌の枠に牌が2枚: 1枚にして"


def test_handshake_reports_firmware_and_the_tiles_already_on_the_tray(
    sim: TraySimulator, tray: TrayReader
) -> None:
    sim.place(0, UID_5P)
    sim.settle()
    events = pump(sim, tray, until=lambda e: bool(e))
    status = tray.status()
    assert status.ok, status.message
    assert f"firmware {FIRMWARE_VERSION}-sim, 5 slots" in status.message
    assert placed(events) == [(Slot.DRAW, UID_5P, "5p")]


def test_place_and_remove_sequence_becomes_events_and_slot_readings(
    sim: TraySimulator, tray: TrayReader
) -> None:
    assert ready(sim, tray).ok
    sim.place(0, UID_5P)
    sim.place(4, UID_7Z)
    sim.settle()
    events = pump(sim, tray, until=lambda e: len(e) == 2)
    assert sorted(placed(events), key=lambda p: p[1]) == [
        (Slot.ROOM_BR, UID_7Z, "7z"), (Slot.DRAW, UID_5P, "5p")]
    sim.remove(0)
    sim.place(4, UID_5P)  # swapped tiles on one reader: remove then place
    sim.settle()
    events = pump(sim, tray, until=lambda e: len(e) == 3)
    assert sorted(removed(events), key=str) == [(Slot.DRAW, UID_5P), (Slot.ROOM_BR, UID_7Z)]
    assert placed(events) == [(Slot.ROOM_BR, UID_5P, "5p")]
    sim.place(1, UID_7Z)
    sim.settle()
    readings = []
    deadline = time.monotonic() + 1
    while not readings and time.monotonic() < deadline:
        sim.step()
        readings = tray.poll()
        tray.wait(0.002)
    assert readings == [SlotReading(Slot.ROOM_TL, "7z", 1.0, readings[0].candidates, uid=UID_7Z)]


def test_the_first_snapshot_is_read_whole_empty_slots_too(
    sim: TraySimulator, tray: TrayReader
) -> None:
    """poll gives every slot the first snapshot reports, empty ones as EMPTY (not a slot
    whose reader is down), so a session knows what lay there at start-up even while the
    status is not ok; later snapshots (a reconnect) give only what changed."""
    sim.place(0, UID_5P)
    sim.break_reader(4)
    sim.settle()
    readings: list[SlotReading] = []
    deadline = time.monotonic() + 1
    while not readings and time.monotonic() < deadline:
        sim.step()
        readings = tray.poll()
        tray.wait(0.002)
    assert not tray.status().ok  # the bottom-right reader is down
    assert [(r.slot, r.label) for r in readings] == [
        (Slot.DRAW, "5p"), (Slot.ROOM_TL, EMPTY), (Slot.ROOM_TR, EMPTY), (Slot.ROOM_BL, EMPTY)]
    sim.unplug()
    pump(sim, tray, timeout=0.1)
    sim.replug()
    later: list[SlotReading] = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and "answering" not in tray.status().message:
        sim.step()
        later += tray.poll()
        tray.wait(0.002)
    assert "answering" in tray.status().message  # the snapshot came
    assert later == []


def test_two_tiles_on_a_slot_are_named_and_the_tile_is_kept(
    sim: TraySimulator, tray: TrayReader
) -> None:
    """A tile stacked on 5p on the draw slot: the status says "two tiles on the draw slot:
    leave one" and 5p is not reported removed (the slot read as empty, without a word);
    a reconnect's SNAP keeps saying it; one taken off, the status is ok again."""
    assert ready(sim, tray).ok
    sim.place(0, UID_5P)
    sim.settle()
    assert placed(pump(sim, tray, until=lambda e: bool(e))) == [(Slot.DRAW, UID_5P, "5p")]
    sim.stack(0)
    sim.settle()
    events = pump(sim, tray, until=lambda e: not tray.status().ok, timeout=0.5)
    events += pump(sim, tray, timeout=0.1)
    assert events == []
    assert tray.status().message == STACKED
    assert tray.status().counters["tray_errors"] == 0
    sim.unplug()
    pump(sim, tray, timeout=0.1)
    sim.replug()
    deadline = time.monotonic() + 2
    while tray.state.value != "ready" and time.monotonic() < deadline:
        pump(sim, tray, timeout=0.01)
    pump(sim, tray, timeout=0.05)
    assert tray.status().message == STACKED
    sim.stack(0, False)
    sim.settle()
    events = pump(sim, tray, until=lambda e: tray.status().ok, timeout=1.0)
    assert tray.status().ok and events == [] and tray.uids[Slot.DRAW] == UID_5P


def test_debounce_ignores_a_tag_seen_only_once(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.place(0, UID_5P)
    sim.step(1)  # slot 0 polled once
    sim.remove(0)
    sim.settle()
    assert pump(sim, tray, timeout=0.15) == []


def test_unknown_uid_has_no_label_and_does_not_crash(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.place(2, UID_NEW)
    sim.settle()
    events = pump(sim, tray, until=lambda e: bool(e))
    assert placed(events) == [(Slot.ROOM_TR, UID_NEW, None)]
    assert events[0].reading() == SlotReading(Slot.ROOM_TR, None, 0.0, uid=UID_NEW)


def test_garbage_injection_is_counted_and_reading_goes_on(
    sim: TraySimulator, tray: TrayReader
) -> None:
    assert ready(sim, tray).ok
    sim.inject(b"\x00\xff\xfeline noise\r\n")
    sim.inject(b"J1 99 PLACE 0 04A1B2C3 *0000\n")  # bad CRC
    body = b"J7 1 HELLO 9.9 5"
    sim.inject(body + b" *%04X\n" % crc16(body))  # a tray from the future
    sim.place(0, UID_5P)
    sim.settle()
    events = pump(sim, tray, until=lambda e: bool(e))
    assert placed(events) == [(Slot.DRAW, UID_5P, "5p")]
    counters = tray.status().counters
    assert counters["garbage"] == 1
    assert counters["bad_crc"] == 1
    assert counters["wrong_version"] == 1
    assert tray.status().ok


def test_a_line_split_across_reads_and_merged_lines(
    sim: TraySimulator, patient_tray: TrayReader
) -> None:
    tray = patient_tray
    assert ready(sim, tray).ok
    first = encode(sim.tray.seq, Kind.PLACE, "1", UID_5P)
    second = encode(sim.tray.seq + 1, Kind.PLACE, "2", UID_7Z)
    third = encode(sim.tray.seq + 2, Kind.REMOVE, "1", UID_5P)
    sim.tray.seq += 3  # these lines stand in for the firmware's next three
    # Only the host runs here: a heartbeat from the tray must not land mid-line.
    sim.inject(first[:9])
    events = host_only(tray, 0.05)
    assert events == []
    sim.inject(first[9:] + second + third)  # the rest of one line and two whole ones at once
    events = host_only(tray, PATIENCE, until=lambda e: len(e) >= 3)
    assert [(e.action, e.slot) for e in events] == [
        (TagAction.PLACED, Slot.ROOM_TL), (TagAction.PLACED, Slot.ROOM_TR),
        (TagAction.REMOVED, Slot.ROOM_TL)]
    assert tray.status().counters["lost"] == 0


def test_a_lost_line_asks_for_a_snapshot(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.silent = True
    sim.place(3, UID_7Z)
    sim.settle()  # the PLACE line is lost on the wire
    sim.silent = False
    events = pump(sim, tray, until=lambda e: bool(e))
    assert placed(events) == [(Slot.ROOM_BL, UID_7Z, "7z")]
    assert tray.status().counters["lost"] >= 1


def test_unplug_and_replug_reconnects_and_reconciles(sim: TraySimulator, tray: TrayReader) -> None:
    connect_with_two_tiles(sim, tray)
    status = tray.status()
    assert "went away" in status.message or "no tray found" in status.message
    # While unplugged, the player takes one tile away and moves the other.
    sim.remove(0)
    sim.remove(1)
    sim.place(2, UID_7Z)
    sim.settle()
    sim.replug()  # a new device name, as a real USB replug may give
    # (It had to be ok within 2 s: a loaded machine's stalls may take longer. 1c1022e1.)
    events = pump(sim, tray, until=lambda e: tray.status().ok, timeout=10.0)
    assert tray.status().ok, tray.status().message
    events += pump(sim, tray, until=lambda e: len(events + e) == 3)
    assert sorted(removed(events), key=str) == [(Slot.DRAW, UID_5P), (Slot.ROOM_TL, UID_7Z)]
    assert placed(events) == [(Slot.ROOM_TR, UID_7Z, "7z")]
    assert tray.status().counters["reconnects"] >= 1


def test_a_silent_tray_times_out_and_is_reconnected(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.silent = True
    deadline = time.monotonic() + 1
    while tray.status().ok and time.monotonic() < deadline:
        pump(sim, tray, timeout=0.01)
    status = tray.status()
    assert not status.ok
    assert status.counters["timeouts"] == 1
    sim.silent = False
    assert ready(sim, tray).ok


def test_a_port_that_never_says_hello_is_reported(sim: TraySimulator) -> None:
    sim.silent = True
    reader = TrayReader(sim.port, settings=FAST)
    try:
        pump(sim, reader, until=lambda e: reader.counters["timeouts"] >= 1)
        status = reader.status()
    finally:
        reader.close()
    assert not status.ok
    assert "no hello" in status.message


def test_a_tray_speaking_another_version_is_named(sim: TraySimulator) -> None:
    sim.silent = True
    reader = TrayReader(sim.port, settings=FAST)
    try:
        body = b"J2 0 HELLO 2.0.0 5"
        for _ in range(5):
            sim.inject(body + b" *%04X\n" % crc16(body))
            pump(sim, reader, timeout=0.06)
        status = reader.status()
    finally:
        reader.close()
    assert "another protocol version" in status.message
    assert status.counters["wrong_version"] >= 1


def test_one_stray_line_of_another_version_is_not_blamed_for_a_later_silence(
    sim: TraySimulator, tray: TrayReader
) -> None:
    """Audit rfid #4: one noisy `J2` line, then the tray hung: every retry said "the tray
    speaks another protocol version", sending the player to reflash a tray that is fine."""
    assert ready(sim, tray).ok
    body = b"J2 5 HB 1"
    sim.inject(b"xx" + body + b" *%04X\n" % crc16(body))
    pump(sim, tray, timeout=0.05)
    sim.silent = True
    pump(sim, tray, until=lambda e: tray.status().counters["timeouts"] >= 2, timeout=2.0)
    status = tray.status()
    assert status.counters["wrong_version"] == 1 and status.counters["timeouts"] >= 2
    assert "no hello from" in status.message
    assert "another protocol version" not in status.message


def test_a_port_full_of_bytes_but_no_tray_lines_says_so(sim: TraySimulator) -> None:
    """Audit rfid #6: an RDM6300 (or another device) on the tray's port was
    reported as "no hello ... is it the tray", the same as a silent port, with lines=0
    garbage=0 in the counters though hundreds of bytes had come."""
    sim.silent = True
    reader = TrayReader(sim.port, settings=FAST)
    try:
        deadline = time.monotonic() + 1.0
        while reader.counters["timeouts"] < 1 and time.monotonic() < deadline:
            sim.inject(frame("0F00A1B2C3"))
            pump(sim, reader, timeout=0.02)
        status = reader.status()
    finally:
        reader.close()
    assert "bytes came from" in status.message and "no tray line" in status.message
    # Its frames, checksums right, are an RDM6300's: no other device is named (rfid69 D2;
    # bytes that are no frame still say "else it is another device",
    # tests/app/test_rfid_play_other_reader_kind_and_map).
    assert "rdm6300 kind" in status.message and "an RDM6300's frames" in status.message
    # Maker audit 56 #4: the tray speaks USB CDC only; no bridge or baud setting exists.
    assert "baud" not in status.message and "bridge" not in status.message


def test_a_reader_that_stops_answering_is_reported_and_recovers(
    sim: TraySimulator, tray: TrayReader
) -> None:
    assert ready(sim, tray).ok
    sim.break_reader(1)
    sim.settle()
    pump(sim, tray, until=lambda e: not tray.status().ok, timeout=0.5)
    status = tray.status()
    assert not status.ok
    assert status.message == ("the reader under the top-left room slot is not answering "
                              "部屋の左上の読み取り機が無応答")
    sim.break_reader(1, broken=False)
    deadline = time.monotonic() + 1
    while not tray.status().ok and time.monotonic() < deadline:
        sim.settle()
        pump(sim, tray, timeout=0.02)
    assert tray.status().ok
    assert tray.status().counters["tray_errors"] == 1  # READER_DOWN; READER_UP is not an error


def test_unreachable_port_does_not_raise() -> None:
    reader = TrayReader("/dev/does-not-exist", settings=FAST)
    try:
        assert reader.poll() == []
        status = reader.status()
    finally:
        reader.close()
    assert not status.ok
    assert "cannot open /dev/does-not-exist" in status.message


@pytest.mark.parametrize(("port", "hint"), [
    ("/dev/ttyACM9", "is the reader plugged in? (`companion rfid list` shows the serial ports)"),
    pytest.param("/dev/serial0", "turn the Pi's serial port on with sudo raspi-config "
                 "(hardware/wiring.md)", marks=pytest.mark.skipif(
                     os.path.exists("/dev/serial0"), reason="this Pi's serial port is on")),
    # A bare name (ttyACM9): tests/hw/test_rfid_bare_port_names.py.
    # Maker audit 56 #10: input.rfid_port = "-" in a game said "did you mean /dev/-?".
    ("-", '"-" (a capture on stdin) is only for companion rfid monitor and calibrate rfid: '
          "give the game the tray's port, or leave input.rfid_port empty"),
])
def test_a_port_that_is_not_there_says_what_to_check(port: str, hint: str) -> None:
    """Audit rfid #9: "cannot open /dev/ttyACM9: [Errno 2] could not open port /dev/ttyACM9:
    [Errno 2] No such file or directory: '/dev/ttyACM9'", pyserial's text, said the port
    three times on the screen's two-line status and nothing of what to do."""
    reader = TrayReader(port, settings=FAST)
    try:
        reader.poll()
        message = reader.status().message
    finally:
        reader.close()
    assert message == f"cannot open {port}: no such device; {hint} 読み取り機が無い"


def test_a_port_we_may_not_open_says_how_to_fix_it() -> None:
    def refuse(device: str, baudrate: int) -> Port:
        raise serial.SerialException(errno.EACCES, f"could not open port {device}: denied")

    reader = TrayReader("/dev/ttyACM0", settings=FAST, opener=refuse)
    reader.poll()
    assert "usermod -aG dialout" in reader.status().message


def test_a_tray_sending_only_garbage_counts_as_silent(sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.silent = True
    deadline = time.monotonic() + 1
    while tray.status().ok and time.monotonic() < deadline:
        sim.inject(b"\xfe\xff at the wrong baud rate\n")
        pump(sim, tray, timeout=0.01)
    assert "went silent" in tray.status().message
    assert tray.status().counters["garbage"] >= 1


def test_a_repeated_line_is_a_duplicate_not_65535_lost(
    sim: TraySimulator, patient_tray: TrayReader
) -> None:
    """A bridge sending a line twice: its sequence number is one behind the expected one,
    which is not (seq - expected) % 65536 = 65535 lines lost; the repeat is dropped."""
    tray = patient_tray
    assert ready(sim, tray).ok
    line = encode(sim.tray.seq, Kind.PLACE, "2", UID_5P)
    sim.tray.seq += 1  # the line stands in for the firmware's next one
    sim.inject(line + line)
    events = host_only(tray, PATIENCE, until=lambda e: any(  # the second line read
        tray.status().counters[name] for name in ("duplicates", "lost", "out_of_order")))
    assert placed(events) == [(Slot.ROOM_TR, UID_5P, "5p")]
    counters = tray.status().counters
    assert (counters["lost"], counters["duplicates"], counters["out_of_order"]) == (0, 1, 0)
    sim.place(4, UID_7Z)  # the tray's own next line follows on without a gap
    sim.settle()
    assert placed(pump(sim, tray, until=lambda e: bool(e))) == [(Slot.ROOM_BR, UID_7Z, "7z")]
    assert tray.status().counters["lost"] == 0


def test_a_line_from_behind_is_dropped_and_the_snapshot_puts_things_right(
    sim: TraySimulator, patient_tray: TrayReader
) -> None:
    """A line numbered behind the count that is not a repeat (a stale line, or a tray whose
    numbering restarted unseen) is counted, its news dropped, and a SNAP asked for."""
    tray = patient_tray
    assert ready(sim, tray).ok
    stale = (sim.tray.seq - 10) % SEQ_MODULO
    sim.inject(encode(stale, Kind.PLACE, "1", UID_7Z))  # slot 1 is empty on the tray
    assert host_only(tray, PATIENCE, until=lambda e: any(  # the line read
        tray.status().counters[name] for name in ("lost", "out_of_order"))) == []
    counters = tray.status().counters
    assert (counters["lost"], counters["out_of_order"]) == (0, 1)
    sim.tray.seq = (stale + 1) % SEQ_MODULO  # its numbering goes on from there; it answers
    sent, lines = len(sim.sent), counters["lines"]  # every line sent so far was read

    def snapshot_read() -> bool:
        """The tray sent a SNAP, and the host has read every line it sent since."""
        return any(" SNAP " in line for line in sim.sent[sent:]) \
            and tray.status().counters["lines"] >= lines + len(sim.sent) - sent

    pump(sim, tray, until=lambda e: snapshot_read())
    assert any(" SNAP " in line for line in sim.sent[sent:])
    assert tray.uids[Slot.ROOM_TL] is None
    assert tray.status().counters["lost"] == 0


def test_a_line_for_a_slot_the_host_lacks_is_counted_and_reported(
    sim: TraySimulator, patient_tray: TrayReader
) -> None:
    """PLACE 9 … from a tray built for more readers: dropped, but counted and named in the
    status the monitor prints, not silently."""
    tray = patient_tray
    assert ready(sim, tray).ok
    sim.inject(encode(sim.tray.seq, Kind.PLACE, "9", UID_5P))
    sim.tray.seq += 1
    assert host_only(tray, PATIENCE, until=lambda e: any(  # the line read
        tray.status().counters[name] for name in ("unknown_slot", "lost", "out_of_order"))) == []
    status = tray.status()
    assert status.ok and status.counters["unknown_slot"] == 1
    assert "ignored 1 line about slot numbers past 4" in status.message
    assert status.counters["lost"] == 0


def test_a_port_another_program_holds_is_named_not_shared(sim: TraySimulator) -> None:
    """Two programs on one port would each get part of its bytes: the port is opened
    exclusively, and the second is told who to stop; it gets the port once it is free."""
    first = TrayReader(sim.port, settings=FAST)
    second = TrayReader(sim.port, settings=FAST)
    try:
        assert ready(sim, first).ok
        second.poll()
        status = second.status()
        assert not status.ok and not second.link.is_open
        assert f"cannot open {sim.port}: another program is using it" in status.message
        assert "systemctl stop jongrogue-companion" in status.message
        first.close()
        assert ready(sim, second).ok
    finally:
        first.close()
        second.close()
