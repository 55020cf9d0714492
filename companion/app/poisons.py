"""The poisons ``companion events`` and the dice tray track between rolls (EV-POI-2).

A poison a table gives a character is kept in ``events/poisoned.toml`` in the data folder,
a table per character, until time passing wears it off (``events end-block`` and ``rest``,
the tray's End block and Rest 1 hour), it is cured (``events cure``, a recovery spot,
EV-REC-1) or a new poison replaces it (EV-POI-3). :class:`PoisonList` holds them and writes
the file after every change. A file that cannot be read as one is kept aside (never
deleted) and tracking starts afresh, with a notice naming what was wrong.

The file is read again only when it is not the one last read or written, and each
character's table is written by tomlkit once: a roll at the tray with hundreds of poisons
tracked cost a reparse and a whole tomlkit document (380 ms at 838 on a PC, seconds on a
Pi; soak audit 57 #1).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from companion.app.command_name import companion_command
from companion.app.paths import data_dir
from companion.errors import DataError
from companion.file_locks import StillChanging, changing
from companion.files import atomic_write_text, load_toml_kept
from companion.systems.events.poisoned import (
    Poison,
    TimePassed,
    afflict,
    ended,
    pass_time,
    same_name,
    tracked_name,
)
from companion.systems.events.report import EventReport
from companion.systems.events.rules import EventRules
from companion.systems.events.sword_world import folded_name
from companion.toml_writing import table

POISONS_NAME = "poisoned.toml"
#: Whom a poison given to nobody named (generic mode, the tray) is tracked as.
UNNAMED = "victim"
#: Far larger than a party's poisons could ever be written.
_LIMIT = 256 * 1024
_COMMENT = ("Poisons companion events tracks (EV-POI-2): one table per character. "
            "`companion events cure --who NAME` removes one.")
_HEADER = tomlkit.dumps(tomlkit.document().add(tomlkit.comment(_COMMENT)))
#: Who holds the list while changing it, as its lock file says (:func:`changing`).
CHANGER = "companion, changing the poison list"
#: Which file a path holds (device, inode, modification time, size), as :func:`_identity`
#: tells it.
Identity = tuple[int, int, int, int]


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


def _entry(name: str, poison: Poison) -> str:
    """``name``'s poison as its TOML table, written by tomlkit (which quotes the name and
    the values as TOML wants) and checked to load back, as :func:`write_toml` checks a
    whole document."""
    text = tomlkit.dumps(tomlkit.document().add(name, table(poison.to_json())))
    tomllib.loads(text)
    return text


def _write(path: Path, entries: Mapping[tuple[str, Poison], str]) -> None:
    """Write the tracked poisons whole (a power cut leaves the old list or the new), from
    their tables' texts: the document tomlkit writes of them all, a blank line between."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, _HEADER + "".join("\n" + text for text in entries.values()))


