"""A single 125 kHz RDM6300 reader on a UART: one slot (the draw slot by default).

The module sends a 14-byte frame, 9600 baud 8N1, over and over while a tag is
in its field::

    0x02 | 10 ASCII hex digits (version byte + 4-byte card number) | 2 hex checksum | 0x03

The checksum is the XOR of the five data bytes. The reader never says that a
tag left, so a tag counts as removed when no frame has come for
``absent_after`` seconds while the port is open; frames of the tag already on
the slot are repeats and are suppressed. A lost port is not a lifted tag: the
tag stays on the slot until the reopened port has been silent for
``absent_after`` (the tray likewise keeps its slots over a drop). The port is
reopened as the tray's is (``link.Backoff``), and counts as working again only
once it has proved itself (``proven_after``). Frames read by a poll a second or more after
the one before (``stale_after``: a game reads the port only while it asks for a tile) are
old news and give no event, as the tray's backlog after a pause gives none.

>>> framer = Rdm6300Framer()
>>> framer.feed(b"\\x020F00A1B2C3DF\\x03\\x02bad")
['0F00A1B2C3']
>>> framer.counters
{'frames': 1, 'garbage': 0, 'bad_checksum': 0}
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.hw.ports import SLOT_NAMES, ReaderStatus, Slot, SlotReading
from companion.hw.rfid.events import TagAction, TagEvent, latest_readings
from companion.hw.rfid.link import Backoff, Port, PortSpec, SerialLink, open_serial
from companion.hw.rfid.tagmap import TagMap

STX = 0x02
ETX = 0x03
FRAME_LENGTH = 14
BAUDRATE = 9600
DEFAULT_PORT = "/dev/serial0"  # the Pi's GPIO UART (pins 8/10)
# Invalid frames (garbage, bad checksums) with no valid one since, before the status says
# the bytes are not an RDM6300's: a glitch as the port opens is not a fault, but a wrong
# port, a TX without its divider or a noisy line sends junk again and again.
JUNK_BEFORE_PROBLEM = 3
#: A line of the RFID tray's protocol v1 (firmware/PROTOCOL.md): ``J1 <seq> <TYPE> …``.
TRAY_LINE = re.compile(rb"J1 \d+ [A-Z]+[ *]")
TRAY_LINE_WINDOW = 256  # bytes kept to look for one: a HELLO or HB line is ~20-40
#: A poll this long after the one before reads a backlog that is old news (rfid73 DEFECT 1),
#: as the tray's (companion.hw.rfid.tray.STALE_AFTER_SECONDS): a game reads the port only
#: while it asks for a tile, and polls it every 0.05 s then.
STALE_AFTER_SECONDS = 1.0
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def checksum(data_hex: bytes) -> int:
    """XOR of the five data bytes written as ten hex digits."""
    value = 0
    for i in range(0, 10, 2):
        value ^= int(data_hex[i:i + 2], 16)
    return value


def frame(uid: str) -> bytes:
    """The bytes an RDM6300 sends for a 10-hex-digit tag ID (for the tests and the bench)."""
    data = uid.upper().encode()
    return b"\x02" + data + b"%02X" % checksum(data) + b"\x03"


class Rdm6300Framer:
    """Bytes in, tag IDs out; resynchronises on STX, counts junk and bad checksums."""

    def __init__(self) -> None:
        self.counters: dict[str, int] = {"frames": 0, "garbage": 0, "bad_checksum": 0}
        self._buffer = bytearray()

    def reset(self) -> None:
        self._buffer.clear()

    def feed(self, data: bytes) -> list[str]:
        uids: list[str] = []
        self._buffer += data
        while self._buffer:
            start = self._buffer.find(STX)
            if start < 0:
                self.counters["garbage"] += 1
                self._buffer.clear()
                break
            if start:
                self.counters["garbage"] += 1
                del self._buffer[:start]
            if len(self._buffer) < FRAME_LENGTH:
                break
            candidate = bytes(self._buffer[:FRAME_LENGTH])
            body = candidate[1:13]
            if candidate[13] != ETX or not all(b in _HEX for b in body):
                self.counters["garbage"] += 1
                del self._buffer[:1]  # look for the next STX
                continue
            del self._buffer[:FRAME_LENGTH]
            if checksum(body[:10]) != int(body[10:], 16):
                self.counters["bad_checksum"] += 1
                continue
            self.counters["frames"] += 1
            uids.append(body[:10].decode().upper())
        return uids


@dataclass(frozen=True, slots=True)
class Rdm6300Settings:
    baudrate: int = BAUDRATE
    absent_after: float = 0.5  # the module repeats a present tag's frame every ~0.1-0.3 s
    backoff: Backoff = field(default_factory=Backoff)
    # A reopened port counts as working again (the backoff restarts, the status is ok) after
    # a valid frame or this long open without a fault. The module is silent with no tag on
    # it, so a frame cannot be required; and a port that hangs up on every connect (a
    # socket:// bridge whose far end is gone) must not look "ok" between its drops.
    proven_after: float = 1.0
    # A tag first read this soon after the port first opened lay there when the reader
    # came up (TagEvent.at_start): the module only repeats a present tag's frame, so there
    # is no snapshot. As app.session.reads.RDM6300_STARTUP_SECONDS. Judged by when its
    # frame may have come (the port's last read before it), not when it was read.
    startup_seconds: float = 1.0
    # A poll this long after the one before takes what it reads as old news (poll_events).
    stale_after: float = STALE_AFTER_SECONDS
    # A replayed capture (``--port -``): ok only once a valid frame has come, as a silent
    # live port is ok (no tag laid yet) but a capture with no frame held no RDM6300's.
    passive: bool = False


class Rdm6300Reader:
    """A :class:`companion.hw.ports.TileReader` for one RDM6300 on one slot."""

    def __init__(self, port: PortSpec, tag_map: TagMap | None = None, slot: Slot = Slot.DRAW,
                 settings: Rdm6300Settings = Rdm6300Settings(),
                 clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str, int], Port] = open_serial) -> None:
        self.tag_map = tag_map if tag_map is not None else TagMap()
        self.slot = slot
        self.settings = settings
        self.clock = clock
        self.link = SerialLink(port, settings.baudrate, backoff=settings.backoff, clock=clock,
                               opener=opener)
        self.framer = Rdm6300Framer()
        self.uid: str | None = None
        self.counters: dict[str, int] = {"repeats": 0, "reconnects": 0}
        self._last_seen = 0.0
        self._opened_at = 0.0
        self._first_opened: float | None = None  # when the port first opened (at_start)
        # The clock just before the open port was last read (or when it opened): the bytes
        # the next read gets came since (at_start).
        self._listened_since = 0.0
        self._proven = False  # the open port has shown it works (see proven_after)
        self._failure = ""  # the last drop, shown until a reopened port proves itself
        # Invalid frames since the last valid one (or the port's opening), by framer counter.
        self._junk = {"garbage": 0, "bad_checksum": 0}
        # The last bytes of that junk, to tell the RFID tray's lines (a line may come in
        # two reads): pointed at the tray, this reader is the wrong kind, not miswired.
        self._junk_tail = b""
        # How many bytes that junk is: a replayed capture's whole file may be one read,
        # one "garbage" to the framer (reviewr73 NIT 5).
        self._junk_bytes = 0

    def poll(self) -> list[SlotReading]:
        return latest_readings(self.poll_events())

    def poll_events(self) -> list[TagEvent]:
        events: list[TagEvent] = []
        if not self.link.is_open and self.link.try_open():
            self.framer.reset()
            self._junk = dict.fromkeys(self._junk, 0)
            self._junk_tail = b""
            self._junk_bytes = 0
            self._opened_at, self._proven = self.clock(), False
            if self._first_opened is None:
                self._first_opened = self._opened_at
            # Silence while the port was gone says nothing of the tag: its absence is
            # timed from the reopening, so a tag still lying there is a repeat when its
            # frames come back, and one lifted meanwhile is removed absent_after later.
            self._last_seen = self._listened_since = self._opened_at
        if self.link.is_open:
            # Read at this poll, the bytes may have waited since the last one: a poll late
            # after the first (a starved loop) must not make a tag lying there a new one.
            since, self._listened_since = self._listened_since, self.clock()
            stale = self._stale(since)
            data = self.link.read()
            if not self.link.is_open and not self.link.ended:
                self.counters["reconnects"] += 1
                self._failure = self.link.problem
            arrived = time.perf_counter()
            before = dict(self.framer.counters)
            uids = self.framer.feed(data) if data else []
            self._count_junk(before, bool(uids))
            self._junk_tail = b"" if uids else (self._junk_tail + data)[-TRAY_LINE_WINDOW:]
            self._junk_bytes = 0 if uids else self._junk_bytes + len(data)
            if self.link.is_open and not self._proven and (
                    uids or self.clock() - self._opened_at >= self.settings.proven_after):
                # Only now does the backoff restart, as the tray's does on HELLO: a port
                # that drops at once is retried ever more slowly, up to backoff.maximum.
                self._proven, self._failure = True, ""
                self.link.connected()
            if stale:
                # Nobody read the port for a while (a menu, a fight): its frames may be of a
                # tile laid and lifted meanwhile, counted at the next ask though it lay on
                # no slot (rfid73 DEFECT 1); and a full tty buffer keeps the oldest bytes,
                # not the newest. So they give no event, and silence is timed from now, as
                # after a reopening: a tile still lying there is read again within 0.3 s
                # (its frames repeat), a PLACED if it is new, a repeat if it was known.
                self._last_seen = self.clock()
                uids = []
            for uid in uids:
                self._seen(uid, arrived, since, events)
        if self.uid is not None and self.link.is_open \
                and self.clock() - self._last_seen > self.settings.absent_after:
            # Only an open port's silence means the tag left: a lost port (unplugged, a
            # bridge gone) is not a lifted tile, as the tray keeps its slots over a drop.
            # Else the tile left lying there would be counted again once the port is back.
            events.append(TagEvent(TagAction.REMOVED, self.slot, self.uid,
                                   self.tag_map.label(self.uid), time.perf_counter()))
            self.uid = None
        return events

    def _stale(self, since: float) -> bool:
        """Whether the bytes a read now gets may have waited since ``since``, the read
        before, :attr:`Rdm6300Settings.stale_after` or more: old news. Not within the
        start-up window, whose tags are taken as lying there (``at_start``), never counted:
        a tile lying there when a slow session's second poll comes late is no new one."""
        starting = self._first_opened is not None \
            and since - self._first_opened <= self.settings.startup_seconds
        return not starting and self.clock() - since >= self.settings.stale_after

    def _count_junk(self, before: dict[str, int], valid: bool) -> None:
        """Follow the invalid frames since the last valid one: a valid frame proves the
        port, wiring and speed right, whatever junk came before it."""
        for name in self._junk:
            added = self.framer.counters[name] - before[name]
            self._junk[name] = 0 if valid else self._junk[name] + added

    def _seen(self, uid: str, arrived: float, since: float, events: list[TagEvent]) -> None:
        """A frame of ``uid`` read now, which may have come at any time after ``since``."""
        self._last_seen = self.clock()
        if uid == self.uid:
            self.counters["repeats"] += 1
            return
        if self.uid is not None:
            events.append(TagEvent(TagAction.REMOVED, self.slot, self.uid,
                                   self.tag_map.label(self.uid), arrived))
        self.uid = uid
        at_start = self._first_opened is not None \
            and since - self._first_opened <= self.settings.startup_seconds
        events.append(TagEvent(TagAction.PLACED, self.slot, uid, self.tag_map.label(uid), arrived,
                               at_start))

    def starting(self) -> bool:
        """Whether a tag read now would be taken as lying there when the reader came up
        (``TagEvent.at_start``): the port not opened yet, or opened ``startup_seconds`` ago
        or less. ``calibrate rfid`` asks for the first tile after it (cal66 N7)."""
        # A frame the next poll reads may have come since the last read (_seen's ``since``).
        return self._first_opened is None \
            or self._listened_since - self._first_opened <= self.settings.startup_seconds

    def wait(self, timeout: float) -> None:
        self.link.wait(timeout)

    def found_the_tray(self) -> bool:
        """Whether the port, since it last opened, sent the RFID tray's protocol v1 lines
        and no frame: this reader is the wrong kind there, which no wait mends (``rfid
        monitor`` stops). Still true once the reader is closed."""
        return (self._junk_judged() and TRAY_LINE.search(self._junk_tail) is not None)

    def _junk_judged(self) -> bool:
        """Whether the invalid frames since the last valid one say the bytes are not an
        RDM6300's: :data:`JUNK_BEFORE_PROBLEM` of them, or any at all once a replayed
        capture has ended, which a single read may take whole, counted as one (rfid73
        DEFECT 2: a tray's capture replayed as an RDM6300's said "ok")."""
        junk = sum(self._junk.values())
        return junk >= JUNK_BEFORE_PROBLEM or (self._ended_unheard() and junk > 0)

    def status(self) -> ReaderStatus:
        counters = {**self.framer.counters, **self.counters}
        if not self.link.is_open and not self._ended_unheard():
            return ReaderStatus(False, self.link.problem, counters)
        if self._failure:
            # Reopened but not proven: the same words as while it was down, so a port that
            # flaps reads as one steady problem, not "ok" and "went away" by turns.
            return ReaderStatus(False, self._failure, counters)
        if self._ended_unheard() and not self._junk_judged():
            return ReaderStatus(False, f"{self.link.problem}: the capture on {self.link.device} "
                                "was empty, no RDM6300 frame in it 記録が空", counters)
        if self._junk_judged():
            # Bytes, but never a frame: the port reads "ok" while no tag is ever seen.
            ended = f"{self.link.problem}: " if self.link.ended else ""
            if self.found_the_tray():
                tray = (f"{ended}the capture on {self.link.device} holds the RFID tray's "
                        "protocol v1 lines, not an RDM6300's frames" if ended else
                        f"{self.link.device} is the RFID tray (it sends protocol v1 lines), not "
                        "an RDM6300")
                return ReaderStatus(False, (
                    # Not "--kind tray" alone, which play refuses (rfid67 NIT 1): the
                    # setting, and each command's option.
                    f'{tray}: it needs the tray kind (input.rfid_kind = "tray"; --rfid-kind '
                    "tray for play, --kind tray for rfid monitor and calibrate rfid) "
                    "RFIDトレイの信号"), counters)
            count = self._junk_bytes
            bad = self._junk["bad_checksum"]
            if ended and bad:
                # An RDM6300's frames, each with a bad sum: a capture of the module, its TX
                # not through the divider, so the wiring advice stays (finalb73 NIT 5: it
                # was said to be "not a capture of an RDM6300").
                return ReaderStatus(False, (
                    f"{ended}{count} byte{'' if count == 1 else 's'} came from "
                    f"{self.link.device}: {bad} RDM6300 frame{'' if bad == 1 else 's'} with "
                    "bad checksums and none valid (its TX not through the divider? "
                    "hardware/wiring.md) 読み取り機の信号ではない"), counters)
            if ended:
                # A file, not a port: no wiring to check, and the framer's per-read count
                # says "1 garbage" of a whole file; worded as the tray kind's (reviewr73
                # NIT 5).
                return ReaderStatus(False, (
                    f"{ended}{count} byte{'' if count == 1 else 's'} came from "
                    f"{self.link.device} but no RDM6300 frame: not a capture of an RDM6300 "
                    "(another port or device, or a log?) 読み取り機の信号ではない"), counters)
            return ReaderStatus(False, (
                f"bytes come from {self.link.device} but no valid RDM6300 frame "
                f"({self._junk['garbage']} garbage, {self._junk['bad_checksum']} bad "
                "checksums): the wrong port, its TX not through the divider "
                "(hardware/wiring.md), or not an RDM6300? 読み取り機の信号ではない"), counters)
        if self.settings.passive and not self.framer.counters["frames"]:
            # A capture is no module that is silent for want of a tag: not ok until a frame.
            return ReaderStatus(False, f"reading the capture on {self.link.device}: no RDM6300 "
                                "frame yet 読み取り機の信号待ち", counters)
        if not self.framer.counters["frames"]:
            # The module is silent with no tag on it, and so is a port with nothing wired,
            # its TX loose, or a Pi 5's debug header: the maker is given something to check
            # (rfid69 N5). Still ok: a tag not laid yet is no fault.
            return ReaderStatus(True, (
                f"RDM6300 port {self.link.device} open, no tag read yet: lay a tile on it "
                "(nothing in a few seconds? hardware/wiring.md, RDM6300) タグ未読: 牌を置いて"),
                counters)
        where = f"RDM6300 on {self.link.device} ({SLOT_NAMES[self.slot]} slot)"
        return ReaderStatus(True, where, counters)

    def _ended_unheard(self) -> bool:
        """Whether a replayed capture ended with no valid frame in it: its status says what
        came instead (rfid73 DEFECT 2)."""
        return self.link.ended and not self.framer.counters["frames"]

    def close(self) -> None:
        self.link.close()
