"""rfid67: the RFID commands' hints run as printed, where the player types them.

- DEFECT 1: `rfid simulate` said "try … play --input rfid", which stops on a laptop ("no
  screen found"), and "with COMPANION_INPUT_RFID_PORT=… set", which is no command: it
  prints whole lines, and each runs as typed against the simulated tray.
- RISK 1: `calibrate rfid` (and `rfid monitor`'s last error) named a bare `companion rfid
  list` when no ``companion`` is on the PATH; the tray's "no tray line" named it in
  parentheses, which :func:`~companion.app.command_name.as_typed_here` misses.
- RISK 2: `rfid monitor --port P` named `calibrate rfid` without the port, which found no
  tray.
- NIT 1: an RDM6300 pointed at the tray said "use --kind tray", which play refuses.
- NIT 2: the monitor said "waiting for the reader" under two tiles stacked, though the tray
  answers.
- rfid63 N2: a CRC spelt otherwise than PROTOCOL.md's 4 upper-case hex digits was taken.

reviewr67:
- RISK 1: play's RFID problems (no tray, a port that cannot open, another device's bytes,
  a sticker to enrol again) named a bare `companion …`: :class:`Session.show` names it as
  typed here.
- RISK 2: play had its port only from COMPANION_INPUT_RFID_PORT, which the resume line
  does not repeat: the game carried on found no tray. `play --rfid-port` names it, and
  the resume line repeats it.
- NIT 2: the simulate test ran /work/main's code from a worktree: it runs this checkout's
  (``REPO``).
"""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app import cli
from companion.app.command_name import as_typed_here, companion_command
from companion.app.paths import config_dir
from companion.hw.rfid.protocol import LineReader, crc16
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from tests.app.companion_script_helpers import venv_script
from tests.app.rfid_terminal_helpers import (  # noqa: F401 (tray_fixture: asked for as tray)
    BARE_PATH,
    ENROLLED,
    HERE,
    REPO,
    SteppedTray,
    on_a_terminal,
    tray_fixture,
)
from tests.hw.rfid_tray_helpers import TtyPort

STRANGER = "04DEADBEEF0000"  # a sticker nobody enrolled


