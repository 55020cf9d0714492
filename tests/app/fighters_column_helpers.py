"""The fighters' table rendered at a width, and its conditions column (the fighters' table
tests; tidy72c: no test module imports another)."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from companion.hw.display.terminal import fighters_table
from tests.app.fight_view_helpers import fight


def rendered(width: int, *conditions: tuple[str, ...]) -> list[str]:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(fighters_table(fight(*conditions)))
    lines = console.export_text().splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    return lines


def conditions_column(lines: list[str], rule: str) -> list[str]:
    """The conditions column's cells, line by line, of the rows drawn with ``rule``."""
    return [line.split(rule)[5].strip() for line in lines if line.count(rule) == 6]
