"""genso's rules data and the command line's stdout, as the combatant-name tests read them."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.systems.genso.rules import load_rules

RULES = load_rules()


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text
