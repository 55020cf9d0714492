"""RFID framing and the readers: edges no other test pinned (mutation round 3)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from companion.hw.ports import Slot
from companion.hw.rfid.events import TagAction
from companion.hw.rfid.link import Backoff
from companion.hw.rfid.protocol import MAX_LINE, Kind, LineReader, Message, crc16, encode
from companion.hw.rfid.rdm6300 import Rdm6300Reader, Rdm6300Settings, frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader, TraySettings
from tests.hw.rdm6300_helpers import Pty

TAG = "0F00A1B2C3"
UID = "04A1B2C3"


def raw_line(body: bytes, crc: str | None = None) -> bytes:
    """``body`` framed with its CRC written as ``crc`` (default: the 4 digits)."""
    return body + b" *" + (crc or f"{crc16(body):04X}").encode() + b"\n"


def test_a_line_of_exactly_the_longest_length_is_read_when_its_newline_comes_later() -> None:
    """MAX_LINE is the longest line read: one that long, its newline in the next read, is
    kept whole while it waits (not dropped as an overlong line)."""
    body = b"J1 3 ERR X "
    body += b"d" * (MAX_LINE - len(body) - len(" *0000"))
    line = raw_line(body)
    assert len(line) == MAX_LINE + 1
    reader = LineReader()
    assert reader.feed(line[:-1]) == []
    [message] = reader.feed(b"\n")
    assert (message.seq, message.kind) == (3, Kind.ERR)
    assert reader.counters["overflow"] == 0


def test_a_crc_not_written_as_four_digits_is_garbage() -> None:
    """PROTOCOL.md: the CRC is 4 hex digits; the right value written in 5 (``*0D592``) is
    not a line."""
    body = b"J1 7 PLACE 0 04A1B2C3"
    reader = LineReader()
    assert reader.feed(raw_line(body, f"0{crc16(body):04X}")) == []
    assert reader.counters["garbage"] == 1


@pytest.mark.parametrize("body", [b"J1 4 HELLO 1.0.0 five", b"J1 4 ERR"])
def test_a_hello_without_a_slot_count_or_an_err_without_a_code_is_malformed(body: bytes) -> None:
    """The tray takes a HELLO's second word as its slot count (int) and an ERR's first as
    its code: a line without them is malformed, not handed on to break the driver."""
    reader = LineReader()
    assert reader.feed(raw_line(body)) == []
    assert reader.counters["malformed"] == 1
    assert reader.feed(raw_line(b"J1 5 HELLO 1.0.0 5")) == [
        Message(5, Kind.HELLO, ("1.0.0", "5"))]


def drain(rdm: Rdm6300Reader, now: list[float], steps: int) -> list[tuple[TagAction, bool]]:
    events = []
    for _ in range(steps):
        rdm.wait(0.005)
        events += [(e.action, e.at_start) for e in rdm.poll_events()]
        now[0] += 0.01
    return events


def test_only_a_tag_read_just_after_the_first_opening_lay_there_at_start() -> None:
    """``startup_seconds`` counts from the port's first opening: a tag read just after a
    reopening (a replugged adapter, mid-game) was laid now, not there at start."""
    now = [0.0]
    current = {"pty": Pty()}
    rdm = Rdm6300Reader(lambda: current["pty"].port, clock=lambda: now[0],
                        settings=Rdm6300Settings(backoff=Backoff(initial=0.01, maximum=0.05)))
    try:
        rdm.poll_events()
        assert rdm.link.is_open
        current["pty"].close()
        now[0] += 10.0
        drain(rdm, now, 3)
        assert not rdm.link.is_open
        current["pty"] = Pty()
        now[0] += 1.0
        rdm.poll_events()
        assert rdm.link.is_open
        os.write(current["pty"].master, frame(TAG))
        assert drain(rdm, now, 5) == [(TagAction.PLACED, False)]
    finally:
        rdm.close()
        current["pty"].close()


def test_three_junk_frames_with_no_valid_one_are_a_problem() -> None:
    """JUNK_BEFORE_PROBLEM (3) invalid frames and no valid one: the status is not ok."""
    pty = Pty()
    rdm = Rdm6300Reader(pty.port, settings=Rdm6300Settings(proven_after=0.0))
    try:
        rdm.poll_events()
        bad = bytearray(frame(TAG))
        bad[12] = ord("0") if bad[12] != ord("0") else ord("1")
        os.write(pty.master, bytes(bad) * 3)
        deadline = time.monotonic() + 5  # ends as soon as they are read
        while rdm.framer.counters["bad_checksum"] < 3 and time.monotonic() < deadline:
            rdm.wait(0.005)
            rdm.poll_events()
        assert rdm.framer.counters["bad_checksum"] == 3
        assert not rdm.status().ok
    finally:
        rdm.close()
        pty.close()


FAST = TraySettings(hello_timeout=0.2, heartbeat_timeout=0.25,
                    backoff=Backoff(initial=0.01, maximum=0.1))
#: For a test that feeds the host a line by hand, the tray not stepped (no heartbeat), and
#: is not about timeouts: FAST's timed the link out in a stall of a loaded machine (flaky64).
PATIENT = TraySettings(hello_timeout=30, heartbeat_timeout=30, backoff=FAST.backoff)


@pytest.fixture
def sim() -> Iterator[TraySimulator]:
    with TraySimulator(heartbeat_ms=50) as simulator:
        yield simulator


@pytest.fixture
def tray(sim: TraySimulator) -> Iterator[TrayReader]:
    reader = TrayReader(lambda: sim.port if sim.plugged else None, settings=PATIENT)
    yield reader
    reader.close()


def pump_until_ok(sim: TraySimulator, tray: TrayReader, clock: list[float] | None = None) -> None:
    """Step the tray and poll the host until its status is ok (5 s at most), moving
    ``clock`` (the one both read) by 10 ms a round."""
    deadline = time.monotonic() + 5
    while not tray.status().ok and time.monotonic() < deadline:
        if clock is not None:
            clock[0] += 0.01
        sim.step()
        tray.poll_events()
        tray.wait(0.002)


def test_a_tray_that_keeps_sending_heartbeats_stays_connected(
        sim: TraySimulator, monkeypatch: pytest.MonkeyPatch) -> None:
    """The heartbeat timeout runs from the last line heard, not from the hello: a tray
    heard every 50 ms stays ready for three timeouts' length and more. The tray and the
    host read one clock, moved by the test: on the real one a stall between the tray's
    step and the host's poll was a silence (flaky64 T7)."""
    now = [0.0]
    monkeypatch.setattr(sim, "now_ms", lambda: int(now[0] * 1000))
    tray = TrayReader(lambda: sim.port if sim.plugged else None, settings=FAST,
                      clock=lambda: now[0])
    try:
        pump_until_ok(sim, tray, now)
        assert tray.status().ok
        end = now[0] + 4 * FAST.heartbeat_timeout
        while now[0] < end:
            now[0] += 0.01
            sim.step()
            tray.poll_events()
            tray.wait(0.002)
        status = tray.status()
    finally:
        tray.close()
    assert status.ok, status.message
    assert status.counters["timeouts"] == 0


def test_a_line_for_the_slot_just_past_the_last_is_counted(sim: TraySimulator,
                                                         tray: TrayReader) -> None:
    """Slots are numbered 0 to 4: ``PLACE 5`` names no slot of the host's (counted, like any
    past it), and the driver reads on. (The tray is not stepped here: a patient reader.)"""
    pump_until_ok(sim, tray)
    assert tray.status().ok
    sim.inject(encode(sim.tray.seq, Kind.PLACE, "5", UID))
    sim.tray.seq += 1
    deadline = time.monotonic() + 5  # ends once the line is read
    while not any(tray.status().counters[name] for name in ("unknown_slot", "lost")) \
            and time.monotonic() < deadline:
        tray.wait(0.005)
        assert tray.poll_events() == []
    assert tray.status().counters["unknown_slot"] == 1
    assert Slot.DRAW in tray.slots
