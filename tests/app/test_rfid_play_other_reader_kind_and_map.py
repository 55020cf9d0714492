"""rfid69: play pointed at the other kind of RFID reader, and a tag map of the other kind.

- DEFECT 1: after "needs the tray kind" (an RDM6300 reader on the tray's port), the stop
  line's resume repeated ``--rfid-kind rdm6300``, the kind that had just failed: it takes
  the kind the port showed itself to be.
- DEFECT 2: the tray reader on an RDM6300's port named only the setting (which
  ``--rfid-kind tray`` overrides), and the resume repeated ``--rfid-kind tray``: it names
  each command's option, and RDM6300 frames make the resume take the rdm6300 kind.
- RISK 3: a tag map with no sticker the reader kind reads was taken, and every tile said
  "not enrolled": it is refused at start, naming the file, the count and the ways on.
"""

from __future__ import annotations

import os
import shlex
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import cli
from companion.app.command_name import companion_command
from companion.app.commands.play.readers import open_reader
from companion.app.paths import config_dir
from companion.errors import DeviceError
from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.companion_script_helpers import venv_script
from tests.app.rfid_terminal_helpers import (  # noqa: F401 (tray_fixture: asked for as tray)
    BARE_PATH,
    ENROLLED,
    REPO,
    SteppedTray,
    on_a_terminal,
    tray_fixture,
)
from tests.hw.rfid_uart_helpers import no_hello

EM4100 = "0F00A1B2C3"  # an RDM6300's 125 kHz sticker, enrolled as 2m


@pytest.fixture
def both_kinds(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The checkout with no ``companion`` on the PATH, a sticker of each kind enrolled (a
    map the tray and an RDM6300 each read)."""
    root = venv_script().parents[2]
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.chdir(root)
    TagMap({ENROLLED: Tile.from_notation("5p"), EM4100: Tile.from_notation("2m")}).save(
        config_dir() / TAGMAP_FILENAME)
    return root


def resume_of(shown: str) -> list[str]:
    """The words of the stop line's resume command."""
    stopped = next(line for line in shown.splitlines() if "carries on" in line)
    return shlex.split(stopped.split(": ", 2)[2].removesuffix(" carries on"))


def test_the_resume_after_needs_the_tray_kind_plays_the_tray(
        both_kinds: Path, tray: SteppedTray) -> None:
    """DEFECT 1: the resume repeated ``--rfid-kind rdm6300``, the command that had just
    failed; it names the tray kind, and typed, it plays on the tray."""
    command = companion_command(REPO)
    play = (f"{command} play --input rfid --rfid-kind rdm6300 --rfid-port {tray.sim.port} "
            "--choices keyboard --display terminal")
    shown = on_a_terminal(play, REPO, until=("needs the tray kind",))
    assert "needs the tray kind" in shown, shown
    resume = resume_of(shown)
    assert resume[resume.index("--rfid-kind") + 1] == "tray", resume
    assert "rdm6300" not in resume, resume
    asked = "Draw a tile and put it on the draw slot"
    again = on_a_terminal(shlex.join(resume), REPO, until=(asked, "needs the"))
    assert asked in again and "needs the" not in again, again


class Rdm6300Pty:
    """An RDM6300 on a pty, sending one sticker's frame every 0.2 s, as with a tag on it."""

    def __init__(self, uid: str) -> None:
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave  # held open, so the pty stays up between the reader's opens
        self.uid = uid
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        stop = threading.Event()
        while self.running and not stop.wait(0.2):
            try:
                os.write(self.master, frame(self.uid))
            except OSError:
                return

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def rdm6300() -> Iterator[Rdm6300Pty]:
    pty = Rdm6300Pty(EM4100)
    try:
        yield pty
    finally:
        pty.close()


def test_the_tray_kind_on_an_rdm6300_names_each_option_and_the_resume_its_kind(
        both_kinds: Path, rdm6300: Rdm6300Pty) -> None:
    """DEFECT 2: the tray reader on an RDM6300 named ``input.rfid_kind`` alone, which the
    ``--rfid-kind tray`` typed overrides, and the resume repeated ``--rfid-kind tray``."""
    command = companion_command(REPO)
    play = (f"{command} play --input rfid --rfid-kind tray --rfid-port {rdm6300.port} "
            "--choices keyboard --display terminal")
    # Ctrl-C only once the status is out to its end: a SIGINT inside the frame's write (a
    # terminal takes 2048 bytes at a time) stops it there, and the test would read a cut status.
    shown = on_a_terminal(play, REPO, until=("種類をrdm6300に",))
    said = " ".join(shown.split())  # the terminal display wraps its status line
    assert "no tray line: they are an RDM6300's frames, which need the rdm6300 kind" in said
    resume = resume_of(shown)
    assert resume[resume.index("--rfid-kind") + 1] == "rdm6300", resume
    assert "tray" not in resume, resume


KIND_OPTIONS = ('the rdm6300 kind (input.rfid_kind = "rdm6300"; --rfid-kind rdm6300 for '
                "play, --kind rdm6300 for rfid monitor and calibrate rfid)")


@pytest.mark.parametrize(("sent", "frames"), [(frame(EM4100) * 3, True),
                                              (b"\x02\x03" * 20, False)])
def test_the_tray_names_each_commands_option_for_the_rdm6300_kind(
        sent: bytes, frames: bool) -> None:
    """DEFECT 2: "needs the rdm6300 kind (input.rfid_kind)" named the setting alone. Frames
    an RDM6300 sends (checksums right) are said to be one's, and the reader found one;
    other bytes (an RDM6300 at the wrong speed, or another device) are not."""
    reader = no_hello("/dev/ttyACM0", sent)
    message = reader.status().message
    assert KIND_OPTIONS in message, message
    assert ("they are an RDM6300's frames" in message) is frames, message
    assert ("else it is another device" in message) is not frames, message
    assert reader.found_an_rdm6300() is frames
    reader.close()
    assert reader.found_an_rdm6300() is frames  # asked as the run stops, once closed


# -- RISK 3: a map of the other kind's stickers ------------------------------------------


def test_a_map_of_rdm6300_ids_is_refused_for_the_tray() -> None:
    path = config_dir() / TAGMAP_FILENAME
    TagMap({EM4100: Tile.from_notation("1m"), "0F00A1B2C4": Tile.from_notation("2m")}
           ).save(path)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "/dev/ttyACM0", TileLedger(), "tray")
    said = str(refused.value)
    assert f"the 2 stickers enrolled in {path} are 125 kHz RDM6300 IDs" in said, said
    assert "which the tray never reads" in said and "--rfid-kind rdm6300" in said, said
    assert f"move {path} aside" in said and "calibrate rfid`" in said, said


