"""A game's save on a USB stick that is unplugged (a78saves item 2): the data folder's
save.json a link to the stick, or --state in the stick's folder. `--resume` said "no saved
game … starting a new one" and made the stick's folder anew on the SD card, the new game in
it, where the automounter then mounted the stick elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.session.save import default_save_path
from tests.app.play_state_helpers import SEED


@pytest.mark.parametrize("resume", [True, False])
def test_a_save_linked_to_a_stick_unplugged_is_refused_and_nothing_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], resume: bool) -> None:
    stick = tmp_path / "media" / "STICK"
    save = default_save_path()
    save.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(stick / "save.json", save)
    argv = ["play", "--headless", "--seed", str(SEED), "--state", str(save)]
    assert main(argv + (["--resume"] if resume else [])) == 2
    err = capsys.readouterr().err
    assert err == (f"companion: error: {save} links to {stick / 'save.json'}, whose folder "
                   f"{stick} is not there (a USB stick unplugged?): plug it in and start "
                   f"again; to start a new game instead, remove the link (rm {save}) and "
                   + ("play without --resume\n" if resume else "play again\n"))
    assert not (tmp_path / "media").exists() and save.is_symlink()


def test_resume_of_a_state_in_a_folder_not_there_is_refused_and_nothing_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "gone" / "save.json"
    assert main(["play", "--headless", "--resume", "--state", str(state)]) == 2
    assert "its folder " + str(state.parent) + " is not there (a USB stick unplugged?)" \
        in capsys.readouterr().err
    assert not state.parent.exists()
    # A new game there, on purpose, is made there: without --resume.
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(state)]) == 0
    assert state.is_file()


# A table's save and fight file on a stick unplugged (r78saves RISK): "no unfinished fight
# saved in …" took up the fight file, and the lock files made the stick's folder first.
TABLE = ["--input", "sim", "--choices", "keyboard", "--display", "terminal", "--dice", "sim"]


@pytest.mark.parametrize("mode", ["coc", "genso"])
def test_a_table_resumed_from_a_state_in_a_folder_not_there_is_refused_and_nothing_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str) -> None:
    state = tmp_path / "gone" / "table.json"
    assert main(["play", "--mode", mode, "--resume", "--state", str(state), *TABLE]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: no saved {mode} table can be in {state}: its folder "
        f"{state.parent} is not there (a USB stick unplugged?): plug it in and start again; "
        f"to start a new {mode} table there instead, play without --resume\n")
    assert not state.parent.exists()


def test_a_table_fight_file_in_a_folder_not_there_is_refused_and_nothing_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fight = tmp_path / "gone" / "fight.json"
    assert main(["play", "--mode", "coc", "--fight", str(fight), *TABLE]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: no fight can be in {fight}: its folder {fight.parent} is not "
        "there (a USB stick unplugged?): plug it in and start again\n")
    assert not fight.parent.exists()


def test_a_table_save_linked_to_a_stick_unplugged_without_resume_is_not_told_without_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stick = tmp_path / "media" / "STICK"
    state = tmp_path / "table.json"
    os.symlink(stick / "table.json", state)
    assert main(["play", "--mode", "coc", "--state", str(state), *TABLE]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {state} links to {stick / 'table.json'}, whose folder {stick} is "
        "not there (a USB stick unplugged?): plug it in and start again; to start a new coc "
        f"table instead, remove the link (rm {state}) and play again\n")
    assert not (tmp_path / "media").exists() and state.is_symlink()
