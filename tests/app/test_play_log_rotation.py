"""``play --log FILE`` is bounded (carried61): it grew for ever, and a Pi's card played on
for months filled. A game that begins with FILE past :data:`ROTATE_AT` first moves it to
FILE.1 (FILE.1 to FILE.2, the older FILE.2 deleted); a game's own lines are never parted
between two files, and each file replays alone. The limit is small here, as a card's years
of games would make it."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.session import log as log_module
from companion.app.session.log import GameLog, older_log

HEADER = '{"game_id": "%s", "log": "jongrogue-companion"}'


def seeds_in(path: Path) -> list[int]:
    """The seed of each game logged in ``path``, in order."""
    return [json.loads(line)["seed"] for line in path.read_text().splitlines()
            if '"log": "jongrogue-companion"' in line]


def test_games_past_the_limit_move_the_log_on_and_the_oldest_goes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each headless game's log is past 4 KiB: the next game begins a new FILE, the one
    before it in FILE.1, the one before that in FILE.2; the game of seed 1 is gone after
    the fourth. Each file holds whole games, which replay alone."""
    monkeypatch.setattr(log_module, "ROTATE_AT", 4096)
    log = tmp_path / "games.jsonl"
    for seed in (1, 2, 3, 4):
        assert main(["play", "--headless", "--seed", str(seed), "--log", str(log)]) == 0
    assert "companion:" not in capsys.readouterr().err
    assert [seeds_in(path) for path in (log, older_log(log, 1), older_log(log, 2))] == [
        [4], [3], [2]]
    assert not older_log(log, 3).exists()
    for path in (log, older_log(log, 1), older_log(log, 2)):
        assert main(["replay", str(path)]) == 0
        assert "events match" in capsys.readouterr().out


def test_a_log_under_the_limit_takes_the_next_game_after_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the limit only at the end of a game: the game is never moved mid-way, and the
    log under the limit keeps its games together."""
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    monkeypatch.setattr(log_module, "ROTATE_AT", log.stat().st_size + 1)
    assert main(["play", "--headless", "--seed", "2", "--log", str(log)]) == 0
    assert seeds_in(log) == [1, 2] and not older_log(log, 1).exists()
    assert main(["play", "--headless", "--seed", "3", "--log", str(log)]) == 0
    assert seeds_in(log) == [3] and seeds_in(older_log(log, 1)) == [1, 2]


def test_begin_moves_the_logs_on_by_one(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """FILE to FILE.1, FILE.1 to FILE.2, the FILE.2 before deleted; the new game at 0."""
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)
    path = tmp_path / "games.jsonl"
    for age, game in ((0, "c"), (1, "b"), (2, "a")):
        older = path if age == 0 else older_log(path, age)
        older.write_text(HEADER % game + "\n" + '{"e": 1}\n' * 8)
    log = GameLog.begin(path)
    assert log.start == 0 and not path.exists()
    log.rewrite([HEADER % "d"])
    assert path.read_text() == HEADER % "d" + "\n"
    assert older_log(path, 1).read_text().startswith(HEADER % "c")
    assert older_log(path, 2).read_text().startswith(HEADER % "b")


def test_an_older_name_holding_something_else_is_never_written_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """FILE.2 is the player's notes: the log stays where it is, the game is added to it,
    and stderr says why and what to do."""
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)
    path = tmp_path / "games.jsonl"
    earlier = HEADER % "a" + "\n" + '{"e": 1}\n' * 8
    path.write_text(earlier)
    notes = older_log(path, 2)
    notes.write_text("my notes\n")
    log = GameLog.begin(path)
    assert log.start == len(earlier)
    assert capsys.readouterr().err == (
        f"companion: the log {path} is past 64 bytes but is not moved to games.jsonl.1: "
        f"{notes} is not a log `companion play --log` wrote; move it away, and the next "
        "game moves the log\n")
    assert notes.read_text() == "my notes\n" and not older_log(path, 1).exists()


def test_a_folder_that_refuses_the_moves_keeps_the_log_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A rename the folder refuses (the kernel's EACCES; the tests run as root, whom a
    read-only mode does not stop) leaves FILE as it was, the game added to it, said."""
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)
    path = tmp_path / "games.jsonl"
    earlier = HEADER % "a" + "\n" + '{"e": 1}\n' * 8
    path.write_text(earlier)

    def refused(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "replace", refused)
    log = GameLog.begin(path)
    monkeypatch.undo()
    assert log.start == len(earlier) and path.read_text() == earlier
    assert capsys.readouterr().err == (
        f"companion: the log {path} is past 64 bytes but could not be moved to "
        "games.jsonl.1 (Permission denied); this game is added to it\n")
