"""Reads at power-up and after a chip's restart (review61f F6, F8)."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.firmware.fakes.chip import ChipBus, Tag
from tests.firmware.fakes.machine import Pin
from tests.firmware.tray_logic_helpers import make_tray

UID = bytes.fromhex("04A1B2C3")


class EdgeReader:
    """A tag at the edge of the field: read or missed, poll by poll, as ``reads`` says."""

    def __init__(self, reads: str) -> None:
        self.reads = iter(reads)

    def init(self) -> None:
        pass

    def read_uid(self) -> bytes | None:
        return UID if next(self.reads, "R") == "R" else None


@pytest.mark.parametrize("reads", ["RMRMRR", "MRMRRR", "RMMRRR", "MMRRRR"])
def test_a_tag_missed_twice_at_power_up_is_in_the_first_snapshot(
        logic: ModuleType, reads: str) -> None:
    """Three polls allowed only one miss, and only the first: a tag at the edge of the field
    was "-" in the snapshot, then PLACEd, a fresh tile at the start of a game."""
    tray, _, wire = make_tray(logic, slots=2, place_after=2, fail_after=3)
    tray.readers[0] = EdgeReader(reads)
    tray.boot(0)
    assert wire.take()[1] == ("SNAP", ("04A1B2C3", "-"))
    assert tray.boot_rounds() == 6


@pytest.fixture
def wakes(monkeypatch: pytest.MonkeyPatch) -> ChipBus:
    """A chip whose tag wakes 5 ms after the field comes on; time.sleep_ms runs its clock."""
    import time

    bus = ChipBus()
    bus.wake_ms = 5

    def sleep_ms(ms: int) -> None:
        bus.now_ms += ms

    monkeypatch.setattr(time, "sleep_ms", sleep_ms, raising=False)
    return bus


def test_a_tag_is_read_on_the_poll_right_after_the_field_comes_on(
        driver: ModuleType, wakes: ChipBus) -> None:
    """The wake-up command went out within a millisecond of the antenna switching on, before
    a tag must answer (ISO/IEC 14443-3 gives it 5 ms): at power-up and after a chip's restart
    that poll read nothing."""
    wakes.tag = Tag(UID)
    reader = driver.MFRC522(wakes, Pin(17), Pin(22))
    assert reader.read_uid() == UID
    wakes.reset()  # its supply dipped: antenna off
    wakes.tag.state = "idle"
    assert reader.read_uid() == UID
