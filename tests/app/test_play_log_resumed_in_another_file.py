"""A game resumed with another ``--log`` than the one it began with (hist74 NIT 2): the new
log gets the game whole, and the old one keeps its lines up to the stop, a game `replay`
then finds stopped. The resume says so, as one with no --log does."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.session.host import Session
from tests.app.power_cuts import cut_after_saves


def _stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A headless game of seed 4 logged in a.jsonl, stopped after 30 saves: its save, and
    its log."""
    save, first = tmp_path / "r.json", tmp_path / "a.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(30))
        assert main(["play", "--headless", "--seed", "4", "--state", str(save), "--log",
                     str(first)]) == 130
    capsys.readouterr()
    return save, first


def test_a_resume_with_another_log_says_the_first_one_keeps_a_stopped_part(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    save, first = _stopped(tmp_path, monkeypatch, capsys)
    before = first.read_bytes()
    second = tmp_path / "b.jsonl"
    assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                 str(second)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"companion: this game's log {first} is not carried on (--log {second}): the lines "
        f"it holds of the game, up to where it stopped, stay there; {second} gets the game "
        "whole"]
    assert first.read_bytes() == before
    assert main(["replay", str(second)]) == 0
    assert "the log ends before the game does" not in capsys.readouterr().out


@pytest.mark.parametrize("gone", [False, True], ids=["its-own-log", "first-log-gone"])
def test_a_resume_with_its_own_log_or_after_that_log_went_says_nothing_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], gone: bool) -> None:
    save, first = _stopped(tmp_path, monkeypatch, capsys)
    if gone:
        first.unlink()
    log = tmp_path / "b.jsonl" if gone else first
    assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                 str(log)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["replay", str(log)]) == 0
    assert "the log ends before the game does" not in capsys.readouterr().out


def test_an_old_log_that_cannot_be_looked_at_lets_the_game_play_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The old log's folder taken from the player (no permission; a stale network path):
    the resume plays on in the new log, where the note's check raised and refused it
    (reviewb74 D2). Nothing is said of a log that cannot be seen."""
    save, first = _stopped(tmp_path, monkeypatch, capsys)
    stat = os.stat

    def refused(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if os.fspath(path) == str(first):  # type: ignore[call-overload]
            raise PermissionError(errno.EACCES, "Permission denied", str(first))
        return stat(path, *args, **kwargs)  # type: ignore[arg-type]

    second = tmp_path / "b.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(os, "stat", refused)
        assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                     str(second)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["replay", str(second)]) == 0
    assert "the log ends before the game does" not in capsys.readouterr().out


def test_a_folder_where_the_old_log_was_is_no_log_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A folder now at the old log's name holds none of the game's lines: the note said
    they stayed there (reviewb74 N2)."""
    save, first = _stopped(tmp_path, monkeypatch, capsys)
    first.rename(tmp_path / "a.keep")
    first.mkdir()
    second = tmp_path / "b.jsonl"
    assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                 str(second)]) == 0
    assert capsys.readouterr().err == ""


def test_a_hard_link_of_the_old_log_carries_it_on_unsaid(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A second name of the log the game began in is that log: it is carried on from where
    the game stopped and ends as an uninterrupted game's, with no note that it is not
    carried on (reviewb74 N2)."""
    save, first = _stopped(tmp_path, monkeypatch, capsys)
    whole = tmp_path / "whole.jsonl"
    assert main(["play", "--headless", "--seed", "4", "--log", str(whole)]) == 0
    link = tmp_path / "h.jsonl"
    os.link(first, link)
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                 str(link)]) == 0
    assert capsys.readouterr().err == ""
    assert first.read_bytes() == link.read_bytes()
    lines, uninterrupted = link.read_bytes().splitlines(), whole.read_bytes().splitlines()
    # one game, its header's game_id its own: begun again, the stopped part came first
    assert sum(b'"log": "jongrogue-companion"' in line for line in lines) == 1
    assert lines[1:] == uninterrupted[1:]
