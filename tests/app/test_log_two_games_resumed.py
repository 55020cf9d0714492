"""Two ``--log`` games in one file, each stopped and resumed in turn (hist72 DEFECT 3): the
first resume moves its game's lines after the other's, so the other's saved start no longer
is where its lines begin; its resume must still find them, drop them and write its game
once, and `replay` must not call a stray copy an older companion left a stopped game."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.session.log import GameLog


def header(game_id: str) -> str:
    return json.dumps({"choices": "auto", "game_id": game_id, "log": "jongrogue-companion",
                       "seed": 1}, sort_keys=True)


def game(game_id: str, events: int) -> list[str]:
    return [header(game_id), *(json.dumps({"game": game_id, "n": n}) for n in range(events))]


def test_a_resume_after_another_game_s_resume_writes_its_game_once(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    first, second = game("aaaa", 40), game("cccc", 90)
    stopped = GameLog.begin(path)
    stopped.rewrite(first[:5])
    first_start = stopped.start
    stopped.close()
    stopped = GameLog.begin(path)
    stopped.rewrite(second[:60])  # longer than the first's: its saved start lies inside it
    second_start = stopped.start
    stopped.close()
    for start, lines in ((first_start, first), (second_start, second)):
        resumed = GameLog(path, start)
        resumed.rewrite(lines)
        resumed.close()
    assert path.read_text(encoding="utf-8").splitlines() == [*first, *second]
    assert resumed.start == len("".join(line + "\n" for line in first).encode())


def ctrl_c_after(replaces: int) -> Callable[..., None]:
    """``os.replace`` as a Ctrl-C after the ``replaces``th one (a save or a log written)."""
    real, count = os.replace, [0]

    def replace(*args: object, **kwargs: object) -> None:
        real(*args, **kwargs)  # type: ignore[arg-type]
        count[0] += 1
        if count[0] == replaces:
            raise KeyboardInterrupt

    return replace


def test_two_logged_games_stopped_and_resumed_in_turn_replay_once_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's run: each game stopped with Ctrl-C, each resumed with the command the
    companion printed. The log held the second game twice, its beginning cut off, which
    replay called a stopped game to carry on with a --state file (c.json held it, over)."""
    log, first, second = tmp_path / "g.jsonl", tmp_path / "a.json", tmp_path / "c.json"
    for seed, save, replaces in (("1", first, 100), ("3", second, 150)):
        # Its own context, not monkeypatch.undo(): that also undid conftest's
        # COMPANION_DATA_DIR, and the resumes below put both games in the real history.
        with monkeypatch.context() as cut:
            cut.setattr(os, "replace", ctrl_c_after(replaces))
            main(["play", "--headless", "--seed", seed, "--state", str(save), "--log",
                  str(log)])
        assert "stopped; the game is saved in" in capsys.readouterr().err
    for save in (first, second):
        assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                     str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in said] == ["game 1 (seed 1, plus)",
                                                     "game 2 (seed 3, plus)"]
    assert all(line.endswith(" events match") for line in said)
    # A log an older companion left so: the stray beginning is named as the copy it is.
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    second_begins = next(n for n, line in enumerate(lines)
                         if n and '"log": "jongrogue-companion"' in line)
    log.write_text("".join(lines[second_begins:second_begins + 150] + lines),
                   encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == ("game 1 (seed 3, plus): 149 events match; the log ends before the game "
                       "does: this is a copy of game 3's beginning, left by an older "
                       "companion's resume; game 3 is the game played on")
    assert "carries it on" not in "\n".join(said)


def as_bytes(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode("utf-8")


def test_a_resume_whose_start_is_past_the_log_s_end_writes_its_game_once(
        tmp_path: Path) -> None:
    """reviewh72 RISK 1: an earlier game's lines deleted by hand from the top of the log, so
    the stopped game's saved start lies past the file's end while its own lines are earlier.
    The resume wrote the game again at the end and kept its first copy: two headers."""
    path = tmp_path / "g.jsonl"
    over, stopped = game("xxxx", 80), game("cccc", 40)
    log = GameLog.begin(path)
    log.rewrite(over)
    log.close()
    log = GameLog.begin(path)
    log.rewrite(stopped[:10])
    start = log.start
    log.close()
    path.write_bytes(as_bytes(stopped[:10]))  # the finished game deleted by hand
    assert start > path.stat().st_size
    resumed = GameLog(path, start)
    resumed.rewrite(stopped)
    resumed.close()
    assert path.read_text(encoding="utf-8").splitlines() == stopped
    assert resumed.start == 0


def test_a_resume_drops_a_stray_copy_an_older_resume_left_before_its_start(
        tmp_path: Path) -> None:
    """reviewh72 NIT 2: a copy of the game's beginning an older companion's resume left
    before another game stayed when that game was resumed again, its lines still at the
    saved start: replay went on naming the stray copy. The resume writes the game whole, so
    the copy goes, and the game's lines follow the other game's."""
    path = tmp_path / "g.jsonl"
    other, stopped = game("aaaa", 30), game("cccc", 60)
    stray = as_bytes(stopped[:20])
    path.write_bytes(stray + as_bytes(other) + as_bytes(stopped[:45]))
    resumed = GameLog(path, len(stray) + len(as_bytes(other)))
    resumed.rewrite(stopped)
    resumed.close()
    assert path.read_text(encoding="utf-8").splitlines() == [*other, *stopped]
    assert resumed.start == len(as_bytes(other))


def test_a_whole_file_rewrite_drops_a_line_a_power_cut_tore_at_the_end(tmp_path: Path) -> None:
    """The saved start at a line a power cut tore in the resume's own write (its header cut
    short) while a copy of the game lies before it: the game is written whole after the other
    game, and the torn line is no line of the log (it would make `replay` refuse the file)."""
    path = tmp_path / "g.jsonl"
    other, stopped = game("aaaa", 30), game("cccc", 60)
    copy = as_bytes(stopped[:20])
    torn = stopped[0].encode("utf-8")[:-5]
    path.write_bytes(copy + as_bytes(other) + torn)
    resumed = GameLog(path, len(copy) + len(as_bytes(other)))
    resumed.rewrite(stopped)
    resumed.close()
    assert path.read_text(encoding="utf-8").splitlines() == [*other, *stopped]
