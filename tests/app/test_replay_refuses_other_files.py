"""`companion replay` given one of the companion's other files (hist74 NIT 3): a save, a fight
file, the dice tray's file or the history is named for what it is, as ``play --state`` names
them by their shape, with what replay takes; a file none of them is refused in plain words,
not json's "Expecting value"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import default_history_path

TAKES = "replay takes the file `companion play --log FILE` wrote\n"


def test_a_save_is_named_with_the_command_that_plays_it_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    capsys.readouterr()
    assert main(["replay", str(save)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {save} is a save (`companion play` wrote it: --state takes it), "
        f"not a log: `companion play --resume --state {save}` plays it on, and {TAKES}")


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
