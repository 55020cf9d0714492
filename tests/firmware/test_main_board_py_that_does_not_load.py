"""firmware/main.py with a board.py that does not load (audit hw74 D2, N5), under CPython
with the fake ``machine``.

board.py is the one file the maker edits. A typo there, a pin SPI0 cannot use or a
timing left out stopped the firmware before its crash handling existed: no ERR CRASH
came, the board sat at the REPL, and the companion said "no hello … is it the tray,
running our firmware?", which firmware/README.md says means the copy did not take. The
firmware now tells it, naming board.py and the error, at once and at every host HELLO,
until mpremote's Ctrl-C; the companion says so.
"""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from companion.hw.rfid.firmware_source import FIRMWARE_DIR
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from tests.firmware.main_helpers import Clock, FailingLink, board_clock

BOARD = (FIRMWARE_DIR / "board.py").read_text(encoding="utf-8")
#: A comma left out, as the audit's maker did (CPython's own words for it).
TYPO = BOARD.replace("CS_PINS = (17, 20, 21, 26, 27)", "CS_PINS = (17, 20, 21, 26 27)")
HELLO = encode(0, Kind.HELLO)


@pytest.fixture
def rp2040(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    yield board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")


def started(main: ModuleType, incoming: bytes = b"", reads: int = 10) -> FailingLink:
    """main.py's start on the USB line, until mpremote's Ctrl-C after ``reads`` reads."""
    link = FailingLink(KeyboardInterrupt(), after=reads, incoming=incoming)
    with pytest.raises(KeyboardInterrupt):
        main.start(link)
    return link


def test_a_typo_in_board_py_is_told_naming_board_py_and_again_at_each_hello(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    assert TYPO != BOARD
    main = main_with_board(TYPO)
    import machine

    link = started(main, incoming=HELLO + HELLO)
    kind, args = link.out[0]
    assert (kind, args[:3]) == ("ERR", ("CRASH", "SyntaxError", "board.py"))
    assert "invalid syntax" in " ".join(args[3:])
    assert link.out == [link.out[0]] * 3  # at start, then for each host HELLO
    assert machine.RESETS == []  # a reset would only fail the same way


def test_a_timing_left_out_of_board_py_is_told_by_its_name(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    """It failed in Tray(...), before run()'s crash handling: three silent resets."""
    main = main_with_board(BOARD.replace("RETRY_MS = 1000", ""))
    import machine

    link = started(main)
    assert link.out == [("ERR", ("CRASH", "AttributeError", "board.py", "RETRY_MS",
                                 "missing"))]
    assert machine.RESETS == []


@pytest.mark.parametrize("written", ["(17)", "17"])
def test_cs_pins_of_one_reader_without_its_comma_is_told_by_its_name(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock, written: str) -> None:
    """a77rfid item 7: (17) is the int 17 to Python, and the tray said only "'int' object
    is not iterable", naming no setting; every other board.py check names its own."""
    main = main_with_board(BOARD.replace("CS_PINS = (17, 20, 21, 26, 27)",
                                         f"CS_PINS = {written}"))
    import machine

    link = started(main)
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", "CS_PINS", "is", "17:",
                                 "a", "tuple", "of", "pins,", "e.g.", "(17,)", "for", "one",
                                 "reader"))]
    assert machine.RESETS == []


