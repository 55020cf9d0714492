"""fix61d: the fighters' table's conditions column at any width (review61d R4, N7)."""

from __future__ import annotations

import pytest

from tests.app.fighters_column_helpers import conditions_column, rendered


@pytest.mark.parametrize("width", range(50, 81, 2))
def test_an_empty_conditions_column_keeps_its_heading_readable(width: int) -> None:
    """N7: below about 72 columns the empty column's heading was "…" over "…": both
    conditions and 状態 gone. 状態 reads whole at any width, and conditions where there
    is room (at 80)."""
    heading = conditions_column(rendered(width), "┃")
    assert "状態" in heading, heading
    if width == 80:
        assert heading == ["conditions", "状態"]


@pytest.mark.parametrize("width", range(60, 81, 2))
def test_a_condition_reads_whole_in_at_most_two_lines(width: int) -> None:
    """R4: with a condition, the column takes its share as it did before newfix61 (the
    table, measured in cells by rich, fits the terminal): the condition reads whole, on one
    or two lines. The emptiness share (ratio 1) given to it as well left it three lines
    from 74 columns down, and "…" at 60."""
    cells = [cell for cell in conditions_column(rendered(width, ("全力回避 full dodge",)), "│")
             if cell]
    assert " ".join(cells) == "全力回避 full dodge", (width, cells)
    assert len(cells) <= 2
