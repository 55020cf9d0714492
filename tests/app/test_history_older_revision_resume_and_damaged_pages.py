"""hist65: what the player is told when a game is kept, resumed or lost sight of.

RISK 1, a save of an older rules revision plays on by it, and now says so once (stderr, the
status line); RISK 2, a game that ends while the disk refuses its save and its history says
how far the save holds it and the resume that brings it to the history; RISK 3, a history
page an SD card zeroed (rows of NULLs, no SQLITE_CORRUPT) is kept aside as damaged, and a
row no game can have is said to be damaged or edited by hand; NIT 1, the games lost from a
history cut short are counted by the rows listed, not the distinct rowids; NIT 2, a save of
zero bytes is named as a likely power cut; NIT 3, a save whose events do not add up asks no
question the player cannot answer; NIT 4, a logged game resumed without ``--log`` says so,
and ``replay`` of its log says the game is over.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sqlite3
from pathlib import Path

import pytest

import companion.app.commands.play.session as play_session
from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.history import History, default_history_path
from companion.app.session.host import Session
from companion.app.session.save import SaveGame, default_save_path, write_save
from companion.systems.jongrogue.game import RULES_REVISION
from tests.app.history_damage_helpers import (
    cells_of_the_runs_table,
    older_note,
    three_games,
    three_games_zeroed,
)
from tests.app.play_again_helpers import begun
from tests.app.power_cuts import cut_after_saves
from tests.app.session_helpers import RecordingDisplay
from tests.disk import refuse_writes

SEED = 2


# -- RISK 1 ----------------------------------------------------------------------------------

def test_a_headless_resume_of_an_older_revisions_save_says_once_it_plays_by_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its rules are the ones it began by (a rule added since is never offered in it): said
    once on stderr. A save of today's revision says nothing of it."""
    older = RULES_REVISION - 1
    state = tmp_path / "older.json"
    state.write_text(begun(older).to_json(), encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(state)]) == 0
    err = capsys.readouterr().err
    assert err.count(older_note(older)) == 1
    saved = load_game(state)
    assert saved is not None and saved.finished and saved.rules == older

    today = tmp_path / "today.json"
    today.write_text(begun(RULES_REVISION).to_json(), encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(today)]) == 0
    assert "plays on by rules revision" not in capsys.readouterr().err


def test_an_older_revisions_save_resumed_on_a_screen_says_it_on_the_status_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """On a display (the auto-player's here) the status line says it until the first
    answer, as a table resumed under a newer engine does; stderr once."""
    screen = RecordingDisplay()
    monkeypatch.setattr(play_session, "open_display", lambda *args, **kwargs: screen)
    older = RULES_REVISION - 1
    state = tmp_path / "older.json"
    state.write_text(begun(older).to_json(), encoding="utf-8")
    assert main(["play", "--resume", "--state", str(state), "--input", "sim", "--choices",
                 "auto", "--display", "terminal", "--pace", "0"]) == 0
    assert capsys.readouterr().err.count(older_note(older)) == 1
    statuses = [view.status for view in screen.views if hasattr(view, "status")]
    assert statuses[0] == older_note(older)
    assert statuses.count(older_note(older)) == 1  # until the first answer


# -- RISK 2 ----------------------------------------------------------------------------------

def test_a_game_ended_with_its_save_and_history_refused_names_the_move_and_the_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The save holds the game to move 3 (writes 5 on refused to the end), the history
    cannot be written: the end says so, and the resume it names, once there is room, plays
    the game to the same end and puts it in the history (not only the --seed of a copy)."""
    reference = tmp_path / "reference.json"
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(reference)]) == 0
    whole = load_game(reference)
    assert whole is not None and whole.finished
    save = tmp_path / "save.json"
    default_history_path().unlink()
    default_history_path().mkdir()  # the history cannot be written either
    capsys.readouterr()
    with monkeypatch.context() as patch:
        refuse_writes(save, patch, range(5, 10**9))
        assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    err = capsys.readouterr().err
    saved = load_game(save)
    assert saved is not None and not saved.finished
    moves = len(saved.inputs)
    assert moves == 3
    command = f"companion play --resume --headless --state {shlex.quote(str(save))}"
    assert (f"companion: the save holds this game only up to move {moves} (the disk refused "
            f"the rest): free space or fix the folder, then `{command}` plays it again to its "
            "end and puts it in the history") in err.splitlines()
    default_history_path().rmdir()  # room again
    assert main(shlex.split(command)[1:]) == 0
    again = load_game(save)
    assert again is not None and again.finished and again.game_id == saved.game_id
    assert (again.inputs, again.events) == (whole.inputs, whole.events)
    assert [run.game_id for run in History().runs()] == [saved.game_id]


def test_a_players_own_game_behind_its_save_is_said_to_play_on_from_that_move() -> None:
    """A player's game (or one of the table's tiles) cannot be played again by the
    companion: the moves after the save's are lost, and the resume plays on from it."""
    from companion.app.commands.play.session import behind_save

    args = argparse.Namespace(mode=None, headless=False, choices="keyboard",
                              display="terminal")  # as `play --choices keyboard` parses
    said = behind_save(SaveGame(seed=1, preset="plus", player_chose=True), 12, args)
    assert said == ("the save holds this game only up to move 12 (the disk refused the rest), "
                    "and the moves after it were not kept: free space or fix the folder, then "
                    "`companion play --resume --choices keyboard --display terminal` plays it "
                    "on from move 12, into the history at its end")


