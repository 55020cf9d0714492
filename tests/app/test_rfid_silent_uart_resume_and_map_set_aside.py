"""reviewr69b's findings on play's side: the resume of a tray user whose port is a silent
UART by mistake (RISK 1), and the steps ``rfid simulate`` offers over a map set aside
before (NIT 6)."""

from __future__ import annotations

import shlex
import subprocess
import time
from functools import partial
from pathlib import Path

import pytest
import serial

from companion.app import cli
from companion.app.commands.play.readers import OtherKindsStickers, kind_found, open_reader
from companion.app.commands.play.telling import resume_command
from companion.app.commands.rfid import aside_steps
from companion.app.paths import config_dir
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.hw.rfid_tray_helpers import TtyPort

UART = "/dev/serial0"  # the Pi's pins: the tray is never there


def test_a_tray_user_on_a_silent_uart_by_mistake_resumes_with_the_tray(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RISK 1: the map holds the tray's sticker only and --rfid-port names the Pi's silent
    serial0. The resume said --rfid-kind rdm6300, which play refused ("if your reader is
    the tray, play with --rfid-kind tray"), which led back to serial0: a loop, with no word
    that the port is what is wrong. Now the message names the tray's USB port, and the
    resume keeps the tray kind, which play takes."""
    path = config_dir() / TAGMAP_FILENAME
    TagMap({"04A1B2C3": Tile.from_notation("2m")}).save(path)
    silent = TtyPort()
    monkeypatch.setattr(serial, "serial_for_url", lambda device, **_: silent)  # the pins
    args = cli.build_parser("play").parse_args(
        ["play", "--input", "rfid", "--rfid-port", UART, "--choices", "keyboard",
         "--display", "terminal"])
    reader = open_reader("rfid", "", UART, TileLedger(), "tray")
    assert isinstance(reader, TrayReader)
    args.rfid_kind_found = partial(kind_found, reader)  # as play's session does
    reader.settings = TraySettings(hello_timeout=0.2)  # the tests shorten the timings
    end = time.monotonic() + 10
    while "no hello" not in reader.status().message and time.monotonic() < end:
        reader.poll()
        time.sleep(0.02)
    message = reader.status().message
    reader.close()
    assert f"no hello from {UART}: it is a serial UART" in message, message
    resume = shlex.split(resume_command(args))
    assert "rdm6300" not in resume, resume
    kind = resume[resume.index("--rfid-kind") + 1] if "--rfid-kind" in resume else "tray"
    assert kind == "tray", resume
    open_reader("rfid", "", "/dev/ttyACM0", TileLedger(), kind).close()  # not refused
    with pytest.raises(OtherKindsStickers):  # the kind the resume said before
        open_reader("rfid", "", UART, TileLedger(), "rdm6300")
    assert "for the tray, give its USB port (/dev/ttyACM*; `companion rfid list`)" in message
    assert "no port at all (input.rfid_port empty, no --rfid-port or --port)" in message


def test_setting_the_map_aside_keeps_one_set_aside_before(tmp_path: Path) -> None:
    """NIT 6: the first step, ``mv``, replaced a map set aside by an earlier try and never
    put back. It is kept, and the steps still bring this map back."""
    path = tmp_path / TAGMAP_FILENAME
    TagMap({"0F00A1B2C3": Tile.from_notation("1m")}).save(path)
    ours = path.read_bytes()
    older = path.with_name(path.name + ".rdm6300")
    older.write_text("# an older map set aside\n")
    lines = [line.strip() for line in aside_steps(path, 1, "ENROL", "PLAY").splitlines()]
    aside, back = lines[1], lines[-1]
    subprocess.run(aside, shell=True, check=True)
    assert older.read_text() == "# an older map set aside\n"
    assert shlex.split(aside)[:2] == ["mv", "-n"], aside  # and one set aside since
    assert not path.exists()
    TagMap({"04000001": Tile.from_notation("1m")}).save(path)  # calibrate's made-up stickers
    subprocess.run(back, shell=True, check=True)
    assert path.read_bytes() == ours
    assert older.read_text() == "# an older map set aside\n"
