"""Finished games, kept in SQLite in the user data folder.

A run is recorded once: its ``game_id`` (from the save) is the primary key, so
a game whose recording was interrupted by a power cut and recorded again on
resume still appears once.

A run keeps the rules revision that played it (``rules``): its seed plays the same game
again only under that revision. A history from before that column opens as it was, the
column added (:func:`_check_schema`), its runs' revision unknown (None).

A history a newer companion added a column to is still this one's: its runs are read and
recorded by the columns this companion knows (:func:`_known_columns`), the newer column
left to its default (hist68 RISK 1: it was kept aside as corrupt, and its games vanished
from `companion history`). One whose newer column this companion cannot fill is left as
it is, and said to be newer, with the update hint a newer save.json gets.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypeVar

from companion.app.paths import data_dir, data_dir_setting
from companion.app.session.save import NewerSave
from companion.errors import CompanionError
from companion.files import blank_fault, move_aside
from companion.systems.jongrogue.game import RULES_REVISION, Termination
from companion.systems.jongrogue.narration import cause_name

HISTORY_NAME = "history.sqlite3"
T = TypeVar("T")

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
    input_kind  TEXT NOT NULL,
    rules       INTEGER
)
"""


@dataclass(frozen=True, slots=True)
class Run:
    """One finished game. ``cause`` is what ended a lost game (a monster's name, "frozen");
    ``rules`` is the rules revision that played it, None in a run recorded before the
    history kept it."""

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
    rules: int | None = RULES_REVISION


# A history's columns before it kept the rules revision (revision 6 made it matter).
_BEFORE_RULES = [name for name in Run.__dataclass_fields__ if name != "rules"]


def _known_columns(columns: list[str]) -> list[str] | None:
    """The columns of a runs table with ``columns`` that this companion reads, in a
    :class:`Run`'s order: every one of a run's (``rules`` may be missing, from a history
    before it), whatever newer ones a later companion added beside them; None when it is
    not a history's table."""
    if not set(_BEFORE_RULES) <= set(columns):
        return None
    return [name for name in Run.__dataclass_fields__ if name in columns]


def _selected(columns: list[str]) -> str:
    """The SQL list of a runs table's :func:`_known_columns` (never ``*``: a newer
    column would be read as a run's)."""
    known = _known_columns(columns)
    assert known is not None  # _check_schema refused any other
    return ", ".join(known)


#: The cause a run that ended with the wall (山) empty is recorded with: no death, the PC
#: may stand at full HP (Termination.WALL_EXHAUSTED; rules72 NIT 5). A history written
#: before 2026-12-01 (5e04eb58) recorded the termination's id, ``wall_exhausted``, which is
#: read as this wording (reviewr72 DEFECT 3: such a run was listed as a death).
WALL_OUT = cause_name(Termination.WALL_EXHAUSTED.value)
_WALL_OUT_AS_RECORDED = (Termination.WALL_EXHAUSTED.value, WALL_OUT)


