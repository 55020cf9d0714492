"""The rooms whose recovery spot ``companion events recovery --room NAME`` used (EV-REC-1).

A recovery spot works once: coming back to its room gives nothing. The rooms the player
named are kept in ``events/recovery_rooms.toml`` in the data folder until
``companion events new-dungeon`` forgets them. A file that cannot be read as one is kept
aside (never deleted) and the list starts afresh, with a notice naming what was wrong.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import tomlkit

from companion.app.paths import data_dir
from companion.errors import DataError
from companion.file_locks import changing
from companion.files import load_toml_kept
from companion.systems.defaults import toml_value
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


def _used(raw: dict[str, object]) -> list[str]:
    used = raw.get("used", [])
    if not isinstance(used, list) or not all(isinstance(r, str) for r in used):
        raise DataError(f"'used' must be a list of room names, found {toml_value(used)}")
    return used


class RecoveryRooms:
    """The used rooms, kept in ``path``; each change reads the file first and writes after,
    holding it the while (:func:`changing`): a room marked by another program between the
    read and the write is not written over. Held past the wait by another, a change raises
    :class:`~companion.file_locks.StillChanging` (an OSError) and changes nothing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: why the file was kept aside when it was, for the player to read
        self.notices: list[str] = []
        self.used = self._load()

    def _load(self) -> list[str]:
        return load_toml_kept(self.path, _LIMIT, "list of used recovery rooms", _used, [],
                              "no room counts as used now", self.notices)

    def mark(self, room: str) -> bool:
        """Remember that ``room``'s spot is used; whether this marked it (False: the file
        held it already). ``used`` changes only once the file holds it: a save the disk
        refused left the room in it, and ``--json`` listed as spent a room the file did
        not hold."""
        with changing(self.path, CHANGER):
            self.used = self._load()
            if room in self.used:
                return False
            used = [*self.used, room]
            self._save(used)
            self.used = used
            return True

    def unmark(self, room: str) -> None:
        """Forget that ``room``'s spot is used: the mark :meth:`mark` made before a write
        the disk refused (the recovery's cure or HP not kept) is taken back, so the spot is
        not spent (events74 RISK 3)."""
        with changing(self.path, CHANGER):
            self.used = self._load()
            if room in self.used:
                used = [r for r in self.used if r != room]
                self._save(used)
                self.used = used

    def forget(self) -> list[str]:
        """Forget every used room (a new dungeon); the rooms it forgot. ``used`` is emptied
        only once the file is (a refused save leaves it as the file holds it)."""
        with changing(self.path, CHANGER):
            forgotten = self.used = self._load()
            self._save([])
        self.used = []
        return forgotten

    def _save(self, used: list[str]) -> None:
        document = tomlkit.document()
        document.add(tomlkit.comment(_COMMENT))
        document.add("used", used)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_toml(self.path, document)
