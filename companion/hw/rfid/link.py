"""A serial port that survives unplugging: non-blocking reads, reopen with backoff.

The port is named by a string (a device path or any pyserial URL such as
``loop://`` or ``rfc2217://host:port``) or by a callable that finds it anew on
each attempt (a USB tray comes back under another ``/dev/ttyACM*`` name).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import pkgutil
import re
import select
import shlex
import stat
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO, Protocol

import serial
from serial.tools import list_ports

PortSpec = str | Callable[[], str | None]

#: The most :meth:`SerialLink.read` takes in one call: far more than a tty holds (about
#: 4 KB), some 3,000 tray lines, nearly an hour of the tray's heartbeats.
READ_LIMIT = 65536


class Port(Protocol):
    """The part of pyserial's ``Serial`` the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


def open_serial(device: str, baudrate: int) -> Port:
    """A non-blocking pyserial port for a device path or URL, held exclusively.

    Two programs reading one port would each get some of its bytes (half a line
    each, so both drop it), so a device is locked (``flock``, POSIX; pyserial's
    ``exclusive``): a second opener fails with EWOULDBLOCK, which
    :meth:`SerialLink.try_open` words for the player. URL handlers (``loop://``,
    ``socket://``) accept and ignore the setting.
    """
    port: Port = serial.serial_for_url(device, baudrate=baudrate, timeout=0, write_timeout=0.5,
                                       exclusive=True)
    return port


class StreamPort:
    """A file or pipe read like a port (``--port -``: replay a capture from stdin).

    Writes are dropped; the end of the stream raises EOFError, which ends the link.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def in_waiting(self) -> int:
        ready, _, _ = select.select([self.stream.fileno()], [], [], 0)
        return 4096 if ready else 0

    def read(self, size: int = 1) -> bytes:
        if not self.in_waiting:
            return b""
        data = os.read(self.stream.fileno(), size)
        if not data:
            raise EOFError
        return data

    def write(self, data: bytes, /) -> int:
        return len(data)

    def reset_input_buffer(self) -> None:
        """Nothing to discard: a capture is replayed from its first byte."""

    def close(self) -> None:
        """The stream belongs to the caller."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between reopen attempts: ``initial``, doubling up to ``maximum`` seconds."""

    initial: float = 0.05
    maximum: float = 0.5

    def next(self, current: float | None) -> float:
        return self.initial if current is None else min(current * 2, self.maximum)


def find_usb_port(vid: int, pid: int) -> str | None:
    """The first serial port whose USB VID:PID matches, or None."""
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    return None


