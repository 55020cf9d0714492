"""What the driver's HLTA costs and when it is sent (review65w RISK 1, NITs 1 and 2).

Every tag that answered the poll's WUPA is halted before ``read_uid`` returns, a garbled
answer included: left READY, the tag takes the next poll's WUPA for an unexpected command,
drops back to IDLE without answering (ISO/IEC 14443-3), and that poll reads nothing too.
A slot where nothing answered gets no HLTA, which would cost it the 5 ms timer wait.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from tests.firmware.fakes.chip import ERROR, ChipBus, Tag, crc_a
from tests.firmware.fakes.machine import Pin

TILE = bytes.fromhex("04112233445566")  # an NTAG213's 7-byte UID
SHORT = bytes.fromhex("A1B2C3D4")  # a 4-byte UID
OVER = bytes.fromhex("04AABBCCDDEEFF")
WUPA = b"\x52"
HLTA = b"\x50\x00" + crc_a(b"\x50\x00")


class GarbledWakeUp(ChipBus):
    """The first ``garble`` WUPA answers arrive with a parity error (ErrorReg ParityErr): a
    tile at the edge of the field. The tag did answer, and is READY."""

    garble = 1

    def _transceive(self, bits: int) -> None:
        wupa = bytes(self.fifo) == WUPA
        super()._transceive(bits)
        if wupa and self.fifo and self.garble:
            self.garble -= 1
            self.regs[ERROR] = 0x02


def _reader(driver: ModuleType, bus: ChipBus) -> Any:
    reader = driver.MFRC522(bus, Pin(17))
    bus.transceived.clear()
    return reader


def test_a_garbled_wake_up_answer_costs_one_poll_not_two(driver: ModuleType) -> None:
    """The old driver returned at once with the tag READY, and read [None, None, UID]."""
    bus = GarbledWakeUp()
    reader = _reader(driver, bus)
    bus.tag = Tag(TILE)
    assert reader.read_uid() is None
    assert bus.transceived[-1] == HLTA
    assert bus.tag.state == "idle"  # HLTA while READY is unexpected: back to IDLE
    assert reader.read_uid() == TILE


def test_an_empty_slot_costs_one_wupa_and_no_hlta(driver: ModuleType) -> None:
    bus = ChipBus()
    reader = _reader(driver, bus)
    for _ in range(3):
        assert reader.read_uid() is None
    assert bus.transceived == [WUPA] * 3


def test_a_lone_tile_costs_exactly_one_hlta_per_poll(driver: ModuleType) -> None:
    bus = ChipBus()
    reader = _reader(driver, bus)
    bus.tag = Tag(SHORT, atqa=b"\x04\x00")
    assert reader.read_uid() == SHORT
    # WUPA, anticollision, select, HLTA.
    assert len(bus.transceived) == 4
    assert bus.transceived[0] == WUPA and bus.transceived[-1] == HLTA
    assert bus.transceived.count(HLTA) == 1
    bus.transceived.clear()
    assert reader.read_uid() == SHORT  # the halted tile wakes to the next WUPA
    assert bus.transceived.count(HLTA) == 1


def test_a_stack_costs_exactly_one_hlta_per_poll(driver: ModuleType) -> None:
    bus = ChipBus()
    reader = _reader(driver, bus)
    bus.tag = Tag(TILE)
    bus.more = [Tag(OVER)]
    for _ in range(3):
        bus.transceived.clear()
        assert reader.read_uid() == driver.COLLISION
        assert bus.transceived.count(HLTA) == 1


def test_an_idle_tag_answers_reqa_and_a_halted_one_only_wupa() -> None:
    """The fake tag as ISO/IEC 14443-3 has it: IDLE answers REQA (26) and WUPA (52), HALT
    answers WUPA only."""
    reqa = b"\x26"
    tag = Tag(TILE)
    assert tag.respond(reqa, 7) == tag.atqa
    assert tag.state == "ready"
    tag.state = "halt"
    assert tag.respond(reqa, 7) is None
    assert tag.state == "halt"
    assert tag.respond(WUPA, 7) == tag.atqa
    assert tag.from_halt
