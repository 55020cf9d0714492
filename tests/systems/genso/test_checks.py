"""System `genso` action checks (spec §2.3, GM-MAGIC-6): the seed's examples with scripted dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.genso.checks import (
    Winner,
    chance,
    enemy_check,
    general_check,
    mark_check,
    opposed_check,
    simple_check,
    trap_check,
    undead_check,
)
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
SETTLER = preset(RULES, "settler_m")
ADVENTURER = preset(RULES, "adventurer_m")


def d6(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


def test_simple_check_line_and_chances() -> None:
    """GM-CHECK-1: 2D > difficulty (15 / 11 / 7 / 3), strictly greater; the spec's Show line
    and chances P[2D>11] = 1/36, P[2D>7] = 15/36, P[2D>3] = 33/36."""
    check = simple_check(RULES, d6(4, 5), "hard")
    assert check.result.text == "(2D6>7) ＞ 9[4,5] ＞ 成功/success"
    assert check.text.splitlines()[0] == "GM-CHECK-1 簡易判定/simple check: 2D > 7 (P = 15/36)"
    assert not simple_check(RULES, d6(3, 4), 7).success  # 7 is not greater than 7
    assert [chance(0, d) for d in (11, 7, 3)] == [Fraction(1, 36), Fraction(15, 36),
                                                   Fraction(33, 36)]
    worst = simple_check(RULES, d6(6, 6), "extremely_hard")
    assert not worst.success and "不可能/impossible: 2D is at most 12" in worst.text


def test_simple_checks_take_no_modifier_unless_the_default_allows() -> None:
    """GM-CHECK-1 Default: no modifier; with manual_modifier on, the GM may add one."""
    with pytest.raises(IllegalAction, match="GM-CHECK-1: a simple check has no modifiers"):
        simple_check(RULES, d6(6, 6), 15, modifier=4)
    rules = RULES.with_overrides({"GM-CHECK-1": {"manual_modifier": True}})
    check = simple_check(rules, d6(6, 6), 15, modifier=4)
    assert check.success and check.result.text == "(2D6+4>15) ＞ 12[6,6]+4=16 ＞ 成功/success"


def test_general_check_ability_plus_2d_plus_modifier() -> None:
    """GM-CHECK-2: heavy labour (力仕事) with Body against the general table (20/16/12/8)."""
    assert [RULES.difficulties["general"][k] for k in (
        "extremely_hard", "very_hard", "hard", "easy")] == [20, 16, 12, 8]
    check = general_check(RULES, d6(2, 3), ADVENTURER, "body", "hard", modifier=-1)
    assert check.result.text == "(2D6+5>12) ＞ 5[2,3]+5=10 ＞ 失敗/failure"
    assert [(t.label, t.value) for t in check.terms] == [("体力/Body", 6), ("修正/modifier", -1)]


def test_trap_detection_uses_the_search_bonus_once() -> None:
    """GM-CHECK-3: the settler (Perception 5, printed 罠発見＋４) against a normally set trap
    (12) succeeds on 2D ≥ 4, P = 33/36, never 5 + 2D + 4 + 4."""
    miss = trap_check(RULES, d6(1, 2), SETTLER, "normally_set")
    assert miss.result.text == "(2D6+9>12) ＞ 3[1,2]+9=12 ＞ 失敗/failure"
    hit = trap_check(RULES, d6(1, 3), SETTLER, "normally_set")
    assert hit.success and "(P = 33/36)" in hit.text
    assert [t.value for t in hit.terms] == [5, 4]
    # The adventurer has no printed line and gets the same +4 from Search−2.
    assert trap_check(RULES, d6(1, 3), ADVENTURER, "normally_set").result.total == 13
    assert [RULES.num("GM-CHECK-3", k) for k in ("cleverly_set", "normally_set",
                                                 "hastily_set")] == [16, 12, 8]


def test_undead_sensing_uses_magic_against_12() -> None:
    """GM-CHECK-4: Magic + 2D + modifier > 12."""
    mage = preset(RULES, "mage_m")
    check = undead_check(RULES, d6(3, 4), mage)
    assert check.result.text == "(2D6+6>12) ＞ 7[3,4]+6=13 ＞ 成功/success"


def test_enemy_detection_default() -> None:
    """GM-CHECK-6 Default: Perception + enemy-detection bonus against 12 (the settler rolls
    5 + 2D + 4 > 12); the Default difficulty can be changed."""
    check = enemy_check(RULES, d6(2, 2), SETTLER)
    assert check.result.text == "(2D6+9>12) ＞ 4[2,2]+9=13 ＞ 成功/success"
    harder = RULES.with_overrides({"GM-CHECK-6": {"difficulty": 16}})
    assert enemy_check(harder, d6(2, 2), SETTLER).difficulty == 16


def test_mark_direction_is_a_hard_magic_check() -> None:
    """GM-MAGIC-6: the caster of 呪印呪 finds the mark on Magic + 2D > 12; others cannot."""
    mage = preset(RULES, "mage_f")
    assert not mark_check(RULES, d6(3, 3), mage).success  # 6 + 6 = 12 is not above 12
    check = mark_check(RULES, d6(3, 4), mage)
    assert check.success and check.result.text == "(2D6+6>12) ＞ 7[3,4]+6=13 ＞ 成功/success"
    with pytest.raises(IllegalAction, match="does not know 呪印呪/Mark"):
        mark_check(RULES, d6(3, 3), preset(RULES, "pc1"))


def test_opposed_checks_and_ties() -> None:
    """GM-CHECK-5: higher total wins; a tie fails the active side (talking round an NPC), or
    is a draw when neither side is active (arm-wrestling with 筋力, read as Body)."""
    pc1, pc2 = preset(RULES, "pc1"), preset(RULES, "pc2")
    talk = opposed_check(RULES, d6(3, 3, 4, 3), pc1, pc2, "perception", active=True)
    assert (talk.a.total, talk.b.total, talk.winner) == (11, 11, Winner.B)
    assert "a tie fails the active side" in talk.text
    arm = opposed_check(RULES, d6(3, 3, 4, 3), pc1, pc2, "strength", active=False)
    assert (arm.a.total, arm.b.total, arm.winner) == (12, 12, Winner.DRAW)
    win = opposed_check(RULES, d6(6, 6, 1, 1), pc1, pc2, "body", active=True)
    assert win.winner is Winner.A and win.a.text == "(2D6+6) ＞ 12[6,6]+6=18"
    with pytest.raises(IllegalAction,
                       match=r"read as body in an opposed check alone \(GM-CHECK-5\)"):
        general_check(RULES, d6(3, 3), pc1, "strength", 12)


def test_a_check_asks_for_its_dice_by_name_and_target() -> None:
    """What each check's 2D is for, as a prompt shows it: who, the check (English, then the
    Japanese) and its roll; an opposed check's two rolls by whose they are."""
    asked: list[str] = []

    class Told(ScriptedDice):
        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            asked.append(purpose)
            return super().roll(count, sides, purpose=purpose)

    def dice(*values: int) -> Told:
        return Told((6, v) for v in values)

    simple_check(RULES, dice(2, 3), "hard")
    trap_check(RULES, dice(2, 3), SETTLER, "normally_set")
    opposed_check(RULES, dice(2, 3, 4, 4), ADVENTURER, SETTLER, "body", active=True)
    assert asked == ["simple check 簡易判定 (2D6>7)",
                     "辺境の一般的な開拓民（男性）'s trap detection 罠発見 (2D6+9>12)",
                     "一般的な冒険者（男性）'s roll 出目",
                     "辺境の一般的な開拓民（男性）'s roll 出目"]


def test_an_opposed_check_of_two_sheets_of_one_name_tells_the_sides_apart() -> None:
    """GM-CHECK-5: pc1 against a copy of pc1 printed two rows both named 駆け出し冒険者１ and
    "駆け出し冒険者１ の勝ち/wins": nobody could tell which side won. Each side now carries its
    letter of the seed's formula: (A), (B)."""
    pc1 = preset(RULES, "pc1")
    tie = opposed_check(RULES, d6(3, 3, 3, 3), pc1, pc1, "body", active=True)
    assert tie.text.splitlines()[0].endswith("駆け出し冒険者１ (A) vs 駆け出し冒険者１ (B)")
    assert tie.text.splitlines()[1].startswith("駆け出し冒険者１ (A): 2D + ")
    assert tie.text.splitlines()[-1].startswith("駆け出し冒険者１ (B) の勝ち/wins")
