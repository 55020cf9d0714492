"""fix61d: the fighters' table's conditions column at any width (review61d R4, N7)."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console

from companion.hw.display.terminal import fighters_table
from tests.app.test_table_screen_words_and_config_show_width import fight


def rendered(width: int, *conditions: tuple[str, ...]) -> list[str]:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(fighters_table(fight(*conditions)))
    lines = console.export_text().splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    return lines


def conditions_column(lines: list[str], rule: str) -> list[str]:
    """The conditions column's cells, line by line, of the rows drawn with ``rule``."""
    return [line.split(rule)[5].strip() for line in lines if line.count(rule) == 6]


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
