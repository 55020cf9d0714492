"""The profile table (CO-CORE-2), Defaults, sheets (CO-BASE-1) and ½DB (CO-BASE-4)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from companion.dice import ScriptedDice, roll
from companion.errors import DataError
from companion.systems.coc.checks import Grade, grade, ranges, resistance_target
from companion.systems.coc.rules import Profile, Status, load_rules
from companion.systems.coc.sheet import (
    carried_hp,
    damage_bonus,
    double_dice,
    half_db,
    sheet_from_mapping,
    sheet_mapping,
    skill_value,
    with_characteristic,
)
from tests.systems.coc.helpers import sheet


def test_co_core_2_profile_table_totals_match_spec() -> None:
    rules = load_rules()
    for profile, want in ((Profile.P003, {"on": 55, "optional": 31, "off": 21}),
                          (Profile.P004, {"on": 60, "optional": 5, "off": 42})):
        cells = Counter(rules.table[r][f"p{profile.value}"] for r in rules.table)
        assert cells == want and len(rules.table) == 107


def test_co_core_2_a_cell_can_be_changed_and_optional_rules_start_off() -> None:
    rules = load_rules(Profile.P003)
    assert rules.status("CO-FIRE-9") is Status.OPTIONAL and not rules.on("CO-FIRE-9")
    changed = rules.with_overrides({"CO-FIRE-9": {"p003": "optional_on"}})
    assert changed.on("CO-FIRE-9") and changed.tag("CO-FIRE-9", "p003") == ""
    with pytest.raises(DataError, match="on, off"):
        rules.with_overrides({"CO-FIRE-9": {"p003": "maybe"}})


def test_seed_numbers_are_refused_as_overrides_and_defaults_are_labelled() -> None:
    rules = load_rules()
    with pytest.raises(DataError, match="seed's rule"):
        rules.with_overrides({"CO-TURN-3": {"action_points": 4}})
    with pytest.raises(DataError, match=r"must be (a int|a whole number)"):
        rules.with_overrides({"CO-BASE-7": {"parries_per_round": "two"}})
    assert rules.tag("CO-BASE-7", "parries_per_round") == " (default)"
    assert rules.with_overrides({"CO-BASE-7": {"parries_per_round": 2}}).default(
        "CO-BASE-7", "parries_per_round") == 2


def test_co_core_1_ranges_per_profile() -> None:
    p003, p004 = ranges(load_rules(Profile.P003)), ranges(load_rules(Profile.P004))
    assert grade(95, 60, p003) is Grade.FUMBLE and grade(95, 60, p004) is Grade.FAILURE
    assert grade(96, 97, p003) is Grade.SUCCESS  # in the range but under the skill
    assert grade(4, 3, p004) is Grade.FAILURE  # 01-05 above the skill is a failure
    assert grade(3, 45, p004) is Grade.CRITICAL_SPECIAL
    assert grade(1, 0, p004) is Grade.FAILURE  # a skill of 0 cannot succeed


def test_co_core_4_special_is_labelled_in_004_without_impale() -> None:
    rules = load_rules(Profile.P004)
    assert rules.on("CO-CORE-4") and not rules.on("CO-BASE-2")
    assert grade(9, 50, ranges(rules)) is Grade.SPECIAL


def test_co_core_3_resistance_table() -> None:
    assert resistance_target(12, 10) == 60 and resistance_target(10, 20) == 0


def test_co_base_1_derived_hp_and_db_recomputed() -> None:
    rules = load_rules()
    s = sheet(rules, "Ann")
    assert s.max_hp == 13 and s.db == "+1D4"  # CON 12 + SIZ 13 → 12.5 rounds up
    smaller = with_characteristic(s, "SIZ", -2)
    assert smaller.max_hp == 12 and smaller.db == "0"
    assert carried_hp(13, 8, smaller.max_hp) == 7  # the spec's example
    assert [damage_bonus(n) for n in (12, 16, 24, 32, 40, 56, 72, 88, 89)] == [
        "-1D6", "-1D4", "0", "+1D4", "+1D6", "+2D6", "+3D6", "+4D6", "+5D6"]
    assert skill_value(rules, s, "dodge") == 20 and skill_value(rules, s, "luck") == 50


def test_co_base_1_sheet_round_trips_and_refuses_bad_fields() -> None:
    rules = load_rules()
    s = sheet(rules, "Ann", weapons=("revolver",), armour=[{"name": "vest", "value": 8,
                                                             "durability": 20}])
    assert sheet_from_mapping(rules, sheet_mapping(s)) == s
    data = sheet_mapping(s)
    data["characteristics"]["STR"] = -1
    with pytest.raises(DataError, match="STR must be a whole number"):
        sheet_from_mapping(rules, data)
    data = sheet_mapping(s)
    data["weapons"][0]["loaded"] = 99
    with pytest.raises(DataError, match="loaded must be"):
        sheet_from_mapping(rules, data)
    with pytest.raises(DataError, match="no skill"):
        sheet_from_mapping(rules, {**sheet_mapping(s), "skills": {"flying": 5}})


@pytest.mark.parametrize(("table", "field", "value"), [
    ("weapons", "broken", "false"), ("weapons", "jammed", 0), ("weapons", "dropped", "no"),
    ("armour", "natural", "no"), ("weapons", "loaded", True),
])
def test_co_base_1_a_sheet_flag_is_true_or_false_and_loaded_a_number(
        table: str, field: str, value: object) -> None:
    """A quoted "false" used to count as true (a revolver broken before the fight) and
    ``loaded = true`` as one round: each is refused, naming the weapon as the fight
    numbers it (``--with weapon=0``)."""
    rules = load_rules()
    s = sheet(rules, "Ann", weapons=("revolver",), armour=[{"name": "hide", "value": 2}])
    data = sheet_mapping(s)
    data[table][0][field] = value
    where = "weapon 0 (the 1st [[weapons]])" if table == "weapons" else "the 1st [[armour]]"
    with pytest.raises(DataError, match=rf"^sheet {re.escape(where)}: {field} must be "):
        sheet_from_mapping(rules, data)
    for flag in ("foe", "humanoid"):
        with pytest.raises(DataError, match=f"{flag} must be true or false, found 'yes'"):
            sheet_from_mapping(rules, {**sheet_mapping(s), flag: "yes"})


def test_co_base_4_half_db() -> None:
    assert [half_db(d) for d in ("0", "+1D4", "-1D4", "+1D6", "-1D6", "+2D6", "+3D6")] == [
        "0", "+1D2", "-1D2", "+1D3", "-1D3", "+1D6", "+1D6+1D3"]
    assert roll("1D6" + half_db("+3D6"), ScriptedDice([(6, 2), (6, 5), (3, 3)])).total == 10


def test_co_ma_1_doubles_dice_not_flat() -> None:
    assert double_dice("1D6") == "2D6" and double_dice("1D4+2") == "2D4+2"
