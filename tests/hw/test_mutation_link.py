"""Mutation spot checks, round 4 (rfid/link.py): behaviour of the serial link that no other
test pinned; each test here fails on the slip named in it."""

from __future__ import annotations

import errno

import pytest
import serial
from serial.tools import list_ports

from companion.hw.rfid.link import Backoff, Port, SerialLink, find_usb_port


class Quiet:
    """The far end of the port: nothing is ever waiting."""

    in_waiting = 0

    def read(self, size: int = 1) -> bytes:
        return b""

    def write(self, data: bytes, /) -> int:
        return len(data)

    def reset_input_buffer(self) -> None:
        pass

    def close(self) -> None:
        pass


class Device:
    """A device that refuses ``refusals`` openings, then opens."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.attempts = 0

    def __call__(self, device: str, baudrate: int) -> Quiet:
        self.attempts += 1
        if self.attempts <= self.refusals:
            raise OSError(errno.EIO, "Input/output error")
        return Quiet()


def test_a_tray_that_answered_is_retried_soon_after_its_next_drop() -> None:
    """The backoff grows while the port will not open, and starts again from its first delay
    once the far end answered: a tray replugged after a long absence is not then left for
    the longest delay at its next brief drop. (Mutant: ``connected`` keeps the delay.)"""
    now = [0.0]
    device = Device(refusals=4)
    link = SerialLink("/dev/ttyACM0", 115200, backoff=Backoff(initial=1.0, maximum=8.0),
                      clock=lambda: now[0], opener=device)
    for _ in range(100):  # counted: a link that never opens fails the test, not hangs it
        if link.try_open():
            break
        now[0] += 0.5
    assert now[0] == 1 + 2 + 4 + 8  # the delays grew to the maximum
    link.connected()
    link.drop("the tray went away")
    now[0] += 1.0
    assert link.try_open()


class Unplugged(Quiet):
    """A port that cannot count what waits (``in_waiting`` 0) and whose device is gone: only
    a read finds it out, as pyserial's does on a device that hung up."""

    def read(self, size: int = 1) -> bytes:
        if size < 1:
            return b""
        raise serial.SerialException("device reports readiness to read but returned no data")


def test_a_read_asks_for_a_byte_even_when_none_is_counted_waiting() -> None:
    """Nothing counted waiting, the link still reads a byte: that read is what notices a
    device gone, and the port is dropped for a reopen. (Mutant: ``read(in_waiting)``, a read
    of nothing that never fails, so the link held a dead port for ever.)"""
    link = SerialLink("/dev/ttyACM0", 115200, opener=lambda device, rate: Unplugged())
    assert link.try_open()
    assert link.read() == b"" and not link.is_open
    assert link.problem.startswith("/dev/ttyACM0 went away")


class Stale(Quiet):
    """A port that still holds bytes sent before it was opened, until its input is reset."""

    def __init__(self) -> None:
        self.held = b"PLACE 2 04A1B2C3D4\n"

    @property
    def in_waiting(self) -> int:  # type: ignore[override]
        return len(self.held)

    def read(self, size: int = 1) -> bytes:
        out, self.held = self.held[:size], self.held[size:]
        return out

    def reset_input_buffer(self) -> None:
        self.held = b""


def test_bytes_left_in_a_port_before_it_opened_are_not_read() -> None:
    """What a port holds from before it was opened (a line the tray sent while another
    program or no one listened) is no reading of now. (Mutant: the input not reset.)"""
    link = SerialLink("/dev/ttyACM0", 115200, opener=lambda device, rate: Stale())
    assert link.try_open()
    assert link.read() == b""


def test_a_port_refused_by_pyserial_is_named_by_its_errnos_words_once() -> None:
    """pyserial says the port and the errno twice over; the problem says the errno's own
    words once, and how to be allowed. (Mutant: pyserial's text said whole.)"""
    def refuse(device: str, rate: int) -> Port:
        raise serial.SerialException(errno.EACCES, f"could not open port {device}: [Errno 13] "
                                     f"Permission denied: '{device}'")

    link = SerialLink("/dev/ttyUSB0", 115200, opener=refuse)
    assert not link.try_open()
    assert link.problem == (
        "cannot open /dev/ttyUSB0: Permission denied (allow serial ports: sudo usermod -aG "
        "dialout $USER, then log in again) 読み取り機を開けない")


class Info:
    """One of pyserial's ``list_ports.comports()`` entries (the OS's list of ports)."""

    def __init__(self, device: str, vid: int, pid: int) -> None:
        self.device, self.vid, self.pid = device, vid, pid


def test_the_tray_is_found_by_its_vid_and_pid_first_by_device_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The tray's port is the first by name whose VID and PID both match: another board of
    the same maker (same VID) is not it, and the OS's order does not decide. (Mutants: the
    VID alone compared; the OS's order kept.)"""
    ports = [Info("/dev/ttyACM2", 0x2E8A, 0x000A), Info("/dev/ttyACM1", 0x2E8A, 0x1234),
             Info("/dev/ttyACM0", 0x2E8A, 0x000A), Info("/dev/ttyUSB0", 0x1A86, 0x7523)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert find_usb_port(0x2E8A, 0x1234) == "/dev/ttyACM1"
    assert find_usb_port(0x2E8A, 0x000A) == "/dev/ttyACM0"
    assert find_usb_port(0x2E8A, 0x0005) is None


class Vanished(Quiet):
    """A device pulled out: reading it and closing it both fail."""

    @property
    def in_waiting(self) -> int:  # type: ignore[override]
        raise OSError(errno.EIO, "Input/output error")

    def close(self) -> None:
        raise OSError(errno.ENODEV, "No such device")


def test_a_port_that_fails_to_close_after_its_device_went_is_still_dropped() -> None:
    """Closing a port whose device is gone may fail too: the link drops it all the same and
    says why, and reading goes on (nothing raised). (Mutant: the close's error raised.)"""
    link = SerialLink("/dev/ttyACM0", 115200, opener=lambda device, rate: Vanished())
    assert link.try_open()
    assert link.read() == b"" and not link.is_open
    assert link.problem.startswith("/dev/ttyACM0 went away: [Errno 5]")
