"""Tray firmware entry point: wire the readers from board.py to the USB serial line.

Everything here touches hardware (``machine``, ``select``, USB stdin/stdout);
the logic lives in ``jrtray``. The tests run ``run()`` and ``main()`` under CPython
with fake ``machine`` and ``mfrc522`` modules and an in-memory link.
"""

import sys
import time

import machine
from jrtray import protocol
from jrtray.logic import Tray, ticks_diff
from mfrc522 import MFRC522

# board.py is the one file the maker edits (firmware/README.md): a typo there must reach
# the host as an ERR CRASH naming board.py, not leave the board silent at the REPL
# (audit hw74 D2). start() tells it; here there is no link yet.
try:
    import board

    BOARD_ERROR = None
except Exception as exc:
    board = None
    BOARD_ERROR = exc

# 1.1: ERR COLLISION; 1.2: a first SNAP that holds what lies there, ERR CRASH, a watchdog,
# a reader chip that restarted is set up again; 1.3: 6 power-up polls, the third crash in a
# row stays at the REPL; 1.3.1: a 4-byte UID beginning 0x88 is read whole, a read of
# another length than 4, 7 or 10 bytes is no tag, one ERR OVERFLOW per overlong host line
# (firmware/PROTOCOL.md); 1.3.2: the tags are halted after a collision, so two stacked
# tiles collide on every poll and ERR COLLISION comes (audit fw65 D1); 1.3.3: a tag whose
# WUPA answer came garbled is halted too, so a tile at the field's edge misses one poll, not
# two (review65w R1); 1.3.4: a down reader's collision is no longer sent after every SNAP
# while it is down (fixcarry74) but kept, and sent again right after its READER_UP
# (reviewa74 D1); a board.py that does not load
# (a typo, a pin SPI0 cannot use, a name missing, HEARTBEAT_MS over HEARTBEAT_LIMIT_MS) is
# told, ERR CRASH <type> board.py <error>, and again at every host HELLO (audit hw74 D2);
# 1.3.5: so is a pin board.py gives two jobs (a chip-select pin twice, or one that is also
# SCK, MOSI, MISO or RST: audit rfid75 D1) and a count or time there that is not a whole
# number of 1 or more (rfid75 R2), or a count over COUNT_LIMIT (reviewb75 A1); the watchdog
# is fed in the power-up polls, which large counts in board.py made outlast it
# (reviewrfid75 R2); 1.3.6: a CS_PINS that is not a tuple or list (``(17)`` for one reader,
# the comma left out) is told by its name, not as "'int' object is not iterable" (a77rfid 7)
FIRMWARE_VERSION = "1.3.6"

# The watchdog's registers (RP2040 datasheet 4.7.6, RP2350 datasheet 12.9.7, "List of
# registers"): CTRL at its base, with ENABLE in bit 30 (MicroPython's WDT on rp2 has no
# deinit), and SCRATCH0, which keeps its word through machine.reset() and the
# watchdog's own reset, and is cleared at power-on. The bootrom reads SCRATCH4-7 only.
WATCHDOG_BASE = {"RP2040": 0x40058000, "RP2350": 0x400D8000}
WATCHDOG_ENABLE = 1 << 30
SCRATCH0 = 0x0C
# A write to a register's address + 0x3000 clears the bits written in it, with no read
# (RP2040 datasheet 2.1.2, RP2350 2.1.3, "Atomic Register Access"; the pico-sdk's
# watchdog_disable does so).
ATOMIC_CLEAR = 0x3000
# "JR" in SCRATCH0's bits 8-23, the count below it: the count is ours, not another
# program's. The word stays under 2**30, a small int to MicroPython, so reading and
# writing it allocates nothing, in the handler of a MemoryError too (review61h N5).
CRASH_MARK = 0x4A52

