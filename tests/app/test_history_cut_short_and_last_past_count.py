"""A history cut short, and `history --last` past any count (audit hist63 F1, F3)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, default_history_path
from tests.app.history_run_helpers import make_run
from tests.scripts import load_script

INDEX_LEAF = 0x0A  # the first byte of a page holding an index's keys (SQLite's file format)


def test_a_history_cut_short_keeps_every_run_on_its_whole_pages(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A history copied short or cut by a crash as it grew, its last page (the game_id
    index) gone: SQLite's schema check refused the whole file, so a new history began with
    none of its games, and the notice read as if it had held none. Its rows are whole."""
    ids = [f"g{n}" for n in range(17)]
    for game_id in ids:
        History().record(make_run(game_id, False, 3, "frozen"))
    path = default_history_path()
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    assert data[-size] == INDEX_LEAF  # the page cut off is the index's, not the rows'
    path.write_bytes(data[:-size])

    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [r["game_id"] for r in json.loads(out)["runs"]] == ids
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert err == (f"companion: {path} was not a readable history (database disk image is "
                   f"malformed); kept as {kept.name}, starting a new one with the 17 games "
                   "that could be read from it\n")


def test_a_history_none_of_whose_games_can_be_read_does_not_read_as_empty() -> None:
    """Not even its table could be read: the notice said only "starting a new one", as if
    the old history held no games. It says none could be read, and where they are kept."""
    path = default_history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not sqlite" * 100)
    none_read_and_kept(path)


def test_a_history_cut_to_its_first_page_says_none_of_its_games_could_be_read() -> None:
    """A history cut to its first page (a copy stopped early): the schema still names the
    runs table, so its columns read, but every page of rows is gone and each listing of
    them failed; the notice said only "starting a new one", as if it had held no games
    (review63b D1). It says none of them could be read, and where they are kept."""
    for game_id in [f"g{n}" for n in range(17)]:
        History().record(make_run(game_id, False, 3, "frozen"))
    path = default_history_path()
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    assert len(data) > size  # the runs were on the pages cut off
    path.write_bytes(data[:size])
    kept = none_read_and_kept(path)
    assert kept.read_bytes() == data[:size]  # kept as it was, only read


def test_the_kept_history_is_only_read_and_leaves_nothing_beside_it() -> None:
    """The kept copy is opened read-only (review63b N-e): its bytes stay as they were, and a
    file whose header says WAL (a hand's `PRAGMA journal_mode=WAL`) gets no `-wal` or `-shm`
    beside it, which a read-only connection would leave there for good."""
    ids = [f"g{n}" for n in range(17)]
    for game_id in ids:
        History().record(make_run(game_id, False, 3, "frozen"))
    path = default_history_path()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    data = path.read_bytes()
    assert data[18:20] == b"\x02\x02"  # WAL, as the file says
    size = int.from_bytes(data[16:18], "big")
    assert data[-size] == INDEX_LEAF
    path.write_bytes(data[:-size])
    assert [run.game_id for run in History().runs()] == ids
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert kept.read_bytes() == data[:-size]
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, kept.name])


TABLE_LEAF = 0x0D  # the first byte of a page holding a table's rows


@pytest.mark.parametrize(("cut", "said"), [
    ("after its first page of rows", r"with the (\d+) games that could be read from it "
                                     r"\(any more it held could not be\)"),
    ("at its middle", r"with the (\d+) games that could be read from it "
                      r"\(at least (\d+) more could not be\)"),
])
def test_a_history_whose_every_listing_is_cut_short_says_its_count_is_a_lower_bound(
        cut: str, said: str) -> None:
    """A history of 2000 games cut short, both the table and its index losing pages: the
    notice said "(582 more could not be)" where 1037 were lost, or nothing where all 1951
    were, as if that count were whole (review63b N-a). Only the rows some listing reached
    are counted, so it says that count is a lower bound."""
    path = default_history_path()
    path.parent.mkdir(parents=True)
    load_script("bench_startup")._fill_history(path, 2000)
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    pages = len(data) // size
    if cut == "at its middle":
        keep = pages // 2
    else:
        keep = next(n for n in range(pages) if data[n * size] == TABLE_LEAF) + 1
    path.write_bytes(data[:keep * size])
    history = History()
    runs = history.runs()
    [notice] = history.notices
    found = re.search(said + "$", notice)
    assert found, notice
    read, *lost = (int(n) for n in found.groups())
    assert read == len(runs) > 0
    assert read + sum(lost) < 2000  # the count said is indeed below what was lost


def test_last_past_what_sqlite_counts_lists_every_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`history --last 99999999999999999999999` was an OverflowError traceback (SQLite's
    LIMIT is a 64-bit integer): it lists every game, as any --last past the count does."""
    for game_id in ("a", "bb", "ccc"):
        History().record(make_run(game_id, False, 3, "frozen"))
    assert [r.game_id for r in History().listing(2**70).runs] == ["a", "bb", "ccc"]
    assert main(["history", "--json", "--last", str(10**23)]) == 0
    assert [r["game_id"] for r in json.loads(capsys.readouterr().out)["runs"]] == [
        "a", "bb", "ccc"]


def none_read_and_kept(path: Path) -> Path:
    """The history at ``path`` read: no game, and a notice that none could be read, naming
    the copy kept; that copy."""
    history = History()
    assert history.runs() == []
    [notice] = history.notices
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert notice.endswith(f"starting a new one; none of its games could be read (any it "
                           f"held are in {kept.name})")
    return kept
