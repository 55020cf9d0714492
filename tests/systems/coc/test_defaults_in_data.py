"""Two Defaults that were constants in code live in rules data now (rules audit: dice
systems, F1 and F2): the half of an MA-boosted blow a parry lets through (CO-PARRY-3) and
the difference that makes a resistance roll automatic (CO-CORE-3)."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.coc.checks import one_percent, resist
from companion.systems.coc.combat import Attack, Defence
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import duel, push

MA_PARRY = ((100, 30), (3, 3), (3, 2), (4, 4), (100, 20))  # 2D3+1D4 = 9, parried by MA


@pytest.mark.parametrize(("rounding", "through"), [("down", 4), ("up", 5)])
def test_co_parry_3_the_half_of_a_boosted_blow_rounds_as_the_default_says(
        rounding: str, through: int) -> None:
    f = duel(Profile.P004, {"weapons": ("fist",), "fist": 60, "martial_arts": 60},
             {"martial_arts": 60}, {"CO-PARRY-3": {"half_rounds": rounding}})
    text = push(f, Attack("Ann", "Cult", ma=True, defence=Defence.PARRY, parry_with="ma"),
                *MA_PARRY)
    assert f"half, {through}, gets through any parry (CO-PARRY-3)" in text
    assert f.state.get("Cult").hp == 13 - through


def test_co_parry_3_rounding_is_down_or_up() -> None:
    assert load_rules().default("CO-PARRY-3", "half_rounds") == "down"
    with pytest.raises(DataError, match="half_rounds"):
        load_rules().with_overrides({"CO-PARRY-3": {"half_rounds": "nearest"}}, "--set")


def test_co_core_3_the_automatic_difference_is_a_setting() -> None:
    rules = load_rules().with_overrides({"CO-CORE-3": {"automatic_difference": 5}})
    win = resist(ScriptedDice([]), 15, 10, one_percent(rules), rules=rules)  # 75%, not rolled
    loss = resist(ScriptedDice([]), 10, 15, one_percent(rules), rules=rules)
    assert (win.value, win.success, loss.value, loss.success) == (None, True, None, False)
    assert "自動成功/automatic success" in win.text
    rolled = resist(ScriptedDice([(100, 96)]), 19, 10, one_percent(load_rules()),
                    rules=load_rules())
    assert (rolled.value, rolled.success) == (96, False)  # the Default 10: +9 is rolled
    with pytest.raises(DataError, match="automatic_difference"):
        load_rules().with_overrides({"CO-CORE-3": {"automatic_difference": 0}}, "--set")
