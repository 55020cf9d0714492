"""Reading the rules data files: TOML with shape checks that name file, field and value."""

from __future__ import annotations

import difflib
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import DataError, bound_text, utf8_text

T = TypeVar("T")


def load_packaged(name: str) -> tuple[str, dict[str, Any]]:
    """Load ``companion/systems/jongrogue/data/<name>``; return (a label for errors, the table).
    The README points players at these files, so one is read as a profile is
    (:func:`read_text`): a byte-order mark dropped, an old Mac's bare \\r line ends read
    as line ends (reviewj68 NIT 1: refused as "invalid character"), and a file that is gone
    or cannot be read a DataError that names it, not a traceback (reviewj68 RISK 1)."""
    label = f"companion/systems/jongrogue/data/{name}"
    try:
        data = (files("companion.systems.jongrogue") / "data" / name).read_bytes()
    except OSError as exc:
        raise DataError(f"{label}: cannot read: {exc.strerror or exc}") from exc
    return label, _parse(_text(data, "rules data file", label), name)


def read_text(path: Path, what: str = "profile") -> str:
    """A user's text file (the ``what``), or a DataError that names it and says what went
    wrong. A UTF-8 byte-order mark before the text, which Windows Notepad writes, is no part
    of it (jr68 RISK 1: a profile saved so was refused as "not valid TOML … line 1, column
    1"), as config.toml and the other systems' files are read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror}") from exc
    return _text(data, what, path)


def _text(data: bytes, what: str, path: str | Path) -> str:
    """``data`` as text (:func:`~companion.errors.utf8_text`), its line ends as
    ``Path.read_text`` reads them (\\r\\n and \\r as \\n), as they were."""
    return utf8_text(data, what, path).replace("\r\n", "\n").replace("\r", "\n")


def load_file(path: Path) -> tuple[str, dict[str, Any]]:
    return str(path), _parse(read_text(path), str(path))


def _parse(text: str, label: str) -> dict[str, Any]:
    # RecursionError: a file thousands of brackets deep (an editing accident) runs the parser
    # out of stack; companion.files.loads_toml says it so, but no system imports the files.
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{label}: not valid TOML: {exc}") from exc
    except RecursionError:
        raise DataError(f"{label}: not valid TOML: nested too deeply to read") from None


class Fields:
    """A view of one TOML table that checks each field as it is read."""

    def __init__(self, source: str, table: Any, where: str = "", key: str = "") -> None:
        if not isinstance(table, dict):
            raise DataError(f"{source}: {where or 'the file'} must be a table, found {table!r}")
        self.source, self.table, self.where, self.key = source, table, where, key
        self.read: set[str] = set()  # the keys asked for, so the rest can be refused
        self.subs: list[Fields] = []

    def _name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def _get(self, key: str, kind: type[T], what: str) -> T:
        self.read.add(key)
        if key not in self.table:
            raise DataError(f"{self.source}: missing field {self._name(key)} ({what})")
        value = self.table[key]
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise DataError(
                f"{self.source}: field {self._name(key)} must be {what}, found {value!r}"
            )
        return value

    def number(self, key: str, lo: int | None = None, hi: int | None = None) -> int:
        if lo is not None and hi is not None:
            span = f" from {bound_text(lo)} to {bound_text(hi)}"
        elif lo is not None:
            span = f" {bound_text(lo)} or more"
        elif hi is not None:
            span = f" {bound_text(hi)} or less"
        else:
            span = ""
        value = self._get(key, int, f"a whole number{span}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise DataError(
                f"{self.source}: field {self._name(key)} must be a whole number{span}, "
                f"found {value!r}"
            )
        return value

    def text(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        what = "one of " + ", ".join(repr(c) for c in choices) if choices else "text"
        value = self._get(key, str, what)
        if choices is not None and value not in choices:
            raise DataError(
                f"{self.source}: field {self._name(key)} must be {what}, found {value!r}"
            )
        return value

    def name(self, key: str) -> str:
        """Text that names a thing the player is shown (an item, the PC's weapon). A blank
        one is read here, and refused to a new game by the profile's own check
        (``profile._blank_names``): a game begun with one before that was played so, and
        resumes so (reviewb74 D4)."""
        return self._get(key, str, "a name (text)")

    def flag(self, key: str) -> bool:
        return self._get(key, bool, "true or false")

    def array(self, key: str) -> list[Any]:
        return self._get(key, list, "a list")

    def sub(self, key: str) -> Fields:
        self.read.add(key)
        if key not in self.table:
            raise DataError(f"{self.source}: missing table {self._name(key)}")
        sub = Fields(self.source, self.table[key], self._name(key), key)
        self.subs.append(sub)
        return sub

    def unread(self, given: dict[str, Any] | None = None) -> list[str]:
        """What is wrong with each key nothing asked for, here or in a table below: a
        misspelt key would otherwise be dropped silently and the rule it meant play with
        another value. With ``given``, only its keys are told: the table read is another
        one (the packaged profile) with ``given`` (the user's file) written over it, and a
        packaged key nothing reads (an item of another kind now) is not the user's slip."""
        found: list[str] = []
        for key, value in self.table.items():
            if key not in self.read and (given is None or key in given):
                near = difflib.get_close_matches(key, sorted(self.read), 1)
                hint = f" (did you mean {self._name(near[0])}?)" if near else ""
                what = "table" if isinstance(value, dict) else "field"
                found.append(f"{self.source}: {what} {self._name(key)} is unknown here{hint}")
        for sub in self.subs:
            below = None if given is None else given.get(sub.key)
            if given is None or isinstance(below, dict):
                found += sub.unread(below)
        return found

    def error(self, key: str, message: str) -> DataError:
        return DataError(f"{self.source}: field {self._name(key)} {message}")
