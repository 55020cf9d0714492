"""The firmware's tray logic under CPython: debounce, round-robin, faults, host commands."""

from __future__ import annotations

from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.simulator import load_firmware_logic
from tests.firmware.tray_logic_helpers import make_tray, run


def test_boot_says_hello_then_an_empty_snapshot(logic: ModuleType) -> None:
    tray, _, wire = make_tray(logic)
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "3")), ("SNAP", ("-", "-", "-"))]


def test_a_tag_counts_as_placed_on_its_second_sighting(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic)
    readers[1].uid = bytes.fromhex("04a1b2c3")
    run(tray, 3)  # one round: slot 1 seen once
    assert wire.take() == []
    run(tray, 3)
    assert wire.take() == [("PLACE", ("1", "04A1B2C3"))]
    run(tray, 30)
    assert wire.take() == []  # no repeats while it lies there


def test_a_tag_counts_as_removed_after_three_misses(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=1)
    readers[0].uid = b"\x04\x11\x22\x33\x44\x55\x66"
    run(tray, 2)
    assert wire.take() == [("PLACE", ("0", "04112233445566"))]
    readers[0].uid = None
    run(tray, 2)
    readers[0].uid = b"\x04\x11\x22\x33\x44\x55\x66"  # a flicker at the field's edge
    run(tray, 1)
    readers[0].uid = None
    run(tray, 2)
    assert wire.take() == []
    run(tray, 1)
    assert wire.take() == [("REMOVE", ("0", "04112233445566"))]


def test_a_swapped_tag_is_removed_then_placed(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=1)
    readers[0].uid = b"\x01\x02\x03\x04"
    run(tray, 2)
    readers[0].uid = b"\x05\x06\x07\x08"
    run(tray, 2)
    assert wire.take() == [
        ("PLACE", ("0", "01020304")), ("REMOVE", ("0", "01020304")), ("PLACE", ("0", "05060708"))]


def test_readers_are_polled_round_robin(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=3)
    for reader in readers:
        reader.uid = b"\xaa\xbb\xcc\xdd"
    run(tray, 6)
    assert [args[0] for _, args in wire.take()] == ["0", "1", "2"]


def test_a_dead_reader_is_reported_retried_and_recovers(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=2, fail_after=3, retry_ms=500)
    readers[0].uid = b"\x01\x02\x03\x04"
    run(tray, 4)
    wire.take()
    readers[0].broken = True
    run(tray, 6, now=100)  # three failed polls of slot 0
    assert wire.take() == [("ERR", ("READER_DOWN", "0"))]
    tray.snapshot(100)
    assert wire.take() == [("SNAP", ("?", "-"))]
    readers[1].uid = b"\x09\x09\x09\x09"
    run(tray, 4, now=200)  # slot 1 keeps working while slot 0 waits for its retry
    assert wire.take() == [("PLACE", ("1", "09090909"))]
    readers[0].broken = False
    run(tray, 2, now=599)
    assert wire.take() == []  # not retried before retry_ms
    run(tray, 2, now=601)
    assert wire.take() == [("ERR", ("READER_UP", "0"))]
    tray.snapshot(601)
    assert wire.take() == [("SNAP", ("01020304", "09090909"))]  # its tile was kept


def test_two_tiles_on_a_slot_are_a_collision_and_the_tile_is_kept(logic: ModuleType) -> None:
    """A tile stacked on the one on slot 0: ERR COLLISION 0 (after PLACE_AFTER polls), no
    REMOVE; a SNAP keeps the tile and says the collision again; one tile taken off, the
    collision ends after REMOVE_AFTER clean polls and the tile is still there."""
    tray, readers, wire = make_tray(logic, slots=2)
    readers[0].uid = b"\x04\x00\x00\x01"
    run(tray, 4)
    assert wire.take() == [("PLACE", ("0", "04000001"))]
    readers[0].uid = logic.COLLISION
    run(tray, 2)
    assert wire.take() == []  # one collision poll is not enough
    run(tray, 20)
    assert wire.take() == [("ERR", ("COLLISION", "0"))]  # once, and no REMOVE
    tray.snapshot(0)
    assert wire.take() == [("SNAP", ("04000001", "-")), ("ERR", ("COLLISION", "0"))]
    readers[0].uid = b"\x04\x00\x00\x01"
    run(tray, 6)
    assert wire.take() == [("ERR", ("COLLISION_END", "0"))]
    tray.snapshot(0)
    assert wire.take() == [("SNAP", ("04000001", "-"))]


