"""The ranges of the seed's numbers (``[source_limits."RULE-ID"]`` beside ``[source]`` in
rules.toml), checked when the rules load: a number the engine does arithmetic with, edited
to ``"2"`` or 0, was a TypeError in mid-fight or a silent 0 damage (GM-MAGIC-11's
``magic_multiplier``; review61e R3). A DataError names the file, the table and the key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import DataError
from companion.systems.defaults import Limits


def _whole(value: object) -> bool:
    """A whole number, and not true or false (which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_source(source: Mapping[str, Any], limits: Limits, origin: str = "rules.toml") -> None:
    """Refuse a ``[source]`` number its ``[source_limits]`` ranges that is missing, not a
    whole number, or outside the range, in the table's order (a bound names a number
    checked before it)."""
    for rule, key in limits.bounds:
        table = source.get(rule)
        place = f'[source."{rule}"]'
        if not isinstance(table, Mapping):
            raise DataError(f"{origin}: missing {place}")
        value = table.get(key)
        now = {rule: {key: value}}  # a bound names the seed's own numbers
        span = limits.span(now, rule, key)
        if value is None:
            raise DataError(f"{origin}: {place} lacks {key}, a whole number {span}")
        if not _whole(value) or not limits.holds(now, rule, key):
            raise DataError(f"{origin}: {place} {key} must be a whole number {span}, "
                            f"found {value!r}")
