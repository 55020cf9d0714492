"""The rooms whose recovery spot ``companion events recovery --room NAME`` used (EV-REC-1).

A recovery spot works once: coming back to its room gives nothing. The rooms the player
named are kept in ``events/recovery_rooms.toml`` in the data folder until
``companion events new-dungeon`` forgets them. A file that cannot be read as one is kept
aside (never deleted) and the list starts afresh, with a notice naming what was wrong.

A recovery marks its room before it keeps its cure and HP, as *pending* (``[pending]``:
when, by which process, and what it was to keep), and settles it after: a cut between the
writes left the spot spent and the cure or HP lost, with no word, the next run saying only
"already used" (reviewe74 RISK 5). The next run that meets a pending room whose process is
gone says plainly what may not have been kept (:meth:`RecoveryRooms.stopped`).
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from companion.app.paths import data_dir
from companion.errors import DataError
from companion.file_locks import changing
from companion.files import load_toml_kept
from companion.systems.defaults import toml_value
from companion.systems.events.sword_world import folded_name
from companion.toml_writing import write_toml

ROOMS_NAME = "recovery_rooms.toml"
#: Far larger than a dungeon's room names could ever be written.
_LIMIT = 256 * 1024
_COMMENT = ("Rooms whose recovery spot was used (EV-REC-1). "
            "`companion events new-dungeon` forgets them.")
#: Who holds the list while changing it, as its lock file says (:func:`changing`).
CHANGER = "companion, changing the used recovery rooms"


def rooms_path() -> Path:
    return data_dir() / "events" / ROOMS_NAME


def room_name(text: str) -> str:
    """The room as the list keeps it: full-width digits and letters read as ASCII (３ is 3),
    spaces at the ends dropped; DataError for a blank one."""
    name = unicodedata.normalize("NFKC", text).strip()
    if not name:
        raise DataError("--room needs a name")
    return name


def room_key(name: str) -> str:
    """The room as two names are compared: whatever its case and width, runs of spaces
    as one (``Hall``, ``hall`` and ``ｈａｌｌ`` are one room, ``room  1`` is ``room 1``), as
    every other name ``companion events`` takes is (:func:`folded_name`): one spot
    recovered twice under two spellings (a77events RISK 3)."""
    return " ".join(folded_name(name).split())


@dataclass(frozen=True)
class Pending:
    """A room marked by a recovery not yet settled: ``at`` (UTC, as "2026-12-07 14:05"), the
    process ``pid`` that marked it, and ``what`` it was to keep ("the cure of Aki's poison;
    Aki HP 1 → 13"). ``boot``: the boot the process ran in (:func:`boot_id`), "" where it
    is not known (a file written before it was kept, a system without one): after a
    reboot, the power cut this is for, the pid is often another process's."""

    at: str
    pid: int
    what: str
    boot: str = ""


#: Linux's id of the running boot, new at each: where it differs from the one a pending
#: room was marked in, the pid that marked it is gone whatever runs under it now.
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def boot_id() -> str:
    """This boot's id (:data:`BOOT_ID`), "" where the system has none to read."""
    try:
        return BOOT_ID.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _pending(raw: object) -> dict[str, Pending]:
    if not isinstance(raw, dict):
        raise DataError(f"'pending' must be a table of rooms, found {toml_value(raw)}")
    out = {}
    for room, entry in raw.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("at"), str)
                and type(entry.get("pid")) is int and isinstance(entry.get("what"), str)
                and isinstance(entry.get("boot", ""), str)):
            raise DataError(f"pending.{room} must hold at, pid and what (and boot, a "
                            f"string), found {toml_value(entry)}")
        out[room] = Pending(entry["at"], entry["pid"], entry["what"], entry.get("boot", ""))
    return out


def _used(raw: dict[str, Any]) -> tuple[list[str], dict[str, Pending]]:
    used = raw.get("used", [])
    if not isinstance(used, list) or not all(isinstance(r, str) for r in used):
        raise DataError(f"'used' must be a list of room names, found {toml_value(used)}")
    pending = _pending(raw.get("pending", {}))
    if set(pending) - set(used):
        raise DataError(f"pending room {sorted(set(pending) - set(used))[0]!r} is not used")
    return used, pending


