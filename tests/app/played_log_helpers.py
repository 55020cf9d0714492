"""A headless game played into a --log file, for the tests of `companion replay` (tidy74: no
test module imports another)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def _play(log: Path, seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--seed", str(seed), "--preset", "ez", "--log",
                 str(log)]) == 0
    capsys.readouterr()
