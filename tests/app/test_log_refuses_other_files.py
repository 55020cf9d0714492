"""`play --log FILE` cuts back only a companion log's torn last line: any other file given
(notes, the history database by a slip of the tab key) lost everything after its last line
end, unsaid (fuzz audit 3). It is refused by name and left byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import default_history_path
from companion.app.paths import data_dir
from companion.app.session.log import GameLog
from companion.app.session.save import default_save_path
from companion.errors import DataError
from tests.app.play_state_helpers import unfinished_game


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


@pytest.mark.parametrize("torn", [b'{"choices": "auto", "ga', b'{"cho', b"\0" * 40])
def test_a_log_whose_first_header_a_cut_tore_takes_the_game_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], torn: bytes) -> None:
    """A power cut in the first write to a new log can leave its header cut short (its keys
    sorted, "log" is not among the first) or NULs: the companion's own, cut back, not
    refused as another program's file, and a resume of the game with that log plays on."""
    log, save = tmp_path / "games.jsonl", tmp_path / "table" / "save.json"
    save.parent.mkdir()  # a --resume of a --state in a folder not there is refused
    log.write_bytes(torn)
    assert GameLog.begin(log).start == 0 and log.read_bytes() == b""
    log.write_bytes(torn)
    assert main(["play", "--headless", "--seed", "5", "--state", str(save), "--resume",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    lines = log.read_bytes().splitlines()
    assert [n for n, line in enumerate(lines) if b'"log": "jongrogue-companion"' in line] == [0]
    assert main(["replay", str(log)]) == 0


def test_a_pipe_given_as_the_log_is_refused_at_once(tmp_path: Path) -> None:
    """Opened to read, a pipe waits for a writer for ever: `play --log` hung, nothing said."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    done = subprocess.run([sys.executable, "-m", "companion", "play", "--headless", "--seed",
                           "3", "--log", str(pipe)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COMPANION_DATA_DIR": str(tmp_path)})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"companion: error: {pipe}: a device or a pipe, not a log\n"


# -- the run's own save given as the log (hist74 DEFECT 1) --------------------------------------
# Each save is a new file put in the log's place: a whole game played with exit 0, and every
# line of its log went to the file the save replaced.

def _refused(name: Path, flag: str = "--state") -> str:
    why = ("each write of the fight would replace the log, and its lines be lost"
           if flag == "--fight" else "each save would be written over the log, and its lines lost")
    return (f"companion: error: --log and {flag} name one file ({name}): {why}; give --log "
            f"another file (e.g. {name.with_suffix('.jsonl')})\n")


@pytest.mark.parametrize("table", [[], ["--input", "sim", "--choices", "auto",
                                        "--display", "none"]], ids=["headless", "table"])
def test_state_and_log_naming_one_file_are_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], table: list[str]) -> None:
    game = tmp_path / "game.json"
    command = table or ["--headless"]
    assert main(["play", *command, "--seed", "3", "--state", str(game), "--log",
                 str(game)]) == 2
    assert capsys.readouterr().err == _refused(game)
    assert list(tmp_path.iterdir()) == []
    assert not default_history_path().exists()


def test_the_data_folders_save_given_as_the_log_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    save = default_save_path()
    assert main(["play", "--headless", "--resume", "--seed", "5", "--log", str(save)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: --log names {save}, where play saves the game with no --state: "
        "each save would be written over the log, and its lines lost; give --log another "
        f"file (e.g. {save.with_suffix('.jsonl')})\n")
    assert not save.exists()


def test_a_save_given_as_the_log_by_another_name_is_refused_and_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A link to the save, or a second name of it, is the save too: it is kept byte for
    byte, its game not played on."""
    save = tmp_path / "s.json"
    before = unfinished_game(save)
    (tmp_path / "link.json").symlink_to(save)
    os.link(save, tmp_path / "hard.json")
    capsys.readouterr()
    for other in (tmp_path / "link.json", tmp_path / "hard.json",
                  tmp_path / "sub" / ".." / "s.json"):
        assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                     str(other)]) == 2
        assert capsys.readouterr().err.startswith(
            f"companion: error: --log {other} and --state {save} name one file: each save "
            "would be written over the log")
        assert save.read_bytes() == before


