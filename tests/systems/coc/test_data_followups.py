"""The coc engine reads its numbers from its rules data (dead.md 1.1, 1.14, 2.1, 4.1-4.6):
each test loads the packaged data with one value changed, as a user's edited data file
would, and sees the engine follow it."""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.coc.checks import one_percent, resist, resistance_target, roll_command
from companion.systems.coc.combat import Attack, EndTurn, Fight, PickUp, Side, Spot, Tackle, Treat
from companion.systems.coc.rules import CocRules, Profile, load_rules
from companion.systems.coc.sheet import damage_bonus
from tests.systems.coc.helpers import duel, hurt, person, push

P003, P004 = Profile.P003, Profile.P004


def packaged(name: str = "rules.toml") -> str:
    return files("companion.systems.coc").joinpath("data", name).read_text(encoding="utf-8")


def edited(table: str, key: str, value: str, name: str = "rules.toml") -> str:
    """The packaged data file with ``key`` under the ``[table]`` header set to ``value``."""
    lines = packaged(name).splitlines()
    start = lines.index(f"[{table}]")
    for n in range(start + 1, len(lines)):
        if lines[n].startswith("["):
            break
        if lines[n].split("=")[0].strip() == key:
            lines[n] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no {key} under [{table}]")


def rules_with(profile: Profile, table: str, key: str, value: str,
               name: str = "rules.toml") -> CocRules:
    return load_rules(profile, texts={name: edited(table, key, value, name)})


def two(rules: CocRules, ann: dict[str, Any], cult: dict[str, Any] | None = None) -> Fight:
    """Ann (DEX 14) against Cult (DEX 10, CON 12) under ``rules``."""
    return Fight(rules, [(person(rules, "Ann", 14, **ann), Side.INVESTIGATORS),
                         (person(rules, "Cult", 10, **(cult or {})), Side.FOES)],
                 ScriptedDice([]))


# --- con_multiplier: CO-DEATH-1, CO-STUN-1, CO-BASE-9, CO-TACKLE-2 ------------------------------

def test_co_death_1_dying_roll_reads_con_multiplier() -> None:
    """CO-DEATH-1's CON×5 is ``[source."CO-DEATH-1"] con_multiplier``: at 3, CON 12 is 36."""
    rules = rules_with(P003, 'source."CO-DEATH-1"', "con_multiplier", "3")
    f = Fight(rules, [(person(rules, "Ann", 14, ("japanese_sword",), japanese_sword=90),
                       Side.INVESTIGATORS), (person(rules, "Cult", 10), Side.FOES),
                      (person(rules, "Boss", 5), Side.FOES)], ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 3))  # Cult dying
    push(f, EndTurn("Ann"))  # Cult is skipped
    text = push(f, EndTurn("Boss"), (100, 30))  # round 2 opens with Cult's roll
    assert "Cult CON×3 (1D100<=36)" in text


def test_co_stun_1_stun_roll_reads_con_multiplier() -> None:
    rules = rules_with(P003, 'source."CO-STUN-1"', "con_multiplier", "2")
    f = two(rules, {"weapons": ("stun_gun",), "fist": 90})
    push(f, Attack("Ann", "Cult"), (100, 10))
    text = push(f, EndTurn("Ann"), (100, 90))
    assert "Cult CON×2 (1D100<=24)" in text


def test_co_tackle_2_shock_reads_the_tackles_con_multiplier() -> None:
    """004 line 176 prints the blow back's own ＜CON×5＞: CO-TACKLE-2's key, not CO-BASE-9's."""
    rules = rules_with(P004, 'source."CO-TACKLE-2"', "con_multiplier", "4")
    f = two(rules, {"tackle": 60})
    text = push(f, Tackle("Ann", "Cult", "blow_back"), (100, 30), (4, 2), (4, 1), (100, 80))
    assert "Cult CON×4 (1D100<=48)" in text and "CO-BASE-9" in text


