"""genso's command line run by the tests: what a `companion genso` command prints on stdout,
and an action's engine lines joined again where they were wrapped at 80 columns (unwrapped)."""

from __future__ import annotations

import pytest

from companion.app.cli import main


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


#: Where an action's engine line wider than 80 columns goes on: under its text, past the
#: rule ID's column (``GM-MAGIC-5   ``; genso.fights.logged).
RULE_COLUMN = " " * 13


def unwrapped(text: str) -> str:
    """``text`` as an action printed it, each engine line it wrapped at 80 columns
    (genso.fights.logged) joined again into one, for a test that reads such a line whole:
    the lines before the first blank one only (the rows of the state after it are indented
    too)."""
    said, gap, rest = text.partition("\n\n")
    lines: list[str] = []
    for line in said.split("\n"):
        if lines and line.startswith(RULE_COLUMN) and line.strip():
            lines[-1] += " " + line[len(RULE_COLUMN):]
        else:
            lines.append(line)
    return "\n".join(lines) + gap + rest