@dataclass(frozen=True, slots=True)
class Totals:
    """Every run's sums: ``deaths_by`` counts the lost runs by their cause, ``ended_by``
    the runs that ended with no death (the wall run out, :data:`WALL_OUT`)."""

    games: int
    wins: int
    deepest_floor: int
    deaths_by: dict[str, int]
    ended_by: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A row left out of the runs: what it holds cannot be a finished game."""

    game_id: str
    reason: str  # "floor = 'abc', which a finished game cannot have (damaged, or edited by hand)"


@dataclass(frozen=True, slots=True)
class Listing:
    """The last runs of a history, in the order they were recorded, and the totals of every
    run in it (:meth:`History.listing`)."""

    runs: list[Run]
    totals: Totals


def default_history_path() -> Path:
    return data_dir() / HISTORY_NAME


class History:
    """The run table. Open it for each use; SQLite handles the locking."""

    def __init__(self, path: Path | None = None) -> None:
        self.named = path is not None  # not the data folder's history
        self.path = path or default_history_path()
        self.notices: list[str] = []
        self.skipped: list[Skipped] = []  # by the last runs()

    def _use(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` done on the open history, in one transaction.

        A file that is not a history (a half-copied file, another database), or one SQLite
        finds damaged in any statement (a bad page past the first shows only when a query
        reaches it), is kept aside and a new history begun with the runs that can still be
        read from it (:func:`_readable_rows`), and ``work`` is done on that one. A history that
        cannot be used now (busy, a full disk, a folder in its place) raises
        :class:`HistoryError`, and is left as it is."""
        try:
            if (blocked := self._folder_blocked()) is not None:
                raise blocked
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_dir():
                raise HistoryError(f"{self.path}: a folder, not a history file")
            if self.path.exists() and not self.path.is_file():
                # A link to /dev/null to switch the history off, a FIFO: SQLite's "the disk
                # could not be read or written" sent a player to check the SD card
                # (a78saves item 6).
                raise HistoryError(f"{self.path}: not a history file (a device or a pipe): "
                                   "move it away")
            try:
                return self._within(work)
            except sqlite3.DatabaseError as exc:
                if not _not_a_history(exc):
                    raise
                self._begin_anew(exc)
            return self._within(work)
        except sqlite3.Error as exc:
            raise HistoryError(f"{self.path}: {_reason(exc, self.path)}") from None
        except OSError as exc:
            raise HistoryError(f"{self.path}: {exc.strerror or exc}") from None

    def _folder_blocked(self) -> HistoryError | None:
        """Why the history's folder cannot be made, when a file is in its place or in a
        folder's above it (mkdir's words were "File exists"); None when it is a folder or
        can be made."""
        folder = self.path.parent
        for above in (folder, *folder.parents):
            try:
                if above.is_dir():
                    return None
                if not above.exists():
                    continue
            except OSError:
                return None  # mkdir says it
            which = "its folder" if self.named else f"the data folder ({data_dir_setting()})"
            where = "its place" if above == folder else f"the place of {above}"
            return HistoryError(f"{self.path}: {which} cannot be made: a file is in {where}")
        return None

    def _within(self, work: Callable[[sqlite3.Connection], T]) -> T:
        conn = sqlite3.connect(self.path)
        try:
            with conn:
                _check_schema(conn, self.path)
                return work(conn)
        finally:
            conn.close()

    def _begin_anew(self, exc: sqlite3.DatabaseError) -> None:
        """Keep the file that is not a readable history aside, and begin a new one holding
        the runs that can still be read from it, in the order they were recorded."""
        try:
            kept = move_aside(self.path)
        except OSError as err:  # a read-only folder: a new history could not be made there
            raise HistoryError(f"{self.path}: not a readable history ({exc}), and it cannot "
                               f"be kept aside for a new one ({err.strerror}): make its "
                               "folder writable, or move the file away") from None
        rows, lost, listed_all = _readable_rows(kept)
        fields = ", ".join(Run.__dataclass_fields__)
        marks = ", ".join("?" * len(Run.__dataclass_fields__))
        conn = sqlite3.connect(self.path)
        try:
            with conn:
                conn.execute(_SCHEMA)
                # OR IGNORE: a row read from a damaged page may break a constraint; it is
                # one of those that could not be read.
                copied = sum(conn.execute(f"INSERT OR IGNORE INTO runs ({fields}) "
                                          f"VALUES ({marks})", row).rowcount for row in rows)
        finally:
            conn.close()
        if _all_zero(kept):
            # A power cut as the card wrote it: no games are in the kept file, where "any it
            # held are in" it sent the player to look for them (hist70 N1).
            self.notices.append(f"{self.path} was not a readable history "
                                f"({blank_fault(_ZERO, 'file')}); kept as {kept.name}, "
                                "starting a new one; it held no game that can be read")
            return
        notice = (f"{self.path} was not a readable history ({exc}); kept as {kept.name}, "
                  "starting a new one")
        if lost is None:
            # not "it held none": its games, if it had any, are in the kept file; counted
            # where its rows can be (a runs table lacking a column: reviewh68 NIT 2)
            held = _runs_held(kept)
            notice += (f"; none of its games could be read (any it held are in {kept.name})"
                       if held is None else "; it held no games" if not held else
                       f"; its one game could not be read (it is in {kept.name})"
                       if held == 1 else
                       f"; none of its {held} games could be read (they are in {kept.name})")
        else:
            lost += len(rows) - copied
            if not copied and lost:
                # Every game lost: said as the count of none, where "with the 0 games that
                # could be read from it" read as a slip (journey71 NIT 8).
                notice += ("; its one game could not be read (it is in "
                           f"{kept.name})" if lost == 1 and listed_all else
                           f"; none of its {lost} games could be read (they are in "
                           f"{kept.name})" if listed_all else
                           f"; none of at least {lost} games could be read (they are in "
                           f"{kept.name})")
                self.notices.append(notice)
                return
            if copied or lost:
                notice += (f" with the {copied} game{'s' * (copied != 1)} that could be read "
                           "from it")
            if not listed_all:
                # each listing of its rows was cut short: how many it held is not known,
                # only that these were reached and could not be read (review63b N-a)
                notice += (f" (at least {lost} more could not be)" if lost
                           else " (any more it held could not be)")
            elif lost:
                notice += f" ({lost} more could not be)"
        self.notices.append(notice)

    def record(self, run: Run) -> bool:
        """Store ``run``; False when a run with that id was already there. A value SQLite
        cannot store (a number past its 64-bit integers, text that is no UTF-8) raises
        :class:`HistoryError` naming it, as a history that cannot be used does: the game is
        kept in its save, and the next game plays (it stopped every run with a traceback)."""
        fields = asdict(run)
        for name, value in fields.items():
            if isinstance(value, int) and not _SQLITE_INTS[0] <= value <= _SQLITE_INTS[1]:
                raise HistoryError(f"{self.path}: the game's {name} ({value}) is a number "
                                   "beyond what the history can hold")
            if isinstance(value, str) and not _utf8(value):
                raise HistoryError(f"{self.path}: the game's {name} ({value!r}) is text the "
                                   "history cannot hold (not UTF-8)")
        names = ", ".join(fields)
        marks = ", ".join(f":{k}" for k in fields)

        def insert(conn: sqlite3.Connection) -> int:
            if "rules" not in [row[1] for row in conn.execute("PRAGMA table_info(runs)")]:
                # _check_schema could not add the column: SQLite's "no column named rules"
                # would read as damage (review 56b, finding 7)
                raise HistoryError(
                    f"{self.path}: a history from an older companion, which could not be "
                    "updated to keep each game's rules revision: it "
                    f"{_PASSING['SQLITE_READONLY']}; the games in it are unharmed")
            added = int(conn.execute(f"INSERT OR IGNORE INTO runs ({names}) "
                                     f"VALUES ({marks})", fields).rowcount)
            if not added and conn.execute("SELECT 1 FROM runs WHERE game_id = ?",
                                          (run.game_id,)).fetchone() is None:
                # OR IGNORE skipped a row a newer column's NOT NULL or CHECK refused: not
                # "already there" (the game would be taken for recorded, hist68 RISK 1)
                newer = [row[1] for row in conn.execute("PRAGMA table_info(runs)")
                         if row[1] not in Run.__dataclass_fields__]
                said = (f"its runs have {'columns' if len(newer) > 1 else 'a column'} "
                        f"{', '.join(newer)} this one does not know, and cannot fill"
                        if newer else "its runs table refuses this companion's runs")
                raise HistoryError(f"{self.path}: a history from a newer companion ({said}): "
                                   f"{NewerSave.UPDATE}; the games in it are unharmed")
            return added

        return self._use(insert) == 1

    def holds(self, game_id: str) -> bool:
        """Whether a run of ``game_id`` is in the history: looked up by its unique index,
        not by listing every run (a listing reads the whole table, and a damaged page met
        there sets the file aside, review65h RISK 2). No history file yet holds none, its
        folder left unmade, as :meth:`listing`. What :meth:`_use` says of a file that is no
        history is in :attr:`notices`, for the caller to tell."""
        try:
            os.lstat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            if (blocked := self._folder_blocked()) is not None:
                raise blocked from None
            return False
        except OSError:
            pass  # _use says why it cannot be read
        return self._use(lambda conn: conn.execute(
            "SELECT 1 FROM runs WHERE game_id = ?", (game_id,)).fetchone() is not None)

    def holds_as_it_is(self, game_id: str) -> bool:
        """:meth:`holds`, for a command that only reads (``replay``): looked up read-only,
        nothing made, mended or moved. A file that is no history, or a damaged one, was
        kept aside by :meth:`holds` and a new history begun, and replay said nothing of it
        (reviewjourney75 RISK 3); here it raises :class:`HistoryError`, left as it is for
        the next game (or ``history``) to mend and say so. No file holds none; only a
        regular file is opened (a pipe in its place is not waited on)."""
        try:
            if not stat.S_ISREG(os.stat(self.path).st_mode):
                raise HistoryError(f"{self.path}: not a history file")
        except (FileNotFoundError, NotADirectoryError):
            return False
        except OSError as exc:
            raise HistoryError(f"{self.path}: {exc.strerror or exc}") from None
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                return conn.execute("SELECT 1 FROM runs WHERE game_id = ?",
                                    (game_id,)).fetchone() is not None
            finally:
                conn.close()
        except sqlite3.Error as exc:
            if (getattr(exc, "sqlite_errorname", "") or "") == "SQLITE_READONLY_ROLLBACK":
                # A crash while a game was recorded left a -journal that only a writer
                # rolls back: "cannot be written" was said of a file that can be
                # (reviewjourney75b RISK 2).
                raise HistoryError(f"{self.path}: {HOT_JOURNAL}") from None
            raise HistoryError(f"{self.path}: {_reason(exc, self.path)}") from None

    def runs(self) -> list[Run]:
        """Every run, in the order they were recorded (:meth:`listing`)."""
        return self.listing(None).runs

    def totals(self) -> Totals:
        return self.listing(0).totals

    def listing(self, last: int | None) -> Listing:
        """The ``last`` runs (None: every one), in the order they were recorded, and the
        totals of every run. The totals are SQLite's sums, and only the runs listed are
        read: `companion history` read each of 10,000 games to list 20 (pi59 F6).

        Not by ``finished_at``: a Pi without a clock battery starts after a power cut at the
        time it last saved (fake-hwclock), up to an hour back, so the game resumed then may be
        stamped before the games finished just before the cut.

        A row no finished game can have written (a hand edit) is left out, not the whole
        history: it is in :attr:`skipped`, and named in :attr:`notices`.

        No history file yet is no runs, its folder left unmade: a read-only home said
        "Read-only file system" where there was nothing to read (env58 N3)."""
        self.skipped = []
        try:
            os.lstat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            if (blocked := self._folder_blocked()) is not None:
                raise blocked from None
            return Listing([], Totals(games=0, wins=0, deepest_floor=0, deaths_by={}))
        except OSError:
            pass  # _use says why it cannot be read
        if last is not None:
            # no history holds more runs than SQLite counts; a larger ``LIMIT ?`` was an
            # OverflowError traceback (`history --last 99999999999999999999`, hist63 F3)
            last = min(last, _SQLITE_INTS[1])
        found = self._use(lambda conn: _listed(conn, last))
        # _listed parted the rows by the kinds _run_from_row asks for: these filters drop none.
        self.skipped = [s for s in map(_run_from_row, found.unsound) if isinstance(s, Skipped)]
        for skipped in self.skipped:
            self.notices.append(f"{self.path}: the run {skipped.game_id!r} has "
                                f"{skipped.reason}; it is left out of the list and the totals")
        runs = [run for run in map(_run_from_row, found.shown) if isinstance(run, Run)]
        return Listing(runs, found.totals)


