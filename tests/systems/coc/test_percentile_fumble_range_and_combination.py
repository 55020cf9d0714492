"""System `coc` percentile checks (CO-CORE-1, CO-CORE-3, CO-BASE-3) where mutation round 12
found no test looking. Each test names what the table would see were it broken."""

from __future__ import annotations

from companion.dice import ScriptedDice
from companion.systems.coc.checks import Grade, Ranges, grade, roll_command
from companion.systems.coc.rules import Profile, load_rules


def test_an_automatic_fumble_starts_at_the_first_value_of_the_fumble_range() -> None:
    """CO-CORE-1 with the automatic_fumble Default on: a roll in the fumble range fails and
    fumbles whatever the skill, from its first value on. A 96 against a skill of 120 (the
    range 96-00) is a fumble, not a success."""
    r = Ranges(critical_max=5, fumble_from=96, special_percent=20, automatic_fumble=True)
    assert grade(96, 120, r) is Grade.FUMBLE
    assert grade(95, 120, r) is Grade.SUCCESS


def test_a_partial_success_of_a_combination_roll_is_a_success_of_the_roll() -> None:
    """CO-BASE-3: one skill of two made is 部分的成功, which the roll's result counts among
    its successes (as 成功, not as 失敗), so `roll --json` and the screen's colour do not
    call a partial success a failure."""
    rules = load_rules(Profile.P004)
    partial = roll_command("CBR(70,30)", ScriptedDice([(100, 31)]), rules)
    assert partial.text.endswith("31[成功,失敗] ＞ 部分的成功/partial success")
    assert partial.success is True
    assert roll_command("CBR(70,30)", ScriptedDice([(100, 71)]), rules).success is False
