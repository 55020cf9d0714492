"""Protocol v1 framing: the host LineReader, the firmware framer, and pyserial's loop://."""

from __future__ import annotations

import importlib

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hw.rfid.protocol import (
    COUNTER_NAMES,
    Kind,
    LineReader,
    Message,
    crc16,
    encode,
)
from companion.hw.rfid.simulator import FIRMWARE_DIR, load_firmware_logic

load_firmware_logic()
firmware_protocol = importlib.import_module("jrtray.protocol")

UIDS = st.sampled_from(["04A1B2C3", "04112233445566", "0102030405060708090A"])


def place(seq: int, slot: int = 0, uid: str = "04A1B2C3") -> bytes:
    return encode(seq, Kind.PLACE, str(slot), uid)


def test_crc16_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert firmware_protocol.crc16(b"123456789") == 0x29B1


@given(data=st.binary(max_size=64))
def test_host_crc_from_the_standard_library_equals_the_firmware_loop(data: bytes) -> None:
    assert crc16(data) == firmware_protocol.crc16(data)


@given(seq=st.integers(0, 0xFFFF), slot=st.integers(0, 9), uid=UIDS)
def test_firmware_frames_equal_host_frames(seq: int, slot: int, uid: str) -> None:
    line = firmware_protocol.frame(seq, "PLACE", (str(slot), uid)).encode()
    assert line == encode(seq, Kind.PLACE, str(slot), uid)
    assert firmware_protocol.parse(line) == (seq, "PLACE", [str(slot), uid])
    assert LineReader().feed(line) == [Message(seq, Kind.PLACE, (str(slot), uid))]


def test_firmware_parse_reports_each_fault() -> None:
    good = encode(3, Kind.SNAP)
    assert firmware_protocol.parse(good) == (3, "SNAP", [])
    assert firmware_protocol.parse(good.replace(b"SNAP", b"SNAQ")) == "BAD_CRC"
    assert firmware_protocol.parse(b"J2 3 SNAP *0000") == "BAD_VERSION"
    assert firmware_protocol.parse(b"hello") == "BAD_LINE"
    assert firmware_protocol.parse(b"\xff\xfe *12") == "BAD_LINE"


def test_a_line_split_across_reads_is_joined() -> None:
    reader = LineReader()
    line = place(1)
    got = [m for i in range(len(line)) for m in reader.feed(line[i:i + 1])]
    assert got == [Message(1, Kind.PLACE, ("0", "04A1B2C3"))]
    assert reader.counters["garbage"] == 0


def test_merged_lines_are_split_and_crlf_tolerated() -> None:
    reader = LineReader()
    data = place(1) + place(2, 3).replace(b"\n", b"\r\n") + encode(3, Kind.HB, "12")
    assert [m.seq for m in reader.feed(data)] == [1, 2, 3]
    assert reader.counters["lines"] == 3


def test_garbage_bad_crc_wrong_version_and_malformed_are_counted() -> None:
    reader = LineReader()
    corrupted = place(1).replace(b"A1", b"A2")
    wrong_version = b"J2 5 PLACE 0 04A1B2C3 *" + b"%04X" % crc16(b"J2 5 PLACE 0 04A1B2C3") + b"\n"
    malformed = encode(6, "PLACE", "zero", "04A1B2C3") + encode(7, "JUMP")
    data = b"\x00\xffnoise\n" + corrupted + wrong_version + malformed + place(8)
    assert [m.seq for m in reader.feed(data)] == [8]
    assert reader.counters == {
        "lines": 6, "garbage": 1, "bad_crc": 1, "wrong_version": 1, "malformed": 2, "overflow": 0
    }


def test_junk_glued_in_front_of_a_line_is_skipped() -> None:
    """A boot banner without a newline must not cost the first real line."""
    reader = LineReader()
    assert [m.seq for m in reader.feed(b"MPY: soft reboot" + place(4))] == [4]
    assert reader.counters["garbage"] == 1


def test_an_overlong_line_is_dropped_whole() -> None:
    reader = LineReader(max_line=64)
    assert reader.feed(b"x" * 100) == []
    assert reader.feed(b"y" * 100 + b"\n" + place(9)) == [Message(9, Kind.PLACE, ("0", "04A1B2C3"))]
    assert reader.counters["overflow"] == 1


