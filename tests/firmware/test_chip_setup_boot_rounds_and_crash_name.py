"""Firmware: a chip that lost its antenna or timer, boot_rounds, ERR CRASH's type length.

mutation13: gaps in the tests of firmware 1.2 that hand-made mutants survived: a reader
chip that lost only its antenna or only its timer is set up again (mfrc522.py D1), boot
polls as often as a tile takes to count as placed, and as a reader takes to count as down,
whichever is more (jrtray/logic.py boot_rounds), and ERR CRASH names at most 24 characters
of the exception's type (main.py)."""

from __future__ import annotations

import sys
import time
from types import ModuleType

import pytest

from tests.firmware.fakes.chip import ChipBus, Tag
from tests.firmware.fakes.machine import Pin
from tests.firmware.main_helpers import FailingLink
from tests.firmware.tray_logic_helpers import make_tray

UID = bytes.fromhex("04A1B2C3")
TX_CONTROL, T_MODE, T_RELOAD_L = 0x14, 0x2A, 0x2D


def test_a_chip_whose_antenna_went_off_is_set_up_again(driver: ModuleType) -> None:
    """Its timer still set: the antenna alone tells that the chip lost its setup."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17), Pin(22))
    bus.tag = Tag(UID)
    assert reader.read_uid() == UID
    bus.regs[TX_CONTROL] = 0x80  # antenna off
    bus.tag.state = "idle"
    assert reader.read_uid() == UID


def test_a_chip_whose_timer_was_lost_is_set_up_again(driver: ModuleType) -> None:
    """Its antenna still on: the timer's reload alone tells it, and a WUPA nobody answers
    ends at the timer instead of spinning to the loop's end."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    assert reader.read_uid() is None
    bus.regs[T_MODE] = bus.regs[T_RELOAD_L] = 0  # timer stopped and unset
    reads = bus.reads
    assert reader.read_uid() is None
    assert bus.reads - reads < 100


def test_boot_polls_as_often_as_a_tile_takes_to_count_as_placed(logic: ModuleType) -> None:
    """max(place_after, fail_after) quiet polls: with place_after 4 and fail_after 1, a tile
    lying there is in the first snapshot, not placed after it."""
    tray, readers, wire = make_tray(logic, slots=2, place_after=4, fail_after=1)
    readers[1].uid = bytes.fromhex("04a1b2c3")
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "2")), ("SNAP", ("-", "04A1B2C3"))]


class AVeryLongNamedErrorOfSomeLibrary(Exception):
    """An exception whose type's name is longer than ERR CRASH carries."""


def test_err_crash_names_the_first_24_characters_of_the_type(
        firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter(range(0, 1_000_000, 3))
    monkeypatch.setattr(time, "ticks_ms", lambda: next(clock), raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico with RP2040",
                        raising=False)
    link = FailingLink(AVeryLongNamedErrorOfSomeLibrary(), after=5)
    firmware_main.main(link, firmware_main.make_readers())
    assert link.out[-1] == ("ERR", ("CRASH", "AVeryLongNamedErrorOfSom"))


def test_boot_polls_as_often_as_a_reader_takes_to_count_as_down(logic: ModuleType) -> None:
    """The other side of boot_rounds' max: with fail_after past place_after's rounds, a dead
    reader is still "?" in the first snapshot, not reported down after it."""
    tray, readers, wire = make_tray(logic, slots=2, place_after=1, fail_after=7)
    readers[1].broken = True
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "2")), ("SNAP", ("-", "?"))]
