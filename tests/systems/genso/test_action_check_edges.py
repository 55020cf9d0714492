"""System `genso` action checks (spec §2.3) where mutation round 12 found no test looking.
Each test names what the table would see were it broken."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.genso.checks import enemy_check, general_check, simple_check, trap_check
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()


def d6(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


def test_a_character_without_search_has_no_zero_detection_term() -> None:
    """GM-CHECK-3/6: a character with no Search and no printed 罠発見＋N rolls Perception +
    2D alone; the check's line does not show a "+ 罠発見/trap detection 0" term (nor the
    enemy detection's) as if there were a bonus."""
    plain = replace(preset(RULES, "settler_m"), search=0, trap_bonus=None, enemy_bonus=None)
    trap = trap_check(RULES, d6(3, 4), plain, 12)
    assert [t.label for t in trap.terms] == ["知覚力/Perception"]
    assert "trap detection 0" not in trap.text
    enemy = enemy_check(RULES, d6(3, 4), plain, 12)
    assert [t.label for t in enemy.terms] == ["知覚力/Perception"]


def test_rule_is_no_difficulty_name() -> None:
    """GM-CHECK-1/2: a difficulty is a number or one of the table's names. The table's own
    "rule" entry is no difficulty: `--difficulty rule` is refused naming the choices, not a
    crash on a name the table has no words for."""
    refused = "no difficulty 'rule'; give a number or one of"
    with pytest.raises(IllegalAction, match=refused):
        simple_check(RULES, d6(3, 4), "rule")
    with pytest.raises(IllegalAction, match=refused):
        general_check(RULES, d6(3, 4), preset(RULES, "settler_m"), "perception", "rule")


def test_the_default_trap_is_said_to_be_the_default() -> None:
    """GM-CHECK-3: with no trap named the Default's (a normally set trap, 12) is rolled,
    and the check's line says so with " (default)", as every Default's value is marked."""
    check = trap_check(RULES, d6(3, 4), preset(RULES, "settler_m"), None)
    assert check.difficulty == 12
    assert "> 12 (default) (P = " in check.text.splitlines()[0]
    assert "(default)" not in trap_check(RULES, d6(3, 4), preset(RULES, "settler_m"),
                                         "normally_set").text