@dataclass(frozen=True, slots=True)
class _Found:
    """What :func:`_listed` read: the rows listed, the totals, the rows no run can be."""

    shown: list[tuple[object, ...]]
    totals: Totals
    unsound: list[tuple[object, ...]]


def _listed(conn: sqlite3.Connection, last: int | None) -> _Found:
    """The ``last`` rows of runs (None: all) in the order they were recorded, the totals of
    every run and the rows no run can be (:func:`_run_from_row`), by rowid.

    Text a hand edit left that is no UTF-8 (SQLite keeps any bytes as text) stopped the
    whole listing with the sqlite3 module's "Could not decode to UTF-8 column 'said'", a
    name of the query's, not of the history's (carried61). Met, the listing is made again
    with such rows among those no run can be, each value of them read as its bytes, so
    the row is named by its field (``cause = b'orc\\xff'``) as any hand edit is. Only
    then: the test reads every text value in Python, which the sums must not wait for."""
    try:
        return _listed_once(conn, last, utf8_tested=False)
    except sqlite3.OperationalError as exc:
        if not str(exc).startswith(_NOT_UTF8):
            raise
    conn.create_function("utf8", 1, _utf8_bytes, deterministic=True)
    conn.text_factory = _text_or_bytes
    return _listed_once(conn, last, utf8_tested=True)