def test_a_map_of_tray_stickers_is_refused_for_an_rdm6300() -> None:
    path = config_dir() / TAGMAP_FILENAME
    TagMap({ENROLLED: Tile.from_notation("5p")}).save(path)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "/dev/serial0", TileLedger(), "rdm6300")
    said = str(refused.value)
    assert f"the sticker enrolled in {path} is a 13.56 MHz tray sticker" in said, said
    assert "which an RDM6300 never reads" in said and "--rfid-kind tray" in said, said
    assert "calibrate rfid --kind rdm6300`" in said, said


@pytest.mark.parametrize("kind", ["tray", "rdm6300"])
def test_a_map_with_one_sticker_of_the_kind_opens(kind: str) -> None:
    """A mixed map (a maker moving from one kind to the other) is taken: one sticker is
    readable. The reader opened is of the kind asked for, with the whole map (a77rfid
    item 8: the test only opened and closed it, whatever reader came)."""
    TagMap({ENROLLED: Tile.from_notation("5p"), EM4100: Tile.from_notation("2m")}).save(
        config_dir() / TAGMAP_FILENAME)
    reader = open_reader("rfid", "", "/dev/ttyACM0", TileLedger(), kind)
    try:
        assert isinstance(reader, TrayReader if kind == "tray" else Rdm6300Reader)
        assert reader.tag_map.label(ENROLLED) == "5p"
        assert reader.tag_map.label(EM4100) == "2m"
    finally:
        reader.close()


def test_a_map_of_the_other_kind_gets_no_laptop_hint(capsys: pytest.CaptureFixture[str]) -> None:
    """The reader is there to be set up, as with no sticker enrolled: "no camera, buttons or
    screen here (a laptop)?" does not follow (test_play_hint_fits)."""
    TagMap({EM4100: Tile.from_notation("1m")}).save(config_dir() / TAGMAP_FILENAME)
    assert cli.main(["play", "--input", "rfid", "--rfid-kind", "tray", "--choices", "auto",
                     "--display", "none"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: error: the sticker enrolled in ") and \
        err.count("\n") == 1, err
    assert "(a laptop)?" not in err
