"""A tray on the far end of a pseudo-terminal, running the real firmware logic.

The simulator loads ``firmware/jrtray`` from the source tree (the same files
that are copied to the Pico) and gives it :class:`SimulatedReader` objects in
place of MFRC522 chips. The host opens :attr:`TraySimulator.port` with pyserial
as if it were ``/dev/ttyACM0``. Nothing runs in the background: call
:meth:`TraySimulator.step` (or :meth:`settle`) from the same loop that polls
the host driver.

Outside-world verbs: ``place(slot, uid)``, ``remove(slot)``, ``stack``, ``break_reader``,
``inject(raw bytes)``, ``unplug()``/``replug()``, ``power_cycle()``, ``silent = True``.
``unplug()``/``replug()`` keep the tray running, as a cable cut between a powered tray and
the host would; a real tray draws its power from that cable, so a real replug is
``unplug()`` then ``power_cycle()``.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import os
import sys
import time
import tty
from types import ModuleType
from typing import Any

from companion.errors import DeviceError
from companion.hw.rfid.firmware_source import FIRMWARE_DIR, firmware_version

#: The firmware version whose logic it runs (firmware/main.py), marked as simulated.
SIM_VERSION = f"{firmware_version() or 'unknown'}-sim"


def load_firmware_logic() -> ModuleType:
    """Import ``jrtray.logic`` from the firmware folder of the source tree, writing no
    bytecode there: firmware/README.md copies that folder to the Pico whole
    (``mpremote cp -r jrtray``), and CPython's ``__pycache__`` would go with it."""
    if "jrtray.logic" in sys.modules:
        return sys.modules["jrtray.logic"]
    package_dir = FIRMWARE_DIR / "jrtray"
    if not (package_dir / "logic.py").exists():
        raise DeviceError(f"the tray simulator needs the firmware sources in {FIRMWARE_DIR}")
    spec = importlib.util.spec_from_file_location(
        "jrtray", package_dir / "__init__.py", submodule_search_locations=[str(package_dir)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        sys.modules["jrtray"] = package
        spec.loader.exec_module(package)
        return importlib.import_module("jrtray.logic")
    finally:
        sys.dont_write_bytecode = writes_bytecode


class SimulatedReader:
    """Stands in for one MFRC522: holds the tag lying on it, or fails like a loose cable."""

    def __init__(self) -> None:
        self.uid: bytes | None = None
        self.broken = False
        self.stacked = False  # a second tile on this one: the reader sees a collision

    def init(self) -> None:
        if self.broken:
            raise OSError("MFRC522 does not answer")

    def read_uid(self) -> bytes | str | None:
        if self.broken:
            raise OSError("MFRC522 does not answer")
        if self.stacked:
            return "collision"  # jrtray.logic.COLLISION, as firmware/mfrc522.py answers
        return self.uid


class TraySimulator:
    """The far end of the serial line: firmware logic + simulated readers on a pty master."""

    def __init__(self, slots: int = 5, *, heartbeat_ms: int = 1000, place_after: int = 2,
                 remove_after: int = 3, fail_after: int = 3, retry_ms: int = 50) -> None:
        self.readers = [SimulatedReader() for _ in range(slots)]
        self._timing = {"heartbeat_ms": heartbeat_ms, "place_after": place_after,
                        "remove_after": remove_after, "fail_after": fail_after,
                        "retry_ms": retry_ms}
        self.tray: Any = self._power_up()
        self._booted = True
        self._boot_at = 0
        self.silent = False
        self.sent: list[str] = []
        self._master = -1
        self._slave = -1
        self.port = ""
        self._t0 = time.monotonic()
        self.replug()
        self.tray.boot(self.now_ms())

    def _power_up(self) -> Any:
        """The firmware as it starts: a fresh Tray, knowing nothing, over the same readers."""
        logic = load_firmware_logic()
        return logic.Tray(self.readers, SIM_VERSION, self._send, **self._timing)

    def now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    # -- the wire -------------------------------------------------------

    def replug(self) -> str:
        """Open a fresh pty pair (a replugged tray gets a new device name)."""
        self.unplug()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation before the host opens it
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        return self.port

    def unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    close = unplug

    def power_cycle(self, boot_seconds: float = 0.0) -> str:
        """Plug the tray in after its power was cut (a USB replug: the cable powers it).

        The tiles stay where they lie; the firmware starts afresh and boots on the first
        :meth:`step` ``boot_seconds`` later (a real tray's imports and power-up polls
        take up to about 1.3 s; firmware/PROTOCOL.md). The port is there first, as USB
        enumerates before main.py runs, so a host may open it and say HELLO before the
        tray's boot; the HELLO waits, unread, until then."""
        self.tray = self._power_up()
        self._booted = False
        self._boot_at = self.now_ms() + int(boot_seconds * 1000)
        return self.replug()

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def _send(self, line: str) -> None:
        self.sent.append(line)
        if not self.silent:
            self.inject(line.encode())

    def inject(self, data: bytes) -> None:
        """Put raw bytes on the wire, as line noise or a broken firmware would."""
        if self.plugged:
            try:
                os.write(self._master, data)
            except OSError as exc:
                if exc.errno not in (errno.EIO, errno.EAGAIN):
                    raise

    def _receive(self) -> bytes:
        if not self.plugged:
            return b""
        try:
            return os.read(self._master, 4096)
        except OSError as exc:  # EAGAIN: nothing yet; EIO: the host has not opened its side
            if exc.errno in (errno.EAGAIN, errno.EIO):
                return b""
            raise

    # -- the tray -------------------------------------------------------

    def step(self, count: int = 1) -> None:
        """Answer host commands and poll ``count`` readers, as the firmware main loop does."""
        for _ in range(count):
            if not self._booted:
                if self.now_ms() < self._boot_at:
                    continue
                self._booted = True
                self.tray.boot(self.now_ms())
            data = self._receive()
            if data:
                self.tray.feed(data, self.now_ms())
            self.tray.step(self.now_ms())

    def settle(self) -> None:
        """Enough polls for every slot to pass the debounce (placing and removing)."""
        rounds = max(self.tray.place_after, self.tray.remove_after, self.tray.fail_after)
        self.step(len(self.readers) * rounds)

    def place(self, slot: int, uid: str) -> None:
        self.readers[slot].uid = bytes.fromhex(uid)

    def remove(self, slot: int) -> None:
        self.readers[slot].uid = None

    def break_reader(self, slot: int, broken: bool = True) -> None:
        self.readers[slot].broken = broken

    def stack(self, slot: int, stacked: bool = True) -> None:
        """Lay a second tile on the one on ``slot`` (False: take it off again)."""
        self.readers[slot].stacked = stacked

    def __enter__(self) -> TraySimulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
