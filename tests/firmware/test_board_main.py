"""firmware/main.py under CPython with fake ``machine`` and ``mfrc522`` modules."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from companion.hw.rfid.firmware_source import FIRMWARE_DIR
from companion.hw.rfid.protocol import Kind, encode
from tests.firmware.main_helpers import FailingLink, FakeLink, board_clock

BOARD = (FIRMWARE_DIR / "board.py").read_text(encoding="utf-8")


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
    assert watchdog.feeds == tray.boot_rounds() + 40  # each power-up round, then each poll
    assert link.lines.counters["garbage"] == link.lines.counters["bad_crc"] == 0


@pytest.mark.parametrize(("count", "poll_ms", "dead"), [
    ("PLACE_AFTER = 40", 17, False),  # 120 rounds of five 17 ms reads: 10 s
    ("FAIL_AFTER = 40", 55, True),  # 40 rounds of five dead readers, 55 ms a try: 11 s
])
def test_power_up_polls_longer_than_the_watchdog_still_end_in_hello(
        count: str, poll_ms: int, dead: bool, main_with_board: Callable[[str], ModuleType],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewrfid75 R2: board.py's counts set how many power-up polls there are, which did
    not feed the 8 s watchdog: PLACE_AFTER 32 or FAIL_AFTER 30 reset the tray before its
    HELLO, with no ERR CRASH, at every start for ever. Each round feeds it now."""
    name = count.split()[0]
    text = "\n".join(count if line.startswith(name + " =") else line
                     for line in BOARD.splitlines())
    assert text != BOARD
    main = main_with_board(text)
    import board
    import machine
    import mfrc522

    board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")
    mfrc522.POLL_MS = poll_ms
    if dead:
        mfrc522.DEAD.update(board.CS_PINS)
    else:
        mfrc522.TAGS[board.CS_PINS[0]] = bytes.fromhex("04a1b2c3")
    link = FailingLink(KeyboardInterrupt(), after=3)  # mpremote's Ctrl-C, 3 polls in
    with pytest.raises(KeyboardInterrupt):
        main.start(link)
    assert machine.NOW[0] > main.WATCHDOG_MS  # the power-up polls did outlast it
    snapshot = ("?",) * 5 if dead else ("04A1B2C3", "-", "-", "-", "-")
    assert link.out[:2] == [("HELLO", (main.FIRMWARE_VERSION, "5")), ("SNAP", snapshot)]
    assert machine.RESETS == []


def test_power_up_polls_longer_than_crash_forget_ms_are_not_steady_running(
        main_with_board: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewb75 A1: power-up polls are fed now, so board.py's counts may make them outlast
    CRASH_FORGET_MS; timed from before them, the loop's first poll counted as 30 s of
    steady running and cleared the crash count, and a tray crashing soon after its HELLO
    never stayed at the REPL. The time is the loop's own."""
    text = "\n".join("PLACE_AFTER = 100" if line.startswith("PLACE_AFTER =") else line
                     for line in BOARD.splitlines())
    main = main_with_board(text)
    main.check_board()  # 100, the most board.py may set
    import machine
    import mfrc522

    board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")
    mfrc522.POLL_MS = 25  # 300 rounds of five reads: 37.5 s
    watchdog = machine.WDT(timeout=main.WATCHDOG_MS)
    steady: list[int] = []
    link = FakeLink(b"")

    def now() -> int:
        return int(machine.NOW[0])

    main.run(link, main.make_readers(), now, watchdog, steps=1,
             steady=lambda: steady.append(now()))
    assert machine.NOW[0] > main.CRASH_FORGET_MS  # the power-up polls did outlast it
    assert link.out[0][0] == "HELLO"
    assert steady == []
    # The loop's own CRASH_FORGET_MS still counts as steady running: a poll a step, 25 ms.
    link = FakeLink(b"")
    main.run(link, main.make_readers(), now, watchdog, steps=1600,
             steady=lambda: steady.append(now()))
    assert len(steady) == 1