def test_a_stack_whose_reader_goes_down_is_not_told_after_every_snap(
        logic: ModuleType) -> None:
    """fixcarry74: a slot's reader down under two stacked tiles repeated ERR COLLISION after
    every SNAP, which says "?" for it, and the host took each for no stack. The READER_DOWN
    is told once, no COLLISION after a SNAP while it is down; the collision is kept and
    told again right after the READER_UP (reviewa74 D1); lifted while down, the next clean
    reads end it (COLLISION_END)."""
    tray, readers, wire = make_tray(logic, slots=2, fail_after=3, retry_ms=500)
    readers[0].uid = b"\x04\x00\x00\x01"
    run(tray, 4)
    readers[0].stacked = True
    run(tray, 6)
    assert wire.take() == [("PLACE", ("0", "04000001")), ("ERR", ("COLLISION", "0"))]
    readers[0].broken = True
    run(tray, 6, now=100)
    assert wire.take() == [("ERR", ("READER_DOWN", "0"))]
    for now in (200, 300, 400):
        run(tray, 2, now=now)
        tray.snapshot(now)
        assert wire.take() == [("SNAP", ("?", "-"))]
    readers[0].broken = False
    run(tray, 6, now=1000)
    assert wire.take() == [("ERR", ("READER_UP", "0")), ("ERR", ("COLLISION", "0"))]
    tray.snapshot(1000)
    assert wire.take() == [("SNAP", ("04000001", "-")), ("ERR", ("COLLISION", "0"))]
    # Down again, and the stack lifted meanwhile: up, the collision is told again, and the
    # clean reads after it end it; the tile left is read alone.
    readers[0].broken = True
    run(tray, 6, now=1100)
    assert wire.take() == [("ERR", ("READER_DOWN", "0"))]
    readers[0].broken = readers[0].stacked = False
    run(tray, 6, now=2000)
    assert wire.take() == [("ERR", ("READER_UP", "0")), ("ERR", ("COLLISION", "0")),
                           ("ERR", ("COLLISION_END", "0"))]
    tray.snapshot(2000)
    assert wire.take() == [("SNAP", ("04000001", "-"))]


def test_a_flapping_reader_under_a_stack_is_told_stacked_at_every_up(
        logic: ModuleType) -> None:
    """reviewa74 D1: a reader on a loose wire, up for one poll between failures (fewer than
    PLACE_AFTER, so no collision builds afresh), was never told stacked again once its
    collision was forgotten at READER_DOWN: each SNAP gave the old tile alone, and the host
    took it for the only one. The kept collision follows every READER_UP and every SNAP
    while the reader is up."""
    tray, readers, wire = make_tray(logic, slots=2, fail_after=3, retry_ms=500)
    readers[0].uid = b"\x04\x00\x00\x01"
    run(tray, 4)
    readers[0].stacked = True
    run(tray, 6)
    wire.take()
    now = 100
    for _ in range(3):
        readers[0].broken = True
        run(tray, 6, now=now)
        now += 600
        readers[0].broken = False
        run(tray, 2, now=now)  # one good poll of slot 0
        tray.snapshot(now)
        assert wire.take() == [
            ("ERR", ("READER_DOWN", "0")), ("ERR", ("READER_UP", "0")),
            ("ERR", ("COLLISION", "0")), ("SNAP", ("04000001", "-")),
            ("ERR", ("COLLISION", "0"))]
        now += 10


def test_the_snap_asked_for_at_reader_up_carries_the_stack(logic: ModuleType) -> None:
    """reviewa74 D1: the host asks for a SNAP at READER_UP; answered before that slot's
    next poll, it came with no COLLISION, and the host read the slot as holding one tile
    for a round."""
    tray, readers, wire = make_tray(logic, slots=5, fail_after=3, retry_ms=500)
    readers[0].uid = b"\x04\x00\x00\x01"
    run(tray, 10)
    readers[0].stacked = True
    run(tray, 15)
    readers[0].broken = True
    run(tray, 15, now=100)
    wire.take()
    readers[0].broken = False
    run(tray, 1, now=1000)  # the poll that finds slot 0 up
    assert wire.take() == [("ERR", ("READER_UP", "0")), ("ERR", ("COLLISION", "0"))]
    tray.feed(encode(0, Kind.SNAP), 1000)
    assert wire.take() == [("SNAP", ("04000001", "-", "-", "-", "-")),
                           ("ERR", ("COLLISION", "0"))]
    run(tray, 5, now=1010)
    assert wire.take() == []


def test_host_commands_are_answered(logic: ModuleType) -> None:
    tray, _, wire = make_tray(logic, slots=2)
    tray.feed(encode(0, Kind.HELLO) + encode(1, Kind.SNAP), 5000)
    tray.feed(encode(2, Kind.PING)[:5], 5000)  # a command split across reads
    tray.feed(encode(2, Kind.PING)[5:], 5000)
    assert wire.take() == [
        ("HELLO", ("1.0.0", "2")), ("SNAP", ("-", "-")), ("SNAP", ("-", "-")), ("HB", ("5",))]