#: How the sqlite3 module's error for text that is no UTF-8 begins.
_NOT_UTF8 = "Could not decode to UTF-8"


def _utf8_bytes(data: bytes) -> bool:
    """Are ``data`` (a text value's bytes) UTF-8?"""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _text_or_bytes(data: bytes) -> str | bytes:
    """A text value read as text, or as its bytes when they are no UTF-8 (a hand edit):
    the wrong kind, as :func:`_run_from_row` tells it."""
    return data.decode("utf-8") if _utf8_bytes(data) else data


def _listed_once(conn: sqlite3.Connection, last: int | None, utf8_tested: bool) -> _Found:
    """:func:`_listed`; ``utf8_tested``: text that is no UTF-8 is of no run.

    The rows no run can be are found first, in a scan of the whole table: a damaged page
    anywhere in it is met here, as reading every run met it (:meth:`History._use`). The
    others leave out those few by rowid: testing each row's kinds again took 30 times as
    long as the sums."""
    columns = _known_columns([row[1] for row in conn.execute("PRAGMA table_info(runs)")])
    assert columns is not None  # _check_schema refused any other
    kinds = " AND ".join("(" + " OR ".join(_kind_test(name, kind, utf8_tested)
                                           for kind in _KINDS[name]) + ")"
                         for name in columns)
    selected = ", ".join(columns)
    unsound = conn.execute(f"SELECT rowid, {selected} FROM runs WHERE NOT ({kinds}) "
                           "ORDER BY rowid").fetchall()
    if unsound:
        _refuse_damaged(conn)
    runs = f"runs WHERE rowid NOT IN ({', '.join(str(row[0]) for row in unsound)})"
    games, wins, deepest = conn.execute(
        f"SELECT count(*), coalesce(sum(won != 0), 0), coalesce(max(floor), 0) FROM {runs}"
    ).fetchone()
    # As Counter.most_common gave them: the most first, a tie in the order first met. The
    # cause is grouped by its place in the result (GROUP BY 1): by name, SQLite takes the
    # column's cause before the result's, and '' and NULL would be two 'unknown's.
    deaths = conn.execute(
        f"SELECT coalesce(nullif(cause, ''), 'unknown') AS cause, count(*) FROM {runs} "
        "AND won = 0 GROUP BY 1 ORDER BY count(*) DESC, min(rowid)").fetchall()
    shown = conn.execute(f"SELECT {selected} FROM {runs} ORDER BY rowid DESC LIMIT ?",
                         (-1 if last is None else last,)).fetchall()
    by_cause = dict(deaths)
    ended = sum(by_cause.pop(cause, 0) for cause in _WALL_OUT_AS_RECORDED)
    return _Found(shown[::-1], Totals(games, wins, deepest, by_cause,
                                      {WALL_OUT: ended} if ended else {}),
                  [row[1:] for row in unsound])