# The firmware's own constants, not board.py's: a board.py kept from firmware 1.2 has
# none of them (review61h R1).
# Misses a tag at the edge of the field may have among the polls at power-up and still be
# in the first snapshot: 6 polls of each reader (jrtray.logic Tray.boot_rounds), about
# 0.5 s with five readers, at most 0.8 s when readers do not answer.
BOOT_MISSES = 2
# Resets the board when the loop stops feeding it. A poll takes at most about 0.1 s (a
# reader's soft reset waits 50 ms); the RP2040's longest is 8388 ms.
WATCHDOG_MS = 8000
# A crash resets the board; after CRASH_LIMIT crashes in a row (none CRASH_FORGET_MS
# after its power-up polls) it stays at the REPL, with the watchdog stopped, for a person or
# mpremote to mend it (firmware/README.md).
CRASH_LIMIT = 3
CRASH_FORGET_MS = 30_000
# What main.py reads from board.py: each is checked at start, so a board.py without one
# is told as such (start), not found as the loop begins.
BOARD_NAMES = ("SPI_ID", "SPI_BAUDRATE", "SCK_PIN", "MOSI_PIN", "MISO_PIN", "RST_PIN",
               "CS_PINS", "HEARTBEAT_MS", "PLACE_AFTER", "REMOVE_AFTER", "FAIL_AFTER",
               "RETRY_MS")
# The longest HEARTBEAT_MS board.py may set: the companion takes a tray silent for 3 s
# as gone and reconnects (heartbeat_timeout, TraySettings in companion/hw/rfid/tray.py;
# audit hw74 N5). A heartbeat is due HEARTBEAT_MS after the last line, and may come a
# poll (about 0.1 s) and a USB hop later: 2 s leaves the host a second to spare.
HEARTBEAT_LIMIT_MS = 2000
# Characters of board.py's error told in its ERR CRASH line (a line is 200 at most,
# protocol.MAX_LINE).
CRASH_TEXT = 100


# board.py's pins, each of one job: SPI0's three wires, the readers' shared reset line,
# then each reader's chip-select (CS_PINS, one a reader).
BOARD_PINS = ("SCK_PIN", "MOSI_PIN", "MISO_PIN", "RST_PIN")
# board.py's counts of polls and times in milliseconds (and the SPI clock), each a whole
# number of 1 or more: 1.5 polls made range() fail in the power-up polls, a crash loop
# that never named board.py, and 0 polls a first SNAP of "-" under tiles lying there.
BOARD_WHOLE_NUMBERS = ("SPI_BAUDRATE", "HEARTBEAT_MS", "PLACE_AFTER", "REMOVE_AFTER",
                       "FAIL_AFTER", "RETRY_MS")
# The example each one's refusal gives: firmware/board.py's own value, so a maker who
# copies it gets a working tray (1000 for a count was 3000 power-up polls; reviewb75 A2).
BOARD_EXAMPLES = {"SPI_BAUDRATE": "1000000", "HEARTBEAT_MS": "1000", "PLACE_AFTER": "2",
                  "REMOVE_AFTER": "3", "FAIL_AFTER": "3", "RETRY_MS": "1000"}
# The most polls board.py's counts may be: the power-up polls are max(PLACE_AFTER x 3,
# FAIL_AFTER) rounds (jrtray.logic Tray.boot_rounds), at most about 0.13 s each when
# readers do not answer, so 100 keeps the first HELLO within about 40 s; a typo such as
# PLACE_AFTER = 20000 was a silent tray for hours (reviewb75 A1). REMOVE_AFTER's 100
# polls of each reader are about 10 s before a lifted tile is told.
COUNT_LIMIT = 100
BOARD_COUNTS = ("PLACE_AFTER", "REMOVE_AFTER", "FAIL_AFTER")


def pin_name(pin):
    """A pin as the Pico's pinout names it: GP20 for 20 (a name as given, "GP20", as is)."""
    return "GP" + str(pin) if isinstance(pin, int) else str(pin)


