"""firmware/main.py's crashes (review61f F3, F4, F9), under CPython with the fake ``machine``.

A crash in the power-up polls was never told (the boot's muted output stayed muted); a
Ctrl-C landing in the crash's 100 ms wait left the watchdog running into the mpremote
update; and a crash at every start reset the board about once a second for good, leaving
mpremote no way in.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.firmware.main_helpers import (
    ENABLE,
    RP2040,
    RP2350,
    SCRATCH0,
    Clock,
    FailingLink,
    FakeLink,
    board_clock,
    counted,
)


@pytest.fixture
def rp2040(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    yield board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")


class BuggyReader:
    """A reader whose driver raises what no reader should: a bug, not a loose wire."""

    def init(self) -> None:
        pass

    def read_uid(self) -> bytes | None:
        raise ValueError("a driver bug")


def test_a_crash_in_the_power_up_polls_is_told(firmware_main: ModuleType, rp2040: Clock) -> None:
    import machine

    readers = firmware_main.make_readers()
    readers[2] = BuggyReader()
    link = FakeLink()
    firmware_main.main(link, readers)
    assert link.out == [("ERR", ("CRASH", "ValueError"))]
    assert machine.RESETS == ["reset"]


def test_ctrl_c_in_the_crash_wait_still_stops_the_watchdog(
        firmware_main: ModuleType, rp2040: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """mpremote's Ctrl-C landing in the 100 ms before the reset: the watchdog reset the
    board 8 s into the copy."""
    import machine

    def interrupted(ms: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(time, "sleep_ms", interrupted)
    with pytest.raises(KeyboardInterrupt):
        firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert not machine.mem32[RP2040] & ENABLE
    assert machine.RESETS == []


def test_the_third_crash_in_a_row_stays_at_the_repl(
        firmware_main: ModuleType, rp2040: Clock) -> None:
    import machine

    lines = []
    for _ in range(2):  # each start crashes: the board resets, counting in SCRATCH0
        link = FailingLink(MemoryError(), after=5)
        firmware_main.main(link, firmware_main.make_readers())
        lines.append(link.out[-1])
    assert machine.RESETS == ["reset", "reset"]
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 2
    link = FailingLink(MemoryError(), after=5)
    with pytest.raises(MemoryError):  # its traceback at the REPL, for whoever mends it
        firmware_main.main(link, firmware_main.make_readers())
    lines.append(link.out[-1])
    assert lines == [("ERR", ("CRASH", "MemoryError"))] * 3
    assert machine.RESETS == ["reset", "reset"]
    assert not machine.mem32[RP2040] & ENABLE  # mpremote has time to copy a fix
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 0  # the next start tries again


def test_crashes_far_apart_are_not_a_crash_loop(
        firmware_main: ModuleType, rp2040: Clock) -> None:
    """A tray that ran for a while (CRASH_FORGET_MS) before crashing starts counting
    again: an occasional crash always resets it."""
    import machine

    polls = firmware_main.CRASH_FORGET_MS // 3 + 10  # a tick of 3 ms a loop
    for _ in range(5):
        firmware_main.main(FailingLink(MemoryError(), after=polls), firmware_main.make_readers())
    assert machine.RESETS == ["reset"] * 5
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 1


def test_another_programs_word_in_scratch0_is_no_crash_count(
        firmware_main: ModuleType, rp2040: Clock) -> None:
    import machine

    machine.mem32[RP2040 + SCRATCH0] = 7  # no "JR" mark: not ours
    firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert machine.RESETS == ["reset"]
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 1


@pytest.mark.parametrize("machine_name", ["Raspberry Pi Pico2 with RP2350",
                                          "Raspberry Pi Pico2 with RP2350-RISCV"])
def test_a_pico_2_stops_its_own_watchdog_and_counts_there(
        firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch, machine_name: str) -> None:
    """RP2350's watchdog is at 0x400D8000 (review61f F9: only RP2040's was run)."""
    import machine

    board_clock(monkeypatch, machine_name)
    firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert counted(machine.mem32[RP2350 + SCRATCH0]) == 1
    with pytest.raises(KeyboardInterrupt):
        firmware_main.main(FailingLink(KeyboardInterrupt(), after=5),
                           firmware_main.make_readers())
    assert machine.mem32[RP2350] & ENABLE == 0
    assert RP2040 not in machine.mem32