class SerialLink:
    """One serial connection that reopens itself; ``read()`` never blocks."""

    def __init__(self, port: PortSpec, baudrate: int, *, backoff: Backoff = Backoff(),
                 clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str, int], Port] = open_serial) -> None:
        self.port = port
        self.baudrate = baudrate
        self.backoff = backoff
        self.clock = clock
        self.opener = opener
        self.serial: Port | None = None
        self.ended = False  # a replayed stream ran out: there is nothing to reopen
        self.device: str | None = None
        self.problem = "not opened yet 未接続"
        self._delay: float | None = None
        self._next_attempt = 0.0

    @property
    def is_open(self) -> bool:
        return self.serial is not None

    def _resolve(self) -> str | None:
        return self.port() if callable(self.port) else self.port

    def try_open(self) -> bool:
        """Open the port if it is time to try; True when a new connection was made."""
        if self.serial is not None or self.ended or self.clock() < self._next_attempt:
            return False
        device = self._resolve()
        if device is None:
            # The Japanese early: beside a read on offer the end may be cut.
            self._schedule("no tray found: plug the tray in by USB トレイなし: USBで接続を; or "
                           "name its port in input.rfid_port (`companion rfid list` shows the "
                           "serial ports); an RDM6300 on the Pi's serial pins needs "
                           'input.rfid_kind = "rdm6300" (--kind rdm6300 for rfid monitor and '
                           "calibrate rfid, --rfid-kind rdm6300 for play)")
            return False
        port: Port | None = None
        try:
            try:
                port = self.opener(device, self.baudrate)
                port.reset_input_buffer()
            except termios.error as exc:  # unplugged as it opened: termios' own error
                raise OSError(*exc.args) from None
        except (serial.SerialException, OSError, ValueError) as exc:
            if port is not None:
                with contextlib.suppress(serial.SerialException, OSError):
                    port.close()
            self._schedule(_open_failure(device, exc))
            return False
        self.serial, self.device, self.problem = port, device, ""
        return True

    def connected(self) -> None:
        """The far end answered: the next drop starts the backoff from the beginning."""
        self._delay = None

    def _schedule(self, problem: str) -> None:
        self.problem = problem
        self._delay = self.backoff.next(self._delay)
        self._next_attempt = self.clock() + self._delay

    def drop(self, problem: str) -> None:
        """Close the port after a fault; a reopen is attempted after the backoff delay."""
        if self.serial is not None:
            try:
                self.serial.close()
            except (serial.SerialException, OSError):
                pass  # the device is already gone; closing is best effort
            self.serial = None
        self._schedule(problem)

    def read(self) -> bytes:
        """Every byte waiting (maybe none), up to :data:`READ_LIMIT`; on a fault, drop the
        port and return b"". A fault after some bytes gives those, and the fault comes
        again at the next call: a replayed capture shows what its lines said before its
        end, and a tray pulled out mid-backlog gives what it sent first.

        A tty hands out about 4 KB a read, and a game polls its reader only when it asks
        for a tile: after a long menu the tray's backlog came over several polls, and a
        tile laid and lifted meanwhile was offered from the stale half (audit rfid63 R3).
        Read whole, the lift follows the lay at once, as long as the tray could send it:
        once the buffer is full it drops lines (TrayReader.catching_up, rfid71 DEFECT 1).
        The limit keeps one call from spinning on a port that never stops talking."""
        data = bytearray()
        while self.serial is not None and len(data) < READ_LIMIT:
            try:
                size = max(1, self.serial.in_waiting) if not data else self.serial.in_waiting
                chunk = self.serial.read(min(size, READ_LIMIT - len(data))) if size else b""
            except EOFError:
                if not data:
                    self.ended = True
                    self.drop("end of input")
                break
            except (serial.SerialException, OSError) as exc:
                if not data:
                    self.drop(f"{self.device} went away: {exc} 読み取り機が外れた")
                break
            if not chunk:
                break
            data += chunk
        return bytes(data)

    def write(self, data: bytes) -> None:
        if self.serial is None:
            return
        try:
            self.serial.write(data)
        except (serial.SerialException, OSError) as exc:
            self.drop(f"{self.device} went away: {exc} 読み取り機が外れた")

    def wait(self, timeout: float) -> None:
        """Sleep until bytes arrive or ``timeout`` passes (select on the fd when there is one)."""
        port = self.serial
        fileno = getattr(port, "fileno", None)
        if port is not None and fileno is not None:
            try:
                select.select([fileno()], [], [], timeout)
                return
            except (OSError, ValueError, serial.SerialException):
                pass  # loop:// and friends have no fd; a vanished fd is caught by read()
        time.sleep(min(timeout, 0.01) if port is not None else timeout)

    def close(self) -> None:
        if self.serial is not None:
            self.serial.close()
            self.serial = None
        self.problem = "closed"


