"""System `events`: the poisons a party carries, where mutation round 12 found no test
looking (EV-POI-1..3, 5, 8, 9). Each test names what the table would see were it broken."""

from __future__ import annotations

import re

import pytest

from companion.errors import DataError
from companion.systems.events.poisoned import Poison

AKI_S = "Aki's poison"


@pytest.mark.parametrize("face", [0, 7])
def test_a_face_just_off_the_poison_table_is_refused_as_the_list_is_read(face: int) -> None:
    """EV-POI-4's table is a 1D6. A hand-edited face of 7 is named when the poison list is
    read, not when the next End block looks its row up and stops."""
    with pytest.raises(DataError, match=re.escape(f"{AKI_S}: face must be from 1 to 6")):
        Poison.from_json({"face": face, "rule": "EV-POI-5", "toxicity": 8}, AKI_S)


def test_a_damage_poison_that_dealt_its_maximum_deals_one_more_hp_and_ends() -> None:
    """EV-POI-8: a hand-edited poison with damage_done equal to damage_max is read (it is
    not over its maximum), and its next tick deals its 1 HP and ends it: it does not end
    having dealt nothing."""
    poison = Poison.from_json({"face": 4, "rule": "EV-POI-8", "toxicity": 9,
                               "damage_max": 3, "damage_done": 3}, AKI_S)
    assert poison.tick() == (None, 1)
    assert poison.tick(ticks=5) == (None, 1)


def test_a_poison_with_hours_left_below_zero_is_refused() -> None:
    """EV-POI-1's duration counts down to the poison wearing off. A hand-edited
    hours_left = -1 is named as the list is read; taken, the poison would be told as
    "-1 h left" in the party's list until the next tick."""
    with pytest.raises(DataError, match=re.escape(
            f"{AKI_S}: hours_left must be 0 or more, found -1")):
        Poison.from_json({"face": 1, "rule": "EV-POI-5", "toxicity": 8, "hours_left": -1},
                         AKI_S)


@pytest.mark.parametrize(("field", "poison"), [
    ("toxicity", {"face": 1, "rule": "EV-POI-5", "toxicity": 99999999999999999999,
                  "hours_left": 3}),
    ("hours_left", {"face": 1, "rule": "EV-POI-5", "toxicity": 8, "hours_left": 10000}),
    ("damage_max", {"face": 4, "rule": "EV-POI-8", "toxicity": 8, "damage_max": 10000}),
])
def test_a_number_past_any_poison_s_is_refused_naming_the_field(
        field: str, poison: dict[str, object]) -> None:
    """events74 NIT 7: a hand-edited toxicity past TOML's 64-bit integers was read, listed
    and written back as it was; 9999 is the party numbers' top (PARTY_NUMBER_MAX)."""
    with pytest.raises(DataError, match=re.escape(f"{AKI_S}: {field} must be 9999 or less, "
                                                  f"found {poison[field]}")):
        Poison.from_json(poison, AKI_S)
    Poison.from_json({**poison, field: 9999}, AKI_S)


@pytest.mark.parametrize("change", [10000, -10000])
def test_an_ability_change_past_the_party_s_numbers_is_refused(change: int) -> None:
    """events74 NIT 7's bound on EV-POI-9's ±6 (reviewe74 NIT 6: it had no test): ±9999,
    the party numbers' top, is read; one past it is refused, naming the field."""
    poison = {"face": 6, "rule": "EV-POI-9", "toxicity": 8, "hours_left": 3,
              "ability": "dexterity", "change": change}
    with pytest.raises(DataError, match=re.escape(
            f"{AKI_S}: change must be from −9999 to 9999, found {change}")):
        Poison.from_json(poison, AKI_S)
    top = 9999 if change > 0 else -9999
    assert Poison.from_json({**poison, "change": top}, AKI_S).change == top
