"""soak62's findings: a save whose replay fails (a fault of the companion's its inputs meet)
is kept aside, not a crash at every start (R2); output refused by the disk is "standard
output", buffered or not (N1); a fight file that is not UTF-8 is told as the save's (N2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.history import History
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.save import SaveGame, default_save_path
from companion.systems.jongrogue.game import Game
from tests.app.failing_replay_helpers import SEED, stopped_after

ROOT = Path(__file__).resolve().parents[2]


def test_a_save_whose_replay_fails_is_kept_aside_and_a_new_game_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """soak62 R2: an exception other than the rules' refusals (a fault in the engine, met
    at the same input of every replay) ended each `play --resume` in a traceback, so the
    boot service started the companion again and again on the same save. The fault is made
    at the replay's fourth input: the rest is the real resume."""
    saved = stopped_after(6, monkeypatch)
    restore, given = JongRogueMode.restore, []

    def faulty(self: JongRogueMode, text: str) -> None:
        given.append(text)
        if len(given) == 4:
            raise IndexError("list index out of range")
        restore(self, text)

    monkeypatch.setattr(JongRogueMode, "restore", faulty)
    assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    path = default_save_path()
    assert (f"the save {path} cannot be resumed (the save does not replay at input 4 "
            f"({saved.inputs[3]!r}): the companion failed on it (IndexError: list index out "
            "of range); unless the save was edited, that is a fault of the companion's: "
            "please report it with the kept save; once the companion is fixed, `companion "
            "play --resume --state` with the kept copy named next plays it on); it was kept "
            "as ") in err
    assert "starting a new game" in err and "resumed from" not in out
    assert "Traceback" in err  # for the report, in the terminal or the journal
    (kept,) = path.parent.glob("save.json.corrupt-*")
    assert SaveGame.from_json(kept.read_text()) == saved
    new = load_game(path)
    assert new is not None and new.finished and new.game_id != saved.game_id
    # The next start (the boot service's) resumes nothing that fails.
    assert main(["play", "--headless", "--resume", "--seed", "8"]) == 0


def test_a_finished_save_whose_replay_fails_is_kept_and_the_next_game_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The same for a finished game the history lacks (cut off before it): replayed for the
    history at each start, its fault stopped each one."""
    path = default_save_path()
    assert main(["play", "--headless", "--state", str(path), "--seed", str(SEED)]) == 0
    History().path.unlink()
    finished = path.read_text()

    def faulty(*args: Any, **kwargs: Any) -> Game:
        raise AttributeError("'NoneType' object has no attribute 'floor'")

    with monkeypatch.context() as patch:
        patch.setattr(Game, "replay", staticmethod(faulty))
        assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    err = capsys.readouterr().err
    assert (f"the finished game in {path} could not be put in the history: the companion "
            "failed on it (AttributeError: 'NoneType' object has no attribute 'floor'); "
            "please report it with the kept game") in err
    assert "the saved game is over; starting a new one" in err
    (kept,) = path.parent.glob("save.json.unrecorded-*")
    assert kept.read_text() == finished
    new = load_game(path)
    assert new is not None and new.finished


@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("args", [["play", "--headless", "--seed", "5"],
                                  ["roll", "2d6", "--seed", "1"]])
def test_output_the_disk_refuses_is_standard_output(user_dirs: Path, args: list[str],
                                                     unbuffered: bool) -> None:
    """soak62 N1: `play --headless` flushes each line, and PYTHONUNBUFFERED (the boot
    service's) writes each at once: the print itself failed, nothing was left to flush
    again, and the error read "a file"."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, env=env, timeout=120)
    assert (done.returncode, done.stderr.decode()) == (
        1, "companion: error: standard output: No space left on device\n")


def test_output_over_the_file_size_limit_is_standard_output(user_dirs: Path) -> None:
    """`ulimit -f`: "File too large", from the first line past the limit."""
    out = user_dirs / "out.txt"
    done = subprocess.run(
        ["bash", "-c", f'ulimit -f 1; exec "{sys.executable}" -m companion play --headless '
                       f'--seed 5 > "{out}"'],
        cwd=ROOT, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        timeout=120)
    assert (done.returncode, done.stderr.decode()) == (
        1, "companion: error: standard output: File too large\n")


def test_a_fight_file_that_is_not_utf8_is_told_as_a_save_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """soak62 N2: the table's start said Python's "'utf-8' codec can't decode byte 0x99 in
    position 0: invalid start byte", where `genso fight show` names the byte."""
    fight = tmp_path / "fight.json"
    fight.write_bytes(b"\x99garbage")
    code = main(["play", "--mode", "genso", "--fight", str(fight), "--dice", "sim",
                 "--display", "screen", "--choices", "keyboard"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"the fight {fight} is not UTF-8 text (byte 1 cannot be read)" in err
    assert "codec" not in err
    assert fight.read_bytes() == b"\x99garbage"
    assert main(["genso", "fight", "show", "--file", str(fight)]) == 2
    assert f"the fight {fight} is not UTF-8 text (byte 1 cannot be read)" in \
        capsys.readouterr().err
