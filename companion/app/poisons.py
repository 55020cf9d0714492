"""The poisons ``companion events`` and the dice tray track between rolls (EV-POI-2).

A poison a table gives a character is kept in ``events/poisoned.toml`` in the data folder,
a table per character, until time passing wears it off (``events end-block`` and ``rest``,
the tray's End block and Rest 1 hour), it is cured (``events cure``, a recovery spot,
EV-REC-1) or a new poison replaces it (EV-POI-3). :class:`PoisonList` holds them and writes
the file after every change. A file that cannot be read as one is kept aside (never
deleted) and tracking starts afresh, with a notice naming what was wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import tomlkit

from companion.app.paths import data_dir
from companion.errors import DataError
from companion.files import load_toml_kept
from companion.systems.events.poisoned import (
    Poison,
    TimePassed,
    afflict,
    ended,
    pass_time,
    tracked_name,
)
from companion.systems.events.report import EventReport
from companion.systems.events.rules import EventRules
from companion.toml_writing import table, write_toml

POISONS_NAME = "poisoned.toml"
#: Whom a poison given to nobody named (generic mode, the tray) is tracked as.
UNNAMED = "victim"
#: Far larger than a party's poisons could ever be written.
_LIMIT = 256 * 1024
_COMMENT = ("Poisons companion events tracks (EV-POI-2): one table per character. "
            "`companion events cure --who NAME` removes one.")


def poisons_path() -> Path:
    return data_dir() / "events" / POISONS_NAME


def _load(path: Path, notices: list[str]) -> dict[str, Poison]:
    """The tracked poisons by character; none when there is no file. A file that is not a
    list of poisons is moved aside, and ``notices`` says why and where it was kept."""
    return load_toml_kept(path, _LIMIT, "list of poisons", _poisons, {},
                          "no poison is tracked now", notices)


def _poisons(raw: dict[str, object]) -> dict[str, Poison]:
    poisons = {}
    for name, fields in raw.items():
        if not isinstance(fields, dict):
            raise DataError(f"{name!r} must be a [table] of its poison's fields, found {fields!r}")
        poisons[name] = Poison.from_json(fields, f"{name}'s poison")
    return poisons


def _write(path: Path, poisons: Mapping[str, Poison]) -> None:
    """Write the tracked poisons whole (a power cut leaves the old list or the new)."""
    document = tomlkit.document()
    document.add(tomlkit.comment(_COMMENT))
    for name, poison in poisons.items():
        document.add(name, table(poison.to_json()))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_toml(path, document)


#: Told why the list could not be saved (:meth:`PoisonList.save`).
Unsaved = Callable[[str], object]


@dataclass(frozen=True)
class Tracked:
    """What an event did to the list: who was poisoned, the poisons theirs replaced
    (EV-POI-3), those a recovery spot cured (EV-REC-1), and whether it cured one member's
    the walk could not name (generic mode, the first member only)."""

    poisoned: tuple[str, ...]
    replaced: dict[str, Poison]
    cured: dict[str, Poison]
    cured_unnamed: bool = False


def tracking_notes(tracked: Tracked, rules: EventRules) -> list[str]:
    """The poisons an event ended, each named with what its end gives back (EV-POI-9):
    cured at a recovery spot, or replaced by a new one (EV-POI-3)."""
    notes = []
    if tracked.cured:
        notes.append("Poisons cured (EV-REC-1): "
                     + ", ".join(ended(n, p, rules) for n, p in tracked.cured.items()))
    notes += [f"The new poison replaces {ended(n, p, rules)} (EV-POI-3)"
              for n, p in tracked.replaced.items()]
    return notes


class PoisonList:
    """The tracked poisons by character, kept in ``path``.

    Each change reads the file first and writes it after, so the tray and ``companion
    events`` beside it change one list: neither writes back a copy older than the other's.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: why the file was kept aside when it was, for the player to read
        self.notices: list[str] = []
        self.poisons = self.reload()

    def reload(self) -> dict[str, Poison]:
        """The list as the file has it now."""
        self.poisons = _load(self.path, self.notices)
        return self.poisons

    def track(self, report: EventReport, unsaved: Unsaved | None = None) -> Tracked:
        """Keep the poisons ``report`` gave (EV-POI-3: each replaces that character's last),
        and cure those of the members a recovery spot cured (EV-REC-1). A poison given to
        nobody named is tracked as ``victim``, ``victim 2``, …: another's, never lost.
        ``unsaved``: see :meth:`save`."""
        self.reload()
        cured: dict[str, Poison] = {}
        cured_unnamed = False
        for step in report.find("EV-REC-1"):
            if step.data.get("cure_poison"):
                names = step.data["cured"]
                cured_unnamed = names == []
                for name in list(self.poisons) if names is None else names:
                    if name in self.poisons:
                        cured[name] = self.poisons.pop(name)
        poisoned, replaced = [], {}
        for step in report.find("EV-POI-3"):
            name = step.member or self._unnamed()
            new = Poison.from_json(step.data["poison"], "the poison table")
            if name in self.poisons:
                replaced[name] = self.poisons[name]
            self.poisons[name] = afflict(self.poisons.get(name), new)
            poisoned.append(name)
        if poisoned or cured:
            self.save(unsaved)
        return Tracked(tuple(poisoned), replaced, cured, cured_unnamed)

    def _unnamed(self) -> str:
        """The first of ``victim``, ``victim 2``, … not tracked yet."""
        n = 1
        while (name := UNNAMED if n == 1 else f"{UNNAMED} {n}") in self.poisons:
            n += 1
        return name

    def pass_time(self, rules: EventRules, rest_hours: int | None = None,
                  unsaved: Unsaved | None = None) -> TimePassed:
        """EV-POI-2: the end of a block, or a rest of ``rest_hours`` hours. ``unsaved``: see
        :meth:`save`."""
        passed = pass_time(self.reload(), rules, rest_hours)
        self.poisons = passed.poisons
        self.save(unsaved)
        return passed

    def cure(self, who: str) -> Poison:
        """Remove ``who``'s poison (the GM's cure succeeded); DataError if none is tracked."""
        poisons = self.reload()
        who = tracked_name(poisons, who)  # aki for Aki, as the command looks it up
        poison = poisons[who]
        del self.poisons[who]
        self.save()
        return poison

    def save(self, unsaved: Unsaved | None = None) -> None:
        """Write the list. A file that cannot be written (a read-only or full folder) raises
        the OSError; with ``unsaved`` that is given why instead ("<path> (<folder>: no file
        can be made in this folder: Permission denied)", "<path> (No space left on
        device)"), for a session that goes on (the dice tray, ``companion events``: each
        shows its roll and says the list was not saved)."""
        try:
            _write(self.path, self.poisons)
        except OSError as exc:
            if unsaved is None:
                raise
            where = exc.filename or exc.filename2
            # A full disk's error names the list itself: said once.
            shown = f"{where}: " if where and Path(where) != self.path else ""
            unsaved(f"{self.path} ({shown}{exc.strerror or exc})")

    def to_json(self) -> dict[str, dict[str, object]]:
        return {name: poison.to_json() for name, poison in self.poisons.items()}