def test_co_base_9_general_shock_reads_con_multiplier() -> None:
    rules = rules_with(P004, 'source."CO-BASE-9"', "con_multiplier", "3").with_overrides(
        {"CO-BASE-9": {"general_trigger": True}})
    f = two(rules, {"weapons": ("revolver",), "handgun": 60}, {"siz": 11})
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 6), (100, 99))
    assert "Cult CON×3 (1D100<=36)" in text


# --- CO-CORE-3: the resistance table has no copy of its numbers ---------------------------------

def test_co_core_3_the_resistance_table_needs_the_rules() -> None:
    """The table's 50 + 5 a point and its automatic ±10 live in the rules data only: no call
    may fall back on copies of them in code (dead.md 2.1)."""
    with pytest.raises(TypeError):
        resistance_target(12, 10)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        resist(ScriptedDice([]), 15, 10, one_percent(load_rules()))  # type: ignore[call-arg]
    rules = rules_with(P003, 'source."CO-CORE-3"', "base", "40")
    assert resistance_target(12, 10, rules) == 50


# --- CO-SKILL-1 Default: an Other skill's AP; CO-FIRE-4 Default: picking a gun up ---------------

def test_co_skill_1_an_other_skills_ap_is_a_default() -> None:
    """CO-SKILL-1 Default: each listed Other skill costs 1 AP unless its rule gives another
    cost; set to 2, Spot Hidden and First Aid leave 1 of the round's 3 AP."""
    rules = load_rules(P003)
    assert rules.default("CO-SKILL-1", "ap") == 1 and rules.tag("CO-SKILL-1", "ap")
    f = duel(P003, {"spot_hidden": 70}, settings={"CO-SKILL-1": {"ap": 2}})
    push(f, Spot("Ann", "Cult"), (100, 30))
    assert f.state.get("Ann").ap == 1
    g = duel(P003, {"first_aid": 70}, settings={"CO-SKILL-1": {"ap": 2}})
    hurt(g, "Ann")
    push(g, Treat("Ann", "Ann"), (100, 90))
    assert g.state.get("Ann").ap == 1


def test_co_fire_4_picking_up_a_gun_costs_the_default_ap() -> None:
    """CO-FIRE-4 Default: picking up a dropped gun costs 1 AP (``pick_up_ap``)."""
    f = duel(P003, {"weapons": ({"key": "revolver", "dropped": True},)},
             settings={"CO-FIRE-4": {"pick_up_ap": 2}})
    text = push(f, PickUp("Ann", 0))
    assert "(2 AP, CO-FIRE-4)" in text and f.state.get("Ann").ap == 1


# --- CO-BASE-1: the damage-bonus table is rules data ---------------------------------------------

def old_damage_bonus(str_siz: int) -> str:
    """The table as code held it before it moved to rules.toml."""
    for top, bonus in ((12, "-1D6"), (16, "-1D4"), (24, "0"), (32, "+1D4"), (40, "+1D6"),
                       (56, "+2D6"), (72, "+3D6")):
        if str_siz <= top:
            return bonus
    return f"+{3 + -(-(str_siz - 72) // 16)}D6"


def test_co_base_1_the_db_table_from_data_gives_what_the_code_gave() -> None:
    table = load_rules().db_table
    assert [damage_bonus(n, table) for n in range(2, 201)] == [
        old_damage_bonus(n) for n in range(2, 201)]


def test_co_base_1_an_edited_db_table_changes_the_sheets_db() -> None:
    rules = rules_with(P003, 'source."CO-BASE-1"', "db_step_above", "8")
    assert damage_bonus(81, rules.db_table) == "+5D6"  # 72 + 8 + 1: two steps above
    assert person(rules, "Ann", 10, siz=13).db == "+1D4"  # STR 13 + SIZ 13


