"""journey71 NITs 7 and 8: what `companion history` says when it can list no game.

The edges: the history file, edited by hand (SQLite, as a user would) or damaged on disk
(a page of its runs zeroed, tests.app.test_history)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, default_history_path
from tests.app.history_damage_helpers import cells_of_the_runs_table
from tests.app.history_run_helpers import _damage_a_table_page, make_run


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))


def test_a_history_whose_only_game_is_left_out_says_so_not_no_games_yet(
        capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 7: the only run edited by hand (floor 'abc'): stderr said it is left out, and the
    table said "No finished games yet", as if none had been played."""
    History().record(make_run("a", True, 26, None))
    with sqlite3.connect(default_history_path()) as conn:
        conn.execute("UPDATE runs SET floor = 'abc' WHERE game_id = 'a'")
    capsys.readouterr()
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    assert "it is left out of the list and the totals" in err
    assert out == "No game in the history can be listed (1 left out, said above).\n"


def test_a_history_with_none_left_out_and_no_game_is_no_games_yet(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    assert capsys.readouterr().out.startswith("No finished games yet. Play one with")


@pytest.mark.parametrize(("games", "said"), [
    (1, "starting a new one; its one game could not be read (it is in "),
    (3, "starting a new one; none of its 3 games could be read (they are in "),
])
def test_a_damaged_history_that_lost_every_game_says_none_could_be_read(
        games: int, said: str) -> None:
    """NIT 8: "starting a new one with the 0 games that could be read from it (3 more could
    not be)": said as none of them (docs/playing.md: "it says none could be read")."""
    for n in range(games):
        History().record(make_run("g" * (n + 1), False, 3, "frozen"))
    path = default_history_path()
    _damage_a_table_page(path, 0)
    history = History()
    assert history.runs() == []
    [notice] = history.notices
    assert said + "history.sqlite3.corrupt-" in notice, notice
    assert "0 games" not in notice


@pytest.mark.parametrize("games", [2, 3])
def test_a_history_cut_short_that_lost_every_game_says_none_of_at_least_that_many(
        games: int, capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 8, reviewj71 NIT 4: a history cut before its runs' cells (a card copy cut
    short) lists its rows as far as the cut: how many it lost is a lower bound, said as
    "none of at least N", not "with the 0 games that could be read (at least N more could
    not be)". The edge: the file, cut."""
    path = default_history_path()
    history = History(path)
    for n in range(games):
        assert history.record(make_run("g" * (n + 1), False, 3, "frozen"))
    start, _ = cells_of_the_runs_table(path)
    path.write_bytes(path.read_bytes()[:start])
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert err.endswith(f"starting a new one; none of at least {games} games could be read "
                        f"(they are in {kept.name})\n"), err
    assert "0 games" not in err
    assert out.startswith("No finished games yet"), out
