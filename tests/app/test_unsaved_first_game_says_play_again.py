"""setup71 DEFECT 2: a first game whose every save the disk refused (a data folder that
cannot be written) ends by saying the command that plays it again, not a ``--resume`` that
finds no save and starts another game (on a laptop, with config.toml's camera)."""

from __future__ import annotations

import argparse
import shlex

import pytest

from companion.app.cli import main
from companion.app.commands.play.session import behind_save
from companion.app.history import History, default_history_path
from companion.app.session.save import SaveGame, default_save_path
from tests.disk import refuse_writes

SEED = 2


def test_an_auto_game_nothing_of_which_was_saved_names_the_seed_that_plays_it_again(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every write of the save refused, the history too: the end names the --seed command,
    and that command, once there is room, plays the same game into the history."""
    save = default_save_path()
    default_history_path().parent.mkdir(parents=True, exist_ok=True)
    default_history_path().mkdir()  # the history cannot be written either
    with monkeypatch.context() as patch:
        refuse_writes(save, patch)  # every one
        assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                     "--seed", str(SEED), "--strategy", "reckless"]) == 0
    assert not save.exists()
    err = capsys.readouterr().err
    command = ("companion play --input sim --choices auto --display none --seed 2 "
               "--preset plus --strategy reckless")
    assert err.splitlines()[-1] == (
        "companion: nothing of this game was kept (the disk refused every save): free space "
        f"or fix the folder, then `{command}` plays the same game again to its end and puts "
        "it in the history")
    assert "--resume" not in err

    default_history_path().rmdir()  # room again
    reference = default_save_path().parent / "reference.json"
    assert main(["play", "--headless", "--seed", str(SEED), "--strategy", "reckless",
                 "--state", str(reference)]) == 0
    whole = SaveGame.from_json(reference.read_text(encoding="utf-8"))
    assert main(shlex.split(command)[1:]) == 0
    again = SaveGame.from_json(save.read_text(encoding="utf-8"))
    assert again.finished and (again.inputs, again.events) == (whole.inputs, whole.events)
    assert [run.seed for run in History().runs()] == [SEED, SEED]  # the reference's, its own
    assert again.game_id in {run.game_id for run in History().runs()}


def test_a_headless_runs_game_is_said_with_its_mode_and_state(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``--headless --state`` fixed the mode (config.toml may name a table's), and saves
    where --state says: the command says both."""
    state = default_save_path().parent / "mine.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    default_history_path().mkdir()
    with monkeypatch.context() as patch:
        refuse_writes(state, patch)
        assert main(["play", "--headless", "--seed", str(SEED), "--state", str(state)]) == 0
    err = capsys.readouterr().err.splitlines()[-1]
    assert (f"`companion play --mode game --input sim --choices auto --display none --seed 2 "
            f"--preset plus --strategy cautious --state {shlex.quote(str(state))}` plays the "
            "same game again") in err


def test_a_players_own_game_nothing_of_which_was_saved_is_said_not_kept() -> None:
    """The player's choices were nowhere kept: no command can play it again."""
    args = argparse.Namespace(mode=None, headless=False, choices="keyboard",
                              display="terminal", state=None, log=None)
    said = behind_save(SaveGame(seed=1, preset="plus", player_chose=True), 0, args,
                       on_disk=False)
    assert said == ("nothing of this game was kept (the disk refused every save), and it "
                    "cannot be played again: free space or fix the folder before the next "
                    "game")