def _refuse_damaged(conn: sqlite3.Connection) -> None:
    """Raise :class:`_Damaged` when SQLite's ``quick_check`` finds the history damaged: a
    page an SD card zeroed reads as rows of NULLs, each of rowid 0, with no SQLITE_CORRUPT
    from any statement (hist65 RISK 3: they were named as hand edits, and games recorded
    into the file after them). Asked only when a row no run can be is met: it reads the
    whole file."""
    found = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
    if found != ["ok"]:
        lines = [line for text in found for line in text.splitlines()
                 if line and not line.startswith("***")]
        raise _Damaged(f"damaged: SQLite's quick_check says "
                       f"{(lines or found)[0]}{'; …' if len(lines) > 1 else ''}")


def _kind_test(name: str, kind: type, utf8_tested: bool) -> str:
    """SQL true when column ``name`` holds a value of ``kind`` (with ``utf8_tested``, text
    only when it is UTF-8)."""
    test = f"typeof({name}) = {_TYPE_OF[kind]}"
    return f"({test} AND utf8(CAST({name} AS BLOB)))" if utf8_tested and kind is str else test


_SQLITE_INTS = (-(2**63), 2**63 - 1)  # what an INTEGER column holds


def _utf8(text: str) -> bool:
    """Can ``text`` be stored as SQLite text (a lone surrogate, from a save's JSON, cannot)?"""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# Why a read-only look failed, as HistoryError says it: a leftover -journal only a writer
