"""The poisons ``companion events`` tracks from one command to the next (EV-POI-2).

A poison a table gives a character is kept in ``events/poisoned.toml`` in the data folder,
a table per character, until ``events end-block`` or ``events rest`` wears it off,
``events cure`` or a recovery spot (EV-REC-1) cures it, or a new poison replaces it
(EV-POI-3). A file that cannot be read as one is kept aside (never deleted) and tracking
starts afresh, with a notice naming what was wrong.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

import tomlkit

from companion.app.paths import data_dir
from companion.errors import DataError
from companion.files import move_aside, read_regular, table, write_toml
from companion.systems.events.poison import Poison

POISONS_NAME = "poisoned.toml"
#: Far larger than a party's poisons could ever be written.
_LIMIT = 256 * 1024
_COMMENT = ("Poisons companion events tracks (EV-POI-2): one table per character. "
            "`companion events cure --who NAME` removes one.")


def poisons_path() -> Path:
    return data_dir() / "events" / POISONS_NAME


def load_poisons(path: Path, notices: list[str]) -> dict[str, Poison]:
    """The tracked poisons by character; none when there is no file. A file that is not a
    list of poisons is moved aside, and ``notices`` says why and where it was kept."""
    try:
        data = read_regular(path, _LIMIT, "poison list")
    except FileNotFoundError:
        return {}
    try:
        raw = tomllib.loads(data.decode("utf-8"))
        poisons = {}
        for name, fields in raw.items():
            if not isinstance(fields, dict):
                raise DataError(f"{name!r} should be a [table] of its poison's fields")
            poisons[name] = Poison.from_json(fields, f"{name}'s poison")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, DataError) as exc:
        try:
            kept = f"it was kept as {move_aside(path).name}"
        except OSError as err:  # a read-only folder: it stays where it is
            kept = f"it could not be kept aside ({err.strerror})"
        notices.append(f"{path} is not a list of poisons ({exc}); {kept} and no poison is "
                       "tracked now")
        return {}
    return poisons


def save_poisons(path: Path, poisons: Mapping[str, Poison]) -> None:
    """Write the tracked poisons whole (a power cut leaves the old list or the new)."""
    document = tomlkit.document()
    document.add(tomlkit.comment(_COMMENT))
    for name, poison in poisons.items():
        document.add(name, table(poison.to_json()))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_toml(path, document)
