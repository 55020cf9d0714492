"""A tray reader on a port that never says HELLO (reviewr69's UART tests; tidy72c: no test
module imports another)."""

from __future__ import annotations

from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_tray_helpers import TtyPort


def no_hello(device: str, sent: bytes, tags: TagMap | None = None) -> TrayReader:
    """A tray reader on ``device`` (``tags`` enrolled, else none) whose handshake got
    ``sent`` and no HELLO."""
    now = [0.0]
    port = TtyPort()
    reader = TrayReader(device, tags or TagMap({}), clock=lambda: now[0],
                        opener=lambda name, baud: port)
    reader.poll_events()
    port.waiting += sent
    reader.poll_events()
    now[0] = 3.5
    reader.poll_events()
    return reader