# -- RISK 3, NIT 1 ---------------------------------------------------------------------------


def test_a_history_page_zeroed_by_the_card_is_kept_aside_as_damaged(
        capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite reads the zeroed cells as rows of NULLs without an error: quick_check finds
    the damage, and the file is kept aside as one that is not a readable history (not
    blamed on a hand edit and written on); the next game goes into a new one."""
    path = default_history_path()
    three_games_zeroed(path)
    data = path.read_bytes()
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert kept.read_bytes() == data
    assert (f"{path} was not a readable history (damaged: SQLite's quick_check says "
            "On tree page") in err
    assert f"kept as {kept.name}, starting a new one" in err
    assert "edited by hand" not in err
    assert sqlite3.connect(path).execute("PRAGMA quick_check").fetchall() == [("ok",)]


def test_a_history_cut_inside_its_runs_counts_every_game_it_lost(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Cut before its cells (a copy cut short), its 3 rows list as rowid 0 three times:
    they are counted as 3 lost, at least (the listing was damaged), not 1."""
    path = default_history_path()
    three_games(path)
    start, _ = cells_of_the_runs_table(path)
    path.write_bytes(path.read_bytes()[:start])
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    # journey71 NIT 8: said as none of them, not "with the 0 games that could be read"
    assert "starting a new one; none of at least 3 games could be read (they are in " \
           "history.sqlite3.corrupt-" in err


def test_a_row_no_game_can_have_in_a_sound_file_is_said_damaged_or_edited_by_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    """quick_check finds the file sound: the row is left out, the file kept, and the
    notice no longer asks "edited by hand?"."""
    path = default_history_path()
    three_games(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE runs SET floor = 'abc' WHERE game_id = 'game1'")
    conn.close()
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    assert ("the run 'game1' has floor = 'abc', which a finished game cannot have (damaged, "
            "or edited by hand)") in err
    assert not list(path.parent.glob("history.sqlite3.corrupt-*"))


# -- NIT 2, NIT 3 ----------------------------------------------------------------------------

def test_a_save_of_zero_bytes_is_named_as_a_power_cut(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(660))
    assert main(["play", "--headless", "--resume"]) == 0
    err = capsys.readouterr().err
    assert (f"the save could not be read ({path}: not valid JSON (the save is all zero bytes: "
            "a power cut as it was written?)); it was kept as") in err


def test_a_save_whose_events_do_not_add_up_asks_nothing_and_says_what_to_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = begun(RULES_REVISION)
    saved.events += 3
    write_save(path, saved)
    assert main(["play", "--headless", "--resume"]) == 0
    err = capsys.readouterr().err
    assert "did the rules change" not in err
    assert (f"the save expected {saved.events} events, replaying its inputs gave "
            f"{saved.events - 3}: the save was edited, or this companion plays its rules "
            f"revision {RULES_REVISION} differently (a fault: please report it with the kept "
            "save); once the companion is fixed, `companion play --resume --state` with the "
            "kept copy named next plays it on); it was kept as") in err


# -- NIT 4 -----------------------------------------------------------------------------------

def test_a_logged_game_resumed_without_its_log_says_so_and_replay_says_it_is_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.log"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--resume", "--seed", str(SEED), "--log",
                     str(log)]) == 130
    capsys.readouterr()
    assert main(["play", "--headless", "--resume"]) == 0
    err = capsys.readouterr().err
    assert (f"companion: this game's log {log} is not carried on (no --log); `companion play "
            f"--resume --headless --log {log}` carries the game on with its log, written "
            "whole") in err.splitlines()
    saved = load_game(default_save_path())
    assert saved is not None and saved.finished
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "the game played on without this log and is over" in out
    assert "no save in the data folder holds it" not in out
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["game_id"] == saved.game_id
