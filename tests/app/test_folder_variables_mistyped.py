"""COMPANION_CONFIG_DIR and COMPANION_DATA_DIR mistyped: a name nearly theirs, a value with a
stray space. Either sent the saves to a folder the player did not mean, without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.config import load_config


@pytest.mark.parametrize(("name", "meant"), [
    ("COMPANION_DATADIR", "COMPANION_DATA_DIR"), ("COMPANION_DATA_DIRS", "COMPANION_DATA_DIR"),
    ("COMPANION_CONFIG_DIRECTORY", "COMPANION_CONFIG_DIR")])
@pytest.mark.parametrize("command", [["history"], ["config", "--show"],
                                     ["coc", "defaults"]])
def test_a_folder_variable_misspelt_is_said_once_by_every_command(
        name: str, meant: str, command: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """a77setup RISK 4: the games went to ~/.local/share, not the USB stick named; told by
    ``config`` and ``play`` alone, which read config.toml, ``history``, ``genso`` and ``coc``
    said nothing (r77setup)."""
    monkeypatch.setenv(name, "/media/pi/JR")
    main(command)
    err = capsys.readouterr().err
    assert err.count(f"{name} is no setting; ignored (did you mean {meant}?)") == 1


def test_the_folder_variables_themselves_are_no_notice() -> None:
    assert load_config(env={"COMPANION_DATA_DIR": "/media/pi/JR",
                            "COMPANION_CONFIG_DIR": "/media/pi/JR/config"}).notices == ()


@pytest.mark.parametrize(("written", "said"), [
    (" {}", "begins with a space: write {variable}={}"),
    ("{} ", "ends with a space: write {variable}={}"),
    ("\t{} ", "begins and ends with a space: write {variable}={}"),
    ("  ", "begins and ends with a space: give a full path, or unset {variable}"),
    # r77setup: a profile saved on Windows; the \r printed bare sent the cursor back over
    # the start of the message, and it is no space
    ("{}\r", "ends with a Windows line end (\\r): write {variable}={}")])
@pytest.mark.parametrize("variable", ["COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"])
def test_a_folder_variable_with_a_stray_space_is_refused(
        variable: str, written: str, said: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """a77setup NIT 9: ``Environment="COMPANION_DATA_DIR= /home/pi/jr-data"`` was "a
    relative path (from here: …=/tmp/ /home/pi/jr-data)", and a space at the end made a
    folder named with it on the first save. Nothing is made."""
    meant = tmp_path / "jr-data"
    value = written.format(meant)
    monkeypatch.setenv(variable, value)
    monkeypatch.chdir(tmp_path)
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {variable}={value!r} "
        f"{said.format(meant, variable=variable)}\n")
    assert list(tmp_path.iterdir()) == []
