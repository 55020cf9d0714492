"""`play --log FILE` cuts back only a companion log's torn last line: any other file given
(notes, the history database by a slip of the tab key) lost everything after its last line
end, unsaid (fuzz audit 3). It is refused by name and left byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import default_history_path
from companion.app.session.log import GameLog
from companion.errors import DataError


@pytest.mark.parametrize("text", [
    b"my notes line 1\nmy party: Ann, Bob, Cho (no newline at the end)",
    b"my notes line 1\nmy notes line 2\n",
    b"no line end at all",
])
def test_a_file_that_is_no_companion_log_is_refused_and_left_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: bytes) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(text)
    assert main(["play", "--headless", "--seed", "1", "--log", str(notes)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {notes}: not a log `companion play --log` wrote (its first line is "
        "no game header); it is left as it is: give --log a new file, or a log it wrote\n")
    assert notes.read_bytes() == text


def test_the_history_database_given_as_the_log_is_left_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "save.json"
    assert main(["play", "--headless", "--seed", "2", "--state", str(save)]) == 0
    history = default_history_path()
    before = history.read_bytes()
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "4", "--log", str(history)]) == 2
    assert f"{history}: not a log `companion play --log` wrote" in capsys.readouterr().err
    assert history.read_bytes() == before
    assert main(["history"]) == 0


def test_a_companion_logs_torn_last_line_is_still_cut_and_the_game_follows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log whose last game a power cut left mid-line loses that half line, as before, and
    the next game's lines follow the whole ones."""
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"kind": "torn-by-the-cut')
    assert main(["play", "--headless", "--seed", "2", "--log", str(log)]) == 0
    capsys.readouterr()
    after = log.read_bytes()
    assert after.startswith(whole) and b"torn-by-the-cut" not in after
    headers = [json.loads(line) for line in after.splitlines() if b'"log": "jongrogue' in line]
    assert [header["seed"] for header in headers] == [1, 2]
    assert main(["replay", str(log)]) == 0


def test_an_empty_file_takes_a_log(tmp_path: Path) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    assert GameLog.begin(log).start == 0


def test_a_whole_line_without_the_header_is_no_log(tmp_path: Path) -> None:
    log = tmp_path / "other.jsonl"
    log.write_bytes(b'{"log": "another-program"}\n{"n": 1')
    with pytest.raises(DataError, match="its first line is no game header"):
        GameLog.begin(log)
    assert log.read_bytes() == b'{"log": "another-program"}\n{"n": 1'


def test_a_log_refused_sets_no_unfinished_game_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new game over an unfinished save sets that save aside (``.replaced-…``); with a
    --log that is refused the run stops before that, so the save stays where it was."""
    table = tmp_path / "table"
    save = table / "save.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    unfinished = json.loads(save.read_text(encoding="utf-8"))
    unfinished["finished"], unfinished["inputs"] = False, unfinished["inputs"][:5]
    save.write_text(json.dumps(unfinished), encoding="utf-8")
    before = save.read_bytes()
    notes = table / "notes.txt"
    notes.write_bytes(b"my notes\n")
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "4", "--state", str(save), "--log",
                 str(notes)]) == 2
    assert "not a log `companion play --log` wrote" in capsys.readouterr().err
    assert save.read_bytes() == before
    assert sorted(p.name for p in table.iterdir()) == ["notes.txt", "save.json"]
