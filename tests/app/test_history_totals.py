"""`companion history` reads only the runs it lists; SQLite sums the totals (pi59 F6).

It read every row of the history into a run to count them and list 20: 2.21 s for 10,000
games on a Pi's slow core. The output is the same, byte for byte: the table, the totals,
the causes of death in their order (the most first, a tie in the order first met), and the
rows left out as no finished game's, named as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, replace
from typing import Any

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.commands.history import print_table
from companion.app.history import History, Run, Totals, default_history_path
from tests.app.history_rules_helpers import BEFORE_RULES
from tests.scripts import load_script

CAUSES = ("大蛇 snake", "オーク orc", "", None, "unknown", "frozen")


def varied(n: int) -> Run:
    """Run ``n`` of a history whose causes tie and repeat, blank and unknown among them."""
    return Run(game_id=f"g{n:03}", finished_at=f"2026-11-{1 + n % 28:02}T17:{n % 60:02}:00Z",
               seed=n * 7, preset="plus" if n % 3 else "basic", won=n % 9 == 0,
               floor=1 + n % 26, level=1 + n % 15, gold=13 * n % 900,
               cause=None if n % 9 == 0 else CAUSES[n % 6], events=88, input_kind="sim",
               rules=None if n % 11 == 0 else 6)


#: Hand edits: rows no finished game can be (left out and named), a won of 2, a floor
#: below 0 and one deeper than any other, and a cause of a number (kept as text).
EDITS = (
    "UPDATE runs SET floor = 'abc' WHERE game_id = 'g005'",
    "UPDATE runs SET seed = 1.5 WHERE game_id = 'g050'",
    "UPDATE runs SET game_id = x'ff00' WHERE game_id = 'g057'",
    "UPDATE runs SET rules = 'x' WHERE game_id = 'g058'",
    "UPDATE runs SET won = 2 WHERE game_id = 'g018'",
    "UPDATE runs SET floor = -3 WHERE game_id = 'g019'",
    "UPDATE runs SET floor = 99 WHERE game_id = 'g056'",
    "UPDATE runs SET cause = 12 WHERE game_id = 'g055'",
)


def edited_history(games: int) -> None:
    history = History()
    history.record(varied(0))
    with sqlite3.connect(history.path) as conn:
        marks = ", ".join(f":{name}" for name in Run.__dataclass_fields__)
        conn.executemany(f"INSERT INTO runs VALUES ({marks})",
                         [asdict(varied(n)) for n in range(1, games)])
        for edit in EDITS:
            conn.execute(edit)
    conn.close()


def old_history_edited() -> None:
    """A history from before the rules column, one of its rows edited by hand."""
    path = default_history_path()
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        conn.execute(BEFORE_RULES)
        for n in range(25):
            row = asdict(varied(n))
            del row["rules"]
            conn.execute(f"INSERT INTO runs VALUES ({', '.join(':' + k for k in row)})", row)
        conn.execute("UPDATE runs SET gold = 'lots' WHERE game_id = 'g010'")
    conn.close()


def every_run_tallied() -> tuple[list[Run], Totals, list[str], list[dict[str, str]]]:
    """What `companion history` listed from: every run read, counted one by one as it did;
    the notices and the rows left out."""
    history = History()
    runs = history.runs()
    totals = Totals(
        games=len(runs), wins=sum(r.won for r in runs),
        deepest_floor=max((r.floor for r in runs), default=0),
        deaths_by=dict(Counter(r.cause or "unknown" for r in runs if not r.won).most_common()))
    return runs, totals, history.notices, [asdict(s) for s in history.skipped]


ARGVS = ([], ["--all"], ["--last", "3"], ["--last", "50"], ["--json"], ["--json", "--last", "2"])


@pytest.mark.parametrize("argv", ARGVS, ids=" ".join)
@pytest.mark.parametrize("history", ["edited", "older", "every row edited"])
def test_the_output_is_that_of_every_run_read_and_counted(
        history: str, argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    if history == "edited":
        edited_history(60)
    elif history == "older":
        old_history_edited()
    else:
        edited_history(3)
        with sqlite3.connect(default_history_path()) as conn:
            conn.execute("UPDATE runs SET level = 'zz'")
        conn.close()
    runs, totals, notices, skipped = every_run_tallied()
    last = 50 if "50" in argv else 3 if "3" in argv else 2 if "2" in argv else None
    if not argv:
        last = 20
    listed = runs if last is None else runs[-last:]
    if "--json" in argv:
        expected = json.dumps({"runs": [asdict(r) for r in listed], "totals": asdict(totals),
                               "skipped": skipped}, ensure_ascii=False, indent=2) + "\n"
    else:
        print_table(Console(), listed, totals, len(skipped))
        expected = capsys.readouterr().out
    assert main(["history", *argv]) == 0
    out, err = capsys.readouterr()
    assert out == expected
    assert err == "".join(f"companion: {notice}\n" for notice in notices)


def test_the_tied_causes_keep_the_order_first_met(capsys: pytest.CaptureFixture[str]) -> None:
    """Counter.most_common's order, which SQLite's GROUP BY alone does not keep."""
    for n, cause in enumerate(("frozen", "大蛇 snake", None, "大蛇 snake", "frozen", "")):
        History().record(replace(varied(n + 1), won=False, cause=cause))
    assert main(["history", "--json"]) == 0
    deaths = json.loads(capsys.readouterr().out)["totals"]["deaths_by"]
    assert list(deaths.items()) == [("frozen", 2), ("大蛇 snake", 2), ("unknown", 2)]


@pytest.fixture
def rows_read(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every row SQLite hands the companion, counted where the database is met."""
    read: list[Any] = []
    connect = sqlite3.connect

    def counting(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.row_factory = lambda cursor, row: read.append(row) or row
        return conn

    monkeypatch.setattr(sqlite3, "connect", counting)
    yield read


def test_the_table_of_thousands_of_games_reads_only_the_runs_it_lists(
        rows_read: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    load_script("bench_startup")._fill_history(default_history_path(), 3000)
    rows_read.clear()
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "The last 20 of 3,000 games" in out
    assert "3,000 games, 30 won (1.0%), deepest floor 26" in out
    assert "Causes of death: 大こうもり bat 2,970" in out
    # the 20 runs, their totals, the causes, and the columns' names (PRAGMA table_info)
    assert len(rows_read) < 60, len(rows_read)