def pin_number(pin):
    """A pin as its GP number, to compare: rp2's machine.Pin takes "GP20" for 20, so a
    board.py giving both gave one pin two jobs unseen (reviewrfid75 N6). Another name
    ("LED") is kept as given."""
    if isinstance(pin, str) and pin[:2] == "GP" and pin[2:].isdigit():
        return int(pin[2:])
    return pin


def check_pins():
    """Raise a ValueError naming a pin board.py gives two jobs: a chip-select pin listed
    twice drives one reader from two slots and never selects another (the companion then
    blamed the stickers' placement), and a chip-select pin that is also an SPI wire or
    the reset line takes it from every reader (audit rfid75 D1)."""
    jobs = [(name, pin_number(getattr(board, name))) for name in BOARD_PINS]
    jobs += [("CS_PINS", pin_number(pin)) for pin in board.CS_PINS]
    for i in range(len(jobs)):
        for j in range(i):
            if jobs[i][1] != jobs[j][1]:
                continue
            first, second, pin = jobs[j][0], jobs[i][0], pin_name(jobs[i][1])
            if first == second:
                raise ValueError(second + " has " + pin + " twice: a pin does one job")
            verb = " has " if second == "CS_PINS" else " is "
            raise ValueError(second + verb + pin + ", which is " + first
                             + ": a pin does one job")


def check_board():
    """Raise what is wrong with board.py: an error of its own import, a name main.py reads
    that it lacks, a pin of two jobs, a count or time that is not a whole number of 1 or
    more, a count over COUNT_LIMIT, a HEARTBEAT_MS the companion would take for silence."""
    if BOARD_ERROR is not None:
        raise BOARD_ERROR
    for name in BOARD_NAMES:
        if not hasattr(board, name):
            raise AttributeError(name + " missing")
    # (17) is 17 to Python: a one-reader tray written without the comma.
    if type(board.CS_PINS) not in (tuple, list):
        raise ValueError("CS_PINS is " + repr(board.CS_PINS)
                         + ": a tuple of pins, e.g. (17,) for one reader")
    check_pins()
    for name in BOARD_WHOLE_NUMBERS:
        value = getattr(board, name)
        # type(), not isinstance: True is an int too (and 1 poll).
        if type(value) is not int or value < 1:
            # 1e3 and 1000.0 are whole numbers to a maker, not to range() (reviewrfid75
            # N4): the message says how to write one.
            if type(value) is float and value >= 1 and value % 1 == 0:  # not inf, nan
                raise ValueError(name + " is " + repr(value) + ": a whole number of 1 or"
                                 " more, written without a point or e: " + str(int(value)))
            raise ValueError(name + " is " + repr(value) + ": a whole number of 1 or more,"
                             " e.g. " + BOARD_EXAMPLES[name])
    for name in BOARD_COUNTS:
        if getattr(board, name) > COUNT_LIMIT:
            why = ("before a lifted tile is told" if name == "REMOVE_AFTER"
                   else "that keep the first HELLO within a minute")
            raise ValueError(name + " " + str(getattr(board, name)) + " over "
                             + str(COUNT_LIMIT) + ", the most polls " + why)
    if board.HEARTBEAT_MS > HEARTBEAT_LIMIT_MS:
        raise ValueError("HEARTBEAT_MS " + str(board.HEARTBEAT_MS) + " over "
                         + str(HEARTBEAT_LIMIT_MS) + ", the longest the companion waits out")


def crash_args(exc, where=None):
    """ERR CRASH's arguments after CRASH: the exception's type; with ``where`` (the file at
    fault), that file and the error's own words, in printable ASCII (a protocol line's)."""
    args = [type(exc).__name__[:24]]
    if where is not None:
        text = ""
        for char in str(exc)[:CRASH_TEXT]:
            text += char if " " < char < "\x7f" else " "
        args.append(where)
        args.extend(text.split())
    return args


