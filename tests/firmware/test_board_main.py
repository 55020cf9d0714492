"""firmware/main.py under CPython with fake ``machine`` and ``mfrc522`` modules."""

from __future__ import annotations

from types import ModuleType

from companion.hw.rfid.protocol import Kind, encode
from tests.firmware.main_helpers import FakeLink


def test_make_readers_wires_one_reader_per_cs_pin(firmware_main: ModuleType) -> None:
    import board
    import mfrc522

    readers = firmware_main.make_readers()
    assert len(readers) == len(board.CS_PINS)
    assert [r.args[1].level for r in readers] == [1] * len(board.CS_PINS)  # none selected
    readers[0].read_uid()
    chip = mfrc522.BUILT[-1]
    assert chip.cs.id == board.CS_PINS[0]
    assert chip.spi.pins == (board.SCK_PIN, board.MOSI_PIN, board.MISO_PIN)
    assert chip.rst.id == board.RST_PIN


def test_the_main_loop_reports_tags_and_answers_the_host(firmware_main: ModuleType) -> None:
    import board
    import machine
    import mfrc522

    mfrc522.TAGS[board.CS_PINS[2]] = bytes.fromhex("04a1b2c3")
    mfrc522.DEAD.add(board.CS_PINS[4])
    clock = iter(range(0, 10_000, 3))
    link = FakeLink(encode(0, Kind.SNAP))
    watchdog = machine.WDT(timeout=firmware_main.WATCHDOG_MS)
    readers = firmware_main.make_readers()
    tray = firmware_main.run(link, readers, lambda: next(clock), watchdog, steps=40)
    # Power-up reads every slot before it says hello (audit hw61 R1).
    snapshot = ("SNAP", ("-", "-", "04A1B2C3", "-", "?"))
    assert link.out[:2] == [("HELLO", (firmware_main.FIRMWARE_VERSION, "5")), snapshot]
    assert link.out[2] == snapshot  # the answer to our SNAP
    mfrc522.TAGS[board.CS_PINS[0]] = bytes.fromhex("04112233445566")
    for _ in range(10):
        tray.step(next(clock))
    assert ("PLACE", ("0", "04112233445566")) in link.out
    assert watchdog.feeds == 40
    assert link.lines.counters["garbage"] == link.lines.counters["bad_crc"] == 0