@pytest.mark.parametrize(("key", "value", "said"), [
    ("db_table", '[[12, "-1D6"], [10, "-1D4"], [72, "+3D6"]]', "must rise"),
    ("db_table", '[[12, "-1D6"], [72, "+3"]]', "a bonus is like"),
    ("db_table", '[[12, "-1D6"], [72, "+1D4"]]', "last row's bonus is \\+ND6"),
    ("db_table", '[[12]]', "each row is"),
    ("db_table", '"+1D4"', "must be a list"),
    ("db_step_above", "0", "must be a whole number 1 or more"),
])
def test_co_base_1_a_bad_db_table_is_a_data_error_naming_the_key(key: str, value: str,
                                                                said: str) -> None:
    text = edited('source."CO-BASE-1"', key, value)
    if key == "db_table":  # the packaged value runs on to a second line
        text = text.replace('\n            [72, "+3D6"]]\n', "\n")
    with pytest.raises(DataError, match=f"rules.toml: CO-BASE-1.{key}.*{said}"):
        load_rules(texts={"rules.toml": text})


# --- CO-CORE-1: the special's share is the rules' special_percent, in every check ---------------

@pytest.mark.parametrize("command", ["CC<=50", "CCB<=50"])
def test_co_core_1_special_percent_is_read_by_the_1_and_5_percent_rules(command: str) -> None:
    """A 10 against 50 is special at 20% (BCDice); with special_percent 10 it is a success."""
    assert "スペシャル" in roll_command(command, ScriptedDice([(100, 10)]), load_rules()).text
    rules = rules_with(P003, 'source."CO-CORE-1"', "special_percent", "10")
    text = roll_command(command, ScriptedDice([(100, 10)]), rules).text
    assert "スペシャル" not in text and "成功" in text


# --- CO-RANGE-1: the SIZ step is data beside its bonus -------------------------------------------

def test_co_range_1_the_siz_step_is_read_from_data() -> None:
    """004 line 67: +5% for each 10 of SIZ above 30; with step_siz 5, SIZ 52 is 4 steps."""
    rules = rules_with(P004, 'source."CO-RANGE-1"', "step_siz", "5")
    f = two(rules, {"weapons": ("revolver",), "handgun": 50}, {"siz": 52})
    text = push(f, Attack("Ann", "Cult"), (100, 99))
    assert "+20 (SIZ 52, CO-RANGE-1 (default)) = 70" in text


# --- CO-WEAP-1's blackjack has one source; CO-DEATH-1's lines name its multiplier ----------------

def test_co_weap_1_the_blackjack_is_weapons_toml_alone() -> None:
    """004 lines 3-5: 1D8+db, durability 10, in weapons.toml only (rules.toml had a copy no
    code read)."""
    rules = load_rules(P004)
    blackjack = rules.weapon("blackjack")
    assert (blackjack.damage, blackjack.durability, blackjack.improvised) == ("1D8", 10, True)
    assert set(rules.source["CO-WEAP-1"]) == {"wear"}


def test_co_death_1_the_dying_lines_name_the_multiplier() -> None:
    rules = rules_with(P003, 'source."CO-DEATH-1"', "con_multiplier", "3")
    f = Fight(rules, [(person(rules, "Ann", 14, ("japanese_sword",), japanese_sword=90),
                       Side.INVESTIGATORS), (person(rules, "Cult", 10), Side.FOES),
                      (person(rules, "Boss", 5), Side.FOES)], ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 3))
    assert "Cult is unconscious and dying: CON×3 each round (CO-DEATH-1)" in text
    push(f, EndTurn("Ann"))
    text = push(f, EndTurn("Boss"), (100, 90))
    assert "failed CON×3 while dying (CO-DEATH-1)" in text


# --- every public rule method of the fight engine names its rules -----------------------------

RULE_METHODS = ("one_attack", "treat", "attack", "throw", "play", "legal", "begin_turn",
                "reload", "end_round", "break_free", "choke", "clear_jam", "keeper",
                "next_turn", "body_rule", "sheathe", "pick_up", "disarmed", "release_if_out")


@pytest.mark.parametrize("name", RULE_METHODS)
def test_a_rule_methods_docstring_names_its_rule(name: str) -> None:
    from companion.systems.coc.combat.step import _Step
    doc = getattr(_Step, name).__doc__ or ""
    assert re.search(r"CO-[A-Z]+-\d+", doc), f"{name}: {doc!r}"