@pytest.fixture
def checkout(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The checkout as scripts/bootstrap.sh leaves it: the working folder, no ``companion``
    on the PATH (the hints name .venv/bin/companion); one sticker enrolled."""
    root = venv_script().parents[2]
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.chdir(root)
    TagMap({ENROLLED: Tile.from_notation("5p")}).save(config_dir() / TAGMAP_FILENAME)
    return root


# -- DEFECT 1: `rfid simulate`'s lines, each run as typed -------------------------------


def test_simulates_lines_enrol_on_and_play_the_simulated_tray_as_typed(checkout: Path) -> None:
    """The lines `rfid simulate` prints, typed as printed with no ``companion`` on the
    PATH: `calibrate rfid --port P` reaches the simulated tray (not "no tray found"), and
    the play line plays it in the terminal: its first ask comes once the tray is up (the
    old `play --input rfid` said "no screen found"). Stopped, the line it says carries on
    finds the tray again (reviewr67 RISK 2: the port was in a variable it did not repeat)."""
    command = companion_command(REPO)  # .venv/bin/companion in the checkout
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion", "rfid", "simulate", "--seconds", "240", "--seed",
         "2"], cwd=REPO, stdout=subprocess.PIPE, text=True, env={**os.environ, **HERE})
    try:
        assert sim.stdout is not None
        first = sim.stdout.readline()
        port = first.split()[3].rstrip(";")
        assert first == f"Simulated tray on {port}; try, in another terminal:\n"
        monitor, calibrate, play = (sim.stdout.readline().strip() for _ in range(3))
        assert monitor == f"{command} rfid monitor --port {port}"
        assert calibrate == f"{command} calibrate rfid --port {port}"
        words = shlex.split(play)
        assert words[:6] == [*shlex.split(command), "play", "--input", "rfid", "--rfid-port",
                             port]
        assert {"--display", "terminal"} <= set(words) and "=" not in play

        # The tray's word: its hello, or the only sticker it moves (enrolled already)
        answered = (f"(tray on {port} (firmware ", ENROLLED)
        enrolling = on_a_terminal(calibrate, REPO, until=answered, keys=b"q\n")
        assert any(word in enrolling for word in answered), enrolling
        assert "no tray found" not in enrolling and "not found" not in enrolling

        # The first ask, said once the tray is up (before: "Starting the tile reader")
        asked = "Draw a tile and put it on the draw slot"
        playing = on_a_terminal(play, REPO, until=(asked,))
        assert asked in playing, playing
        assert "no screen found" not in playing and "not found" not in playing

        # Stopped (Ctrl-C): the line that carries on, typed, finds the tray again
        stopped = next(line for line in playing.splitlines() if "carries on" in line)
        resume = stopped.split(": ", 2)[2].removesuffix(" carries on")
        again = shlex.split(resume)
        assert again[again.index("--rfid-port") + 1] == port, stopped
        resumed = on_a_terminal(resume, REPO, until=(asked, "no tray found"))
        assert asked in resumed and "no tray found" not in resumed, resumed
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.communicate(timeout=20)


def test_simulate_names_the_tray_kind_when_the_setting_names_the_rdm6300(
        checkout: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With input.rfid_kind = "rdm6300" the lines as before would open the simulated tray
    as an RDM6300: each names the tray kind, with the option its command has."""
    monkeypatch.setenv("COMPANION_INPUT_RFID_KIND", "rdm6300")
    assert cli.main(["rfid", "simulate", "--seconds", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    port = lines[0].split()[3].rstrip(";")
    assert [shlex.split(line)[-2:] for line in lines[1:3]] == [["--kind", "tray"]] * 2
    assert shlex.split(lines[3])[:8] == [
        ".venv/bin/companion", "play", "--input", "rfid", "--rfid-kind", "tray", "--rfid-port",
        port]
    # each parses as its command's arguments (the command left off)
    for line, option in zip(lines[1:4], ("kind", "kind", "rfid_kind"), strict=True):
        words = shlex.split(line)[1:]
        args = cli.build_parser(words[0]).parse_args(words)
        assert getattr(args, option) == "tray"


# -- RISK 1: calibrate's (and the monitor's) problems name the companion typed here ------


class QuitLater:
    """No key, then ``q`` after ``seconds``: calibrate stops as the player would."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def poll(self) -> str | None:
        return "q" if time.monotonic() > self.at else None


def test_calibrate_with_no_tray_names_the_rfid_list_typed_here(
        checkout: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`calibrate rfid` with no tray: its status and its error named a bare `companion rfid
    list`; they name .venv/bin/companion, and that runs as typed."""
    from companion.app.calibrate import rfid
    monkeypatch.setattr(rfid, "TerminalKeys", lambda: QuitLater(0.5))
    monkeypatch.setattr("companion.hw.rfid.link.list_ports.comports", list)  # no tray
    assert cli.main(["calibrate", "rfid", "--only", "5s", "--copies", "1"]) == 1
    out, err = capsys.readouterr()
    said = "(`.venv/bin/companion rfid list` shows the serial ports)"
    assert "  (no tray found: plug the tray in by USB" in out and said in out, out
    assert err.startswith("companion: error: stopped before the RFID reader answered "
                          "(no tray found") and said in err, err
    listed = subprocess.run(["sh", "-c", ".venv/bin/companion rfid list"], cwd=checkout,
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PATH": BARE_PATH})
    assert listed.returncode == 0 and "found" in listed.stderr, listed.stderr


def test_the_monitors_error_names_the_rfid_list_typed_here(
        checkout: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`rfid monitor --port /dev/…` that never opened: its last line, the error, named a
    bare `companion rfid list` (its status line above it did not)."""
    from companion.app.commands import rfid
    monkeypatch.setattr(rfid, "StopSignal", lambda: Stop(lambda: False, seconds=0.5))
    assert cli.main(["rfid", "monitor", "--port", "/dev/ttyACM77"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: error: the RFID reader never answered (cannot open "
                          "/dev/ttyACM77")
    assert "(`.venv/bin/companion rfid list` shows the serial ports)" in err, err


def test_play_on_a_port_that_cannot_open_names_the_rfid_list_typed_here(checkout: Path) -> None:
    """reviewr67 RISK 1: play's status line said "(`companion rfid list` shows the serial
    ports)" with no ``companion`` on the PATH, above a stop line naming .venv/bin/companion:
    the problem shown names the command as typed here, and that runs."""
    command = companion_command(REPO)
    assert command != "companion", "the venv's companion is on the bare PATH"
    shown = on_a_terminal(
        f"COMPANION_INPUT_RFID_PORT=/dev/ttyACM77 {command} play --input rfid --choices "
        "keyboard --display terminal", REPO, until=("読み取り機が無い",))
    said = " ".join(shown.split())  # the terminal display wraps its status line
    assert "cannot open /dev/ttyACM77" in said, shown
    assert f"(`{command} rfid list` shows the serial ports)" in said, shown
    assert "`companion rfid list`" not in said, shown


def test_another_devices_bytes_name_the_rfid_list_in_backticks(checkout: Path) -> None:
    """The tray's "bytes came … but no tray line" named `companion rfid list` in plain
    parentheses, which :func:`as_typed_here` left bare."""
    now = [0.0]
    port = TtyPort()
    tray = TrayReader("/dev/ttyACM0", TagMap({}), clock=lambda: now[0],
                      opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += b"\x02\x03"
    tray.poll_events()
    now[0] = 3.5
    tray.poll_events()
    message = tray.status().message
    assert "no tray line" in message
    assert "not the tray's Pico (`.venv/bin/companion rfid list`)" in as_typed_here(message)


# -- RISK 2 and NIT 2: the monitor on a live tray ----------------------------------------


class Stop:
    """The monitor's stop flag: up once ``until`` holds, or after ``seconds``."""

    def __init__(self, until: Callable[[], bool], seconds: float = 20) -> None:
        self.until, self.deadline = until, time.monotonic() + seconds

    @property
    def stopped(self) -> bool:
        return self.until() or time.monotonic() > self.deadline

    def __enter__(self) -> Stop:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_the_monitors_calibrate_hint_has_its_port_and_runs_as_typed(
        checkout: Path, tray: SteppedTray, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`rfid monitor --port P` on a sticker not enrolled named `calibrate rfid` without the
    port: typed, it found no tray. It names the port, and typed it reaches the tray."""
    from companion.app.commands import rfid
    tray.do(lambda sim: sim.place(0, STRANGER))
    monkeypatch.setattr(rfid, "StopSignal", lambda: Stop(
        lambda: "not enrolled" in sys.stdout.getvalue()))  # type: ignore[attr-defined]
    port = tray.sim.port
    assert cli.main(["rfid", "monitor", "--port", port]) == 0
    out = capsys.readouterr().out
    hint = f"(not enrolled: stop this monitor and run `.venv/bin/companion calibrate rfid " \
           f"--port {port}`)"
    assert hint in out, out
    calibrate = hint.split("`")[1]
    # The tray's word: its hello, or the sticker lying on it
    answered = (f"(tray on {port} (firmware ", f"(sticker {STRANGER})")
    enrolling = on_a_terminal(f"{calibrate} --only 5s --copies 1", checkout,
                              until=answered, keys=b"q\n")
    assert any(word in enrolling for word in answered), enrolling
    assert "no tray found" not in enrolling


def test_the_monitors_calibrate_hint_has_its_kind_not_a_capture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`--kind` is named too; `--port -` (a capture on stdin) is not: calibrate would
    enrol from stdin, not from the tray."""
    from companion.hw.rfid.rdm6300 import frame
    capture = tmp_path / "capture.bin"
    capture.write_bytes(frame("0F00A1B2C3"))
    monkeypatch.setattr(sys, "stdin", capture.open("r", encoding="latin-1"))
    assert cli.main(["rfid", "monitor", "--port", "-", "--kind", "rdm6300"]) == 0
    assert ("(not enrolled: stop this monitor and run `companion calibrate rfid --kind "
            "rdm6300`)") in capsys.readouterr().out


def test_two_tiles_stacked_are_not_waited_for_but_an_unplugged_tray_is(
        tray: SteppedTray) -> None:
    """The monitor said "waiting for the reader" under "two tiles on the draw slot", though
    the tray answered; it says so once the tray is gone, not before."""
    from companion.app.commands.rfid import monitor
    out = io.StringIO()
    tray.do(lambda sim: sim.place(0, ENROLLED))
    stacked = "-- problem: two tiles on the draw slot"

    def unplug_once_stacked() -> bool:
        if stacked in out.getvalue() and tray.sim.plugged:
            tray.do(lambda sim: sim.unplug())
        return "waiting for the reader" in out.getvalue()

    tray.do(lambda sim: sim.stack(0))
    monitor(TrayReader(tray.sim.port, TagMap({})), out, False, Stop(unplug_once_stacked))
    lines = out.getvalue().splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith(stacked))
    assert "waiting for the reader" not in lines[at + 1], lines
    gone = next(n for n, line in enumerate(lines) if "waiting for the reader" in line)
    assert gone > at + 1 and lines[gone - 1].startswith("-- problem: "), lines


# -- NIT 1: the words for the tray kind are those each command takes ----------------------


def test_the_rdm6300s_tray_message_names_options_each_command_takes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """"use --kind tray" was refused by play (`--rfid-kind`): each option named parses."""
    from companion.app.commands import rfid
    with TraySimulator(heartbeat_ms=20) as sim:
        def stepped() -> bool:
            sim.step()
            return False
        monkeypatch.setattr(rfid, "StopSignal", lambda: Stop(stepped, seconds=10))
        assert cli.main(["rfid", "monitor", "--kind", "rdm6300", "--port", sim.port]) == 1
    err = capsys.readouterr().err
    assert ('it needs the tray kind (input.rfid_kind = "tray"; --rfid-kind tray for play, '
            "--kind tray for rfid monitor and calibrate rfid)") in err, err
    play = cli.build_parser("play").parse_args(["play", "--rfid-kind", "tray"])
    assert play.rfid_kind == "tray"
    for command in (["rfid", "monitor"], ["calibrate", "rfid"]):
        parser = cli.build_parser(command[0])
        assert parser.parse_args([*command, "--kind", "tray"]).kind == "tray"


# -- rfid63 N2: the CRC as PROTOCOL.md spells it -----------------------------------------


def placed_line(crc_below: int) -> tuple[bytes, int]:
    """A PLACE line's body (its CRC left off) whose CRC is below ``crc_below``, and its
    CRC: a spelling with fewer digits (``0x``, a sign) needs one."""
    for n in range(1 << 20):
        body = b"J1 7 PLACE 0 04%06X" % n
        if crc16(body) < crc_below:
            return body, crc16(body)
    raise AssertionError("no such line")


@pytest.mark.parametrize(("spelt", "crc_below"), [
    ("{:04x}", 0x10000), ("0x{:02X}", 0x100), (" {:03X}", 0x1000), ("+{:03X}", 0x1000)])
def test_a_crc_spelt_otherwise_than_four_upper_case_hex_digits_is_refused(
        spelt: str, crc_below: int) -> None:
    """PROTOCOL.md: "as 4 upper-case hex digits". int(…, 16) took lower case, ``0x``, a
    space or a sign; the line as the spec spells it is still read."""
    body, crc = placed_line(crc_below)
    assert LineReader().feed(body + b" *%04X\n" % crc), "the line as the spec spells it"
    text = spelt.format(crc)
    assert len(text) == 4 and int(text, 16) == crc and text != f"{crc:04X}"
    reader = LineReader()
    assert reader.feed(body + b" *" + text.encode() + b"\n") == []
    assert reader.counters["garbage"] == 1