# rolls back, and a history another companion writes (replay tells them apart: trying
# again helps only the second, reviewjourney75c NIT 2).
HOT_JOURNAL = ("a game's recording was cut short (its -journal is left beside it) and a "
               "look that only reads cannot roll it back")
BUSY = "busy: another companion is writing it; try again"


class HistoryError(CompanionError):
    """The history cannot be used now; what it holds is left as it is."""


# SQLite's answers that say the moment or the place is wrong, not the file.
_PASSING = {
    "SQLITE_BUSY": BUSY,
    "SQLITE_LOCKED": BUSY,
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "cannot be written (a read-only folder or file)",
    "SQLITE_CANTOPEN": "cannot be opened (a missing or read-only folder?)",
    "SQLITE_IOERR": "the disk could not be read or written",
    "SQLITE_PERM": "no permission to use it",
}


class _NotAHistory(sqlite3.DatabaseError):
    """The file is a database, or what SQLite takes for one, but not a history."""


class _Damaged(_NotAHistory):
    """The history's file is damaged where no statement met it (:func:`_refuse_damaged`)."""


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    """The runs table made if there is none, and given the ``rules`` column if it is a
    history from before it; a file that cannot hold it raises :class:`_NotAHistory`."""
    try:
        conn.execute(_SCHEMA)
        columns = [row[1] for row in conn.execute("PRAGMA table_info(runs)")]
        if "rules" not in columns and _known_columns(columns) is not None:
            try:
                conn.execute("ALTER TABLE runs ADD COLUMN rules INTEGER")
                columns.append("rules")
            except sqlite3.OperationalError as exc:
                # a read-only one is still listed, as before, its runs' revision unknown
                if not (exc.sqlite_errorname or "").startswith("SQLITE_READONLY"):
                    raise
    except sqlite3.DatabaseError as exc:
        if _reason(exc, path) != str(exc):
            raise  # busy, full, read-only: the file is fine, the moment or place is not
        raise _NotAHistory(str(exc)) from exc
    if _known_columns(columns) is None:
        raise _NotAHistory("its runs table is not a history's")


def _not_a_history(exc: sqlite3.DatabaseError) -> bool:
    """Is the file at fault, not the moment: not a history, or damaged (SQLite's
    SQLITE_CORRUPT and SQLITE_NOTADB, from whichever statement met the damage)?"""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return isinstance(exc, _NotAHistory) or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


#: A file of zero bytes alone, as :func:`blank_fault` says one (a kept history is read for
#: it a block at a time, never whole).
_ZERO = "\0"


def _all_zero(path: Path) -> bool:
    """Does the file at ``path`` hold bytes, all of them zero? (False when it cannot be
    read: what else is said of it stands.)"""
    try:
        with open(path, "rb") as handle:
            seen = False
            while block := handle.read(1 << 16):
                if block.strip(b"\0"):
                    return False
                seen = True
            return seen
    except OSError:
        return False


