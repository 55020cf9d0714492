"""reviewr69's findings on the rfid69 fixes: the steps ``rfid simulate`` offers with a map of
RDM6300 IDs (DEFECT 1), the refusal's order of ways on (RISK 2), ``calibrate rfid`` over the
other kind's stickers (RISK 4) and a tray reader on a Pi's UART (RISK 3)."""

from __future__ import annotations

import os
import pwd
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.commands.play.readers import open_reader
from companion.app.paths import config_dir
from companion.errors import DeviceError
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger

ROOT = Path(__file__).resolve().parents[2]
RDM6300_IDS = {"0F00A1B2C3": Tile.from_notation("1m"), "0F00A1B2C4": Tile.from_notation("2m")}


def read_until(stream: object, wanted: str, seconds: float) -> list[str]:
    """Lines of ``stream`` up to and with the first that holds ``wanted``."""
    lines: list[str] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        line = stream.readline()  # type: ignore[attr-defined]
        if not line:
            break
        lines.append(line)
        if wanted in line:
            return lines
    raise AssertionError(f"{wanted!r} never came: {''.join(lines)}")


def test_simulate_with_a_map_of_rdm6300_ids_offers_steps_that_play() -> None:
    """reviewr69 DEFECT 1: the play line offered was refused at start (the map holds no
    sticker a tray reads). Each step offered is run in turn, the simulated tray running: the
    map set aside, made-up stickers enrolled, the play line's reader opens, the map back."""
    path = config_dir() / TAGMAP_FILENAME
    TagMap(dict(RDM6300_IDS)).save(path)
    original = path.read_bytes()
    env = os.environ.copy()
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion", "rfid", "simulate", "--seconds", "120", "--seed",
         "2"], cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env)
    calibrate = None
    try:
        assert sim.stdout is not None
        shown = read_until(sim.stdout, "made-up stickers are moved instead", 60)
        offered = [line.strip() for line in shown if line.startswith("  ")]
        text = "".join(shown)
        assert "a game names as not enrolled" not in text, text  # the game never starts
        assert f"play refuses {path} on a tray" in text, text
        aside, back = offered[1], offered[-1]
        enrol = next(line for line in offered if " calibrate rfid " in line)
        play = next(line for line in offered if " play " in line)
        assert offered.index(aside) < offered.index(enrol) < offered.index(play) \
            < offered.index(back), offered
        subprocess.run(aside, shell=True, check=True, env=env)
        assert not path.exists()
        calibrate = subprocess.Popen(enrol, shell=True, cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        assert calibrate.stdout is not None and calibrate.stdin is not None
        read_until(calibrate.stdout, " = 1m", 100)  # a made-up sticker enrolled as 1m
        calibrate.stdin.write("q\n")
        calibrate.stdin.flush()
        assert calibrate.wait(timeout=30) == 0
        enrolled = TagMap.load(path)
        assert len(enrolled) and len(enrolled.read_by("tray")) == len(enrolled)  # made-up ones
        words = shlex.split(play)
        assert words[words.index("--input") + 1] == "rfid"
        kind = (words[words.index("--rfid-kind") + 1] if "--rfid-kind" in words else "tray")
        port = words[words.index("--rfid-port") + 1]
        reader = open_reader("rfid", "", port, TileLedger(), kind)  # was refused
        try:
            end = time.monotonic() + 30
            while not reader.status().ok and time.monotonic() < end:
                reader.poll()
                time.sleep(0.05)
            assert reader.status().ok, reader.status().message
        finally:
            reader.close()
        subprocess.run(back, shell=True, check=True, env=env)
        assert path.read_bytes() == original
    finally:
        for proc in (sim, calibrate):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def test_the_refusal_puts_enrolling_first_and_the_kind_switch_as_a_condition() -> None:
    """reviewr69 RISK 2: the first way on was the kind that had just failed (the resume
    had said the port is the tray): a loop. Enrolling comes first; the switch is asked of a
    reader of the other kind only."""
    path = config_dir() / TAGMAP_FILENAME
    TagMap(dict(RDM6300_IDS)).save(path)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "/dev/ttyACM0", TileLedger(), "tray")
    said = str(refused.value)
    assert said.index("calibrate rfid`") < said.index("--rfid-kind rdm6300"), said
    assert "if your reader is an RDM6300, play with --rfid-kind rdm6300" in said, said
    TagMap({"04A1B2C3": Tile.from_notation("5p")}).save(path)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "/dev/serial0", TileLedger(), "rdm6300")
    said = str(refused.value)
    assert said.index("calibrate rfid --kind rdm6300`") < said.index("--rfid-kind tray"), said
    assert "if your reader is the tray, play with --rfid-kind tray" in said, said