@pytest.mark.parametrize("flag", ["--state", "--fight"])
def test_a_fight_tables_files_given_as_the_log_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str) -> None:
    table = tmp_path / "t.json"
    assert main(["play", "--mode", "genso", "--dice", "sim", flag, str(table), "--log",
                 str(table)]) == 2
    assert capsys.readouterr().err == _refused(table, flag)
    assert list(tmp_path.iterdir()) == []


# -- a loop of links as --log or --state (reviewb74 D1) -------------------------------------
# samefile failed on the loop, and Python 3.11's resolve() then raised a RuntimeError: a
# traceback. The run's own refusals name the loop, exit 1 as any path that cannot be used.

@pytest.mark.parametrize("flags", [["--log", "{loop}"],
                                   ["--state", "{loop}", "--log", "{other}"]],
                         ids=["log", "state"])
def test_a_loop_of_links_given_as_log_or_state_is_named_as_a_loop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    loop, other = tmp_path / "l1", tmp_path / "x.jsonl"
    loop.symlink_to(tmp_path / "l2")
    (tmp_path / "l2").symlink_to(loop)
    command = [flag.format(loop=loop, other=other) for flag in flags]
    assert main(["play", "--headless", "--seed", "1", *command]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: {loop}: a symbolic link that leads back to itself\n")
    assert not other.exists()


def test_a_data_folder_save_that_is_a_loop_lets_a_game_with_no_save_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A headless game without --resume reads and writes no save: a save.json that is a
    loop stops it no more with --log than without."""
    save = default_save_path()
    save.parent.mkdir(parents=True, exist_ok=True)
    save.symlink_to(save.with_name("loop"))
    save.with_name("loop").symlink_to(save)
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0


# -- the data folder's save.json as the log, said as it is (reviewb74 NIT 1) ---------------

def _no_save_there(save: Path) -> str:
    return (f"companion: error: --log names {save}, where play saves the game with no "
            "--state: this run saves nothing there, but a later `companion play --resume`, or "
            "`companion play` without --headless (at the screen), with no --state, would find "
            "the log where it looks for its save, and stop; give --log another file (e.g. "
            f"{save.with_suffix('.jsonl')})\n")


@pytest.mark.parametrize("state", [False, True], ids=["no-state", "state"])
def test_the_data_folders_save_as_the_log_of_a_run_saving_nothing_there_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], state: bool) -> None:
    """A headless game with no --resume writes no save, and one with --state saves
    elsewhere: no save would be written over the log (the refusal said so), but the next
    `play` would find it in save.json. With --state it was not refused at all."""
    save = default_save_path()
    other = ["--state", str(tmp_path / "s.json")] if state else []
    assert main(["play", "--headless", "--seed", "1", *other, "--log", str(save)]) == 2
    assert capsys.readouterr().err == _no_save_there(save)
    assert not save.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("flags", "named"), [
    (["--headless", "--resume"], "`companion play --resume`"),
    (["--input", "sim", "--choices", "auto", "--display", "none", "--mode", "game"],
     "`companion play` without --headless"),
    (["--headless"], None),
], ids=["resume", "at-the-screen", "headless"])
def test_the_runs_said_to_stop_on_a_log_in_save_json_are_those_that_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str],
        named: str | None) -> None:
    """The refusal names the later runs a log in save.json would stop, and each does:
    `play --resume` and a `play` without --headless. It said 'the next `companion play`',
    and a plain `play --headless` reads no save and plays on (reviewh74b N3)."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", "1", "--log", str(save)]) == 2
    said = capsys.readouterr().err
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    save.parent.mkdir(parents=True, exist_ok=True)
    save.write_bytes(log.read_bytes())  # as if the refused --log had been written
    capsys.readouterr()
    assert main(["play", "--seed", "2", *flags]) == (0 if named is None else 2)
    err = capsys.readouterr().err
    assert (f"companion: error: {save} is a game log" in err) == (named is not None), err
    assert named is None or named in said, said


def test_the_fight_file_as_the_log_is_no_save(capsys: pytest.CaptureFixture[str]) -> None:
    fight = data_dir() / "genso" / "fight.json"
    assert main(["play", "--mode", "genso", "--dice", "sim", "--log", str(fight)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: --log names {fight}, the genso fight file with no --fight: each "
        "write of the fight would replace the log, and its lines be lost; give --log another "
        f"file (e.g. {fight.with_suffix('.jsonl')})\n")
