"""What the genso preset and calendar tests share: a `companion genso` command that must succeed,
and one that must be refused (tidy72: no test module imports another)."""

from __future__ import annotations

import pytest

from companion.app.cli import main


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) == 2
    return capsys.readouterr().err
