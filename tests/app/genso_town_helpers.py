"""What the genso town tests share (a77gensotown): a saved character made by `genso new`,
its sheet file, and a field of it edited by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.app.cli import main

#: `genso new` abilities of a PC with Combat, and one with Magic.
FIGHTER = ("--body", "6", "--perception", "5", "--magic", "4", "--skill", "combat")
MAGE = ("--body", "5", "--perception", "4", "--magic", "6", "--skill", "magic")


def sheet_file(user_dirs: Path, name: str) -> Path:
    return user_dirs / "data" / "genso" / "characters" / f"{name}.toml"


def made(user_dirs: Path, capsys: pytest.CaptureFixture[str], name: str,
         abilities: tuple[str, ...] = FIGHTER) -> Path:
    """``name`` made and saved, what `genso new` said cleared; its sheet file."""
    assert main(["genso", "new", name, *abilities]) == 0
    capsys.readouterr()
    return sheet_file(user_dirs, name)


def edited(sheet: Path, key: str, value: str) -> None:
    """The top-level field ``key`` of ``sheet`` set to ``value`` (TOML), as a hand edit."""
    text, count = re.subn(rf"^{key} = .*$", f"{key} = {value}",
                          sheet.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1, key
    sheet.write_text(text, encoding="utf-8")
