"""genso's command line run by the tests: what a `companion genso` command prints on stdout."""

from __future__ import annotations

import pytest

from companion.app.cli import main


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text
