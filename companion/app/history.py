"""Finished games, kept in SQLite in the user data folder.

A run is recorded once: its ``game_id`` (from the save) is the primary key, so
a game whose recording was interrupted by a power cut and recorded again on
resume still appears once.
"""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.app.paths import data_dir
from companion.errors import CompanionError
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
        """The open history. A file that is not a history (a half-copied file, another
        database) is kept aside and a new history begun; one that cannot be used now (busy,
        a full disk, a folder in its place) raises :class:`HistoryError`, and is left as it is."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._open()
            try:
                with conn:
                    yield conn
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: {_reason(exc, self.path)}") from None
        except OSError as exc:
            raise HistoryError(f"{self.path}: {exc.strerror or exc}") from None

    def _open(self) -> sqlite3.Connection:
        if self.path.is_dir():
            raise HistoryError(f"{self.path}: a folder, not a history file")
        conn = sqlite3.connect(self.path)
        try:
            conn.execute(_SCHEMA)
            columns = [row[1] for row in conn.execute("PRAGMA table_info(runs)")]
            if columns != list(Run.__dataclass_fields__):
                raise sqlite3.DatabaseError("its runs table is not a history's")
        except sqlite3.DatabaseError as exc:
            conn.close()
            if _reason(exc, self.path) != str(exc):
                raise  # busy, full, read-only: the file is fine, the moment or place is not
            kept = move_aside(self.path)
            self.notices.append(f"{self.path} was not a readable history ({exc}); kept as "
                                f"{kept.name}, starting a new one")
            conn = sqlite3.connect(self.path)
            conn.execute(_SCHEMA)
        return conn

    def record(self, run: Run) -> bool:
        """Store ``run``; False when a run with that id was already there."""
        fields = asdict(run)
        names = ", ".join(fields)
        marks = ", ".join(f":{k}" for k in fields)
        with self._connect() as conn:
            cursor = conn.execute(f"INSERT OR IGNORE INTO runs ({names}) VALUES ({marks})", fields)
            return cursor.rowcount == 1

    def runs(self) -> list[Run]:
        """Every run, in the order they were recorded.

        Not by ``finished_at``: a Pi without a clock battery starts after a power cut at the
        time it last saved (fake-hwclock), up to an hour back, so the game resumed then may be
        stamped before the games finished just before the cut."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM runs ORDER BY rowid").fetchall()
        return [_run_from_row(row, self.path) for row in rows]

    def totals(self) -> Totals:
        return tally(self.runs())


def tally(runs: list[Run]) -> Totals:
    """The totals of ``runs``."""
    return Totals(
        games=len(runs),
        wins=sum(r.won for r in runs),
        deepest_floor=max((r.floor for r in runs), default=0),
        deaths_by=dict(Counter(r.cause or "unknown" for r in runs if not r.won).most_common()),
    )


class HistoryError(CompanionError):
    """The history cannot be used now; what it holds is left as it is."""


# SQLite's answers that say the moment or the place is wrong, not the file.
_PASSING = {
    "SQLITE_BUSY": "busy: another companion is writing it; try again",
    "SQLITE_LOCKED": "busy: another companion is writing it; try again",
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "cannot be written (a read-only folder or file)",
    "SQLITE_CANTOPEN": "cannot be opened (a missing or read-only folder?)",
    "SQLITE_IOERR": "the disk could not be read or written",
    "SQLITE_PERM": "no permission to use it",
}


def _reason(exc: sqlite3.Error, path: Path) -> str:
    """What a SQLite error means to the player, or its own text for the file's faults."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_CANTOPEN") and path.exists() \
            and not os.access(path, os.R_OK | os.W_OK):
        # SQLite says the same for a file it may not open as for a folder it cannot use.
        return "cannot be read: no permission (check the file's owner and mode)"
    for prefix, meaning in _PASSING.items():
        if name.startswith(prefix):
            return meaning
    return str(exc)


# The kinds each column must hold: SQLite keeps whatever a hand edit put in a column.
_KINDS: dict[str, tuple[type, ...]] = {
    "game_id": (str,), "finished_at": (str,), "seed": (int, type(None)), "preset": (str,),
    "won": (int,), "floor": (int,), "level": (int,), "gold": (int,),
    "cause": (str, type(None)), "events": (int,), "input_kind": (str,),
}


def _run_from_row(row: tuple[object, ...], path: Path) -> Run:
    values = dict(zip(Run.__dataclass_fields__, row, strict=True))
    for name, value in values.items():
        if not isinstance(value, _KINDS[name]):
            raise HistoryError(f"{path}: the run {values['game_id']!r} has {name} = {value!r}, "
                               f"which a finished game cannot have (edited by hand?)")
    values["won"] = bool(values["won"])
    return Run(**values)  # type: ignore[arg-type]
