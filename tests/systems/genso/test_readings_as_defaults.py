"""`genso` readings of seed 002 the spec makes Defaults, each settable with ``--set`` and in
the user's ``genso.toml`` and labelled "(default)" while packaged (spec §0.1; audit
defaults57 F3–F6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main

NEW = ("new", "Aki", "--body", "6", "--perception", "5", "--magic", "4", "--skill", "search",
       "--seed", "7", "--force")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) == 0
    return capsys.readouterr().out


def user_file(user_dirs: Path, body: str) -> None:
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "genso.toml").write_text(body, encoding="utf-8")


def test_starting_money_is_a_default(user_dirs: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHAR-7: 4 gold + 20 large silver is the spec's Default (sample PC 1 holds 20 large
    silver alone), so a GM may set it; it was kept as the book's rule and refused."""
    packaged = run(capsys, *NEW)
    assert packaged["sheet"]["money"] == {"gold": 4, "large_silver": 20, "silver": 0}
    assert ("所持金/starting money 金貨4枚 (4 gold)、大銀貨20枚 (20 large silver) (default)"
            in text(capsys, *NEW))
    poorer = run(capsys, *NEW, "--set", "GM-CHAR-7.gold=0")
    assert poorer["sheet"]["money"] == {"gold": 0, "large_silver": 20, "silver": 0}
    user_file(user_dirs, '[defaults."GM-CHAR-7"]\ngold = 1\nsilver = 3\n')
    shown = text(capsys, *NEW)
    assert "所持金/starting money" in shown and "(default)" not in shown.split("所持金/starting")[1]
    assert run(capsys, *NEW)["sheet"]["money"] == {"gold": 1, "large_silver": 20, "silver": 3}
    assert main(["genso", *NEW, "--set", "GM-CHAR-7.gold=-1"]) == 2
    assert "GM-CHAR-7.gold must be 0 or more, found -1" in capsys.readouterr().err
    assert main(["genso", *NEW, "--set", "GM-CHAR-7.kit=[]"]) == 2
    assert "GM-CHAR-7.kit is the book's rule" in capsys.readouterr().err