def _gone(pid: int, boot: str = "") -> bool:
    """Whether process ``pid`` of boot ``boot`` has ended (a recovery it marked is not
    under way): a pid of another boot has, whatever holds that pid now; a pid alone left
    a cut run's notice unsaid while a daemon started after the reboot held it (reviewe74b
    RISK 2)."""
    now = boot_id() if boot else ""
    if now and now != boot:
        return True
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # there, another user's
        return False
    return False


class RecoveryRooms:
    """The used rooms, kept in ``path``; each change reads the file first and writes after,
    holding it the while (:func:`changing`): a room marked by another program between the
    read and the write is not written over. Held past the wait by another, a change raises
    :class:`~companion.file_locks.StillChanging` (an OSError) and changes nothing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: why the file was kept aside when it was, for the player to read
        self.notices: list[str] = []
        self.pending: dict[str, Pending] = {}
        self.used = self._load()

    def _load(self) -> list[str]:
        empty: tuple[list[str], dict[str, Pending]] = ([], {})
        self.used, self.pending = load_toml_kept(
            self.path, _LIMIT, "list of used recovery rooms", _used, empty,
            "no room counts as used now", self.notices)
        return self.used

    def spelt(self, room: str) -> str:
        """``room`` as the list first spelt it when it is used (:func:`room_key`), else as
        given: the name it is marked, said and settled under."""
        return next((used for used in self.used if room_key(used) == room_key(room)), room)

    def mark(self, room: str, pending: str | None = None, at: str = "") -> bool:
        """Remember that ``room``'s spot is used; whether this marked it (False: the file
        held it already, another run marked it meanwhile). ``used`` changes only once the
        file holds it: a save the disk refused left the room in it, and ``--json`` listed
        as spent a room the file did not hold. ``pending``: what the recovery is yet to
        keep, held with the mark (at ``at``, by this process) until :meth:`settle`."""
        with changing(self.path, CHANGER):
            self._load()
            if self.spelt(room) in self.used:  # under any spelling
                return False
            used = [*self.used, room]
            pending_now = dict(self.pending)
            if pending is not None:
                pending_now[room] = Pending(at, os.getpid(), pending, boot_id())
            self._save(used, pending_now)
            self.used, self.pending = used, pending_now
            return True

    def settle(self, room: str) -> None:
        """The recovery that marked ``room`` kept all it had to: no longer pending."""
        with changing(self.path, CHANGER):
            self._load()
            if room in self.pending:
                pending = {r: p for r, p in self.pending.items() if r != room}
                self._save(self.used, pending)
                self.pending = pending

    def stopped(self) -> dict[str, Pending]:
        """The pending rooms whose process is gone: their recovery stopped part-way (a cut
        after the mark), what it was to keep maybe not kept. Settled as said: the caller
        says them once (the room stays used: never a second recovery)."""
        gone = {room: p for room, p in self.pending.items() if _gone(p.pid, p.boot)}
        if gone:
            with changing(self.path, CHANGER):
                self._load()
                gone = {room: p for room, p in self.pending.items() if room in gone}
                pending = {r: p for r, p in self.pending.items() if r not in gone}
                self._save(self.used, pending)
                self.pending = pending
        return gone

    def unmark(self, room: str) -> None:
        """Forget that ``room``'s spot is used: the mark :meth:`mark` made before a write
        the disk refused (the recovery's cure or HP not kept) is taken back, so the spot is
        not spent (events74 RISK 3)."""
        with changing(self.path, CHANGER):
            self._load()
            if room in self.used:
                used = [r for r in self.used if r != room]
                pending = {r: p for r, p in self.pending.items() if r != room}
                self._save(used, pending)
                self.used, self.pending = used, pending

    def forget(self) -> list[str]:
        """Forget every used room (a new dungeon); the rooms it forgot. ``used`` is emptied
        only once the file is (a refused save leaves it as the file holds it)."""
        with changing(self.path, CHANGER):
            forgotten = self._load()
            self._save([], {})
        self.used, self.pending = [], {}
        return forgotten

    def _save(self, used: list[str], pending: dict[str, Pending]) -> None:
        document = tomlkit.document()
        document.add(tomlkit.comment(_COMMENT))
        document.add("used", used)
        if pending:
            table = tomlkit.table()
            for room, entry in pending.items():
                table.add(room, {"at": entry.at, "pid": entry.pid, "what": entry.what,
                                 **({"boot": entry.boot} if entry.boot else {})})
            document.add("pending", table)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_toml(self.path, document)
