"""The ranges of the seed's numbers (``[source_limits."RULE-ID"]`` beside ``[source]`` in
rules.toml), checked when the rules load: a number the engine does arithmetic with, edited
to ``"2"`` or 0, was a TypeError in mid-fight or a silent 0 damage (GM-MAGIC-11's
``magic_multiplier``; review61e R3). So are its other values the engine computes with,
which no range covers (review61h N3): the dice it rolls, the ability values a character
is made with, and the Death Curse's length. A DataError names the file, the table and the
key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dice.notation import parse
from companion.errors import DataError, InvalidNotation
from companion.systems.defaults import Limits, toml_value

#: The ``[source]`` strings that are dice the engine rolls; a word beside them (a spell's
#: name, GM-CHAR-6's ``magic_spell``) is no dice and is not parsed as one.
DICE = frozenset({("GM-ITEM-2", "healing"), ("GM-ITEM-2", "enchant")})


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
        limits.check_source_number(table.get(key), rule, key, f"{origin}: {place}")
    _check_dice(source, origin)
    _check_ability_values(source, origin)
    _check_curse_length(source, origin)


def _check_dice(source: Mapping[str, Any], origin: str) -> None:
    """GM-ITEM-2's stones' dice: a bad one ("2X6") was found only when a stone was used,
    in mid-fight."""
    for rule, table in source.items():
        if not isinstance(table, Mapping):
            raise DataError(f'{origin}: [source."{rule}"] must be a table, found {table!r}')
    for rule, key in sorted(DICE):
        value = source.get(rule, {}).get(key)
        if not (isinstance(value, str) and _rolls(value)):
            raise DataError(f'{origin}: [source."{rule}"] {key} must be dice like '
                            f'"2D6", found {toml_value(value)}')


def _rolls(text: str) -> bool:
    """Whether ``text`` is dice notation the engine can roll."""
    try:
        parse(text)
    except InvalidNotation:
        return False
    return True


def _check_ability_values(source: Mapping[str, Any], origin: str) -> None:
    """GM-CHAR-5: the values a new character's abilities are given."""
    values = source.get("GM-CHAR-5", {}).get("ability_values")
    if not isinstance(values, list) or not values or not all(
            _whole(v) and v >= 1 for v in values):
        raise DataError(f'{origin}: [source."GM-CHAR-5"] ability_values must be a list of '
                        f"whole numbers 1 or more, found {toml_value(values)}")


def _check_curse_length(source: Mapping[str, Any], origin: str) -> None:
    """GM-MAGIC-13: a Death Curse of 0 years and 0 days would kill on the day it is cast
    (its years are ranged 0 or more, its days 0 or more, each alone)."""
    table = source.get("GM-MAGIC-13", {})
    if table.get("death_curse_years") == 0 and table.get("death_curse_days") == 0:
        raise DataError(f'{origin}: [source."GM-MAGIC-13"] death_curse_years and '
                        "death_curse_days are both 0: a Death Curse lasts a day or more")
