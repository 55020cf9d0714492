"""System `events`: the player's own lists of monsters and small recovery items (spec §1).

The seed's monster table gives a level and a count, not a species, and the list of small
recovery items it rewards is missing (EV-MON-1, EV-EXP-4). Their Defaults let the GM name
them, "or the program offers a user-loaded monster list filtered by level" and "picks
from a user-supplied list". :func:`load_lists` reads that list file: ``[[monster]]``
tables with a name and a level, ``[[item]]`` tables with a name.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.dice.notation import MAX_SIDES
from companion.errors import DataError
from companion.systems.defaults import refuse_control, toml_value

#: The tables whose walk can come to a list: the monster table's species (EV-MON-1), the
#: exploration's items (EV-EXP-4), and those that walk on to the monster table, a trap's
#: alarm (EV-TRAP-6) and a door's or chest's trap set off by a failed disarm (EV-DOOR-3).
#: Only these read the list file: one written wrong stopped every table and the poison
#: actions too (events72 DEFECT 2).
LIST_TABLES = frozenset({"door", "chest", "trap", "monster", "explore"})

#: What draws nothing on the screen: format characters (a zero-width space, U+200B; a
#: joiner) and separators. A name of these alone is blank to the eye, as an empty one.
_UNSEEN = {"Cf", "Zs", "Zl", "Zp"}


@dataclass(frozen=True, slots=True)
class Species:
    """A monster of the player's list: its name (both languages, as they wrote it), level."""

    name: str
    level: int


@dataclass(frozen=True, slots=True)
class UserLists:
    """Monsters to pick from by level (EV-MON-1), small recovery items (EV-EXP-4)."""

    monsters: tuple[Species, ...] = ()
    items: tuple[str, ...] = ()

    def of_level(self, level: int) -> tuple[str, ...]:
        return tuple(m.name for m in self.monsters if m.level == level)


def players_toml(text: str, origin: str) -> dict[str, Any]:
    """The TOML of a file a player wrote (a list file, a party file); :class:`DataError`
    naming ``origin`` when it is not TOML, or nested thousands deep (an editing accident
    that runs the parser out of stack)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc
    except RecursionError:
        raise DataError(f"{origin}: not TOML (nested too deeply to read)") from None


def load_lists(text: str, origin: str = "list file") -> UserLists:
    """``[[monster]]`` (name, level) and ``[[item]]`` (name) tables; DataError names the
    table and field that is wrong."""
    data = players_toml(text, origin)
    unknown = sorted(set(data) - {"monster", "item"})
    if unknown:
        raise DataError(f"{origin}: unknown table {unknown[0]!r}; write [[monster]] tables "
                        "(name, level) and [[item]] tables (name)")
    monsters = tuple(Species(row["name"], row["level"])
                     for row in _rows(data, "monster", {"name", "level"}, origin))
    items = tuple(row["name"] for row in _rows(data, "item", {"name"}, origin))
    if not monsters and not items:
        raise DataError(f"{origin}: needs [[monster]] tables (name, level) or [[item]] "
                        "tables (name)")
    _check_sizes(monsters, items, origin)
    return UserLists(monsters, items)


def _check_sizes(monsters: tuple[Species, ...], items: tuple[str, ...], origin: str) -> None:
    """A pick is one die of as many sides as there are names to pick from (EV-MON-1's of a
    level, EV-EXP-4's items), and a die has at most :data:`MAX_SIDES`: past it the walk
    stopped on a ``1D20000`` the player never typed, after the table's own throw (events72
    NIT 8). Refused at load, naming the level or the items."""
    levels = Counter(m.level for m in monsters)
    crowded = sorted(level for level, n in levels.items() if n > MAX_SIDES)
    if crowded:
        raise DataError(f"{origin}: level {crowded[0]} has {levels[crowded[0]]:,} monsters; "
                        f"a level may have up to {MAX_SIDES:,} (one die picks among them)")
    if len(items) > MAX_SIDES:
        raise DataError(f"{origin}: {len(items):,} items; the list may have up to "
                        f"{MAX_SIDES:,} (one die picks among them)")


def _rows(data: dict[str, Any], kind: str, keys: set[str], origin: str) -> list[dict[str, Any]]:
    rows = data.get(kind, [])
    if not isinstance(rows, list):
        raise DataError(f"{origin}: {kind} must be [[{kind}]] tables")
    for number, row in enumerate(rows, 1):
        where = f"{origin}: {kind} {number}"
        if not isinstance(row, dict):
            raise DataError(f"{where}: must be a [[{kind}]] table, found {toml_value(row)}")
        if set(row) != keys:
            wrong = sorted(set(row) - keys) or sorted(keys - set(row))
            what = "unknown field" if set(row) - keys else "needs"
            raise DataError(f"{where}: {what} {wrong[0]!r}")
        if not isinstance(row["name"], str) or not row["name"].strip():
            raise DataError(f"{where}: name must be text, found {toml_value(row['name'])}")
        _check_name(row["name"], where)
        level = row.get("level", 1)
        if not isinstance(level, int) or isinstance(level, bool) or level < 1:
            raise DataError(f"{where} ({row['name']}): level must be a whole number of 1 or "
                            f"more, found {toml_value(level)}")
    return rows


def _check_name(name: str, where: str) -> None:
    """A list's name is printed as it is, on the terminal and the tray's screen: one holding
    a control character (an ESC cleared the terminal, a line end broke the line) is refused
    as every reader of a name the player wrote refuses it (:func:`refuse_control`), and so
    is one of nothing visible (``"\\u200b"`` was picked as an invisible species; events72
    DEFECT 1). ``where`` names the file, the list and the entry: ``lists.toml: monster 2``.

    >>> _check_name("\\u200b", "lists.toml: monster 3")
    Traceback (most recent call last):
    ...
    companion.errors.DataError: lists.toml: monster 3: name '\\u200b' shows nothing; give \
the name as printable text
    """
    refuse_control(name, f"{where}: name")
    if all(unicodedata.category(c) in _UNSEEN for c in name):
        raise DataError(f"{where}: name {name!r} shows nothing; give the name as printable "
                        "text")