def test_one_overlong_line_counts_once_however_many_reads_bring_it() -> None:
    """Audit rfid63 N1: a 3,000-byte line fed in 10 reads counted 10 overflows; PROTOCOL.md
    drops it whole, one line. The line after it is read."""
    reader = LineReader()
    line = b"z" * 3000 + b"\n"
    for start in range(0, len(line), 300):
        assert reader.feed(line[start:start + 300]) == []
    assert reader.feed(place(9)) == [Message(9, Kind.PLACE, ("0", "04A1B2C3"))]
    assert reader.counters["overflow"] == 1
    assert reader.feed(b"y" * 300 + b"\n" + b"y" * 300) == []  # one whole, one begun
    assert reader.counters["overflow"] == 3


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=20))
def test_fuzz_the_parser_never_raises(chunks: list[bytes]) -> None:
    reader = LineReader()
    for chunk in chunks:
        for message in reader.feed(chunk):
            assert isinstance(message.kind, Kind)
    assert set(reader.counters) == set(COUNTER_NAMES)
    assert all(n >= 0 for n in reader.counters.values())


@settings(max_examples=200, deadline=None)
@given(
    junk=st.lists(st.binary(max_size=40).filter(lambda b: b"\n" not in b), min_size=1, max_size=8),
    cuts=st.lists(st.integers(1, 30), max_size=10),
)
def test_fuzz_good_lines_survive_junk_and_any_split(junk: list[bytes], cuts: list[int]) -> None:
    """Every valid line between junk lines comes through, however the stream is cut."""
    stream = b"".join(j + b"\n" + place(i) for i, j in enumerate(junk))
    reader = LineReader()
    got: list[Message] = []
    position = 0
    for cut in [*cuts, len(stream)]:
        got += reader.feed(stream[position:position + cut])
        position += cut
    got += reader.feed(stream[position:])
    assert [m.seq for m in got] == list(range(len(junk)))
    non_blank = [j for j in junk if j.strip()]
    counted = sum(reader.counters[k] for k in ("garbage", "bad_crc", "wrong_version", "malformed"))
    assert counted == len(non_blank)


def test_framing_over_pyserial_loop_url() -> None:
    port = serial.serial_for_url("loop://", timeout=0.1)
    try:
        port.write(place(1)[:10])
        reader = LineReader()
        assert reader.feed(port.read(100)) == []
        port.write(place(1)[10:] + encode(2, Kind.REMOVE, "0", "04A1B2C3"))
        got = reader.feed(port.read(200))
    finally:
        port.close()
    assert [(m.kind, m.seq) for m in got] == [(Kind.PLACE, 1), (Kind.REMOVE, 2)]


@pytest.mark.parametrize("args", [("1.0.0", "5"), ()])
def test_hello_from_either_side_parses(args: tuple[str, ...]) -> None:
    assert LineReader().feed(encode(0, Kind.HELLO, *args)) == [Message(0, Kind.HELLO, args)]


def test_the_session_in_protocol_md_parses() -> None:
    text = (FIRMWARE_DIR / "PROTOCOL.md").read_text(encoding="utf-8")
    session = [line.split(": ", 1)[1] for line in text.splitlines()
               if line.startswith(("host: J1", "tray: J1"))]
    reader = LineReader()
    messages = reader.feed("".join(f"{line}\n" for line in session).encode())
    assert len(session) == 6
    assert [m.kind for m in messages] == [
        Kind.HELLO, Kind.HELLO, Kind.SNAP, Kind.PLACE, Kind.HB, Kind.REMOVE]


def raw_line(body: bytes) -> bytes:
    """A line with a right CRC around any body, even one ``encode`` would not write."""
    return body + b" *%04X\n" % crc16(body)


def test_a_sequence_number_past_the_modulo_is_malformed() -> None:
    """The seq is 0..65535 (16 bits, SEQ_MODULO): 65535 is read, 65536 is malformed even
    with a right CRC."""
    reader = LineReader()
    assert reader.feed(raw_line(b"J1 65535 HB 5")) == [Message(65535, Kind.HB, ("5",))]
    assert reader.feed(raw_line(b"J1 65536 HB 5")) == []
    assert reader.counters["malformed"] == 1
    assert reader.counters["bad_crc"] == 0 and reader.counters["garbage"] == 0
