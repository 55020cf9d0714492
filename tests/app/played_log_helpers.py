"""A headless game played into a --log file, and such a log cut short, for the tests of
`companion replay` (tidy74: no test module imports another)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def _play(log: Path, seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--seed", str(seed), "--preset", "ez", "--log",
                 str(log)]) == 0
    capsys.readouterr()


def cut_to_its_first_40_lines(log: Path) -> list[str]:
    """``log`` cut to its first 40 lines (its header and 39 events), as a power cut or a
    full disk leaves a game's log that went on past them; gives all the lines it held."""
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(lines[:40]) + "\n", encoding="utf-8")
    return lines
