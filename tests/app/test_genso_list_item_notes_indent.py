"""genso62 (review61a N14): `companion genso list items` sets every line of an item's note 4
columns in, the lines a long note wraps to as its first; they went on at 5 (the shield's
English note: ``    (a rectangular … strengthened`` then ``     with iron)``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.app.cli import main


def test_a_wrapped_notes_lines_all_start_four_columns_in(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "list", "items"]) == 0
    lines = capsys.readouterr().out.splitlines()
    wrapped = [line for n, line in enumerate(lines) if n and line.startswith("    ")
               and lines[n - 1].startswith("    (") and not lines[n - 1].endswith(")")]
    assert wrapped, "some English note wraps to a second line"
    assert any(line.strip().endswith("with iron)") for line in wrapped)
    # A row's own continuation goes on under its price (50 columns), a note at 4; none at 5.
    assert [line for line in lines if re.match(r" {5}\S", line)] == []
