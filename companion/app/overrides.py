"""A game system's Defaults as the player set them: their file, then ``--set`` flags.

Every system with Defaults keyed by rule ID (events, genso, coc) reads them the same way:
the packaged rules data, then ``<system>.toml`` in the user's config folder (its
``[defaults]`` table, ``RULE = { key = value }``), then ``--set RULE.key=value`` on the
command line. The system's own ``with_overrides`` checks each one and refuses a number
the seed states outright.
"""

from __future__ import annotations

import argparse
import difflib
import re
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

import tomlkit

from companion.app.paths import config_dir
from companion.errors import DataError
from companion.errors import utf8_text as utf8_text  # the fight files' readers import it here
from companion.files import file_there, loads_toml, open_regular


class Overridable(Protocol):
    """Rules data that takes the player's overrides, naming where they came from."""

    def with_overrides(self, overrides: Mapping[str, Mapping[str, Any]], origin: str) -> Self:
        ...


def read_text(path: str | Path, what: str) -> str:
    """A file the player gave us, or a DataError saying which and why it cannot be read.

    A UTF-8 byte-order mark (BOM) before the text is dropped, as the camera settings and
    the save files take one (genso67 NIT 7: a sheet or ``genso.toml`` saved by an older
    Windows Notepad was "not TOML … line 1, column 1"): :func:`companion.errors.utf8_text`,
    which the fight files' readers import from here too.

    Read only as a regular file (:func:`companion.files.open_regular`): a folder, a device
    or a pipe is a DataError at once ("…/fights: a folder, not a fight"), where a pipe's
    ``read_bytes`` waited for a writer for ever, saying nothing (a78gensofight item 1)."""
    try:
        with open_regular(Path(path), what) as handle:
            data = handle.read()
    except OSError as exc:
        raise DataError(f"cannot read the {what} {path}: {exc.strerror}") from exc
    # Line ends as ``Path.read_text`` reads them (\r\n and \r as \n), as they were.
    return utf8_text(data, what, path).replace("\r\n", "\n").replace("\r", "\n")


#: A number as a player may type it: digits with an optional sign and decimal part.
NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
#: The only table a Defaults file is read for; anything else beside it is a mistake.
SECTIONS = ("defaults",)


def parse_set(text: str, example: str) -> tuple[str, str, Any]:
    """``EV-DOOR-3.enabled=true`` → ("EV-DOOR-3", "enabled", True); values are TOML, and a
    bare word (``random``, ``sw``) is taken as text.

    A number may be typed in full-width digits (``３``, ``－２``), as ``--level ３`` takes
    them: a Japanese input method gives those.

    >>> parse_set("EV-CORE-1.dm_level=３", "")
    ('EV-CORE-1', 'dm_level', 3)
    """
    name, sep, raw = text.partition("=")
    rule, dot, key = name.strip().rpartition(".")
    if not sep or not dot or not rule or not key:
        raise DataError(f"--set {text!r}: write RULE.key=value, e.g. {example}")
    raw = raw.strip()
    # NFKC folds the width (３ → 3, － → -), and − (U+2212) is a minus too; anything but
    # a plain number is kept as typed, so Japanese text in a setting is never changed.
    narrow = unicodedata.normalize("NFKC", raw).replace("\u2212", "-")
    if NUMBER.fullmatch(narrow):
        raw = narrow
    try:
        value = loads_toml(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return rule, key, value


def _check_sections(data: Mapping[str, Any], path: Path) -> None:
    """Refuse a key beside ``[defaults]``: a misspelt table would otherwise be ignored."""
    for key in data:
        if key in SECTIONS:
            continue
        hint = "; the Defaults go in [defaults.\"RULE-ID\"] tables"
        if key == "source":
            hint = "; the seed's numbers ([source]) are the book's rules and cannot be changed"
        elif difflib.get_close_matches(key, SECTIONS, n=1):
            hint = "; did you mean [defaults]?"
        raise DataError(f"{path}: unknown table or key {key!r}{hint}")


R = TypeVar("R", bound=Overridable)


def user_defaults(filename: str) -> tuple[str, Mapping[str, Any]]:
    """The player's Defaults file (``filename`` in the config folder) and its
    ``{rule: {key: value}}``, empty when there is none; its shape is checked here, its
    values by the rules that take them."""
    path = config_dir() / filename
    if not file_there(path):
        return str(path), {}
    try:
        data = loads_toml(read_text(path, "Defaults file"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not TOML ({exc})") from exc
    _check_sections(data, path)
    return str(path), data.get("defaults", {})


def how_to_set(filename: str, example: str) -> str:
    """How a player changes a Default, after a ``defaults`` listing: in ``filename`` in the
    config folder for every run (its TOML shape shown with ``example``), or with ``--set``
    for one run."""
    rule, key, value = parse_set(example, example)
    entry = tomlkit.document()
    entry.add(key, value)
    return (f"\nChange one for every run in {config_dir() / filename}:\n"
            f"  [defaults.\"{rule}\"]\n  {tomlkit.dumps(entry).strip()}\n"
            f"or for one run: --set {example}")


def set_values(settings: Sequence[str], example: str) -> dict[str, dict[str, Any]]:
    """``--set RULE.key=value`` flags as ``{rule: {key: value}}``."""
    overrides: dict[str, dict[str, Any]] = {}
    for text in settings:
        rule, key, value = parse_set(text, example)
        overrides.setdefault(rule, {})[key] = value
    return overrides


def user_rules(rules: R, filename: str, settings: Sequence[str], example: str) -> R:
    """``rules`` with the player's file (``filename`` in the config folder) and ``--set``
    overrides applied, in that order."""
    origin, defaults = user_defaults(filename)
    rules = rules.with_overrides(defaults, origin)
    return rules.with_overrides(set_values(settings, example), "--set")


def add_set_argument(parser: argparse.ArgumentParser, example: str) -> None:
    parser.add_argument("--set", action="append", metavar="RULE.key=value",
                        help=f"override a Default for this run, e.g. {example}")
