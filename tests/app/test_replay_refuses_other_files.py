"""`companion replay` given one of the companion's other files (hist74 NIT 3): a save, a fight
file, the dice tray's file or the history is named for what it is, as ``play --state`` names
them by their shape, with what replay takes; a file none of them is refused in plain words,
not json's "Expecting value"."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import default_history_path
from companion.app.session.host import Session
from tests.app.play_state_helpers import unfinished_game
from tests.app.power_cuts import cut_after_saves

TAKES = "replay takes the file `companion play --log FILE` wrote\n"


SAVE = "is a save (`companion play` wrote it: --state takes it), not a log"


def test_an_unfinished_save_is_named_with_the_command_play_says_for_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The auto-player's game on the simulated wall is played on with --headless, as play's
    own stop line says: the plain `play --resume --state` opened the screen, "no screen
    found" on a laptop (reviewb74 D3). The command said plays it on."""
    save = tmp_path / "game.json"
    unfinished_game(save)
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    command = f"companion play --resume --headless --state {save}"
    assert capsys.readouterr().err == (
        f"companion: error: {save} {SAVE}: `{command}` plays it on, and {TAKES}")
    assert main(shlex.split(command)[1:]) == 0
    assert "Result: " in capsys.readouterr().out
    assert json.loads(save.read_text(encoding="utf-8"))["finished"] is True


def test_an_unfinished_logged_save_is_played_on_in_its_own_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey75 DEFECT 2: a game begun with --log and stopped was named with no --log, as
    play's stop line says it: followed, the game played to its end unlogged and its log
    stayed cut short. The command said carries it on in its log, which then replays whole."""
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(save), "--log",
                     str(log)]) == 130
    stop = capsys.readouterr().err.splitlines()[-1]
    assert main(["replay", str(save)]) == 2
    command = f"companion play --resume --headless --state {save} --log {log}"
    assert capsys.readouterr().err == (
        f"companion: error: {save} {SAVE}: `{command}` plays it on, and {TAKES}")
    assert f": {command} carries on" in stop  # as play's own stop line says it
    assert main(shlex.split(command)[1:]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out == "game 1 (seed 8, plus): 1501 events match\n"


def test_a_players_unfinished_save_is_played_on_with_the_keys(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game a player chose in, on the simulated wall: the keys on the terminal, and the
    rules it began with for the run's next game, as play's stop line says (resume_as_played)."""
    save = tmp_path / "game.json"
    unfinished_game(save)
    game = json.loads(save.read_text(encoding="utf-8"))
    game.update(player_chose=True, preset="ez")
    save.write_text(json.dumps(game), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {save} {SAVE}: `companion play --mode game --resume --input sim "
        f"--preset ez --choices keyboard --display terminal --state {save}` plays it on, and "
        f"{TAKES}")


def test_a_finished_save_is_said_to_be_over_with_no_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`play --resume` of a game over starts a new game over the file: it was offered as
    playing the game on (reviewb74 D3)."""
    save = tmp_path / "game.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {save} {SAVE}: its game is over, with nothing to play on "
        f"(`companion history` lists the games played to their end), and {TAKES}")


def test_the_history_is_named_by_replay_and_by_play_state(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--seed", "3", "--state", str(tmp_path / "s.json")]) == 0
    history = default_history_path()
    before = history.read_bytes()
    capsys.readouterr()
    what = "an SQLite database, as the history is (`companion history` lists it)"
    assert main(["replay", str(history)]) == 2
    assert capsys.readouterr().err == f"companion: error: {history} is {what}, not a log: {TAKES}"
    assert main(["play", "--headless", "--state", str(history)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {history} is {what}, not a save, so it was left as it is: give "
        "--state a new file, or a save companion play wrote\n")
    assert history.read_bytes() == before


def test_a_fight_file_and_the_dice_trays_file_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fight, tray = tmp_path / "fight.json", tmp_path / "tray.json"
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc", "--file",
                 str(fight)]) == 0
    tray.write_text(json.dumps({"version": 1, "table": {"rolls": []}}), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(fight)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {fight} is a genso fight file (`companion genso fight new` wrote "
        f"it: --fight takes it), not a log: {TAKES}")
    assert main(["replay", str(tray)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {tray} is the dice tray's file (dice/tray.json: the table it "
        f"part-threw), not a log: {TAKES}")


@pytest.mark.parametrize(("text", "said"), [
    (b"shopping: eggs\n", "not a JSON line"),
    (b"\xff\xfe notes\n", "not UTF-8 text"),
])
def test_a_file_none_of_them_is_refused_in_plain_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: bytes, said: str) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(text)
    assert main(["replay", str(notes)]) == 2
    assert capsys.readouterr().err == f"companion: error: {notes}:1: {said}, so no log: {TAKES}"


def test_a_log_refused_for_its_own_header_is_not_called_a_log_that_is_no_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["play", "--headless", "--seed", "3", "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["seed"] = "three"
    log.write_text(json.dumps(header, sort_keys=True) + "\n" + "".join(lines[1:]),
                   encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: error: {log}:1: the game's seed must be a "
                                       "whole number, found 'three'\n")


def test_an_unfinished_copy_of_a_game_played_to_its_end_since_gets_no_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 DEFECT 1: a copy kept of an unfinished logged save, whose game then
    played to its end from the save itself, was named with `play --resume --headless --state
    COPY --log LOG`: followed, play found the game over in the history and started a new
    random game, logged in the old game's log. It is said to be over, with no command."""
    save, copy, log = tmp_path / "s.json", tmp_path / "s.bak.json", tmp_path / "a.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(save), "--log",
                     str(log)]) == 130
    copy.write_bytes(save.read_bytes())
    assert main(["play", "--headless", "--resume", "--state", str(save), "--log",
                 str(log)]) == 0
    capsys.readouterr()
    before = log.read_bytes()
    assert main(["replay", str(copy)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {copy} {SAVE}: its game is over and in the history (`companion "
        "history` lists it): this save was behind its end, with nothing to play on, and "
        f"{TAKES}")
    # What the old line said, followed: a new game in this log. Nothing is offered now.
    assert main(["play", "--resume", "--headless", "--state", str(copy), "--log",
                 str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert log.read_bytes().startswith(before)


def test_a_relative_saves_command_works_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 RISK 2: `replay w/s.json` said `--state w/s.json` (as given) beside
    the game's absolute --log; run from another folder it started a new game in that log.
    --state is said absolute; followed from another folder, the game plays on in its log."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", "w/s.json", "--log",
                     "w/l.jsonl"]) == 130
    capsys.readouterr()
    assert main(["replay", "w/s.json"]) == 2
    command = capsys.readouterr().err.split("`")[3]  # after "(`companion play` wrote it"
    assert command == (f"companion play --resume --headless --state {tmp_path}/w/s.json "
                       f"--log {tmp_path}/w/l.jsonl")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main(shlex.split(command)[1:]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "w" / "l.jsonl")]) == 0
    assert capsys.readouterr().out == "game 1 (seed 8, plus): 1501 events match\n"
