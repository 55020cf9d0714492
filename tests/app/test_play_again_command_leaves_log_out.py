"""reviews71 NIT 1: the command that plays again an auto-player's game nothing of which was
saved leaves ``--log`` out. The game reached its end with the log written whole (a refused
log write is told as the log stopping before the game's end), so the log already holds it,
and the command with ``--log`` appended the same game to it a second time; a resume would
have rewritten its lines instead (GameLog.rewrite). That the log holds it is said, so the
missing flag is not read as a slip."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.session import behind_save
from companion.app.history import History, default_history_path
from companion.app.session.save import SaveGame, default_save_path
from tests.disk import refuse_writes

SEED = 2


def games_in(log: Path) -> int:
    return sum(1 for line in log.read_bytes().splitlines()
               if b'"log": "jongrogue-companion"' in line)


def test_the_replay_command_leaves_out_the_log_that_already_holds_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    save, log = default_save_path(), tmp_path / "first.log"
    default_history_path().parent.mkdir(parents=True, exist_ok=True)
    default_history_path().mkdir()  # the history cannot be written either
    with monkeypatch.context() as patch:
        refuse_writes(save, patch)  # every one
        assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                     "--seed", str(SEED), "--strategy", "reckless", "--log", str(log)]) == 0
    assert games_in(log) == 1
    command = ("companion play --input sim --choices auto --display none --seed 2 "
               "--preset plus --strategy reckless")
    assert capsys.readouterr().err.splitlines()[-1] == (
        "companion: nothing of this game was kept (the disk refused every save): free space "
        f"or fix the folder, then `{command}` plays the same game again to its end and puts "
        f"it in the history (the log {log} holds it already)")

    default_history_path().rmdir()  # room again
    assert main(shlex.split(command)[1:]) == 0
    assert games_in(log) == 1  # not a second copy
    assert [run.seed for run in History().runs()] == [SEED]


def test_a_log_left_behind_is_not_said_to_hold_the_game() -> None:
    """A log the disk refused too stops before the game's end (said when it is refused):
    the command leaves --log out all the same, and does not claim the log holds the game."""
    args = argparse.Namespace(mode=None, headless=False, state=None,
                              log=Path("/tmp/first.log"))
    said = behind_save(SaveGame(seed=5, preset="plus", input_kind="sim", strategy="cautious"),
                       0, args, on_disk=False, log_whole=None)
    assert said == (
        "nothing of this game was kept (the disk refused every save): free space or fix the "
        "folder, then `companion play --input sim --choices auto --display none --seed 5 "
        "--preset plus --strategy cautious` plays the same game again to its end and puts it "
        "in the history")
