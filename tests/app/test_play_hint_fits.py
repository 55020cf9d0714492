"""The hint after a device error fits the error (install58 N6): after "no RFID stickers are
enrolled" the tray is there to be set up, and "no camera, buttons or screen here (a
laptop)?" followed it. Missing buttons still get the hint."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.app.paths import config_dir
from companion.app.session.save import default_save_path
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.app.play_state_helpers import unfinished_game

NOT_ENROLLED = "companion: error: no RFID stickers are enrolled ("
LAPTOP = "no camera, buttons or screen here (a laptop)?"
RFID_GAME = ["play", "--input", "rfid", "--choices", "auto", "--display", "none"]


def test_no_sticker_enrolled_gets_no_laptop_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(RFID_GAME) == 1
    err = capsys.readouterr().err
    assert err.startswith(NOT_ENROLLED) and err.count("\n") == 1, err
    assert LAPTOP not in err


def test_a_resumed_tray_game_with_no_sticker_enrolled_gets_no_hint(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The save says the tray, the command line says nothing of the input: "the saved game
    … plays on only at the table" does not fit a table whose tray is to be set up."""
    save = default_save_path()
    save.parent.mkdir(parents=True)
    unfinished_game(save)
    save.write_text(json.dumps({**json.loads(save.read_text()), "input_kind": "rfid"}))
    capsys.readouterr()
    assert main(["play", "--resume", "--choices", "auto", "--display", "none"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(NOT_ENROLLED) and err.count("\n") == 1, err


def test_a_headless_resume_of_a_tray_game_says_to_leave_headless_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    """a76saves NIT 3: it said "resume it with --input rfid", which beside --headless was
    refused in turn ("--headless plays with --input sim"). The save is kept as it was."""
    save = default_save_path()
    save.parent.mkdir(parents=True)
    unfinished_game(save)
    save.write_text(json.dumps({**json.loads(save.read_text()), "input_kind": "rfid"}))
    before = save.read_bytes()
    capsys.readouterr()
    assert main(["play", "--headless", "--resume"]) == 2
    assert capsys.readouterr().err == (
        "companion: error: this game was played with --input rfid, and --headless plays the "
        "simulated wall: resume it without --headless; the save is as it was\n")
    assert save.read_bytes() == before


@pytest.mark.parametrize("enrolled", [False, True])
def test_a_tray_game_whose_buttons_are_missing_still_gets_the_hint(
        enrolled: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """Off a Pi the buttons fail before the tray is opened: the hint fits that error,
    stickers enrolled or not."""
    if enrolled:
        TagMap({"04A1B2C3": Tile.from_notation("3s")}).save(config_dir() / TAGMAP_FILENAME)
    assert main(["play", "--input", "rfid", "--choices", "gpio", "--display", "terminal"]) == 1
    err = capsys.readouterr().err
    assert "the buttons cannot be used" in err and NOT_ENROLLED not in err
    assert err.endswith(f"companion: {LAPTOP} companion play --input sim --choices keyboard "
                        "--display terminal plays the simulated wall with the keys\n"), err
