"""Two tiles stacked on one slot are reported on a real reader (audit fw65 D1).

A collision ends the anticollision with both tags still READY. A READY tag takes the next
poll's WUPA for an unexpected command and drops back to IDLE without answering (ISO/IEC
14443-3), so the driver, which returned COLLISION without halting them, read collision,
none, collision, none: the tray's ``place_after`` collisions in a row never came, and no
``ERR COLLISION`` was ever sent, at power-up or later. The fake tag (fakes/chip.py) now
follows those state rules, and the driver halts every tag that answered its WUPA.
"""

from __future__ import annotations

from types import ModuleType

from tests.firmware.fakes.chip import ChipBus, Tag
from tests.firmware.fakes.machine import Pin
from tests.firmware.tray_logic_helpers import Wire

UNDER = bytes.fromhex("04112233445566")  # the tile on the slot
OVER = bytes.fromhex("04AABBCCDDEEFF")  # the tile stacked on it
CLASSIC = bytes.fromhex("A1B2C3D4")  # a MIFARE Classic: its ATQA differs from an NTAG's


def test_a_tag_left_ready_drops_to_idle_on_the_next_wupa() -> None:
    """The fake tag itself: ISO/IEC 14443-3's state rules, which the driver must live with."""
    tag = Tag(UNDER)
    assert tag.respond(b"\x52", 7) == tag.atqa
    assert tag.state == "ready"
    assert tag.respond(b"\x52", 7) is None  # unexpected in READY: no answer
    assert tag.state == "idle"
    assert tag.respond(b"\x52", 7) == tag.atqa  # and the WUPA after that wakes it


def test_stacked_tags_collide_on_every_poll(driver: ModuleType) -> None:
    """The old driver read ['collision', None, 'collision', None, ...]."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Tag(UNDER)
    assert reader.read_uid() == UNDER
    bus.more = [Tag(OVER)]
    reads = [reader.read_uid() for _ in range(6)]
    assert reads == [driver.COLLISION] * 6
    bus.more = []  # the top tile is lifted: the one under it reads at once
    assert reader.read_uid() == UNDER


def test_stacked_tags_of_two_types_collide_on_every_poll(driver: ModuleType) -> None:
    """Their WUPA answers already differ: the driver's first COLLISION exit."""
    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Tag(UNDER)
    bus.more = [Tag(CLASSIC, atqa=b"\x04\x00")]
    assert [reader.read_uid() for _ in range(4)] == [driver.COLLISION] * 4
    bus.more = []
    assert reader.read_uid() == UNDER


def test_a_garbled_anticollision_answer_costs_one_poll_not_two(driver: ModuleType) -> None:
    """A tag whose answer came garbled once (a bad BCC) is left READY too: unhalted, the next
    poll's WUPA sent it to IDLE and that poll read nothing either."""

    class Garbled(Tag):
        garble = 1

        def respond(self, frame: bytes, bits: int) -> bytes | None:
            answer = super().respond(frame, bits)
            if answer is not None and frame[1:2] == b"\x20" and self.garble:
                self.garble -= 1
                return answer[:4] + bytes((answer[4] ^ 0xFF,))
            return answer

    bus = ChipBus()
    reader = driver.MFRC522(bus, Pin(17))
    bus.tag = Garbled(UNDER)
    assert reader.read_uid() is None
    assert reader.read_uid() == UNDER


def _tray(driver: ModuleType, logic: ModuleType, bus: ChipBus) -> tuple[object, Wire]:
    wire = Wire()
    tray = logic.Tray([driver.MFRC522(bus, Pin(17))], "1.1.0", wire.send,
                      heartbeat_ms=10_000)
    return tray, wire


def test_a_tile_stacked_on_a_placed_one_is_reported_within_place_after_polls(
        driver: ModuleType, logic: ModuleType) -> None:
    """The old driver sent nothing at all, however long the stack stayed."""
    bus = ChipBus()
    tray, wire = _tray(driver, logic, bus)
    bus.tag = Tag(UNDER)
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.1.0", "1")), ("SNAP", (UNDER.hex().upper(),))]
    bus.more = [Tag(OVER)]
    now = 0
    for _ in range(tray.place_after):
        now += 10
        tray.step(now)
    assert wire.take() == [("ERR", ("COLLISION", "0"))]
    for _ in range(20):  # it stays reported, and the tile under it stays placed
        now += 10
        tray.step(now)
    assert wire.take() == []
    bus.more = []
    for _ in range(tray.remove_after):
        now += 10
        tray.step(now)
    assert wire.take() == [("ERR", ("COLLISION_END", "0"))]


def test_a_stack_on_the_slot_at_power_up_is_reported_with_the_snapshot(
        driver: ModuleType, logic: ModuleType) -> None:
    """PROTOCOL.md: ERR COLLISION follows the SNAP. The old driver sent SNAP - alone."""
    bus = ChipBus()
    tray, wire = _tray(driver, logic, bus)
    bus.tag = Tag(UNDER)
    bus.more = [Tag(OVER)]
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.1.0", "1")), ("SNAP", ("-",)),
                           ("ERR", ("COLLISION", "0"))]
