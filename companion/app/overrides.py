"""A game system's Defaults as the player set them: their file, then ``--set`` flags.

Every system with Defaults keyed by rule ID (events, genso, coc) reads them the same way:
the packaged rules data, then ``<system>.toml`` in the user's config folder (its
``[defaults]`` table, ``RULE = { key = value }``), then ``--set RULE.key=value`` on the
command line. The system's own ``with_overrides`` checks each one and refuses a number
the seed states outright.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

from companion.app.paths import config_dir
from companion.errors import DataError


class Overridable(Protocol):
    """Rules data that takes the player's overrides, naming where they came from."""

    def with_overrides(self, overrides: Mapping[str, Mapping[str, Any]], origin: str) -> Self:
        ...


def read_text(path: str | Path, what: str) -> str:
    """A file the player gave us, or a DataError saying which and why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read the {what} {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"the {what} {path} is not UTF-8 text "
                        f"(byte {exc.start + 1} cannot be read)") from exc


def parse_set(text: str, example: str) -> tuple[str, str, Any]:
    """``EV-DOOR-3.enabled=true`` → ("EV-DOOR-3", "enabled", True); values are TOML, and a
    bare word (``random``, ``sw``) is taken as text."""
    name, sep, raw = text.partition("=")
    rule, dot, key = name.strip().rpartition(".")
    if not sep or not dot or not rule or not key:
        raise DataError(f"--set {text!r}: write RULE.key=value, e.g. {example}")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return rule, key, value


R = TypeVar("R", bound=Overridable)


def user_rules(rules: R, filename: str, settings: Sequence[str], example: str) -> R:
    """``rules`` with the player's file (``filename`` in the config folder) and ``--set``
    overrides applied, in that order."""
    path = config_dir() / filename
    if path.exists():
        try:
            data = tomllib.loads(read_text(path, "Defaults file"))
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{path}: not TOML ({exc})") from exc
        rules = rules.with_overrides(data.get("defaults", {}), str(path))
    overrides: dict[str, dict[str, Any]] = {}
    for text in settings:
        rule, key, value = parse_set(text, example)
        overrides.setdefault(rule, {})[key] = value
    return rules.with_overrides(overrides, "--set")


def add_set_argument(parser: argparse.ArgumentParser, example: str) -> None:
    parser.add_argument("--set", action="append", metavar="RULE.key=value",
                        help=f"override a Default for this run, e.g. {example}")
