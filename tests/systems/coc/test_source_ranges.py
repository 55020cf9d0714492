"""The seeds' numbers in rules.toml (``[source]``) are range-checked at load: an edited file
with one that would crash play later (a divisor of 0, a 1D0) or play nonsense (a negative
cost, a bonus that is a penalty) is refused, naming the file, the table, the key and the
allowed range. Each test loads the packaged data with one value changed."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest

from companion.errors import DataError
from companion.systems.coc.rules import load_rules
from tests.systems.coc.rules_file_helpers import edited, packaged


def refused(header: str, key: str, value: str | None, said: str) -> None:
    with pytest.raises(DataError) as caught:
        load_rules(texts={"rules.toml": edited(header, key, value)})
    place = re.sub(r'\."(\w+)"$', r".\1", header)  # [source."CO-CALL-1"."arm"] is said .arm
    assert str(caught.value) == f"rules.toml: [{place}] {key} {said}"


def src(rule: str, part: str = "") -> str:
    return f'source."{rule}"' + (f".{part}" if part else "")


AP = "from 0 to 3 (CO-TURN-3.action_points)"
PENALTY = "from -100 to 0"
BONUS = "from 0 to 100"
TIMES = "from 1 to 20"
BOARD = "from 1 to 7"
#: (rule, the key's path as [source_limits] names it, table header, key, bad value, its range).
CASES = [
    ("CO-CORE-1", "critical_max_003", src("CO-CORE-1"), "critical_max_003", "101",
     "from 0 to 100"),
    ("CO-CORE-1", "fumble_from_003", src("CO-CORE-1"), "fumble_from_003", "5",
     "from 1 to 101 and above 5 (CO-CORE-1.critical_max_003)"),
    ("CO-CORE-1", "special_percent", src("CO-CORE-1"), "special_percent", "0",
     "from 1 to 100"),
    ("CO-CORE-3", "base", src("CO-CORE-3"), "base", "-50", "from 0 to 100"),
    ("CO-CORE-3", "per_point", src("CO-CORE-3"), "per_point", "0", "from 1 to 100"),
    ("CO-TURN-3", "action_points", src("CO-TURN-3"), "action_points", "0", "1 or more"),
    ("CO-GRAP-1", "ap", src("CO-GRAP-1"), "ap", "0", "from 1 to 3 (CO-TURN-3.action_points)"),
    ("CO-SKILL-6", "ap", src("CO-SKILL-6"), "ap", "4", AP),
    ("CO-GRAP-3", "action_points", src("CO-GRAP-3"), "action_points", "4",
     "from 1 to 3 (CO-TURN-3.action_points)"),
    ("CO-MA-1", "dice_multiplier", src("CO-MA-1"), "dice_multiplier", "0", "1 or more"),
    ("CO-MA-2", "squares", src("CO-MA-2"), "squares", "8", BOARD),
    ("CO-GRAP-5", "parry_successes", src("CO-GRAP-5"), "parry_successes", "0", "1 or more"),
    ("CO-STUN-3", "con_multiplier", src("CO-STUN-3"), "con_multiplier", "0", TIMES),
    ("CO-BASE-9", "con_multiplier", src("CO-BASE-9"), "con_multiplier", "-5", TIMES),
    ("CO-STUN-1", "con_multiplier", src("CO-STUN-1"), "con_multiplier", "21", TIMES),
    ("CO-FIRE-1", "reload_ap", src("CO-FIRE-1"), "reload_ap", "-1", AP),
    ("CO-FIRE-6", "burst_ap", src("CO-FIRE-6"), "burst_ap", "4", AP),
    ("CO-FIRE-8", "hits_die", src("CO-FIRE-8"), "hits_die", "0", "1 or more"),
    ("CO-FIRE-8", "max_rounds", src("CO-FIRE-8"), "max_rounds", "0", "1 or more"),
    ("CO-DODGE-5", "dodge_after_attack", src("CO-DODGE-5"), "dodge_after_attack", "60", PENALTY),
    ("CO-DODGE-5", "attack_after_dodge", src("CO-DODGE-5"), "attack_after_dodge", "-150",
     PENALTY),
    ("CO-DODGE-7", "cover_dodge", src("CO-DODGE-7"), "cover_dodge", "50", PENALTY),
    ("CO-DODGE-8", "bonus", src("CO-DODGE-8"), "bonus", "-10", BONUS),
    ("CO-DODGE-1", "bonus", src("CO-DODGE-1"), "bonus", "120", BONUS),
    ("CO-CALL-1", "penalty", src("CO-CALL-1"), "penalty", "30", PENALTY),
    ("CO-CALL-1", "arm.str_multiplier", src("CO-CALL-1", '"arm"'), "str_multiplier", "0", TIMES),
    ("CO-CALL-1", "arm.attacks_lost", src("CO-CALL-1", '"arm"'), "attacks_lost", "-1",
     "0 or more"),
    ("CO-CALL-1", "leg.moves_lost", src("CO-CALL-1", '"leg"'), "moves_lost", "-1", "0 or more"),
    ("CO-CALL-1", "leg.still_after", src("CO-CALL-1", '"leg"'), "still_after", "0",
     "1 or more"),
    ("CO-FIRE-5", "adjacent_bonus", src("CO-FIRE-5"), "adjacent_bonus", "-15", BONUS),
    ("CO-WEAP-1", "wear", src("CO-WEAP-1"), "wear", "-1", "0 or more"),
    ("CO-SKILL-2", "dex_half_try", src("CO-SKILL-2"), "dex_half_try", "0", "1 or more"),
    ("CO-SKILL-3", "ap", src("CO-SKILL-3"), "ap", "5", AP),
    ("CO-DEATH-1", "unconscious_from", src("CO-DEATH-1"), "unconscious_from", "1", "0 or less"),
    ("CO-DEATH-1", "con_multiplier", src("CO-DEATH-1"), "con_multiplier", "0", TIMES),
    ("CO-BASE-8", "unconscious_max", src("CO-BASE-8"), "unconscious_max", "-1", "0 or more"),
    ("CO-RANGE-1", "above_siz", src("CO-RANGE-1"), "above_siz", "-30", "0 or more"),
    ("CO-RANGE-1", "per_10_siz", src("CO-RANGE-1"), "per_10_siz", "-5", BONUS),
    ("CO-RANGE-1", "step_siz", src("CO-RANGE-1"), "step_siz", "0", "1 or more"),
    ("CO-RANGE-2", "last_band", src("CO-RANGE-2"), "last_band", "0", "1 or more"),
    ("CO-RANGE-3", "touch_multiplier", src("CO-RANGE-3"), "touch_multiplier", "0", "1 or more"),
    ("CO-AIM-1", "multiplier", src("CO-AIM-1"), "multiplier", "0", "1 or more"),
    ("CO-AIM-2", "multiplier", src("CO-AIM-2"), "multiplier", "-2", "1 or more"),
    ("CO-SURP-1", "luck_modifier", src("CO-SURP-1"), "luck_modifier", "10", PENALTY),
    ("CO-SURP-2", "rehide_over", src("CO-SURP-2"), "rehide_over", "101",
     "from 0 to 100"),
    ("CO-SURP-2", "rehide_modifier", src("CO-SURP-2"), "rehide_modifier", "80", PENALTY),
    ("CO-SURP-3", "dark_divisor", src("CO-SURP-3"), "dark_divisor", "0", "1 or more"),
    ("CO-DISARM-1", "least_penalty", src("CO-DISARM-1"), "least_penalty", "20", PENALTY),
    ("CO-DISARM-1", "most_penalty", src("CO-DISARM-1"), "most_penalty", "-10",
     "from -100 to -20 (CO-DISARM-1.least_penalty)"),
    ("CO-BODY-5", "part.factor", src("CO-BODY-5", "arm"), "factor", "0", "1 or more"),
    ("CO-BODY-5", "part.count", src("CO-BODY-5", "eye"), "count", "0", "1 or more"),
    ("CO-BODY-5", "part.per", src("CO-BODY-5", "finger"), "per", "0", "1 or more"),
    ("CO-BODY-5", "part.penalty", src("CO-BODY-5", "head"), "penalty", "60", PENALTY),
    ("CO-BODY-5", "part.listen", src("CO-BODY-5", "tongue"), "listen", "10", PENALTY),
    ("CO-BODY-5", "part.taste", src("CO-BODY-5", "tongue"), "taste", "-101", PENALTY),
    ("CO-BODY-5", "part.extra", src("CO-BODY-5", "torso"), "extra", "-10", "0 or more"),
    ("CO-BODY-5", "part.skill_divisor", src("CO-BODY-5", "eye"), "skill_divisor", "0",
     "1 or more"),
    ("CO-TURN-1", "dex_divisor", src("CO-TURN-1"), "dex_divisor", "0", "1 or more"),
    ("CO-BASE-5", "dex_divisor", src("CO-BASE-5"), "dex_divisor", "0", "1 or more"),
    ("CO-SPELL-2", "pow_multiplier", src("CO-SPELL-2"), "pow_multiplier", "0", TIMES),
    ("CO-TACKLE-2", "knockback_m", src("CO-TACKLE-2"), "knockback_m", "-3", "0 or more"),
    ("CO-TACKLE-2", "con_multiplier", src("CO-TACKLE-2"), "con_multiplier", "0", TIMES),
    ("CO-IAI-3", "sheathe_ap", src("CO-IAI-3"), "sheathe_ap", "-1", AP),
    ("CO-DODGE-6", "navigate", src("CO-DODGE-6"), "navigate", "-10", BONUS),
    ("CO-DODGE-6", "jump", src("CO-DODGE-6"), "jump", "105", BONUS),
    ("CO-BASE-13", "temporary_loss", src("CO-BASE-13"), "temporary_loss", "0", "1 or more"),
    ("CO-BASE-13", "int_multiplier", src("CO-BASE-13"), "int_multiplier", "0", TIMES),
    ("CO-BASE-13", "indefinite_fraction", src("CO-BASE-13"), "indefinite_fraction", "0",
     "1 or more"),
    ("CO-THROW-1", "range_squares", src("CO-THROW-1"), "range_squares", "0", BOARD),
    ("CO-MELEE-2", "knockback_damage", src("CO-MELEE-2"), "knockback_damage", "0",
     "1 or more"),
]


@pytest.mark.parametrize("rule, path, header, key, value, allowed", CASES,
                         ids=[f"{c[0]}.{c[1]}" for c in CASES])
def test_a_source_number_out_of_range_is_refused(rule: str, path: str, header: str, key: str,
                                                 value: str, allowed: str) -> None:
    refused(header, key, value, f"must be a whole number {allowed}, found {value}")


def source_limits() -> dict[str, Any]:
    limits: dict[str, Any] = tomllib.loads(packaged())["source_limits"]
    return limits


def test_every_ranged_number_is_tested_here() -> None:
    assert {(c[0], c[1]) for c in CASES} == {
        (rule, path) for rule, keys in source_limits().items() for path in keys}


#: The one whole number of [source] without a range: read_db_table checks it with its table.
UNRANGED = {("CO-BASE-1", "db_step_above")}


def test_every_whole_number_in_source_has_a_range() -> None:
    """Review 54 #8: a new [source] number with no [source_limits] entry went unchecked, and
    nothing said so. A number of a sub-table is ranged by its path (``arm.str_multiplier``)
    or, for every sub-table that has it, by ``part.key`` (CO-BODY-5's parts)."""
    ranged = {(rule, path) for rule, keys in source_limits().items() for path in keys}
    numbers = set()
    for rule, table in tomllib.loads(packaged())["source"].items():
        for key, value in table.items():
            if isinstance(value, dict):
                numbers |= {(rule, f"{key}.{k}") for k, v in value.items()
                            if isinstance(v, int) and not isinstance(v, bool)}
            elif isinstance(value, int) and not isinstance(value, bool):
                numbers.add((rule, key))
    unranged = {(rule, path) for rule, path in numbers
                if (rule, path) not in ranged
                and (rule, "part." + path.partition(".")[2]) not in ranged}
    assert unranged == UNRANGED
    assert len(numbers) > 60


def test_the_ranges_are_data_read_at_load() -> None:
    """The ranges live in rules.toml, not in rules.py: one edited there is the one held to
    (review 54 #8: a data table is kept in the TOML, checked at load, STYLE.md)."""
    text = packaged().replace("squares = { min = 1, max = 7 }", "squares = { min = 3, max = 7 }")
    assert text != packaged()
    with pytest.raises(DataError) as caught:
        load_rules(texts={"rules.toml": text})
    assert str(caught.value) == ('rules.toml: [source."CO-MA-2"] squares must be a whole '
                                 "number from 3 to 7, found 2")


@pytest.mark.parametrize(("old", "new", "said"), [
    ("squares = { min = 1, max = 7 }", "squares = { least = 1 }",
     "source_limits CO-MA-2.squares: a range is a table of min, max, above, found "
     "{'least': 1}"),
    ("squares = { min = 1, max = 7 }", "squares = 7",
     "source_limits CO-MA-2.squares: a range is a table of min, max, above, found 7"),
    ('most_penalty = { min = -100, max = "least_penalty" }',
     'most_penalty = { min = -100, max = "CO-TURN-3.action_point" }',
     "source_limits CO-DISARM-1.most_penalty: 'CO-TURN-3.action_point' is neither a whole "
     "number nor the name of a number ranged before it"),
    # ranged after it in the table: it would be used before it is known to be whole
    ('fumble_from_003 = { min = 1, max = 101, above = "critical_max_003" }',
     'fumble_from_003 = { min = 1, max = 101, above = "special_percent" }',
     "source_limits CO-CORE-1.fumble_from_003: 'special_percent' is neither a whole number "
     "nor the name of a number ranged before it"),
])
def test_a_bad_range_in_source_limits_is_refused_by_name(old: str, new: str, said: str) -> None:
    text = packaged().replace(old, new)
    assert text != packaged()
    with pytest.raises(DataError) as caught:
        load_rules(texts={"rules.toml": text})
    assert str(caught.value) == f"rules.toml: {said}"


def test_rules_toml_without_source_limits_is_refused() -> None:
    lines = packaged().splitlines()
    kept, skipping = [], False
    for line in lines:
        if line.startswith("["):
            skipping = line.startswith("[source_limits.")
        if not skipping:
            kept.append(line)
    with pytest.raises(DataError, match=re.escape("rules.toml: missing [source_limits]")):
        load_rules(texts={"rules.toml": "\n".join(kept)})


@pytest.mark.parametrize("value, shown", [("2.5", "2.5"), ('"2"', '"2"'), ("true", "true")])
def test_a_source_number_that_is_not_a_whole_number_is_refused(value: str, shown: str) -> None:
    refused(src("CO-MA-2"), "squares", value, f"must be a whole number {BOARD}, found {shown}")


def test_a_missing_source_number_is_refused() -> None:
    with pytest.raises(DataError, match=re.escape(
            'rules.toml: [source."CO-RANGE-1"] lacks step_siz, a whole number 1 or more')):
        load_rules(texts={"rules.toml": edited(src("CO-RANGE-1"), "step_siz", None)})


def test_the_packaged_numbers_pass() -> None:
    load_rules()


@pytest.mark.parametrize("header, key, value, said", [
    (src("CO-MA-2"), "choke", '"1D0"', "choke: '1D0' is not dice notation"),
    (src("CO-SKILL-3"), "heal", '"2+"', "heal: '2+' is not dice notation"),
    (src("CO-BODY-5", "torso"), "bleed", '"lots"', "bleed: 'lots' is not dice notation"),
])
def test_source_dice_that_cannot_be_rolled_are_refused(header: str, key: str, value: str,
                                                       said: str) -> None:
    with pytest.raises(DataError, match=re.escape(f"rules.toml: [{header}] {said}")):
        load_rules(texts={"rules.toml": edited(header, key, value)})


@pytest.mark.parametrize("value, said", [
    ('{ STR = "1D0", SIZ = "1", DEX = "1D4" }', "stats.STR: '1D0' is not dice notation"),
    ('{ STR = "1D3", SIZ = 1, DEX = "1D4" }',
     'stats.SIZ must be dice like "1D3" or a whole number 0 or more as text like "1", found 1'),
    ('"1D3"', 'stats must be a table like { STR = "1D3" }'),
])
def test_a_lost_parts_characteristic_loss_is_dice_or_a_number(value: str, said: str) -> None:
    with pytest.raises(DataError, match=re.escape(
            f'rules.toml: [source."CO-BODY-5".arm] {said}')):
        load_rules(texts={"rules.toml": edited(src("CO-BODY-5", "arm"), "stats", value)})


def test_a_skill_base_outside_0_to_100_is_refused() -> None:
    text = packaged("skills.toml").replace("base = 25", "base = -5", 1)
    assert text != packaged("skills.toml")
    with pytest.raises(DataError, match=r"skills.toml: \[\[skill\]\] \d+: base must be a whole "
                                        r"number from 0 to 100 or e.g. \"DEX\*2\", found -5"):
        load_rules(texts={"skills.toml": text})
