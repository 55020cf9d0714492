"""What the RFID tray driver's tests share: a tray's sticker UIDs and their tag map, a reader
whose HELLO has gone out, and a fake tray on a fake clock (``TtyPort``) (moved from
tests/hw/test_rfid_tray_lines_as_the_host_takes_them.py, tidy72: no test module imports another)."""

from __future__ import annotations

import serial

from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile

UID_5P = "04A1B2C3"
UID_7Z = "04112233445566"


def tags() -> TagMap:
    return TagMap({UID_5P: Tile.from_notation("5p"), UID_7Z: Tile.from_notation("7z")})


def said_hello(wire: serial.Serial, now: list[float]) -> TrayReader:
    """A reader on ``wire`` whose HELLO has gone out, the tray's answer not yet come."""
    tray = TrayReader("loop://", tags(), clock=lambda: now[0],
                      opener=lambda device, baud: wire)
    assert tray.poll_events() == []  # its own HELLO comes back off the loop, and is ignored
    assert tray.state.value == "handshake"
    return tray


class TtyPort:
    """A port that hands out what a tty does: at most 4 KB a read, however much waits
    behind it; with ``endless``, a line that never stops coming."""

    CHUNK = 4096

    def __init__(self, endless: bytes = b"") -> None:
        self.waiting = bytearray()
        self.written = bytearray()
        self.endless = endless
        self.reads = 0

    @property
    def in_waiting(self) -> int:
        return self.CHUNK if self.endless else min(len(self.waiting), self.CHUNK)

    def read(self, size: int = 1) -> bytes:
        self.reads += 1
        if self.endless:
            return (self.endless * (self.CHUNK // len(self.endless) + 1))[:min(size, self.CHUNK)]
        data = bytes(self.waiting[:min(size, self.CHUNK)])
        del self.waiting[:len(data)]
        return data

    def write(self, data: bytes, /) -> int:
        self.written += data
        return len(data)

    def reset_input_buffer(self) -> None:
        self.waiting.clear()

    def close(self) -> None:
        """Nothing to let go of."""