def _identity(path: Path) -> Identity | None:
    """Which file is at ``path``; None when there is none. Only ever compared for equality:
    a Pi without a clock battery may set its clock back, so a newer file can have an older
    time, but a file written anew has an inode or a time or a size of its own."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


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
    #: a poison given to nobody named, by its ``victim N``: the unnamed poisons tracked
    #: beside it, which may be the same character's (EV-POI-3: then theirs ends)
    beside: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the list as the change read it, holding it (:meth:`PoisonList.track`): what the dice
    #: tray's *Undo* puts back (:meth:`PoisonList.put_back`); read before the hold, another
    #: program's change made between the two was dropped by the Undo (reviewe72 NIT 8)
    before: dict[str, Poison] = field(default_factory=dict)


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


def _earlier(earlier: tuple[str, ...]) -> tuple[str, str]:
    """The unnamed poisons ``earlier`` as a note names them (a crowded list, which the
    tray never drops, by its first and last only), and the ``--who`` that cures one."""
    which = (" or ".join(earlier) if len(earlier) <= 3
             else f"one of {earlier[0]} to {earlier[-1]}")
    return which, shlex.quote(earlier[0]) if len(earlier) == 1 else "NAME"


def beside_notes(tracked: Tracked) -> list[str]:
    """For each poison given to nobody named and tracked beside other unnamed ones
    (:attr:`Tracked.beside`): if it is the same character's as one of them, that one's
    earlier poison ends (EV-POI-3), which the list cannot know; the command that ends it.
    Said after the line that names it (``Tracking victim 2's poison``, reviewe68 NIT 2)."""
    notes = []
    for name, earlier in tracked.beside.items():
        which, who = _earlier(earlier)
        whose = f"{earlier[0]}'s" if len(earlier) == 1 else "that one's"
        notes.append(f"If {name} is the same character as {which}, {whose} earlier poison "
                     f"ends (EV-POI-3, 同一人物なら前の毒は終了): "
                     f"`{companion_command()} events cure --who {who}`")
    return notes


def beside_hint(tracked: Tracked) -> str:
    """:func:`beside_notes` short, for the dice tray's status line, where the walk's
    panel had no room for it (reviewe68 DEFECT 1); "" when no poison was tracked beside
    another."""
    hints = []
    for name, earlier in tracked.beside.items():
        which, who = _earlier(earlier)
        hints.append(f"{name} = {which}? 同一人物なら前の毒を解除: "
                     f"{companion_command()} events cure --who {who}")
    return "; ".join(hints)


def is_unnamed(name: str) -> bool:
    """Whether ``name`` is one the list gave a poison given to nobody named: ``victim``,
    ``victim 2``, … (but for case and width, as :meth:`PoisonList._unnamed` compares)."""
    head, _, number = folded_name(name).partition(" ")
    return head == UNNAMED and (not number or number.isdigit())


class PoisonList:
    """The tracked poisons by character, kept in ``path``.

    Each change reads the file first and writes it after, holding it the while
    (:func:`changing`), so the tray and ``companion events`` beside it change one list:
    neither writes back a copy older than the other's, nor one read before the other's
    change was written.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: why the file was kept aside when it was, for the player to read
        self.notices: list[str] = []
        #: the file ``poisons`` was last read from or written to, None when they may differ
        self._seen: Identity | None = None
        #: each poison's table as last written (:func:`_entry`), by name and poison
        self._entries: dict[tuple[str, Poison], str] = {}
        self.poisons: dict[str, Poison] = {}
        self.reload()

    def reload(self) -> dict[str, Poison]:
        """The list as the file has it now: read again unless it is the file last read or
        written (another program or the player changed it, else ``poisons`` holds it)."""
        # Looked at before reading: a file replaced during the read is read again next time.
        seen = _identity(self.path)
        if seen is None or seen != self._seen:
            self.poisons = _load(self.path, self.notices)
            self._seen = seen
        return self.poisons

    @contextlib.contextmanager
    def _changing(self, unsaved: Unsaved | None) -> Iterator[Callable[[], None]]:
        """The list held (:func:`changing`) while a change reads it, makes itself and writes
        it, giving the write (:meth:`save`) to call. Held past the wait by another program:
        :class:`StillChanging`, or with ``unsaved`` given why, the change then made on the
        list as read, and not written (the roll is shown, its poison said not tracked)."""
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(changing(self.path, CHANGER))
            except StillChanging as exc:
                if unsaved is None:
                    raise
                refused = exc

                def untold() -> None:
                    self._seen = None  # read again at the next change
                    unsaved(f"{self.path} ({refused.strerror})")

                yield untold
                return
            yield lambda: self.save(unsaved)

    def track(self, report: EventReport, unsaved: Unsaved | None = None) -> Tracked:
        """Keep the poisons ``report`` gave (EV-POI-3: each replaces that character's last),
        and cure those of the members a recovery spot cured (EV-REC-1). A poison given to
        nobody named is tracked as ``victim``, ``victim 2``, …: another's, never lost.
        ``unsaved``: see :meth:`save`."""
        cures = [step.data["cured"] for step in report.find("EV-REC-1")
                 if step.data.get("cure_poison")]
        # Read before deciding: a cure of everyone (``cured`` None) is of those the file
        # holds now, not of the list as last read (review58c F2).
        now = self.reload()
        if not report.find("EV-POI-3") and not any(
                same_name(now, name) for names in cures
                for name in (now if names is None else names)):
            # Nothing to track, nor anyone tracked to cure (most rolls): no lock file, nor
            # its folder, is made for it (a write and a removal on the SD card each roll).
            return Tracked((), {}, {}, bool(cures) and cures[-1] == [])
        with self._changing(unsaved) as save:
            before = dict(self.reload())
            cured: dict[str, Poison] = {}
            cured_unnamed = False
            for step in report.find("EV-REC-1"):
                if step.data.get("cure_poison"):
                    names = step.data["cured"]
                    cured_unnamed = names == []
                    for name in list(self.poisons) if names is None else names:
                        for same in same_name(self.poisons, name):  # aki's for Aki
                            cured[same] = self.poisons.pop(same)
            poisoned: list[str] = []
            replaced: dict[str, Poison] = {}
            beside: dict[str, tuple[str, ...]] = {}
            for step in report.find("EV-POI-3"):
                name = step.member
                if name is None:
                    name = self._unnamed()
                    earlier = tuple(n for n in self.poisons if is_unnamed(n))
                    if earlier:
                        beside[name] = earlier
                new = Poison.from_json(step.data["poison"], "the poison table")
                self._replace(name, new, replaced)
                poisoned.append(name)
            if poisoned or cured:
                save()
        return Tracked(tuple(poisoned), replaced, cured, cured_unnamed, beside, before)

    def _replace(self, name: str, new: Poison, replaced: dict[str, Poison]) -> None:
        """EV-POI-3: ``new`` is ``name``'s poison, in place of the one tracked under their
        name but for case and width (aki's for Aki: one character, one poison; events62
        D1), kept in ``replaced``; the name is now spelt as the event gave it."""
        alike = same_name(self.poisons, name)
        old = None
        for same in alike:
            old = replaced[same] = self.poisons[same]
        if not alike:
            self.poisons[name] = afflict(None, new)
            return
        # where the old one stood in the list, the others as they were
        self.poisons = {(name if key == alike[0] else key):
                        (afflict(old, new) if key == alike[0] else poison)
                        for key, poison in self.poisons.items()
                        if key == alike[0] or key not in alike}

    def _unnamed(self) -> str:
        """The first of ``victim``, ``victim 2``, … not tracked yet, but for case and width
        too: :meth:`_replace` folds, and an unnamed poison replaced the tracked poison of a
        character named ``Victim`` (review62a E1). The tracked names are folded once:
        folding them all again for each ``victim N`` tried made a roll quadratic in the
        list, 120 ms of CPU at 1000 poisons (hist63 F4, scripts/bench_poisons.py)."""
        taken = {folded_name(tracked) for tracked in self.poisons}
        n = 1
        while folded_name(name := UNNAMED if n == 1 else f"{UNNAMED} {n}") in taken:
            n += 1
        return name

    def pass_time(self, rules: EventRules, rest_hours: int | None = None,
                  unsaved: Unsaved | None = None,
                  hp: Mapping[str, int] | None = None) -> TimePassed:
        """EV-POI-2: the end of a block, or a rest of ``rest_hours`` hours. ``unsaved``: see
        :meth:`save`; ``hp``: each character's HP now, said beside what a poison takes of
        it (:func:`~companion.systems.events.poisoned.pass_time`)."""
        with self._changing(unsaved) as save:
            passed = pass_time(self.reload(), rules, rest_hours, hp)
            self.poisons = passed.poisons
            save()
        return passed

    def cure(self, who: str) -> Poison:
        """Remove ``who``'s poison (the GM's cure succeeded); DataError if none is tracked."""
        with self._changing(None) as save:
            poisons = self.reload()
            who = tracked_name(poisons, who)  # aki for Aki, as the command looks it up
            poison = poisons[who]
            del self.poisons[who]
            save()
        return poison

    def put_back(self, before: Mapping[str, Poison], after: Mapping[str, Poison]) -> bool:
        """The list back to ``before`` while it is still ``after`` (what a change made of
        it): the dice tray's *Undo* of a table whose die was typed wrong takes back the
        poison, or the cure, it tracked (events72 RISK 3). False, and nothing changed, when
        the list changed since (``companion events`` beside, a Tick). A write refused
        raises the OSError, as :meth:`save` does."""
        with self._changing(None) as save:
            if self.reload() != after:
                return False
            self.poisons = dict(before)
            save()
        return True

    def save(self, unsaved: Unsaved | None = None) -> None:
        """Write the list. A file that cannot be written (a read-only or full folder) raises
        the OSError; with ``unsaved`` that is given why instead ("<path> (<folder>: no file
        can be made in this folder: Permission denied)", "<path> (No space left on
        device)"), for a session that goes on (the dice tray, ``companion events``: each
        shows its roll and says the list was not saved)."""
        # Until it is written, the file is not what ``poisons`` holds: a write refused leaves
        # the last list there, and the next change reads it back, as it always did.
        self._seen = None
        self._entries = {(name, poison): self._entries.get((name, poison))
                         or _entry(name, poison) for name, poison in self.poisons.items()}
        try:
            _write(self.path, self._entries)
            self._seen = _identity(self.path)
        except OSError as exc:
            if unsaved is None:
                raise
            where = exc.filename or exc.filename2
            # A full disk's error names the list itself: said once.
            shown = f"{where}: " if where and Path(where) != self.path else ""
            unsaved(f"{self.path} ({shown}{exc.strerror or exc})")

    def to_json(self) -> dict[str, dict[str, object]]:
        return {name: poison.to_json() for name, poison in self.poisons.items()}
