"""A port named without its folder (``ACM0``, ``ttyACM9``, ``COM3``) that does not open
(rfid73 NIT 5).

Any such name was offered ``/dev/<name>``, there or not: ``ACM0`` got "did you mean
/dev/ACM0?", where the tray is /dev/ttyACM0, and ``COM3``, a Windows name, "/dev/COM3". Now
only a device that is there is offered (``/dev/<name>``, else ``/dev/tty<name>``); else the
serial ports seen are named, and a Windows name is said to be one.

Only a /dev entry that may be a serial port is offered, and with none seen the player is
asked whether the reader is plugged in (reviewr73 NIT 4): ``--port null`` was offered
/dev/null, and with no port seen the hint sent them to `companion rfid list`, which lists
nothing.

The devices are looked for in a folder of the test's (``link.DEV``), holding a pty where
the tray would be; the serial ports seen are pyserial's list, the edge of the world, given.
"""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.hw.rfid import link
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_sim_helpers import FAST


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A /dev holding ttyACM0 (a pty, as a USB tray is a tty), with ttyACM0 and ttyS0 seen
    by pyserial."""
    master, slave = os.openpty()
    tty.setraw(slave)
    folder = tmp_path / "dev"
    folder.mkdir()
    (folder / "ttyACM0").symlink_to(os.ttyname(slave))
    monkeypatch.setattr(link, "DEV", str(folder), raising=False)
    monkeypatch.setattr(link.list_ports, "comports", lambda: [
        SimpleNamespace(device=f"{folder}/ttyS0"), SimpleNamespace(device=f"{folder}/ttyACM0")])
    yield folder
    os.close(master)
    os.close(slave)


def message(port: str) -> str:
    reader = TrayReader(port, settings=FAST)
    try:
        reader.poll()
        return reader.status().message
    finally:
        reader.close()


def test_a_bare_name_of_a_device_there_offers_it(dev: Path) -> None:
    """``ACM0``: the tray's /dev/ttyACM0 is offered, not /dev/ACM0, which is not there."""
    assert message("ACM0") == (f"cannot open ACM0: no such device; did you mean "
                               f"{dev}/ttyACM0? 読み取り機が無い")


def test_a_bare_name_of_no_device_names_the_ports_seen(dev: Path) -> None:
    assert message("ttyACM9") == (
        f"cannot open ttyACM9: no such device; there is no {dev}/ttyACM9 (is the reader plugged "
        f"in?): the serial ports here are {dev}/ttyACM0, {dev}/ttyS0 (`companion rfid list`) "
        "読み取り機が無い")
    assert message("USB0") == (
        f"cannot open USB0: no such device; there is no {dev}/USB0 or {dev}/ttyUSB0 (is the "
        f"reader plugged in?): the serial ports here are {dev}/ttyACM0, {dev}/ttyS0 (`companion "
        "rfid list`) 読み取り機が無い")


@pytest.mark.skipif(os.name == "nt", reason="COM3 is a port's name there")
@pytest.mark.parametrize("port", ["COM3", "com3"])
def test_a_windows_port_name_is_said_to_be_one(dev: Path, port: str) -> None:
    assert message(port) == (
        f"cannot open {port}: no such device; {port} is a Windows port name; here a port is a "
        f"device such as /dev/ttyACM0: the serial ports here are {dev}/ttyACM0, {dev}/ttyS0 "
        "(`companion rfid list`) 読み取り機が無い")


def test_no_serial_port_seen_asks_whether_the_reader_is_plugged_in(
        dev: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion rfid list` would list nothing: the likely cause is said, as for a /dev path
    that is not there."""
    monkeypatch.setattr(link.list_ports, "comports", lambda: [])
    assert message("ACM1") == (
        f"cannot open ACM1: no such device; there is no {dev}/ACM1 or {dev}/ttyACM1, and none "
        "is seen here: is the reader plugged in? 読み取り機が無い")
    if os.name != "nt":
        assert message("COM3") == (
            "cannot open COM3: no such device; COM3 is a Windows port name; here a port is a "
            "device such as /dev/ttyACM0, and none is seen here: is the reader plugged in? "
            "読み取り機が無い")


@pytest.mark.parametrize("name", ["null", "tty", "tty1", "stdin"])
def test_a_device_that_is_no_serial_port_is_not_offered(dev: Path, name: str) -> None:
    """/dev/null, the terminal, a console, stdin: character devices, never the reader."""
    (dev / name).symlink_to("/dev/null")
    said = message(name)
    assert "did you mean" not in said
    assert f"{dev}/{name} is not a serial port" in said and "the serial ports here are" in said


def test_a_file_in_dev_that_is_no_device_is_not_offered(dev: Path) -> None:
    (dev / "ttyUSB0").write_text("")
    assert message("USB0").startswith(
        f"cannot open USB0: no such device; {dev}/ttyUSB0 is not a serial port and there is no "
        f"{dev}/USB0: ")
    (dev / "USB0").write_text("")
    assert message("USB0").startswith(
        f"cannot open USB0: no such device; neither {dev}/USB0 nor {dev}/ttyUSB0 is a serial "
        "port: ")


def test_the_tray_s_port_unplugged_is_said_not_there(dev: Path) -> None:
    """finalb73 RISK 2: with the reader unplugged, ``--port ttyACM0`` was told "/dev/ttyACM0
    is not a serial port", sending the player after the wrong fault."""
    (dev / "ttyACM0").unlink()
    assert message("ttyACM0").startswith(
        f"cannot open ttyACM0: no such device; there is no {dev}/ttyACM0 (is the reader plugged "
        "in?): ")
