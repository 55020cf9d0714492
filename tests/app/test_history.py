"""The SQLite history of finished games and `companion history`."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.app.history import History, Run, default_history_path


def make_run(game_id: str, won: bool, floor: int, cause: str | None) -> Run:
    return Run(
        game_id=game_id, finished_at=f"2026-11-29T17:0{len(game_id)}:00Z", seed=7,
        preset="plus", won=won, floor=floor, level=3, gold=120, cause=cause, events=88,
        input_kind="sim",
    )


def test_record_and_totals() -> None:
    history = History()
    assert history.record(make_run("a", False, 4, "大蛇 snake"))
    assert history.record(make_run("bb", False, 9, "大蛇 snake"))
    assert history.record(make_run("ccc", True, 26, None))
    assert history.runs()[0] == make_run("a", False, 4, "大蛇 snake")
    totals = history.totals()
    assert (totals.games, totals.wins, totals.deepest_floor) == (3, 1, 26)
    assert totals.deaths_by == {"大蛇 snake": 2}


def test_a_run_recorded_twice_counts_once() -> None:
    """A resumed game that re-records its end (power cut after the insert) is not doubled."""
    history = History()
    assert history.record(make_run("same", False, 2, "frozen"))
    assert not history.record(make_run("same", False, 2, "frozen"))
    assert history.totals().games == 1


def test_history_json(capsys: pytest.CaptureFixture[str]) -> None:
    History().record(make_run("x", False, 5, "オーク orc"))
    assert main(["history", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"] == {"games": 1, "wins": 0, "deepest_floor": 5,
                              "deaths_by": {"オーク orc": 1}}
    assert data["runs"][0]["game_id"] == "x"


def test_history_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    History().record(make_run("x", True, 26, None))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "1 games, 1 won (100.0%), deepest floor 26" in out


def test_corrupt_history_is_kept_aside(capsys: pytest.CaptureFixture[str]) -> None:
    path = default_history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not sqlite" * 100)
    assert main(["history"]) == 0
    assert "not a readable history" in capsys.readouterr().err
    assert list(path.parent.glob("history.sqlite3.corrupt-*"))
