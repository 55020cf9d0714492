"""The SQLite history of finished games and `companion history`."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.history import TABLE_RUNS
from companion.app.history import History, HistoryError, default_history_path
from tests.app.history_run_helpers import _damage_a_table_page, make_run
from tests.disk import without_root_override
from tests.scripts import load_script


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


def test_runs_are_listed_in_the_order_they_were_recorded(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Pi without a clock battery starts after a power cut at the time it last saved
    (fake-hwclock), up to an hour back: the game resumed then is stamped before those
    finished just before the cut, and was listed before them (and left out of --last 1)."""
    history = History()
    for game_id, minute in (("before-1", 40), ("before-2", 55), ("resumed", 10)):
        history.record(replace(make_run(game_id, False, 3, "frozen"),
                               finished_at=f"2026-11-29T17:{minute}:00Z"))
    assert [r.game_id for r in history.runs()] == ["before-1", "before-2", "resumed"]
    assert main(["history", "--json", "--last", "1"]) == 0
    assert [r["game_id"] for r in json.loads(capsys.readouterr().out)["runs"]] == ["resumed"]


def test_history_json(capsys: pytest.CaptureFixture[str]) -> None:
    History().record(make_run("x", False, 5, "オーク orc"))
    assert main(["history", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"] == {"games": 1, "wins": 0, "deepest_floor": 5,
                              "deaths_by": {"オーク orc": 1}, "ended_by": {}}
    assert data["runs"][0]["game_id"] == "x"


def test_history_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    History().record(make_run("x", True, 26, None))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "1 game, 1 won (100.0%), deepest floor 26" in out  # not "1 games"


def test_corrupt_history_is_kept_aside(capsys: pytest.CaptureFixture[str]) -> None:
    path = default_history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not sqlite" * 100)
    assert main(["history"]) == 0
    assert "not a readable history" in capsys.readouterr().err
    assert list(path.parent.glob("history.sqlite3.corrupt-*"))


def test_another_tables_file_is_kept_aside_as_not_a_history() -> None:
    path = default_history_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE runs (name TEXT)")
    history = History()
    assert history.record(make_run("a", True, 26, None))
    assert "its runs table is not a history's" in history.notices[0]
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    with sqlite3.connect(kept) as other:
        assert [r[1] for r in other.execute("PRAGMA table_info(runs)")] == ["name"]


def test_a_history_damaged_past_its_first_page_keeps_the_runs_it_can_read(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One bad page past the schema: the file opened, so it was never kept aside, and every
    `companion history` after exited 1 (database disk image is malformed) for good. It is
    kept aside now, and the runs on its other pages go on in a new history, in order."""
    path = default_history_path()
    load_script("bench_startup")._fill_history(path, 300)
    _damage_a_table_page(path, 1)
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    listed = [r["game_id"] for r in json.loads(out)["runs"]]
    assert 0 < len(listed) < 300
    assert listed == [f"bench-{n}" for n in range(300) if f"bench-{n}" in listed]
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert err == (f"companion: {path} was not a readable history (database disk image is "
                   f"malformed); kept as {kept.name}, starting a new one with the "
                   f"{len(listed)} games that could be read from it ({300 - len(listed)} "
                   "more could not be)\n")
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [r["game_id"] for r in json.loads(out)["runs"]] == listed and err == ""


def test_games_after_a_damaged_history_go_in_a_new_one_not_aside(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A history whose only page of runs is damaged: each game's end said it "could not be
    put in the history … malformed", and the next game kept it aside as `.unrecorded-…`,
    one file more for every game. The damaged file is kept aside once, and the games go
    in a new history."""
    for game_id in ("a", "bb", "ccc", "dddd"):
        History().record(make_run(game_id, False, 3, "frozen"))
    _damage_a_table_page(default_history_path(), 0)
    save = default_history_path().parent / "save.json"
    for seed in ("5", "6"):
        assert main(["play", "--headless", "--seed", seed, "--state", str(save)]) == 0
    err = capsys.readouterr().err
    assert "could not be put in the history" not in err
    assert err.count("was not a readable history (database disk image is malformed)") == 1
    assert not list(save.parent.glob("save.json.unrecorded-*"))
    assert len(list(save.parent.glob("history.sqlite3.corrupt-*"))) == 1
    assert [r.seed for r in History().runs()] == [5, 6]


def test_a_busy_history_is_an_error_and_kept_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """Another companion writing it (locked) was taken for a corrupt file: moved aside, and
    every past game seemed gone."""
    History().record(make_run("a", True, 26, None))
    path = default_history_path()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryError, match="busy: another companion is writing it"):
            History().runs()  # after SQLite's 5 s wait
    finally:
        holder.close()
    assert not list(path.parent.glob("history.sqlite3.*"))
    assert [r.game_id for r in History().runs()] == ["a"]


def test_a_finished_game_the_history_cannot_take_is_told_and_kept(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A history that cannot be used (here a folder in its place; a full disk alike) must not
    stop the game's end, nor the next game, nor lose the finished game."""
    default_history_path().mkdir(parents=True)
    save = default_history_path().parent / "save.json"
    assert main(["play", "--headless", "--seed", "2", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    assert "could not be put in the history" in err and "a folder, not a history file" in err
    assert f"the game is kept in {save}" in err
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    (kept,) = save.parent.glob("save.json.unrecorded-*")
    assert json.loads(kept.read_text())["seed"] == 2
    # It may be in the history already (the history could not be asked): said, with the way
    # in that records it once.
    assert (f"the finished game is kept as {kept}; it may be in the history already: "
            f"`companion play --resume --headless --state {kept}` puts it there, once" in err)
    assert main(["history"]) == 1
    assert "a folder, not a history file" in capsys.readouterr().err


def test_a_hand_edited_row_is_left_out_and_named_not_the_whole_history(
        capsys: pytest.CaptureFixture[str]) -> None:
    """One row with a floor of 'abc' (a hand edit) made `companion history` and `--json`
    exit 1 naming it: no other game, and no totals, could be listed any more. The others
    are listed and counted now; the row is named on stderr, and in the JSON's skipped."""
    History().record(make_run("a", True, 26, None))
    History().record(make_run("bb", False, 3, "frozen"))
    History().record(make_run("ccc", False, 5, "frozen"))
    with sqlite3.connect(default_history_path()) as conn:
        conn.execute("UPDATE runs SET floor = 'abc' WHERE game_id = 'a'")
    named = (f"companion: {default_history_path()}: the run 'a' has floor = 'abc', which a "
             "finished game cannot have (damaged, or edited by hand); it is left out of the "
             "list and the totals\n")
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    assert err == named
    assert "2 games, 0 won (0.0%), deepest floor 5" in out
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == named
    assert [r["game_id"] for r in data["runs"]] == ["bb", "ccc"]
    assert data["totals"]["games"] == 2
    assert data["skipped"] == [{"game_id": "a", "reason": "floor = 'abc', which a finished "
                                "game cannot have (damaged, or edited by hand)"}]


@pytest.mark.parametrize("last", ["0", "-1", "two"])
def test_last_must_be_one_or_more(last: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--last 0` and `--last -1` listed every game; like `simulate --games` they are refused."""
    with pytest.raises(SystemExit) as exc:
        main(["history", "--last", last])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--last" in err
    if last != "two":
        assert "not a whole number of 1 or more" in err


def test_last_lists_the_last_runs(capsys: pytest.CaptureFixture[str]) -> None:
    for game_id in ("a", "bb", "ccc"):
        History().record(make_run(game_id, False, len(game_id), "frozen"))
    assert main(["history", "--json", "--last", "2"]) == 0
    assert [r["game_id"] for r in json.loads(capsys.readouterr().out)["runs"]] == ["bb", "ccc"]
    assert main(["history", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["runs"]) == 3


def test_the_table_lists_the_last_games_and_totals_them_all(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A table of every game scrolled the recent ones away (10,000 took 11 to 16 s to draw):
    it lists the last TABLE_RUNS unless told --all or --last; JSON lists every run."""
    for n in range(TABLE_RUNS + 5):
        History().record(replace(make_run(f"g{n:02}", n == 0, n, "frozen"),
                                 seed=1000 + n))
    seeds = [str(1000 + n) for n in range(TABLE_RUNS + 5)]

    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert [s for s in seeds if s in out] == seeds[5:]
    assert f"The last {TABLE_RUNS} of {TABLE_RUNS + 5} games" in out
    assert f"{TABLE_RUNS + 5} games, 1 won (4.0%), deepest floor {TABLE_RUNS + 4}" in out

    assert main(["history", "--all"]) == 0
    out = capsys.readouterr().out
    assert [s for s in seeds if s in out] == seeds and "The last" not in out
    assert main(["history", "--last", "2"]) == 0
    out = capsys.readouterr().out
    assert [s for s in seeds if s in out] == seeds[-2:]
    assert main(["history", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["runs"]) == TABLE_RUNS + 5


def test_the_startup_bench_fills_a_history_the_companion_reads(tmp_path: Path) -> None:
    """scripts/bench_startup.py --history-games: its games are a history's own runs."""
    path = tmp_path / "history.sqlite3"
    load_script("bench_startup")._fill_history(path, 250)
    totals = History(path).totals()
    assert (totals.games, totals.wins, totals.deepest_floor) == (250, 3, 26)


def test_thousands_of_games_are_counted_in_groups_of_three(
        capsys: pytest.CaptureFixture[str]) -> None:
    load_script("bench_startup")._fill_history(default_history_path(), 1200)
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "The last 20 of 1,200 games" in out
    assert "1,200 games, 12 won (1.0%), deepest floor 26" in out
    assert "Causes of death: 大こうもり bat 1,188" in out


def test_last_and_all_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["history", "--all", "--last", "3"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_history_this_user_may_not_read_says_so(tmp_path: Path) -> None:
    """A history file of mode 000 (or another user's): SQLite says "cannot open" as for a
    missing folder; the error says it is the file's permission."""
    History().record(make_run("a", True, 26, None))
    default_history_path().chmod(0o000)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(default_history_path().parent)}
    try:
        done = subprocess.run([*without_root_override(), sys.executable, "-m", "companion",
                               "history"], env=env, capture_output=True, text=True, timeout=60)
    finally:
        default_history_path().chmod(0o644)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"companion: error: {default_history_path()}: cannot be read: no "
                           "permission (check the file's owner and mode)\n")


@pytest.mark.parametrize(("field", "value", "said"), [
    ("gold", 2**63, f"the game's gold ({2**63}) is a number beyond what the history can hold"),
    ("floor", -(2**63) - 1, "the game's floor (-9223372036854775809) is a number beyond"),
    ("cause", "\ud800", "the game's cause ('\\ud800') is text the history cannot hold"),
])
def test_a_value_sqlite_cannot_store_is_a_history_error_naming_it(
        field: str, value: object, said: str) -> None:
    """sqlite3 raised OverflowError (or UnicodeEncodeError) binding it: a traceback where
    the callers take a HistoryError, keep the game in its save and play on (fuzz audit 2)."""
    history = History()
    history.record(make_run("a", True, 26, None))
    with pytest.raises(HistoryError) as refused:
        history.record(replace(make_run("bb", False, 3, "frozen"), **{field: value}))
    assert str(refused.value).startswith(f"{history.path}: {said}")
    assert [r.game_id for r in history.runs()] == ["a"]
