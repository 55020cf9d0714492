"""A history edited by hand to hold text that is no UTF-8 (carried61). `companion history`
stopped, exit 1, with "Could not decode to UTF-8 column 'said'": 'said' was the name the
causes-of-death query gave its column, no field the player knows, and no game could be
listed any more. Such a row is now left out and named by its field, as any hand edit is
(``test_history.test_a_hand_edited_row_is_left_out_and_named_not_the_whole_history``)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.app.cli import main
from companion.app.history import History, default_history_path
from tests.app.history_run_helpers import make_run


def edit(sql: str) -> None:
    with sqlite3.connect(default_history_path()) as conn:
        conn.execute(sql)


def left_out(game_id: str, reason: str) -> str:
    return (f"companion: {default_history_path()}: the run {game_id!r} has {reason}, which "
            "a finished game cannot have (damaged, or edited by hand); it is left out of the "
            "list and the totals\n")


@pytest.fixture
def three_games() -> None:
    History().record(make_run("a", False, 3, "大蛇 snake"))
    History().record(make_run("bb", False, 5, "frozen"))
    History().record(make_run("ccc", True, 26, None))


@pytest.mark.usefixtures("three_games")
def test_a_cause_that_is_no_utf8_is_named_as_the_cause(
        capsys: pytest.CaptureFixture[str]) -> None:
    edit("UPDATE runs SET cause = CAST(x'6f7263ff' AS TEXT) WHERE game_id = 'bb'")
    named = left_out("bb", r"cause = b'orc\xff'")
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    assert err == named and "said" not in err
    assert "2 games, 1 won (50.0%), deepest floor 26" in out
    assert "Causes of death: 大蛇 snake 1" in out
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == named
    assert [r["game_id"] for r in data["runs"]] == ["a", "ccc"]
    assert data["totals"]["deaths_by"] == {"大蛇 snake": 1}
    assert data["skipped"] == [{"game_id": "bb", "reason": r"cause = b'orc\xff', which a "
                                "finished game cannot have (damaged, or edited by hand)"}]


@pytest.mark.usefixtures("three_games")
def test_any_text_field_that_is_no_utf8_is_named_by_its_field(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The preset of a won game (never read by the causes) and a lost game's cause: both
    are named, and the totals leave both out."""
    edit("UPDATE runs SET preset = CAST(x'706cff' AS TEXT) WHERE game_id = 'ccc'")
    edit("UPDATE runs SET cause = CAST(x'ff' AS TEXT) WHERE game_id = 'a'")
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    assert err == left_out("a", r"cause = b'\xff'") + left_out("ccc", r"preset = b'pl\xff'")
    assert "1 game, 0 won (0.0%), deepest floor 5" in out
    assert "Causes of death: frozen 1" in out


@pytest.mark.usefixtures("three_games")
def test_a_blank_and_an_unknown_cause_are_still_one(capsys: pytest.CaptureFixture[str]) -> None:
    """The causes' column is named cause now: grouped by that name, SQLite took the table's
    column, and '' and NULL were two 'unknown' rows where the totals keep one."""
    edit("UPDATE runs SET cause = '' WHERE game_id = 'a'")
    History().record(make_run("dddd", False, 2, None))
    assert main(["history", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["deaths_by"] == {
        "unknown": 2, "frozen": 1}