def _open_failure(device: str, exc: Exception) -> str:
    """Why ``device`` would not open, in words that say what to do about it."""
    code = getattr(exc, "errno", None)
    if code in (errno.EAGAIN, errno.EWOULDBLOCK):
        # open_serial's lock: pyserial's own text ("Could not exclusively lock port ...")
        # does not say who holds it or what to do.
        return (f"cannot open {device}: another program is using it (the companion service "
                "jongrogue-companion, a game, `companion rfid monitor` or `calibrate rfid`); "
                "stop that one first, e.g. sudo systemctl stop jongrogue-companion "
                "他のプログラムが使用中")
    if code == errno.ENOENT:
        return f"cannot open {device}: no such device; {_missing_hint(device)} 読み取り機が無い"
    if is_a_file(device):
        return f"cannot open {device}: {A_FILE.format(file=shlex.quote(device))}"
    # pyserial's text says the port and the errno twice over ("[Errno 13] could not open
    # port X: [Errno 13] Permission denied: 'X'"): the errno's own words are enough.
    reason = os.strerror(code) if isinstance(code, int) and code > 0 else str(exc)
    hint = ""
    if code == errno.EACCES:
        hint = " (allow serial ports: sudo usermod -aG dialout $USER, then log in again)"
    return f"cannot open {device}: {reason}{hint} 読み取り機を開けない"


#: Why a regular file is no port (pyserial's word: "(25, 'Inappropriate ioctl for device')"),
#: and how a capture saved in one is read (rfid71 NIT 3).
A_FILE = ("it is a file, not a serial port: a saved capture is replayed from stdin, "
          "with `--port - < {file}` (companion rfid monitor, calibrate rfid) "
          "ファイルはポートではない")


def is_a_file(device: str) -> bool:
    """Whether ``device`` names a regular file (a saved capture), never a serial port."""
    return "://" not in device and os.path.isfile(device)


def url_schemes() -> list[str]:
    """The port URL schemes pyserial opens here (``loop://``, ``socket://`` …): its URL
    handler modules, ``protocol_<scheme>``, that import (cp2110's needs the hid module),
    found as ``serial.serial_for_url`` finds them."""
    schemes: set[str] = set()
    for package_name in serial.protocol_handler_packages:
        try:
            package = importlib.import_module(package_name)
        except ImportError:
            continue
        for module in pkgutil.iter_modules(getattr(package, "__path__", [])):
            if not module.name.startswith("protocol_"):
                continue
            try:
                importlib.import_module(f"{package_name}.{module.name}")
            except ImportError:
                continue
            schemes.add(module.name.removeprefix("protocol_") + "://")
    return sorted(schemes)


def unknown_url(device: str) -> str | None:
    """Why ``device`` is a port URL pyserial opens no handler for (``bogus://x``), else
    None: it raises ValueError at every attempt, which no wait mends (rfid75 NIT 5: the
    monitor and play retried it for ever). Any name with ``://`` is a URL to pyserial.

    Decided as ``serial.serial_for_url`` decides it, by importing ``protocol_<scheme>``
    from each of ``serial.protocol_handler_packages`` (reviewrfid75 NIT 5: a listing of
    the package's folder could differ); the listing (:func:`url_schemes`) only names the
    schemes that open. A handler that is there but lacks a module of its own (cp2110://
    needs hid, from hidapi) is told so: "pyserial opens no cp2110:// URL" was untrue."""
    if "://" not in device:
        return None
    protocol = device.lower().split("://", 1)[0]
    scheme = f"{protocol}://"
    lacking: str | None = None
    for package_name in serial.protocol_handler_packages:
        handler = f"{package_name}.protocol_{protocol}"
        try:
            importlib.import_module(package_name)
            importlib.import_module(f".protocol_{protocol}", package_name)
        except ImportError as error:
            # No such handler (the module, or a package above it, not there), or one that
            # imports a module not installed here: pyserial goes on to the next package
            # either way, and refuses the URL after the last.
            name = error.name or ""
            if name and not (handler == name or handler.startswith(f"{name}.")
                             or name.startswith(f"{package_name}.protocol_")):
                lacking = lacking or name
            continue
        return None
    known = ", ".join(url_schemes())
    if lacking is not None:
        return (f"{device} is no serial port here: pyserial opens {scheme} URLs only with "
                f"the Python module {lacking}, which is not installed; give the port's "
                f"device (e.g. /dev/ttyACM0) or a URL of {known} ポート名が不明")
    return (f"{device} is no serial port: pyserial opens no {scheme} URL; give the "
            f"port's device (e.g. /dev/ttyACM0) or a URL of {known} "
            "ポート名が不明")


