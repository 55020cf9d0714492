"""The genso seed's dice texts, ability values and curse length are checked at load.

review61h N3: genso's seed values that no range covers are checked where the rules load
too, naming the file, the table and the key: a ``[source]`` dice text (GM-ITEM-2's
``healing = "2X6"`` was found only when a stone was used, in mid-fight), GM-CHAR-5's
``ability_values`` (a text or a negative number made characters with them), and
GM-MAGIC-13's curse length (0 years and 0 days killed on the day it was cast)."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.genso.rules import _read, load_rules

TEXT = _read("rules.toml")


@pytest.mark.parametrize(("line", "edited", "said"), [
    ('healing = "2D6"', 'healing = "2X6"',
     "[source.\"GM-ITEM-2\"] healing must be dice like \"2D6\", found \"2X6\""),
    ('enchant = "2D6"', 'enchant = ""', "[source.\"GM-ITEM-2\"] enchant must be dice"),
    ("ability_values = [6, 5, 4]", 'ability_values = ["6", 5, 4]',
     "[source.\"GM-CHAR-5\"] ability_values must be a list of whole numbers 1 or more, "
     "found [\"6\", 5, 4]"),
    ("ability_values = [6, 5, 4]", "ability_values = [6, -5, 4]", "found [6, -5, 4]"),
    ("ability_values = [6, 5, 4]", "ability_values = [6, 0, 4]", "found [6, 0, 4]"),
    ("ability_values = [6, 5, 4]", "ability_values = [6, 5.5, 4]", "found [6, 5.5, 4]"),
    ("ability_values = [6, 5, 4]", "ability_values = []", "found []"),
    ("ability_values = [6, 5, 4]", "ability_values = 6", "found 6"),
])
def test_a_bad_seed_value_is_refused_at_load(line: str, edited: str, said: str) -> None:
    assert line in TEXT
    with pytest.raises(DataError) as refused:
        load_rules({"rules.toml": TEXT.replace(line, edited, 1)})
    assert str(refused.value).startswith("rules.toml: ") and said in str(refused.value)


def test_a_death_curse_of_no_length_is_refused_at_load() -> None:
    edited = (TEXT.replace("death_curse_years = 1 ", "death_curse_years = 0 ", 1)
              .replace("death_curse_days = 1\n", "death_curse_days = 0\n", 1))
    assert "death_curse_years = 0 " in edited and "death_curse_days = 0\n" in edited
    with pytest.raises(DataError, match=r'^rules\.toml: \[source\."GM-MAGIC-13"\] '
                                        "death_curse_years and death_curse_days are both 0"):
        load_rules({"rules.toml": edited})


@pytest.mark.parametrize(("years", "days"), [(0, 1), (1, 0)])
def test_a_curse_of_a_day_or_a_year_loads(years: int, days: int) -> None:
    rules = load_rules({"rules.toml": TEXT
                        .replace("death_curse_years = 1 ", f"death_curse_years = {years} ", 1)
                        .replace("death_curse_days = 1\n", f"death_curse_days = {days}\n", 1)})
    assert rules.num("GM-MAGIC-13", "death_curse_days") == days


def test_a_spell_named_in_the_seed_is_not_taken_for_dice() -> None:
    """GM-CHAR-6's magic_spell = "healing" names a spell: the packaged rules load."""
    assert load_rules().num("GM-CHAR-6", "magic_spell") == "healing"


def test_a_seed_word_beside_the_dice_is_no_dice_and_lost_dice_are_named() -> None:
    """review61i N4: only GM-ITEM-2's dice are read as dice; a word a later rule adds to
    [source] loads (every text but magic_spell was taken for dice), and a stone's dice
    taken out of the file are named, not skipped."""
    worded = TEXT.replace('healing = "2D6"', 'healing = "2D6"\nlabel = "魔法石"', 1)
    assert 'label = "魔法石"' in worded
    load_rules({"rules.toml": worded})
    unrolled = TEXT.replace('enchant = "2D6"', "enchant_note = 2", 1)
    assert 'enchant = "2D6"' not in unrolled
    with pytest.raises(DataError, match=r'enchant must be dice like "2D6", found None'):
        load_rules({"rules.toml": unrolled})
