"""Tray protocol v1, host side: framing, parsing, CRC (firmware/PROTOCOL.md).

A line is ``J1 <seq> <TYPE> [<arg> ...] *<CRC>`` ending in ``\\n`` (a ``\\r``
before it is tolerated). :class:`LineReader` turns a byte stream into
:class:`Message` objects the way pyserial's ``LineReader`` does, without a
thread: feed it whatever ``read()`` returned, however the lines were split or
merged, and it hands back the complete, valid messages. It never raises; what
it had to drop is counted in :attr:`LineReader.counters`.

>>> encode(7, "PLACE", "0", "04A1B2C3")
b'J1 7 PLACE 0 04A1B2C3 *D592\\n'
>>> reader = LineReader()
>>> reader.feed(b"noise\\nJ1 7 PLACE 0 04A1")
[]
>>> reader.feed(b"B2C3 *D592\\n")
[Message(seq=7, kind=<Kind.PLACE: 'PLACE'>, args=('0', '04A1B2C3'))]
>>> reader.counters["garbage"]
1
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from enum import Enum

VERSION = 1
MAGIC = b"J1"
MAX_LINE = 256
SEQ_MODULO = 0x10000

EMPTY_UID = "-"
DOWN_UID = "?"
UID_PATTERN = re.compile(r"[0-9A-F]{8}(?:[0-9A-F]{6}){0,2}\Z")  # 4-, 7- or 10-byte UIDs

# A line may start with junk (a boot banner, line noise): resynchronise on
# every "J<digits> " and let the CRC decide which one is real.
_START = re.compile(rb"J(\d+) ")
#: The CRC as PROTOCOL.md spells it, 4 upper-case hex digits: ``int(…, 16)`` alone also
#: took ``d592``, ``0x57``, `` 57F`` or ``+57F`` (rfid63 N2).
_CRC = re.compile(rb"[0-9A-F]{4}")


class Kind(Enum):
    """Every line type of protocol v1."""

    HELLO = "HELLO"  # tray: <firmware version> <slot count>; host: (none)
    SNAP = "SNAP"  # tray: one UID, "-" or "?" per slot; host: (none)
    PLACE = "PLACE"  # tray: <slot> <uid>
    REMOVE = "REMOVE"  # tray: <slot> <uid>
    HB = "HB"  # tray: <uptime seconds>
    ERR = "ERR"  # tray: <code> [<detail>]
    PING = "PING"  # host: (none); the tray answers HB


@dataclass(frozen=True, slots=True)
class Message:
    """One valid protocol line."""

    seq: int
    kind: Kind
    args: tuple[str, ...]


COUNTER_NAMES: tuple[str, ...] = (
    "lines", "garbage", "bad_crc", "wrong_version", "malformed", "overflow"
)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    # The standard library computes this CRC; the firmware keeps its own loop (MicroPython
    # has no binascii.crc_hqx), and a test holds the two to the same values.
    return binascii.crc_hqx(data, 0xFFFF)


def encode(seq: int, kind: Kind | str, *args: str) -> bytes:
    """One framed line, newline included."""
    name = kind.value if isinstance(kind, Kind) else kind
    words = [MAGIC, str(seq % SEQ_MODULO).encode(), name.encode(), *(a.encode() for a in args)]
    body = b" ".join(words)
    return body + b" *%04X\n" % crc16(body)


def is_uid(text: str) -> bool:
    """Whether a field is a UID a line carries: 8, 14 or 20 upper-case hex digits.

    >>> is_uid("04A1B2C3"), is_uid("A1B2C3"), is_uid("04a1b2c3")
    (True, False, False)
    """
    return bool(UID_PATTERN.match(text))


def _args_ok(kind: Kind, args: tuple[str, ...]) -> bool:
    # A UID field that is no UID (is_uid) spoils its own slot, not the line: the tray reader
    # takes that slot as unreadable and the other slots' news as it comes (audit rfid63 R1).
    if kind in (Kind.PLACE, Kind.REMOVE):
        return len(args) == 2 and args[0].isdigit() and bool(args[1])
    if kind is Kind.HELLO:
        return (len(args) == 2 and args[1].isdigit()) or not args
    if kind is Kind.SNAP:
        return all(args)
    if kind is Kind.HB:
        return len(args) == 1 and args[0].isdigit()
    if kind is Kind.ERR:
        return len(args) >= 1
    return not args


class LineReader:
    """Bytes in, messages out; split lines are joined, merged lines split, junk counted."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.counters: dict[str, int] = dict.fromkeys(COUNTER_NAMES, 0)
        self._buffer = bytearray()
        self._discarding = False  # inside an overlong line, until its newline

    def reset(self) -> None:
        """Forget a partial line (after a reconnect its start belongs to another session)."""
        self._buffer.clear()
        self._discarding = False

    def feed(self, data: bytes) -> list[Message]:
        messages: list[Message] = []
        self._buffer += data
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._discarding:
                self._discarding = False
                continue
            message = self.parse_line(line)
            if message is not None:
                messages.append(message)
        if len(self._buffer) > self.max_line:
            self._buffer.clear()
            if not self._discarding:  # one overlong line counts once, however many reads
                self._discarding = True
                self.counters["overflow"] += 1
        return messages

    def parse_line(self, line: bytes) -> Message | None:
        """The message on one line (without its newline), or None after counting why not."""
        line = line.rstrip(b"\r")
        if not line.strip():
            return None
        self.counters["lines"] += 1
        if len(line) > self.max_line:
            self.counters["overflow"] += 1
            return None
        starts = list(_START.finditer(line))
        verdict = "garbage"
        for match in starts:
            if match.group(1) != b"%d" % VERSION:
                verdict = "wrong_version"
                continue
            message, verdict = _decode(line[match.start():])
            if message is not None:
                if match.start():
                    self.counters["garbage"] += 1  # junk glued in front of a good line
                return message
        self.counters[verdict] += 1
        return None


def _decode(line: bytes) -> tuple[Message | None, str]:
    body, star, crc_text = line.rpartition(b" *")
    if not star or _CRC.fullmatch(crc_text) is None:
        return None, "garbage"
    try:
        crc = int(crc_text, 16)
        text = body.decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None, "garbage"
    if crc16(body) != crc:
        return None, "bad_crc"
    words = text.split(" ")
    if len(words) < 3 or not words[1].isdigit() or int(words[1]) >= SEQ_MODULO:
        return None, "malformed"
    try:
        kind = Kind(words[2])
    except ValueError:
        return None, "malformed"
    args = tuple(words[3:])
    if not _args_ok(kind, args):
        return None, "malformed"
    return Message(int(words[1]), kind, args), "ok"
