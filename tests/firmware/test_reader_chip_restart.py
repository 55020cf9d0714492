"""A reader chip that restarts under the firmware (audit hw61 D1).

A brief dip of a reader's 3.3 V (a jiggled wire, the five antennas' load, ESD) restarts its
MFRC522 at the datasheet's reset values: antenna off, timer stopped, VersionReg still
answering. The driver sets it up again on the next poll, so the tile on it is read on.
"""

from __future__ import annotations

from types import ModuleType

from tests.firmware.fakes.chip import ChipBus, Tag
from tests.firmware.fakes.machine import Pin
from tests.firmware.tray_logic_helpers import Wire

UID = bytes.fromhex("04A1B2C3")


def test_a_restarted_chip_is_set_up_again_and_reads_its_tag(driver: ModuleType) -> None:
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17), Pin(22))
    bus.tag = Tag(UID)
    assert reader.read_uid() == UID
    bus.reset()  # its supply dipped: antenna off, timer unset
    bus.tag.state = "idle"  # the tag lost its field too
    assert reader.read_uid() == UID
    assert bus.regs[0x14] & 0x03 == 0x03  # antenna on again


def test_a_restarted_chip_costs_no_spin_to_the_loop_end(driver: ModuleType) -> None:
    """With the timer stopped, no TimerIRq ends a WUPA nobody answers: each transceive
    polled ComIrqReg 2000 times, and the other four slots were read four times slower."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.reset()
    reads = bus.reads
    assert reader.read_uid() is None
    assert bus.reads - reads < 100


def test_a_supply_dip_of_one_poll_loses_no_tile_and_the_slot_reads_on(
        driver: ModuleType, logic: ModuleType) -> None:
    """The audit's run: the tile was reported lifted after the dip, and the slot never read
    another tile, with no READER_DOWN."""
    bus = ChipBus()
    wire = Wire()
    tray = logic.Tray([driver.MFRC522(bus, Pin(17), Pin(22))], "1.1.0", wire.send,
                      heartbeat_ms=10_000)
    bus.tag = Tag(UID)
    now = 0
    for _ in range(4):
        now += 10
        tray.step(now)
    assert wire.take() == [("PLACE", ("0", "04A1B2C3"))]
    bus.answers = False  # one poll without power: SPI reads 0x00
    now += 10
    tray.step(now)
    bus.answers = True
    bus.reset()
    bus.tag.state = "idle"
    for _ in range(20):
        now += 10
        tray.step(now)
    assert wire.take() == []  # the tile stayed, and nothing was said
    bus.tag = Tag(bytes.fromhex("04112233445566"))  # the player swaps the tile
    for _ in range(20):
        now += 10
        tray.step(now)
    assert wire.take() == [("REMOVE", ("0", "04A1B2C3")), ("PLACE", ("0", "04112233445566"))]