def test_one_reader_with_its_comma_starts(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    main = main_with_board(BOARD.replace("CS_PINS = (17, 20, 21, 26, 27)", "CS_PINS = (17,)"))
    link = started(main)
    assert link.out[0][0] == "HELLO" and link.out[0][1][1] == "1"


def test_a_pin_spi0_cannot_use_is_told(
        firmware_main: ModuleType, rp2040: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """MicroPython's machine.SPI refuses it at make_readers, before main() ran."""
    import machine

    def spi0(*args: object, **kwargs: object) -> None:
        raise ValueError("bad SCK pin")

    monkeypatch.setattr(machine, "SPI", spi0)
    link = started(firmware_main)
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", "bad", "SCK", "pin"))]


def test_a_heartbeat_the_companion_would_take_for_silence_is_refused(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    """hw74 N5: HEARTBEAT_MS = 4000 made the companion reconnect every 3 s."""
    main = main_with_board(BOARD.replace("HEARTBEAT_MS = 1000", "HEARTBEAT_MS = 4000"))
    link = started(main)
    kind, args = link.out[0]
    assert kind == "ERR"
    assert args[:3] == ("CRASH", "ValueError", "board.py")
    assert "HEARTBEAT_MS 4000 over 2000" in " ".join(args[3:])
    # A second to spare below the silence after which the companion reconnects.
    assert main.HEARTBEAT_LIMIT_MS + 1000 <= TraySettings().heartbeat_timeout * 1000
    assert int(BOARD.split("HEARTBEAT_MS = ")[1].split()[0]) <= main.HEARTBEAT_LIMIT_MS


def test_the_shipped_board_py_starts_the_tray(
        firmware_main: ModuleType, rp2040: Clock) -> None:
    link = started(firmware_main, incoming=HELLO, reads=30)
    assert link.out[0] == ("HELLO", (firmware_main.FIRMWARE_VERSION, "5"))
    assert firmware_main.BOARD_ERROR is None


class PtyLink:
    """The board's end of a pseudo-terminal: the USB serial line the companion opens."""

    def __init__(self, master: int) -> None:
        self.master = master

    def read(self) -> bytes:
        try:
            return os.read(self.master, 64)
        except BlockingIOError:
            return b""

    def write(self, line: str) -> None:
        os.write(self.master, line.encode())


def test_the_companion_names_board_py_and_its_error(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock, tmp_path: Path) -> None:
    """The firmware's own line, to the companion's own reader over a pseudo-terminal: the
    host came after the crash, and its HELLO brings the line again."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    reader = TrayReader(os.ttyname(slave), TagMap({}), settings=TraySettings(hello_timeout=60))
    main = main_with_board(TYPO)
    try:
        reader.poll_events()  # opens the port, says HELLO
        link = PtyLink(master)
        crash = main.crash_args(main.BOARD_ERROR, "board.py")
        main.board_failed(link, main.BOARD_ERROR, steps=5)
        for _ in range(50):
            reader.poll_events()
            if reader.status().counters.get("tray_errors"):
                break
            reader.wait(0.02)
        message = reader.status().message
    finally:
        reader.close()
        os.close(master)
        os.close(slave)
    assert message.startswith(f"the tray's firmware crashed (SyntaxError in board.py: "
                              f"{' '.join(crash[2:])}): mend firmware/board.py")
    assert "no hello" not in message


@pytest.mark.parametrize("heartbeat_ms", [2000, 2001])
def test_a_heartbeat_of_2000_ms_is_the_last_one_taken(
        heartbeat_ms: int, main_with_board: Callable[[str], ModuleType],
        rp2040: Clock) -> None:
    """reviewfw74 N7: the limit itself (2000, a second below the companion's silence
    timeout) starts the tray; one millisecond over is told as board.py's error."""
    main = main_with_board(BOARD.replace("HEARTBEAT_MS = 1000",
                                         f"HEARTBEAT_MS = {heartbeat_ms}"))
    link = started(main, incoming=HELLO, reads=30)
    if heartbeat_ms <= main.HEARTBEAT_LIMIT_MS:
        assert main.BOARD_ERROR is None
        assert link.out[0] == ("HELLO", (main.FIRMWARE_VERSION, "5"))
    else:
        kind, args = link.out[0]
        assert (kind, args[:3]) == ("ERR", ("CRASH", "ValueError", "board.py"))
        assert f"HEARTBEAT_MS {heartbeat_ms} over 2000" in " ".join(args[3:])


class PacedPtyLink(PtyLink):
    """The board's end of the pty, each read a board loop's 20 ms apart in real time (the
    fake clock's sleep_ms takes none), for a host reading it in this process."""

    def read(self) -> bytes:
        time.sleep(0.02)
        return super().read()


@pytest.mark.parametrize("command", [["rfid", "monitor"],
                                     ["calibrate", "rfid", "--only", "1m"]])
def test_the_end_of_a_run_on_a_tray_whose_board_py_does_not_load_says_it_crashed(
        command: list[str], main_with_board: Callable[[str], ModuleType], rp2040: Clock,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewfw74 N2: ``rfid monitor`` ended "the RFID reader never answered (the tray's
    firmware crashed (…))", of a tray that answered each HELLO with its crash; the end is
    the tray's status alone, as ``calibrate rfid``'s is, exit 1 (130 for a Ctrl-C)."""
    from companion.app import cli
    from companion.app.calibrate import rfid as calibrate_rfid
    from companion.app.commands import rfid

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    main = main_with_board(TYPO)
    board = threading.Thread(target=main.board_failed,
                             args=(PacedPtyLink(master), main.BOARD_ERROR, 100))

    class UntilTheBoardIsDone:
        """Stops the monitor once the board's steps are done (2 s: HELLOs answered)."""

        def __enter__(self) -> UntilTheBoardIsDone:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        @property
        def stopped(self) -> bool:
            return not board.is_alive()

    def ctrl_c_once_the_board_is_done(self: object) -> None:
        if not board.is_alive():
            raise KeyboardInterrupt
        return None

    monkeypatch.setattr(rfid, "StopSignal", UntilTheBoardIsDone)
    monkeypatch.setattr(calibrate_rfid.TerminalKeys, "poll", ctrl_c_once_the_board_is_done)
    board.start()
    try:
        code = cli.main([*command, "--port", os.ttyname(slave)])
    finally:
        board.join()
        os.close(master)
        os.close(slave)
    out, err = capsys.readouterr()
    crash = " ".join(main.crash_args(main.BOARD_ERROR, "board.py")[2:])
    said = (f"the tray's firmware crashed (SyntaxError in board.py: {crash}): mend "
            "firmware/board.py and copy it to the tray again")
    assert err.startswith(f"companion: error: {said}"), err
    assert "never answered" not in err
    assert code == (1 if command[0] == "rfid" else 130)
    if command[0] == "rfid":
        # rfid75 NIT 3: "-- connecting: the tray's firmware crashed …" for good, as the
        # host went on saying HELLO; a crash is a problem, with no wait for the reader
        # promised under it (mpremote needs the port to copy the mended board.py).
        lines = out.splitlines()
        assert f"-- problem: {said}" in out, out
        assert not any(line.startswith("-- connecting: the tray's firmware crashed")
                       for line in lines), out
        assert "waiting for the reader" not in out


@pytest.mark.parametrize(("pins", "said"), [
    ("(17, 20, 20, 26, 27)", "CS_PINS has GP20 twice: a pin does one job"),
    ("(17, 20, 21, 16, 27)", "CS_PINS has GP16, which is MISO_PIN: a pin does one job"),
    ("(18, 20, 21, 26, 27)", "CS_PINS has GP18, which is SCK_PIN: a pin does one job"),
    ("(17, 20, 21, 26, 19)", "CS_PINS has GP19, which is MOSI_PIN: a pin does one job"),
    ("(17, 22, 21, 26, 27)", "CS_PINS has GP22, which is RST_PIN: a pin does one job"),
    # rp2's machine.Pin takes "GP20" for 20: one pin, however written (reviewrfid75 NIT 6).
    ("(17, 'GP20', 20, 26, 27)", "CS_PINS has GP20 twice: a pin does one job"),
    ("(17, 20, 21, 26, 'GP18')", "CS_PINS has GP18, which is SCK_PIN: a pin does one job"),
    ("('GP17', 20, 21, 26, 'GP17')", "CS_PINS has GP17 twice: a pin does one job"),
])
def test_a_chip_select_pin_of_two_jobs_is_told_naming_the_pin_and_its_jobs(
        pins: str, said: str, main_with_board: Callable[[str], ModuleType],
        rp2040: Clock) -> None:
    """Audit rfid75 D1: CS_PINS = (17, 20, 20, 26, 27) started the tray; two slots read the
    GP20 pocket's tile, the GP21 pocket none, and the companion said to move the sticker
    so only one slot reads it. The tray now tells board.py's fault instead of its HELLO.
    reviewrfid75 NIT 6: 20 beside "GP20" was not caught."""
    main = main_with_board(BOARD.replace("CS_PINS = (17, 20, 21, 26, 27)",
                                         f"CS_PINS = {pins}"))
    import machine

    link = started(main, incoming=HELLO)
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", *said.split()))] * 2
    assert machine.RESETS == []


def test_a_reset_pin_that_is_an_spi_wire_is_told(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    main = main_with_board(BOARD.replace("RST_PIN = 22", "RST_PIN = 18"))
    link = started(main)
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", *(
        "RST_PIN is GP18, which is SCK_PIN: a pin does one job".split())))]


