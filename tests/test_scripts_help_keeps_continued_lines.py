"""The scripts' --help shows their example command lines as written (a78tilecam NIT 7): a
module docstring not raw ate each `` \\`` and its line break, so ``--help`` (which prints the
docstring as it is) joined a continued command line to the next with a run of spaces, and it
no longer pasted into a shell as the two lines it was."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.scripts import SCRIPTS

SCRIPT_FILES = sorted(SCRIPTS.glob("*.py"))


@pytest.mark.parametrize("script", SCRIPT_FILES, ids=lambda path: path.name)
def test_a_docstrings_continued_lines_reach_the_help_as_written(script: Path) -> None:
    source = script.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstring = ast.get_docstring(tree, clean=False)
    if docstring is None:
        pytest.skip("no module docstring")
    written = ast.get_source_segment(source, tree.body[0])
    assert written is not None
    assert docstring.count("\\\n") == written.count("\\\n")
