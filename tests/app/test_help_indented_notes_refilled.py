"""fix61i: a hand-laid help page refilled on a narrow terminal keeps its indented notes as
written (review61i N2), and is refilled by the width its lines are measured by (N3)."""

from __future__ import annotations

import argparse

import pytest
from rich.cells import cell_len

from companion.app.help_format import CellRawDescriptionFormatter

NOTE = "  don't panic: a \\ backslash, and     its spacing"
EXAMPLE = "  companion coc fight new --investigators ann.toml bob.toml --foes cultist.toml"


def _page(description: str) -> str:
    parser = argparse.ArgumentParser(prog="companion demo", description=description,
                                     formatter_class=CellRawDescriptionFormatter)
    return parser.format_help()


def _description(help_text: str) -> list[str]:
    """The description's lines: after the usage and its blank line, before the options."""
    lines = help_text.splitlines()
    start = lines.index("") + 1
    return lines[start:lines.index("", start)]


@pytest.mark.parametrize("columns", [30, 40, 60])
def test_an_indented_note_keeps_its_characters_when_refilled(
        monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    """N2: a note wrapped as a shell command lost its apostrophe and its lone backslash
    (no shell word matched them), had its spacing collapsed and took a ` \\` at each break."""
    monkeypatch.setenv("COLUMNS", str(columns))
    shown = _description(_page(f"Try it:\n{NOTE}\n{EXAMPLE}"))
    note = shown[1:next(at for at, line in enumerate(shown) if "companion" in line)]
    assert [word for line in note for word in line.split()] == NOTE.split()
    assert all(cell_len(line) <= columns for line in note)


def test_a_note_that_fits_keeps_its_spacing(monkeypatch: pytest.MonkeyPatch) -> None:
    """N2: a table's row indented under a too-wide line kept none of its alignment."""
    monkeypatch.setenv("COLUMNS", "80")
    row = "  key     meaning of it    wide"
    shown = _description(_page(f"Keys:\n{row}\n  {'x' * 100}"))
    assert row in shown


def test_an_example_that_fits_the_terminal_is_not_wrapped_for_another_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """N3: with one line of the page over 80 cells, the 80-cell example beside it was
    refilled at argparse's 78 and split, though it fits an 80-column terminal."""
    monkeypatch.setenv("COLUMNS", "80")
    example = EXAMPLE.replace("cultist", "cultist2")
    assert cell_len(example) == 80
    shown = _description(_page(f"Examples:\n{example}\n  companion {'y' * 90}"))
    assert example in shown
