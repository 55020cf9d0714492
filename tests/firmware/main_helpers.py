"""Shared by the firmware's main.py tests: a fake host link (FakeLink), one that fails
(FailingLink), and the RP2040/RP2350 watchdog's registers and a board clock."""

from __future__ import annotations

import sys
import time

import pytest

from companion.hw.rfid.protocol import LineReader


class FakeLink:
    """The USB serial line: bytes queued for the board, lines it wrote."""

    def __init__(self, incoming: bytes = b"") -> None:
        self.incoming = incoming
        self.lines = LineReader()
        self.out: list[tuple[str, tuple[str, ...]]] = []

    def read(self) -> bytes:
        data, self.incoming = self.incoming[:16], self.incoming[16:]
        return data

    def write(self, line: str) -> None:
        self.out += [(m.kind.value, m.args) for m in self.lines.feed(line.encode())]


class FailingLink(FakeLink):
    """The USB line, whose ``read`` raises ``error`` on its ``after``-th call, and gives
    the bytes ``incoming`` queued for the board before it."""

    def __init__(self, error: BaseException, after: int, incoming: bytes = b"") -> None:
        super().__init__(incoming)
        self.error = error
        self.calls = 0
        self.after = after

    def read(self) -> bytes:
        self.calls += 1
        if self.calls == self.after:
            raise self.error
        return super().read()


RP2040, RP2350 = 0x40058000, 0x400D8000  # WATCHDOG_BASE, RP2040 and RP2350 datasheets


SCRATCH0 = 0x0C


ENABLE = 1 << 30


def counted(word: int) -> int:
    """The crash count in SCRATCH0's word: "JR" (0x4A52) in bits 8-23, the count below."""
    assert word >> 8 == 0x4A52
    return word & 0xFF


class Clock:
    """MicroPython's time.ticks_ms and time.sleep_ms: 3 ms a tick, sleeps recorded."""

    def __init__(self) -> None:
        self.now = 0
        self.slept: list[int] = []

    def ticks_ms(self) -> int:
        self.now += 3
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.slept.append(ms)


def board_clock(monkeypatch: pytest.MonkeyPatch, machine_name: str) -> Clock:
    clock = Clock()
    monkeypatch.setattr(time, "ticks_ms", clock.ticks_ms, raising=False)
    monkeypatch.setattr(time, "sleep_ms", clock.sleep_ms, raising=False)
    monkeypatch.setattr(sys.implementation, "_machine", machine_name, raising=False)
    return clock