@pytest.mark.parametrize(("kind", "uids", "what"), [
    ("tray", ["0F000000A1", "0F000000A2", "0F000000A3", "0F000000A4"],
     "are 125 kHz RDM6300 IDs, which the tray never reads"),
    ("rdm6300", ["04000001", "04000002", "04000003", "04000004"],
     "are 13.56 MHz tray stickers, which an RDM6300 never reads"),
])
def test_calibrate_says_the_kind_is_full_of_the_other_kinds_stickers(
        capsys: pytest.CaptureFixture[str], kind: str, uids: list[str], what: str) -> None:
    """reviewr69 RISK 4: "Every sticker of this kind is enrolled already (4 stickers of 1m)"
    of four stickers this reader never reads, and no word of why: the maker who ran the
    refusal's calibrate line enrolled nothing, and play refused the map again."""
    from companion.app import cli

    path = config_dir() / TAGMAP_FILENAME
    TagMap(dict.fromkeys(uids, Tile.from_notation("1m"))).save(path)
    assert cli.main(["calibrate", "rfid", "--kind", kind, "--only", "1m"]) == 0
    out = capsys.readouterr().out
    assert "Every sticker of this kind is enrolled already (4 stickers of 1m" in out, out
    assert f"Note: 4 of the stickers enrolled for this kind {what}, yet they count as " \
        f"enrolled: to enrol the stickers {what.split(', which ')[1].split(' never')[0]} " \
        f"reads, move {path} aside and run this again." in out, out


def test_calibrate_says_nothing_of_its_own_kinds_stickers(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The note is for the other kind's stickers only: a map of the tray's, on the tray."""
    from companion.app import cli

    TagMap(dict.fromkeys(["04000001", "04000002", "04000003", "04000004"],
                         Tile.from_notation("1m"))).save(config_dir() / TAGMAP_FILENAME)
    assert cli.main(["calibrate", "rfid", "--kind", "tray", "--only", "1m"]) == 0
    out = capsys.readouterr().out
    assert "enrolled already (4 stickers of 1m" in out and "Note:" not in out, out


def test_install_pi_for_rfid_says_what_an_rdm6300_build_does_instead(tmp_path: Path) -> None:
    """reviewr69 NIT 5: the closing steps of ``--input rfid`` are the tray's (flash it) and
    named no ``rfid_kind``; a camera build's say nothing of an RDM6300."""
    from tests.app.install_pi_helpers import SCRIPT, logged_in_as, next_steps

    env = logged_in_as(tmp_path, "nobody", 65534)
    for args, rfid in ((["--input", "rfid"], True), ([], False)):
        out = subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True,
                             text=True, check=True, env=env).stdout
        said = " ".join(out[out.index("== done."):].split())
        # config.toml with its folder, as the step above names it (reviewr69b NIT 4): the
        # player's, whose home the script asks getent for.
        home = pwd.getpwnam("nobody").pw_dir
        assert ('An RDM6300 instead of the tray (hardware/README.md, the RDM6300 build): '
                'skip the flashing, and before calibrating put rfid_kind = "rdm6300" (and '
                'rfid_port = "/dev/ttyAMA0" on a Pi 5) under [input] in '
                f'{home}/.config/jongrogue-companion/config.toml' in said) is rfid, out
        assert not any("RDM6300" in step for step in next_steps(out)), out
        rdm6300 = out[out.index("An RDM6300"):].splitlines() if rfid else []
        assert all(len(line) <= 80 for line in rdm6300), rdm6300  # they were 93 wide
