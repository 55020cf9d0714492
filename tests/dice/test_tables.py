"""Dice tables as data: one-die tables and tables keyed by D66 (11–66), size-checked on load."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import D66Order, RollOptions, ScriptedDice
from companion.dice.tables import d66_keys, load_table
from companion.errors import DataError

D66_KEYS = [10 * t + u for t in range(1, 7) for u in range(1, 7)]


def table(roll: str, faces: list[list[int]]) -> dict[str, Any]:
    return {
        "rule": "TEST-1", "name_ja": "表", "name_en": "table", "roll": roll,
        "rows": [{"faces": f, "en": f"row {i}"} for i, f in enumerate(faces, 1)],
    }


def test_a_one_die_table_is_rolled_and_looked_up() -> None:
    loaded = load_table("t", table("1D6", [[1, 2], [3, 4, 5], [6]]), ("en",), "test.toml")
    result, row = loaded.roll_on(ScriptedDice([(6, 4)]))
    assert result.total == 4 and row["en"] == "row 2"


@given(first=st.integers(1, 6), second=st.integers(1, 6))
def test_a_d66_table_has_a_row_for_every_key(first: int, second: int) -> None:
    loaded = load_table("t", table("D66", [[k] for k in D66_KEYS]), ("en",), "test.toml")
    result, row = loaded.roll_on(ScriptedDice([(6, first), (6, second)]))
    assert result.text == f"(D66) ＞ {10 * first + second}"
    assert row.faces == (10 * first + second,)


def test_a_sorted_d66_table_needs_only_the_sorted_keys() -> None:
    keys = d66_keys(D66Order.ASCENDING)
    assert len(keys) == 21 and all(k // 10 <= k % 10 for k in keys)
    loaded = load_table("t", table("D66S", [[k] for k in keys]), ("en",), "test.toml")
    result, row = loaded.roll_on(ScriptedDice([(6, 5), (6, 2)]))
    assert result.total == 25 and row.faces == (25,)
    assert len(d66_keys(D66Order.DESCENDING)) == 21 and d66_keys(None) == D66_KEYS


def test_a_system_may_sort_its_plain_d66_tables() -> None:
    loaded = load_table("t", table("D66", [[k] for k in D66_KEYS]), ("en",), "test.toml")
    sorted_options = RollOptions(d66_order=D66Order.ASCENDING)
    result, _ = loaded.roll_on(ScriptedDice([(6, 5), (6, 2)]), sorted_options)
    assert result.total == 25


@pytest.mark.parametrize(
    ("roll", "faces", "message"),
    [
        ("D66", [[k] for k in D66_KEYS if k != 36], "the D66 keys 11, 12"),
        ("D66", [[k] for k in D66_KEYS] + [[11]], "once each"),
        ("D66", [[k] for k in D66_KEYS] + [[17]], "once each"),
        ("1D6", [[1], [2], [3]], "faces 1-6"),
        ("2D6", [[k] for k in range(2, 13)], "single die such as 1D6, or D66"),
        ("1D66", [[k] for k in D66_KEYS], "single die such as 1D6, or D66"),
        ("3B6", [[1]], "single die such as 1D6, or D66"),
        ("1D6>=3", [[1]], "single die such as 1D6, or D66"),
        ("D6+", [[1]], "not dice notation"),
    ],
)
def test_tables_that_do_not_fit_their_roll_are_refused(
    roll: str, faces: list[list[int]], message: str
) -> None:
    with pytest.raises(DataError, match=message) as err:
        load_table("t", table(roll, faces), ("en",), "test.toml")
    assert "test.toml: table t" in str(err.value)


def test_a_table_asks_for_its_dice_by_its_names_unless_told() -> None:
    """roll_on's dice say which table they are for (the table's names and rule)."""
    asked: list[str] = []

    class Source:
        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            asked.append(purpose)
            return [3] * count

    loaded = load_table("t", table("1D6", [[1, 2], [3, 4, 5], [6]]), ("en",), "test.toml")
    loaded.roll_on(Source())
    loaded.roll_on(Source(), purpose="the trap rolled before")
    assert asked == ["the table 表 table (TEST-1)", "the trap rolled before"]