def board_failed(link, exc, steps=None):
    """Tell the host that board.py does not load (``ERR CRASH <type> board.py <error>``),
    then again at every host ``HELLO``: the host is often not listening at the moment of
    the crash, and a reset would only fail the same way. No watchdog runs yet; Ctrl-C
    (mpremote, to copy a mended board.py) ends it at the REPL. ``steps`` bounds it for the
    tests (forever on the board)."""
    args = crash_args(exc, "board.py")
    args.insert(0, "CRASH")  # not ["CRASH", *...]: MicroPython has no * in a list display
    seq = 0
    link.write(protocol.frame(seq, "ERR", args))
    inbox = b""
    done = 0
    while steps is None or done < steps:
        inbox += link.read()
        while b"\n" in inbox:
            line, inbox = inbox.split(b"\n", 1)
            parsed = protocol.parse(line)
            if not isinstance(parsed, str) and parsed[1] == "HELLO":
                seq = (seq + 1) & 0xFFFF
                link.write(protocol.frame(seq, "ERR", args))
        inbox = inbox[-protocol.MAX_LINE:]  # no newline in a whole line's worth: noise
        time.sleep_ms(20)
        done += 1


def start(link):
    """main.py's own start: board.py checked and the readers made, then :func:`main`; a
    board.py that does not load (a typo, a pin SPI0 cannot use, a name missing, a pin of
    two jobs, a timing that is not a whole number of 1 or more, a count over 100) is told
    to the host by :func:`board_failed`, as firmware/README.md says (audit hw74 D2)."""
    try:
        check_board()
        readers = make_readers()
    except Exception as exc:
        board_failed(link, exc)
        return
    main(link, readers)


def make_readers():
    """One MFRC522 per chip-select pin; a reader that fails to start is retried later."""
    spi = machine.SPI(board.SPI_ID, baudrate=board.SPI_BAUDRATE, sck=machine.Pin(board.SCK_PIN),
                      mosi=machine.Pin(board.MOSI_PIN), miso=machine.Pin(board.MISO_PIN))
    rst = machine.Pin(board.RST_PIN, machine.Pin.OUT)
    # Each chip-select starts high (deselected): an output starts low, and every reader
    # would otherwise answer the first one's words on the shared MISO line.
    return [LazyReader(spi, machine.Pin(cs, machine.Pin.OUT, value=1), rst)
            for cs in board.CS_PINS]


class LazyReader:
    """An MFRC522 built on first success, so a dead reader at power-up is only a down slot."""

    def __init__(self, spi, cs, rst):
        self.args = (spi, cs, rst)
        self.chip = None

    def init(self):
        if self.chip is None:
            self.chip = MFRC522(*self.args)
        else:
            self.chip.init()

    def read_uid(self):
        if self.chip is None:
            self.init()
        return self.chip.read_uid()


