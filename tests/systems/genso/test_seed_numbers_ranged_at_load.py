"""The genso seed's whole numbers are ranged where the rules load ([source_limits]).

review61e R3: the seed's numbers genso counts with are ranged where the rules load
(``[source_limits]``, :mod:`companion.systems.genso.seed_numbers`), as coc's are: GM-MAGIC-11's
``magic_multiplier = "2"`` was a TypeError in mid-fight, 0 a silent 0 damage."""

from __future__ import annotations

import tomllib

import pytest

from companion.errors import DataError
from companion.systems.genso.rules import _read, load_rules

TEXT = _read("rules.toml")


@pytest.mark.parametrize(("line", "edited", "said"), [
    ("magic_multiplier = 2 ", 'magic_multiplier = "2" ',
     '[source."GM-MAGIC-11"] magic_multiplier must be a whole number 1 or more, found "2"'),
    ("magic_multiplier = 2 ", "magic_multiplier = 0 ",
     "[source.\"GM-MAGIC-11\"] magic_multiplier must be a whole number 1 or more, found 0"),
    ("magic_multiplier = 2 ", "magic_multiplier = true ", "found true"),
    ("undead_damage_reduction = 2 ", "undead_damage_reduction = -1 ",
     "[source.\"GM-MAGIC-7\"] undead_damage_reduction must be a whole number 0 or more"),
    ("hp_per_body = 2 ", "hp_per_body = 2.5 ", "hp_per_body must be a whole number 1 or more"),
    ("storage = 5", "storage = 0", "[source.\"GM-ITEM-3\"] storage must be a whole number"),
    ("age_max = 17", "age_max = 14",
     "age_max must be a whole number 15 (GM-CHAR-4.age_min) or more, found 14"),
    ("magic_multiplier = 2 ", "magic_multipler = 2 ",
     "[source.\"GM-MAGIC-11\"] lacks magic_multiplier, a whole number 1 or more"),
])
def test_a_seed_number_out_of_range_is_refused_at_load(line: str, edited: str,
                                                       said: str) -> None:
    assert line in TEXT
    with pytest.raises(DataError) as refused:
        load_rules({"rules.toml": TEXT.replace(line, edited, 1)})
    assert str(refused.value).startswith("rules.toml: ") and said in str(refused.value)


def test_every_whole_number_of_the_seed_is_ranged() -> None:
    """A number moved into ``[source]`` later gets its range too (or this fails)."""
    data = tomllib.loads(TEXT)
    numbers = {(rule, key) for rule, table in data["source"].items()
               for key, value in table.items()
               if isinstance(value, int) and not isinstance(value, bool)}
    ranged = {(rule, key) for rule, table in data["source_limits"].items() for key in table}
    assert numbers == ranged
    load_rules()  # the packaged numbers are in their ranges
