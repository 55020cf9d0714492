"""A game resumed with another ``--log`` than the one it began with (hist74 NIT 2): the new
log gets the game whole, and the old one keeps its lines up to the stop, a game `replay`
then finds stopped. The resume says so, as one with no --log does."""

from __future__ import annotations

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
