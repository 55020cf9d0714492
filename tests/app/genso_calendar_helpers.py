"""genso calendar.toml in the tests' user folders (GM-MAGIC-13's Death Curse calendar): its
path, one written, and a command's stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def err(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) != 0
    return capsys.readouterr().err


def calendar_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "calendar.toml"


def written_calendar(user_dirs: Path, text: str) -> Path:
    """The calendar file holding ``text``, as a hand edit or an earlier session left it."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path
