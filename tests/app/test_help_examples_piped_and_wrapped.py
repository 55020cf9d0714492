"""fix61g: help pages' hand-laid examples when piped, and wrapped on a narrow terminal
(review61g D1, R1)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from rich.cells import cell_len

from companion.app.help_format import CellRawDescriptionFormatter
from tests.app.help_page_helpers import help_pages


def test_a_piped_help_page_keeps_its_examples_as_written(tmp_path: object) -> None:
    """D1: with no COLUMNS and the output piped (to a file, `| less`), argparse takes 80
    columns; `coc fight --help`'s 79-cell example was split after `--foes`, its first
    line an error when copied."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    env |= {"COMPANION_CONFIG_DIR": f"{tmp_path}/config",
            "COMPANION_DATA_DIR": f"{tmp_path}/data"}
    out = subprocess.run([sys.executable, "-m", "companion", "coc", "fight", "--help"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert "\n  companion coc fight new --investigators ann.toml bob.toml --foes " \
           "cultist.toml\n" in out


def _examples(parser: object) -> list[str]:
    """The example commands a page lays out by hand: its indented lines."""
    text = "\n".join(filter(None, (getattr(parser, "description", None),
                                   getattr(parser, "epilog", None))))
    return [line.strip() for line in text.splitlines() if line[:1].isspace()]


def _joined(help_text: str) -> list[str]:
    """The help's lines with each ` \\`-continued one joined to the next, as the shell
    reads them pasted."""
    lines: list[str] = []
    carried = ""
    for line in help_text.splitlines():
        if line.endswith(" \\"):
            carried += line[:-2].strip() + " "
            continue
        lines.append(carried + line.strip() if carried else line.strip())
        carried = ""
    return lines


@pytest.mark.parametrize("columns", [40, 50, 60])
def test_a_wrapped_example_pasted_is_its_command(
        monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    """R1: at 60 columns `companion genso check trap --sheet Aki --difficulty` and
    `cleverly_set` were two lines told apart by their indent alone: copied, the first ran
    and failed with "expected one argument". Each wrapped part now ends in ` \\`, and
    joined they are the example as written; each line fits the terminal."""
    monkeypatch.setenv("COLUMNS", str(columns))
    wrapped = 0
    for words, parser in help_pages():
        if parser.formatter_class is not CellRawDescriptionFormatter:
            continue
        shown = parser.format_help()
        wrapped += shown.count(" \\\n")
        joined = _joined(shown)
        for command in _examples(parser):
            assert command in joined, (words, command)
        usage = len(parser.format_usage().splitlines())
        assert [line for line in shown.splitlines()[usage:]
                if line.endswith(" \\") and cell_len(line) > columns] == []
    assert wrapped > 10


def test_an_option_stays_beside_its_value() -> None:
    """R1: `--difficulty` went at a line's end and its value began the next."""
    from companion.app.help_format import wrap_command

    assert wrap_command("companion genso check trap --sheet Aki --difficulty cleverly_set",
                        "  ", 58) == [
        "  companion genso check trap --sheet Aki \\",
        "    --difficulty cleverly_set"]
    assert wrap_command("companion coc roll 'x3 CC<=50' --dice typed", "  ", 30) == [
        "  companion coc roll \\",
        "    'x3 CC<=50' --dice typed"]