@pytest.mark.parametrize(("line", "wrong", "said"), [
    # reviewb75 NIT A2: the example is board.py's own value for that name; "e.g. 1000"
    # for every name gave a maker 3000 power-up polls for a count, 1000 baud for SPI.
    ("PLACE_AFTER = 2", "PLACE_AFTER = 1.5", "1.5: a whole number of 1 or more, e.g. 2"),
    ("REMOVE_AFTER = 3", "REMOVE_AFTER = 0", "0: a whole number of 1 or more, e.g. 3"),
    ("FAIL_AFTER = 3", "FAIL_AFTER = -1", "-1: a whole number of 1 or more, e.g. 3"),
    ("HEARTBEAT_MS = 1000", "HEARTBEAT_MS = 0", "0: a whole number of 1 or more, e.g. 1000"),
    ("HEARTBEAT_MS = 1000", "HEARTBEAT_MS = '1000'",
     "'1000': a whole number of 1 or more, e.g. 1000"),
    ("PLACE_AFTER = 2", "PLACE_AFTER = True", "True: a whole number of 1 or more, e.g. 2"),
    ("SPI_BAUDRATE = 1_000_000", "SPI_BAUDRATE = 0.5",
     "0.5: a whole number of 1 or more, e.g. 1000000"),
    ("SPI_BAUDRATE = 1_000_000", "SPI_BAUDRATE = float('inf')",
     "inf: a whole number of 1 or more, e.g. 1000000"),
    # A whole number written with a point or e is told how to write that very number.
    ("RETRY_MS = 1000", "RETRY_MS = 1e3",
     "1000.0: a whole number of 1 or more, written without a point or e: 1000"),
    ("SPI_BAUDRATE = 1_000_000", "SPI_BAUDRATE = 1e6",
     "1000000.0: a whole number of 1 or more, written without a point or e: 1000000"),
    ("PLACE_AFTER = 2", "PLACE_AFTER = 2.0",
     "2.0: a whole number of 1 or more, written without a point or e: 2"),
])
def test_a_count_or_time_that_is_not_a_whole_number_of_1_or_more_is_told_by_its_name(
        line: str, wrong: str, said: str, main_with_board: Callable[[str], ModuleType],
        rp2040: Clock) -> None:
    """Audit rfid75 R2: PLACE_AFTER = 1.5 passed the start, then range(4.5) in the power-up
    polls crashed as a bare TypeError three times in a row, and the companion said to flash
    the firmware again, which copies the same board.py. reviewrfid75 N4: "RETRY_MS is
    1000.0: a whole number of 1 or more" read as if 1e3 were one; it says how to write one."""
    assert line in BOARD
    main = main_with_board(BOARD.replace(line, wrong))
    import machine

    link = started(main)
    name = wrong.split(" = ")[0]
    words = f"{name} is {said}"
    assert len(words) <= main.CRASH_TEXT and words.isascii()  # told whole
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", *words.split()))]
    assert machine.RESETS == []