#: Where a bare port name (``ttyACM0``) is looked for, to offer the device it may mean.
DEV = "/dev"
#: A Windows serial port's name: on Linux no device is ever called so (rfid73 NIT 5).
WINDOWS_PORT = re.compile(r"COM\d+", re.IGNORECASE)


#: Character devices in /dev that are never a serial port: ``--port null`` was offered
#: /dev/null, ``--port tty`` the terminal itself, ``--port 1`` the console /dev/tty1.
NOT_SERIAL = re.compile(r"null|zero|full|u?random|tty|tty\d+|console|ptmx|kmsg|k?mem|port"
                        r"|std(in|out|err)|fd", re.IGNORECASE)


def _may_be_serial(name: str) -> bool:
    """Whether ``/dev/<name>`` (in ``DEV``) may be a serial port: a character device there
    (a symlink such as /dev/serial0 followed) that is not one of ``NOT_SERIAL``."""
    if NOT_SERIAL.fullmatch(name):
        return False
    try:
        return stat.S_ISCHR(os.stat(os.path.join(DEV, name)).st_mode)
    except OSError:
        return False


def _not_serial_words(paths: list[str], ports_seen: bool) -> str:
    """Each of ``paths`` said as it is: one not there "there is no /dev/ttyACM0", the
    tray's port with the reader unplugged (finalb73 RISK 2: it was said "is not a serial
    port", sending the player after the wrong fault); one there "/dev/null is not a serial
    port" (it is there, but no serial port). With every path missing and ports seen, the
    likely cause is asked (with none seen, what follows asks it)."""
    there = [path for path in paths if os.path.exists(path)]
    gone = [path for path in paths if path not in there]
    words = []
    if there:
        words.append(f"neither {there[0]} nor {there[1]} is a serial port" if len(there) > 1
                     else f"{there[0]} is not a serial port")
    if gone:
        words.append(f"there is no {' or '.join(gone)}")
    plugged = " (is the reader plugged in?)" if not there and ports_seen else ""
    return " and ".join(words) + plugged


def _missing_hint(device: str) -> str:
    """What to do about a device path that is not there (ENOENT)."""
    if device == "-":  # `rfid monitor` and `calibrate rfid` open "-" as stdin themselves
        return ('"-" (a capture on stdin) is only for companion rfid monitor and calibrate '
                "rfid: give the game the tray's port, or leave input.rfid_port empty")
    if "/" not in device:
        # Only a device that is there: "ACM0" was offered /dev/ACM0, which is not, where
        # the tray is /dev/ttyACM0; and "COM3" /dev/COM3 (rfid73 NIT 5).
        names = [device] if device.startswith("tty") else [device, f"tty{device}"]
        for name in names:
            if _may_be_serial(name):
                return f"did you mean {os.path.join(DEV, name)}?"
        ports = sorted(str(info.device) for info in list_ports.comports())
        # With no port seen, `companion rfid list` lists nothing: the reader is likely
        # unplugged, as for a /dev path not there (reviewr73 NIT 4).
        seen = (f": the serial ports here are {', '.join(ports)} (`companion rfid list`)"
                if ports else ", and none is seen here: is the reader plugged in?")
        if WINDOWS_PORT.fullmatch(device) and os.name != "nt":
            return (f"{device} is a Windows port name; here a port is a device such as "
                    f"/dev/ttyACM0{seen}")
        return _not_serial_words([os.path.join(DEV, name) for name in names], bool(ports)) \
            + seen
    if device == "/dev/serial0":
        return "turn the Pi's serial port on with sudo raspi-config (hardware/wiring.md)"
    return "is the reader plugged in? (`companion rfid list` shows the serial ports)"


def port_or_usb(port: str | None, vid: int, pid: int) -> PortSpec:
    """``port`` as given, or a finder that looks for the USB VID:PID on every attempt."""
    if port:
        return port
    return lambda: find_usb_port(vid, pid)
