"""A history a newer companion added a column to is still a history (hist68 RISK 1): it
was kept aside as ``.corrupt-…`` and a new, empty one begun, so `companion history` showed
none of its games. Its runs are read and recorded by the columns this companion knows; one
whose newer column this companion cannot fill is left as it is, said to be newer."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import astuple
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import (
    _SCHEMA,
    History,
    HistoryError,
    _readable_rows,
    default_history_path,
)
from companion.app.session.save import NewerSave
from tests.app.history_rules_helpers import BEFORE_RULES
from tests.app.history_run_helpers import make_run


def three_runs_and_a_newer_column(path: Path, column: str = "mood TEXT") -> list[str]:
    """Three runs recorded, then a column added as a newer companion would add one."""
    history = History(path)
    ids = ["a", "bb", "ccc"]
    for game_id in ids:
        assert history.record(make_run(game_id, game_id == "bb", len(game_id), None))
    with sqlite3.connect(path) as conn:
        conn.execute(f"ALTER TABLE runs ADD COLUMN {column}")
        conn.execute("UPDATE runs SET mood = 'calm' WHERE game_id = 'a'")
    conn.close()
    return ids


def kept_aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.*"))


def test_a_history_with_a_newer_column_lists_its_runs_and_keeps_nothing_aside(
        tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    ids = three_runs_and_a_newer_column(path)
    history = History(path)
    listing = history.listing(None)
    assert [run.game_id for run in listing.runs] == ids
    assert listing.runs[0] == make_run("a", False, 1, None)
    assert (listing.totals.games, listing.totals.wins) == (3, 1)
    assert history.notices == [] and kept_aside(path) == []


def test_a_game_is_recorded_into_a_history_with_a_newer_column(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    three_runs_and_a_newer_column(path)
    assert History(path).record(make_run("dddd", False, 7, "frozen"))
    assert History(path).holds("dddd")
    with sqlite3.connect(path) as conn:
        # the newer column kept what it held, the new run its default
        assert conn.execute("SELECT game_id, mood FROM runs ORDER BY rowid").fetchall() == [
            ("a", "calm"), ("bb", None), ("ccc", None), ("dddd", None)]
    conn.close()
    assert kept_aside(path) == []


def test_companion_history_lists_the_games_of_a_history_with_a_newer_column(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = default_history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    ids = three_runs_and_a_newer_column(path)
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [run["game_id"] for run in json.loads(out)["runs"]] == ids
    assert "mood" not in json.loads(out)["runs"][0]
    assert (err, kept_aside(path)) == ("", [])


def test_a_history_from_before_the_rules_column_with_a_newer_one_gets_the_rules_column(
        tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(BEFORE_RULES.replace("input_kind  TEXT NOT NULL",
                                          "input_kind  TEXT NOT NULL, mood TEXT"))
        conn.execute("INSERT INTO runs VALUES ('old', '2026-11-29T17:00:00+00:00', 1, 'plus',"
                     " 0, 3, 2, 40, 'frozen', 99, 'sim', 'calm')")
    conn.close()
    history = History(path)
    assert [(run.game_id, run.rules) for run in history.runs()] == [("old", None)]
    assert history.record(make_run("new", True, 9, None))
    assert [run.game_id for run in History(path).runs()] == ["old", "new"]
    assert kept_aside(path) == []


def test_a_newer_column_this_companion_cannot_fill_leaves_the_history_as_it_is(
        tmp_path: Path) -> None:
    """NOT NULL without a default: OR IGNORE skipped the run and record said "already
    there" (False), so the game would be taken for recorded. It says newer and how to
    update, and the runs are still listed."""
    path = tmp_path / "history.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(_SCHEMA.replace("rules       INTEGER",
                                     "rules       INTEGER, mood TEXT NOT NULL"))
        conn.execute("INSERT INTO runs VALUES ('a', '2026-11-29T17:00:00Z', 7, 'plus', 0, 1,"
                     " 3, 120, NULL, 88, 'sim', NULL, 'calm')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(HistoryError) as raised:
        History(path).record(make_run("bb", False, 2, None))
    assert str(raised.value) == (
        f"{path}: a history from a newer companion (its runs have a column mood this one "
        f"does not know, and cannot fill): {NewerSave.UPDATE}; the games in it are unharmed")
    assert path.read_bytes() == before and kept_aside(path) == []
    assert [run.game_id for run in History(path).runs()] == ["a"]


def test_a_table_without_a_history_s_columns_is_still_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE runs (game_id TEXT, said TEXT)")
    conn.close()
    history = History(path)
    assert history.runs() == []
    (kept,) = kept_aside(path)
    assert kept.name.startswith("history.sqlite3.corrupt-")
    assert "its runs table is not a history's" in history.notices[0]


def test_the_readable_runs_of_a_kept_history_with_a_newer_column_are_read_by_name(
        tmp_path: Path) -> None:
    """A damaged history is kept aside and its runs copied: by the columns this companion
    knows, not by ``SELECT *`` (a newer column was read as a run's, or no run at all)."""
    path = tmp_path / "history.sqlite3"
    three_runs_and_a_newer_column(path)
    rows, lost, listed_all = _readable_rows(path)
    assert (lost, listed_all) == (0, True)
    assert rows == [astuple(make_run(game_id, game_id == "bb", len(game_id), None))
                    for game_id in ("a", "bb", "ccc")]
