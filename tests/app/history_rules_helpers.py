"""A history from before the rules column, for the history tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

# The runs table as the history made it before it kept the rules revision.
BEFORE_RULES = """
CREATE TABLE runs (
    game_id     TEXT PRIMARY KEY,
    finished_at TEXT NOT NULL,
    seed        INTEGER,
    preset      TEXT NOT NULL,
    won         INTEGER NOT NULL,
    floor       INTEGER NOT NULL,
    level       INTEGER NOT NULL,
    gold        INTEGER NOT NULL,
    cause       TEXT,
    events      INTEGER NOT NULL,
    input_kind  TEXT NOT NULL
)
"""


def old_history(path: Path, games: int) -> None:
    """A history file as the companion wrote it before the rules column, of ``games`` runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute(BEFORE_RULES)
        conn.executemany("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            (f"old-{n}", "2026-11-29T17:00:00+00:00", n, "plus", 0, 3, 2, 40, "frozen", 99,
             "sim") for n in range(games)])
    conn.close()
