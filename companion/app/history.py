"""Finished games, kept in SQLite in the user data folder.

A run is recorded once: its ``game_id`` (from the save) is the primary key, so
a game whose recording was interrupted by a power cut and recorded again on
resume still appears once.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.app.paths import data_dir
from companion.files import move_aside

HISTORY_NAME = "history.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
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


@dataclass(frozen=True, slots=True)
class Run:
    """One finished game. ``cause`` is what ended a lost game (a monster's name, "frozen")."""

    game_id: str
    finished_at: str  # ISO 8601, UTC
    seed: int | None
    preset: str
    won: bool
    floor: int
    level: int
    gold: int
    cause: str | None
    events: int
    input_kind: str


@dataclass(frozen=True, slots=True)
class Totals:
    games: int
    wins: int
    deepest_floor: int
    deaths_by: dict[str, int]


def default_history_path() -> Path:
    return data_dir() / HISTORY_NAME


class History:
    """The run table. Open it for each use; SQLite handles the locking."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_history_path()
        self.notices: list[str] = []

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path)
        try:
            try:
                conn.execute(_SCHEMA)
            except sqlite3.DatabaseError as exc:
                # Not a database (a half-copied file, a disk error): keep it, start afresh.
                conn.close()
                kept = move_aside(self.path)
                self.notices.append(
                    f"{self.path} was not a readable history ({exc}); kept as {kept.name}, "
                    "starting a new one"
                )
                conn = sqlite3.connect(self.path)
                conn.execute(_SCHEMA)
            with conn:
                yield conn
        finally:
            conn.close()

    def record(self, run: Run) -> bool:
        """Store ``run``; False when a run with that id was already there."""
        fields = asdict(run)
        names = ", ".join(fields)
        marks = ", ".join(f":{k}" for k in fields)
        with self._connect() as conn:
            cursor = conn.execute(f"INSERT OR IGNORE INTO runs ({names}) VALUES ({marks})", fields)
            return cursor.rowcount == 1

    def runs(self) -> list[Run]:
        """Every run, oldest first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT * FROM runs ORDER BY finished_at, rowid"
            ).fetchall()
        return [_run_from_row(row) for row in rows]

    def totals(self) -> Totals:
        runs = self.runs()
        return Totals(
            games=len(runs),
            wins=sum(r.won for r in runs),
            deepest_floor=max((r.floor for r in runs), default=0),
            deaths_by=dict(Counter(r.cause or "unknown" for r in runs if not r.won).most_common()),
        )


def _run_from_row(row: tuple[object, ...]) -> Run:
    values = dict(zip(Run.__dataclass_fields__, row, strict=True))
    values["won"] = bool(values["won"])
    return Run(**values)  # type: ignore[arg-type]