def test_bad_commands_get_error_reports(logic: ModuleType) -> None:
    tray, _, wire = make_tray(logic, slots=1)
    tray.feed(encode(0, Kind.SNAP).replace(b"SNAP", b"SNAQ"), 0)
    tray.feed(b"J2 0 SNAP *0000\n", 0)
    tray.feed(b"\xff\xfe\n\n", 0)
    tray.feed(encode(1, "FLY"), 0)
    tray.feed(b"x" * 300, 0)
    tray.feed(b"tail of the long line\n" + encode(2, Kind.SNAP), 0)
    assert wire.take() == [
        ("ERR", ("BAD_CRC",)), ("ERR", ("BAD_VERSION",)), ("ERR", ("BAD_LINE",)),
        ("ERR", ("BAD_CMD", "FLY")), ("ERR", ("OVERFLOW",)), ("SNAP", ("-",))]
    long_command = encode(3, Kind.SNAP).replace(b"SNAP", b"SNAP " + b"x" * 220)
    for start in range(0, len(long_command), 64):  # whole by the end of a 64-byte read
        tray.feed(long_command[start:start + 64], 0)
    assert wire.take() == [("ERR", ("OVERFLOW",))]


def test_heartbeat_only_when_the_line_is_quiet(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=1, heartbeat_ms=1000)
    tray.boot(0)
    wire.take()
    run(tray, 1, now=999)
    assert wire.take() == []
    run(tray, 1, now=1000)
    assert wire.take() == [("HB", ("1",))]
    readers[0].uid = b"\x01\x02\x03\x04"
    run(tray, 2, now=1900)
    run(tray, 1, now=2500)  # the PLACE at 1900 counts as a sign of life
    assert wire.take() == [("PLACE", ("0", "01020304"))]


def test_sequence_numbers_wrap_at_16_bits(logic: ModuleType) -> None:
    tray, _, wire = make_tray(logic, slots=1)
    tray.seq = 0xFFFF
    tray.heartbeat(0)
    tray.heartbeat(0)
    assert [m.seq for m in wire.messages] == [0xFFFF, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=10))
def test_fuzz_host_input_never_crashes_the_tray(chunks: list[bytes]) -> None:
    """Whatever the host sends, the tray answers with valid lines and keeps going."""
    tray, _, wire = make_tray(load_firmware_logic(), slots=1)
    for chunk in chunks:
        tray.feed(chunk, 0)
    tray.feed(b"\n" + encode(0, Kind.SNAP), 0)  # the next clean line still gets its answer
    assert wire.reader.counters["garbage"] == wire.reader.counters["bad_crc"] == 0
    assert wire.take()[-1] == ("SNAP", ("-",))


def test_junk_glued_in_front_of_a_command_is_skipped(logic: ModuleType) -> None:
    tray, _, wire = make_tray(logic, slots=1)
    tray.feed(b"\x80\x00J noise " + encode(0, Kind.PING), 2000)
    assert wire.take() == [("HB", ("2",))]


def test_a_uid_of_a_length_no_line_carries_is_no_tag(logic: ModuleType) -> None:
    """Audit rfid63 R1: a reader's 3-byte read (an older driver cut a 4-byte UID beginning
    0x88 to 3) went into the SNAP and the PLACE as it was; the host drops such a line whole,
    so no slot of that SNAP was read. Now it counts as no tag on its slot, and every line
    the tray sends parses on the host, the other slots' tiles included."""
    tray, readers, wire = make_tray(logic)
    readers[0].uid = bytes.fromhex("04A1B2C3")
    readers[2].uid = bytes.fromhex("A1B2C3")
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "3")), ("SNAP", ("04A1B2C3", "-", "-"))]
    assert wire.reader.counters["malformed"] == 0
    readers[1].uid = bytes.fromhex("0102030405")
    run(tray, 30)
    assert wire.take() == []
    readers[1].uid = bytes.fromhex("04112233445566")
    run(tray, 6)
    assert wire.take() == [("PLACE", ("1", "04112233445566"))]
    readers[1].uid = bytes.fromhex("041122334455")  # the same tag read short: no tag
    run(tray, 9)
    assert wire.take() == [("REMOVE", ("1", "04112233445566"))]


def test_one_overlong_host_line_is_one_overflow_however_it_is_read(logic: ModuleType) -> None:
    """Audit rfid63 N1: a 640-byte host line read 64 bytes at a time drew an ERR OVERFLOW per
    200 bytes; PROTOCOL.md drops such a line whole, with one error. The next line is heard."""
    tray, _, wire = make_tray(logic)
    line = b"J" * 640 + b"\n"
    for start in range(0, len(line), 64):
        tray.feed(line[start:start + 64], 0)
    tray.feed(encode(1, Kind.PING), 0)
    assert [kind for kind, _ in wire.take()] == ["ERR", "HB"]
    tray.feed(b"x" * 300, 0)
    tray.feed(b"x" * 300 + b"\n" + b"y" * 300 + b"\n", 0)  # two overlong lines
    assert wire.take() == [("ERR", ("OVERFLOW",)), ("ERR", ("OVERFLOW",))]
