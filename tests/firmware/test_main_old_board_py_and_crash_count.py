"""firmware/main.py with a board.py kept from firmware 1.2, a crash handling that fails, a
Ctrl-C after crashes, and the crash count's word (review61h R1, N4, N5), under CPython
with the fake ``machine``.

Firmware 1.3 read its new constants from board.py, which the maker edits and keeps: a
1.2 board.py crashed the handler itself, leaving the watchdog resetting the board every
8 s with no ERR CRASH told and no crash counted.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from tests.firmware.main_helpers import (
    ENABLE,
    RP2040,
    SCRATCH0,
    Clock,
    FailingLink,
    board_clock,
    counted,
)

#: board.py as firmware 1.2 shipped it: wiring and reading timings, with WATCHDOG_MS.
BOARD_1_2 = {
    "SPI_ID": 0, "SPI_BAUDRATE": 1_000_000, "SCK_PIN": 18, "MOSI_PIN": 19, "MISO_PIN": 16,
    "RST_PIN": 22, "CS_PINS": (17, 20, 21, 26, 27), "HEARTBEAT_MS": 1000, "PLACE_AFTER": 2,
    "REMOVE_AFTER": 3, "FAIL_AFTER": 3, "RETRY_MS": 1000, "WATCHDOG_MS": 8000,
}


@pytest.fixture
def rp2040(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")


@pytest.fixture
def board_1_2(firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    board = ModuleType("board")
    board.__dict__.update(BOARD_1_2)
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setattr(firmware_main, "board", board)
    return board


def test_a_board_py_of_firmware_1_2_starts_the_tray_and_its_crash_is_told(
        firmware_main: ModuleType, board_1_2: ModuleType, rp2040: Clock) -> None:
    import machine

    link = FailingLink(MemoryError(), after=25)
    firmware_main.main(link, firmware_main.make_readers())
    assert link.out[0] == ("HELLO", (firmware_main.FIRMWARE_VERSION, "5"))
    assert link.out[1] == ("SNAP", ("-",) * 5)
    assert link.out[-1] == ("ERR", ("CRASH", "MemoryError"))
    assert machine.RESETS == ["reset"]
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 1


def test_board_py_holds_no_firmware_constant(firmware_main: ModuleType) -> None:
    """A maker's board.py is kept across updates: what the firmware reads from it must be
    what 1.2's had (the tray above ran on 1.2's names alone)."""
    import board

    assert set(n for n in vars(board) if n.isupper()) <= set(BOARD_1_2)
    for name in ("BOOT_MISSES", "CRASH_LIMIT", "CRASH_FORGET_MS", "WATCHDOG_MS"):
        assert not hasattr(board, name) and hasattr(firmware_main, name)
    # What main.py checks board.py for at start (audit hw74 D2): 1.2's names, all of them.
    assert set(firmware_main.BOARD_NAMES) == set(BOARD_1_2) - {"WATCHDOG_MS"}


def test_a_crash_handling_that_fails_still_stops_the_watchdog(
        firmware_main: ModuleType, rp2040: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The handling's own error (SCRATCH0 unreadable) leaves the board at the REPL, showing
    the crash (review61i N1)."""
    import machine

    class UnreadableScratch(machine.Registers):  # type: ignore[name-defined,misc]
        def __getitem__(self, address: int) -> int:
            if address == RP2040 + SCRATCH0:
                raise MemoryError("the handler's own")
            return int(super().__getitem__(address))

    monkeypatch.setattr(machine, "mem32", UnreadableScratch())
    with pytest.raises(ValueError, match="a bug"):
        firmware_main.main(FailingLink(ValueError("a bug"), after=5),
                           firmware_main.make_readers())
    assert not machine.mem32[RP2040] & ENABLE  # at the REPL, mpremote gets in
    assert machine.RESETS == []


def test_ctrl_c_clears_the_crash_count(firmware_main: ModuleType, rp2040: Clock) -> None:
    """Two crashes, then mpremote's Ctrl-C and the update's reset: the new firmware gets
    three tries, not one."""
    import machine

    for _ in range(2):
        firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 2
    with pytest.raises(KeyboardInterrupt):
        firmware_main.main(FailingLink(KeyboardInterrupt(), after=5),
                           firmware_main.make_readers())
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 0
    firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert machine.RESETS == ["reset"] * 3  # a crash after the update resets, not the REPL


def test_the_crash_count_allocates_no_long_int(firmware_main: ModuleType, rp2040: Clock) -> None:
    """Read and written in the handler of a MemoryError: counting up to the limit and
    clearing it makes no heap int of a word (on MicroPython's rp2 port, a word at or over
    2**30 is one, made on each read or write of it)."""
    import machine

    for _ in range(2):
        firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    with pytest.raises(MemoryError):
        firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    assert counted(machine.mem32[RP2040 + SCRATCH0]) == 0
    assert [word for _, address, word in machine.mem32.accesses
            if address == RP2040 + SCRATCH0 and word >= 1 << 30] == []


@pytest.mark.parametrize("word", [0xFFFFFFFF, -1, 0x4A520002, 0x4A52_02 | 1 << 24])
def test_another_word_in_scratch0_counts_none(
        firmware_main: ModuleType, rp2040: Clock, word: int) -> None:
    """Another program's word, read unsigned or signed, or 1.3.0's mark: not our count."""
    import machine

    machine.mem32[RP2040 + SCRATCH0] = word
    assert firmware_main.WatchdogRegisters("Raspberry Pi Pico with RP2040").crashes() == 0