@pytest.mark.parametrize(("line", "wrong", "said"), [
    ("PLACE_AFTER = 2", "PLACE_AFTER = 20000",
     "PLACE_AFTER 20000 over 100, the most polls that keep the first HELLO within a minute"),
    ("FAIL_AFTER = 3", "FAIL_AFTER = 101",
     "FAIL_AFTER 101 over 100, the most polls that keep the first HELLO within a minute"),
    ("REMOVE_AFTER = 3", "REMOVE_AFTER = 5000",
     "REMOVE_AFTER 5000 over 100, the most polls before a lifted tile is told"),
])
def test_a_count_over_100_polls_is_told_not_a_tray_silent_for_minutes(
        line: str, wrong: str, said: str, main_with_board: Callable[[str], ModuleType],
        rp2040: Clock) -> None:
    """reviewb75 A1: the power-up polls are fed now, so PLACE_AFTER = 20000 (a typo) was a
    tray silent for hours before its first HELLO, the host saying only "no hello"."""
    assert line in BOARD
    main = main_with_board(BOARD.replace(line, wrong))
    import machine

    link = started(main)
    assert len(said) <= main.CRASH_TEXT
    assert link.out == [("ERR", ("CRASH", "ValueError", "board.py", *said.split()))]
    assert machine.RESETS == []


def test_counts_of_100_polls_start_the_tray(
        main_with_board: Callable[[str], ModuleType], rp2040: Clock) -> None:
    text = BOARD
    for line, most in [("PLACE_AFTER = 2", "PLACE_AFTER = 100"),
                       ("REMOVE_AFTER = 3", "REMOVE_AFTER = 100"),
                       ("FAIL_AFTER = 3", "FAIL_AFTER = 100")]:
        assert line in text
        text = text.replace(line, most)
    main = main_with_board(text)
    main.check_board()  # no error