def _runs_held(path: Path) -> int | None:
    """How many rows the runs table of the kept file at ``path`` holds; None when that
    cannot be told (no such table, a damaged file). Only read, as :func:`_readable_rows`
    reads it."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        (count,) = conn.execute("SELECT count(*) FROM runs").fetchone()
        return int(count)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _readable_rows(path: Path) -> tuple[list[tuple[object, ...]], int | None, bool]:
    """The runs that can be read from a damaged history at ``path``, by rowid; how many
    it holds that cannot: None when not even its table's columns can be read, its table
    lacks a column this companion reads, or not one of its rows can be reached, so how many
    were lost is not known; and whether every row it
    holds was listed, False when each listing was cut short, so that count is a lower bound.

    A damaged page hides the rows on it from a scan of the table, and every row after them;
    the game_id index is a separate tree holding each row's rowid, so the rowids come from
    both, and each row is then read alone: only the rows on a damaged page are lost.

    SQLite checks every table's and index's root page before the first statement, and a
    file cut short (a card copy, a crash while it grew) whose index page is gone failed that
    check: its whole table was taken for lost, though every row of it could be read (hist63
    F1). ``writable_schema`` turns that check off; the kept copy is only read, and opened
    read-only so that nothing done here can change it (review63b N-e). ``immutable`` too:
    nothing else writes it, and read-only alone, on a file whose header says WAL, left a
    ``-wal`` and a ``-shm`` beside it that no connection of its could remove."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        conn.execute("PRAGMA writable_schema=ON")
        columns = [row[1] for row in conn.execute("PRAGMA table_info(runs)")]
        if _known_columns(columns) is None:
            # no history's table to read runs from: how many its rows are is not how many
            # were lost, which the notice says (_runs_held); it said nothing of its games
            return [], None, True
        listings = ("SELECT rowid FROM runs ORDER BY rowid",
                    "SELECT rowid FROM runs INDEXED BY sqlite_autoindex_runs_1")
        listed: list[list[int]] = []
        broken = 0
        for listing in listings:
            found: list[int] = []
            try:
                found.extend(row[0] for row in conn.execute(listing))
            except sqlite3.DatabaseError:
                broken += 1  # a damaged page ends this listing; the rowids before it are in
            listed.append(found)
        rowids = {rowid for found in listed for rowid in found}
        if broken == len(listings) and not rowids:
            # its table's pages are all gone (a file cut to its first page): its columns
            # read, from the schema, but not one of its rows could be reached (review63b D1)
            return [], None, False
        # A zeroed or cut page reads as cells of one rowid, 0 (hist65 NIT 1: three games
        # read as one): such a rowid stands for as many rows as a listing gave it, and the
        # rows then held are known only to be at least as many as a listing gave.
        repeated = {rowid for found in listed
                    for rowid, times in Counter(found).items() if times > 1}
        held = max([len(found) for found in listed] + [len(rowids - repeated)])
        rows: list[tuple[object, ...]] = []
        for rowid in sorted(rowids):
            try:
                rows.extend(_of_this_schema(row) for row in conn.execute(
                    f"SELECT {_selected(columns)} FROM runs WHERE rowid = ?", (rowid,)))
            except sqlite3.DatabaseError:
                pass  # counted below as lost
        return rows, max(0, held - len(rows)), broken < len(listings) and not repeated
    except sqlite3.DatabaseError:
        return [], None, False  # not even its table's columns: whatever it held cannot be read
    finally:
        conn.close()


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
    "rules": (int, type(None)),
}
#: SQLite's typeof() of a value sqlite3 gives as each of those kinds.
_TYPE_OF = {str: "'text'", int: "'integer'", type(None): "'null'"}


def _of_this_schema(row: tuple[object, ...]) -> tuple[object, ...]:
    """A row of a history from before the ``rules`` column, given it (unknown: None)."""
    return row + (None,) * (len(Run.__dataclass_fields__) - len(row))


def _run_from_row(row: tuple[object, ...]) -> Run | Skipped:
    """The run a row holds, or why it holds none (its first value of the wrong kind)."""
    values = dict(zip(Run.__dataclass_fields__, _of_this_schema(row), strict=True))
    for name, value in values.items():
        if not isinstance(value, _KINDS[name]):
            return Skipped(str(values["game_id"]), f"{name} = {value!r}, which a finished game "
                           "cannot have (damaged, or edited by hand)")
    values["won"] = bool(values["won"])
    if values["cause"] in _WALL_OUT_AS_RECORDED:
        values["cause"] = WALL_OUT  # as a history before 5e04eb58 has it too
    return Run(**values)  # type: ignore[arg-type]