class UsbLink:
    """Non-blocking bytes in from, lines out to, the USB serial port (the REPL's stdin/stdout)."""

    def __init__(self, stdin, stdout):
        import select

        self.stdin = stdin.buffer if hasattr(stdin, "buffer") else stdin
        self.stdout = stdout
        self.poller = select.poll()
        self.poller.register(stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 64 and self.poller.poll(0):
            data += self.stdin.read(1)
        return data

    def write(self, line):
        self.stdout.write(line)


def run(link, readers, ticks_ms, watchdog, steps=None, steady=None):
    """The power-up polls and the main loop, feeding ``watchdog`` after each round of
    those and every poll of this; ``steps`` bounds it for the tests
    (forever on the board). ``steady`` is called once the loop (not the power-up polls)
    has run ``CRASH_FORGET_MS``. An unforeseen exception is told to the host (``ERR CRASH
    <exception type>``) before it is raised on."""
    tray = Tray(readers, FIRMWARE_VERSION, link.write, heartbeat_ms=board.HEARTBEAT_MS,
                place_after=board.PLACE_AFTER, remove_after=board.REMOVE_AFTER,
                fail_after=board.FAIL_AFTER, retry_ms=board.RETRY_MS,
                boot_misses=BOOT_MISSES)
    try:
        tray.boot(ticks_ms(), watchdog.feed)  # board.py's counts may make it long
        # Steady running is timed from the loop's start: power-up polls longer than
        # CRASH_FORGET_MS counted as steady at the first poll, and a tray crashing soon
        # after its HELLO cleared its crash count at every start and never stayed at the
        # REPL (reviewb75 A1).
        started = ticks_ms()
        done = 0
        while steps is None or done < steps:
            watchdog.feed()
            data = link.read()
            if data:
                tray.feed(data, ticks_ms())
            now = ticks_ms()
            tray.step(now)
            if steady is not None and ticks_diff(now, started) >= CRASH_FORGET_MS:
                steady()
                steady = None
            done += 1
    except Exception as exc:  # not KeyboardInterrupt: mpremote's Ctrl-C ends the loop
        tray.emit("ERR", ("CRASH", type(exc).__name__[:24]), ticks_ms())
        raise
    return tray


class WatchdogRegisters:
    """The watchdog's registers on this chip, found by ``machine_name``
    (``sys.implementation._machine``: "Raspberry Pi Pico with RP2040", "… with RP2350",
    "… with RP2350-RISCV"); on another chip, none, and nothing is stopped or counted.

    Their addresses are over 2**30, a heap long int to MicroPython each time one is
    made: they are made here, before the loop, and the crash handling that reads and
    writes them allocates nothing, in a MemoryError's handler too (review61i R1)."""

    def __init__(self, machine_name):
        self.ctrl_clear = self.scratch0 = None
        for chip, base in WATCHDOG_BASE.items():
            if chip in machine_name:
                self.ctrl_clear = base + ATOMIC_CLEAR
                self.scratch0 = base + SCRATCH0

    def stop(self):
        """Let a person or mpremote have the REPL: the watchdog would reset the board in
        the middle of a firmware update (README, "Flash it")."""
        if self.ctrl_clear is not None:
            machine.mem32[self.ctrl_clear] = WATCHDOG_ENABLE

    def crashes(self):
        """Crash resets in a row so far (SCRATCH0; 0 after power-on)."""
        if self.scratch0 is None:
            return 0
        word = machine.mem32[self.scratch0]
        return word & 0xFF if word >> 8 == CRASH_MARK else 0

    def count_crashes(self, count):
        if self.scratch0 is not None:
            machine.mem32[self.scratch0] = CRASH_MARK << 8 | count


def main(link, readers):
    """Run until Ctrl-C; on anything else, reset the board (audit hw61 N1): a tray at the
    REPL came back only when replugged, and the host waited on "no hello" meanwhile. The
    watchdog resets it when the loop hangs.

    A crash at every start would reset it for good, leaving mpremote no time to get in
    (review61f F4): the ``CRASH_LIMIT``-th crash in a row stays at the REPL, with the
    watchdog stopped and the count cleared for the next start; so does a crash of the
    crash handling itself (review61h R1), the REPL showing the crash, not the handling's
    own error (review61i N1). A Ctrl-C stops the watchdog wherever it lands,
    the crash's wait included, and clears the count: the update it begins starts afresh
    (review61h N4)."""
    registers = WatchdogRegisters(sys.implementation._machine)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    try:
        try:
            run(link, readers, time.ticks_ms, watchdog,
                steady=lambda: registers.count_crashes(0))
        except Exception as crash:
            try:
                count = registers.crashes() + 1
                if count < CRASH_LIMIT:
                    registers.count_crashes(count)
                    time.sleep_ms(100)  # let USB carry the ERR line out
                    machine.reset()  # a board's never returns
                    return
                registers.count_crashes(0)
            except Exception:
                pass  # the handling's own error: at the REPL all the same
            try:
                registers.stop()
            except Exception:
                pass  # the crash, not this, is what whoever comes to mend it needs
            raise crash  # the traceback, at the REPL (review61i N1)
    except KeyboardInterrupt:
        registers.stop()
        registers.count_crashes(0)
        raise


if __name__ == "__main__":
    start(UsbLink(sys.stdin, sys.stdout))
