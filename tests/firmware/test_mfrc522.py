"""The firmware's MFRC522 driver against a register-level fake chip and tag (fakes/chip.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.firmware.fakes.chip import ChipBus, Tag, crc_a
from tests.firmware.fakes.machine import Pin


def test_crc_a_check_value() -> None:
    """ISO 14443-3 annex B: CRC_A of 0x00 0x00 is 0x1EA0."""
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"


def test_init_switches_the_antenna_on_and_deselects(driver: ModuleType) -> None:
    bus, cs = ChipBus(), Pin(17)
    driver.MFRC522(bus, cs, Pin(22))
    assert bus.regs[0x14] & 0x03 == 0x03  # TxControlReg: antenna drivers on
    assert bus.regs[0x11] == 0x3D  # CRC preset 0x6363
    assert cs.level == 1


@pytest.mark.parametrize("uid", ["04A1B2C3", "04112233445566", "0102030405060708090A"])
def test_reads_4_7_and_10_byte_uids(driver: ModuleType, uid: str) -> None:
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    assert reader.read_uid() is None  # nothing on the antenna
    bus.tag = Tag(bytes.fromhex(uid))
    assert reader.read_uid() == bytes.fromhex(uid)
    assert bus.tag.state == "halt"
    assert reader.read_uid() == bytes.fromhex(uid)  # WUPA wakes the halted tag next poll


def test_a_reader_that_stops_answering_raises_oserror(driver: ModuleType) -> None:
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.answers = False
    with pytest.raises(OSError, match="does not answer"):
        reader.read_uid()
    with pytest.raises(OSError):
        reader.init()
    bus.answers = True
    reader.init()
    bus.tag = Tag(bytes.fromhex("04A1B2C3"))
    assert reader.read_uid() == bytes.fromhex("04A1B2C3")


def test_two_tags_on_one_reader_are_a_collision_not_no_tag(driver: ModuleType) -> None:
    """Two tiles stacked: their anticollision answers differ, the chip flags CollErr, and
    the driver says COLLISION (it said None, "no tag", and the tray removed the tile)."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Tag(bytes.fromhex("04000001"))
    assert reader.read_uid() == bytes.fromhex("04000001")
    bus.more = [Tag(bytes.fromhex("04000002"))]
    assert reader.read_uid() == driver.COLLISION
    bus.more = []  # no hand reset: the driver halted both tags (the fake follows ISO 14443-3)
    assert reader.read_uid() == bytes.fromhex("04000001")


def test_two_tags_of_different_types_on_one_reader_are_a_collision(driver: ModuleType) -> None:
    """An NTAG tile stacked on a MIFARE Classic one: their WUPA answers (ATQA) already
    differ, and the driver said None, "no tag", so the tray reported the tile lifted and
    the later lift of one of them was read as a fresh placement."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Tag(bytes.fromhex("04112233445566"))
    assert reader.read_uid() == bytes.fromhex("04112233445566")
    bus.more = [Tag(bytes.fromhex("A1B2C3D4"), atqa=b"\x04\x00")]
    assert reader.read_uid() == driver.COLLISION


@pytest.mark.parametrize("uid", ["88A1B2C3", "8804B2C3D4E5F6"])
def test_a_uid_beginning_with_the_cascade_tag_byte_is_read_whole(
    driver: ModuleType, uid: str
) -> None:
    """Audit rfid63 R1: the driver stripped the first byte of a level whenever it was 0x88,
    the cascade tag, though only the SAK's cascade bit says a level follows. A 4-byte UID
    beginning with 0x88 (a writable "magic" MIFARE card) came out as 3 bytes, a UID no
    protocol line carries, and the host dropped the tray's whole snapshot for it."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Tag(bytes.fromhex(uid))
    assert reader.read_uid() == bytes.fromhex(uid)


def test_a_level_that_asks_for_another_without_the_cascade_tag_is_no_uid(
    driver: ModuleType
) -> None:
    """A SAK with the cascade bit over a level that does not start with the cascade tag
    breaks ISO/IEC 14443-3: no UID of a length a line carries can come of it."""

    class Odd(Tag):
        def parts(self) -> list[bytes]:
            return [self.uid[:4], self.uid[4:] + b"\x00"]  # two levels, no cascade tag

    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Odd(bytes.fromhex("04112233445566"))
    assert reader.read_uid() is None
