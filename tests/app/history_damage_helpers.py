"""A history's runs made, zeroed by the card and counted, and the older-revision note, for
the history tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.app.history import History, Run
from companion.systems.jongrogue.game import RULES_REVISION


def older_note(played: int) -> str:
    return (f"this game plays on by rules revision {played}, as it began; a new game plays by "
            f"{RULES_REVISION} この冒険は改訂{played}のまま、新しいゲームは改訂{RULES_REVISION}")


def three_games_zeroed(path: Path) -> None:
    """A history of :func:`three_games` whose runs' cells a card's fault zeroed."""
    three_games(path)
    start, end = cells_of_the_runs_table(path)
    data = bytearray(path.read_bytes())
    data[start:end] = bytes(end - start)
    path.write_bytes(bytes(data))


def a_run(game_id: str) -> Run:
    """A finished game's run for the history, ``game_id``'s."""
    return Run(game_id=game_id, finished_at="2026-12-06T10:00:00+00:00", seed=1,
               preset="plus", won=False, floor=2, level=1, gold=0, cause="orc", events=20,
               input_kind="sim")


def cells_of_the_runs_table(path: Path) -> tuple[int, int]:
    """Where the runs table's cells lie in the file (its root page, a leaf here): from the
    start of its cell content area to the page's end."""
    conn = sqlite3.connect(path)
    try:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'runs'"
                               ).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    page = (root - 1) * size
    data = path.read_bytes()
    assert data[page] == 0x0D  # a table leaf: every run on it
    return page + int.from_bytes(data[page + 5:page + 7], "big"), page + size


def three_games(path: Path) -> None:
    history = History(path)
    for n in range(3):
        assert history.record(Run(
            game_id=f"game{n}", finished_at="2026-12-01T10:00:00+00:00", seed=n,
            preset="plus", won=False, floor=3 + n, level=2, gold=40, cause="orc", events=90,
            input_kind="sim"))
