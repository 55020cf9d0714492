"""rfid75 NIT 5: a port URL of a scheme pyserial does not know (``bogus://x``) is refused at
once, naming the port and the schemes that open; ``rfid monitor`` and ``play`` retried it
every half second for ever ("invalid URL, protocol 'bogus' not known"), as no wait mends a
typo in the scheme."""

from __future__ import annotations

import sys
import types

import pytest
import serial

from companion.app import cli
from companion.app.commands.play.readers import open_reader
from companion.app.paths import config_dir
from companion.errors import DeviceError
from companion.hw.rfid.link import unknown_url, url_schemes
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger

SAID = ("bogus://x is no serial port: pyserial opens no bogus:// URL; give the port's device "
        "(e.g. /dev/ttyACM0) or a URL of ")


def test_the_schemes_named_are_the_ones_pyserial_opens() -> None:
    """pyserial's own word on each: ValueError for an unknown one, none for those named."""
    with pytest.raises(ValueError, match="protocol 'bogus' not known"):
        serial.serial_for_url("bogus://x", do_not_open=True)
    schemes = url_schemes()
    assert {"loop://", "socket://", "rfc2217://", "spy://"} <= set(schemes)
    for scheme in schemes:
        if scheme != "hwgrep://":  # it looks for a port at once: none matches here
            serial.serial_for_url(f"{scheme}localhost:1", do_not_open=True)
        assert unknown_url(f"{scheme}localhost:1") is None
        assert unknown_url(f"{scheme.upper()}localhost:1") is None  # as pyserial: any case
    assert unknown_url("/dev/ttyACM0") is None


class StopsAfterAWhile:
    """The monitor's stop, which comes after 20 polls: a run that waits for the port (as
    before) ends, and is told from a refusal by what it said."""

    def __init__(self) -> None:
        self.asked = 0

    def __enter__(self) -> StopsAfterAWhile:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    @property
    def stopped(self) -> bool:
        self.asked += 1
        return self.asked > 20


@pytest.mark.parametrize("command", [["rfid", "monitor"], ["calibrate", "rfid", "--only", "5p"]])
def test_an_unknown_url_scheme_is_refused_at_once_naming_the_ones_that_open(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: list[str]) -> None:
    from companion.app.calibrate import rfid as calibrate_rfid
    from companion.app.commands import rfid

    polls = iter(range(20))

    def ctrl_c_after_a_while(self: object) -> None:
        if next(polls, None) is None:
            raise KeyboardInterrupt

    monkeypatch.setattr(rfid, "StopSignal", StopsAfterAWhile)
    monkeypatch.setattr(calibrate_rfid.TerminalKeys, "poll", ctrl_c_after_a_while)
    assert cli.main([*command, "--port", "bogus://x"]) == 1
    out, err = capsys.readouterr()
    assert f"companion: error: --port {SAID}" in err, err
    assert "loop://, rfc2217://, socket://" in err, err
    assert "waiting for the reader" not in out + err


@pytest.mark.parametrize("kind", ["tray", "rdm6300"])
def test_a_game_given_an_unknown_url_scheme_refuses_it_at_once(kind: str) -> None:
    TagMap({"04A1B2C3": Tile.from_notation("5p"), "0F00A1B2C3": Tile.from_notation("2m")}
           ).save(config_dir() / TAGMAP_FILENAME)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "bogus://x", TileLedger(), kind)
    assert str(refused.value).startswith(
        f"the RFID port (--rfid-port, input.rfid_port) {SAID}"), refused.value


def test_a_port_from_the_environment_is_named_as_the_environment_variable(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewrfid75 NIT 5: it was named "input.rfid_port", a line of no config.toml."""
    monkeypatch.setenv("COMPANION_INPUT_RFID_PORT", "bogus://y")
    assert cli.main(["rfid", "monitor"]) == 1
    assert (f"companion: error: input.rfid_port (COMPANION_INPUT_RFID_PORT) "
            f"{SAID.replace('x', 'y')}") in capsys.readouterr().err


def test_calibrate_refuses_a_config_port_before_its_plan(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`calibrate rfid` with input.rfid_port = "bogus://x" printed its plan of 136 stickers
    and its keys, then refused the port: refused first, as one from --port is."""
    monkeypatch.setenv("COMPANION_INPUT_RFID_PORT", "bogus://x")
    assert cli.main(["calibrate", "rfid"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"companion: error: input.rfid_port (COMPANION_INPUT_RFID_PORT) {SAID}" in err, err


def test_a_scheme_whose_handler_lacks_a_module_says_which(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewrfid75 NIT 5: pyserial has a cp2110:// handler, which needs the module hid
    (hidapi): "pyserial opens no cp2110:// URL" was untrue, and installing hid mends it."""
    monkeypatch.setitem(sys.modules, "hid", None)  # not installed, wherever the tests run
    monkeypatch.delitem(sys.modules, "serial.urlhandler.protocol_cp2110", raising=False)
    with pytest.raises(ValueError, match="protocol 'cp2110' not known"):
        serial.serial_for_url("cp2110://0001:0002", do_not_open=True)
    said = unknown_url("cp2110://0001:0002")
    assert said is not None
    assert said.startswith("cp2110://0001:0002 is no serial port here: pyserial opens "
                           "cp2110:// URLs only with the Python module hid, which is not "
                           "installed; give the port's device"), said


def test_a_scheme_is_known_as_pyserial_knows_it_by_importing_its_handler(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewrfid75 NIT 5: pyserial imports protocol_<scheme> from each package of
    serial.protocol_handler_packages; a listing of their folders misses a handler that is
    importable but no file there, and refused a URL pyserial opens."""
    handler = types.ModuleType("serial.urlhandler.protocol_jrtest")
    handler.Serial = serial.Serial  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "serial.urlhandler.protocol_jrtest", handler)
    serial.serial_for_url("jrtest://x", do_not_open=True)  # pyserial opens it
    assert unknown_url("jrtest://x") is None
