"""a77gensotown NIT 9: after buy, sell or gear, a character the calendar keeps dead of a
Death Curse (呪殺呪, GM-MAGIC-13) is shown dead, on screen and in `--json`, as `genso
sheet` shows it; it was shown with no condition, and "active" in the JSON."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made

DEAD = ("状態/condition DEAD 死亡 (GM-MAGIC-13: died at sunset on day 367 of Mio's "
        "呪殺呪/Death Curse)")


def test_the_curse_dead_are_shown_dead_after_buy_sell_and_gear(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    weapon = tomllib.loads(aki.read_text(encoding="utf-8"))["weapons"][0]
    assert main(["genso", "calendar", "curse", "Mio", "Aki"]) == 0
    assert main(["genso", "calendar", "pass", "367"]) == 0
    capsys.readouterr()
    assert main(["genso", "sheet", "Aki", "--json"]) == 0
    dead = json.loads(capsys.readouterr().out)["dead"]
    assert dead != []
    for text, as_json in ((["buy", "Aki", "torch"], ["buy", "Aki", "torch"]),
                          (["sell", "Aki", "torch", "--price", "1"],
                           ["sell", "Aki", "torch", "--price", "1"]),
                          (["gear", "Aki", weapon, "--off"], ["gear", "Aki", weapon])):
        assert main(["genso", *text]) == 0, text
        assert DEAD in capsys.readouterr().out.splitlines()
        assert main(["genso", *as_json, "--json"]) == 0, as_json
        data = json.loads(capsys.readouterr().out)
        assert (data["condition"], data["dead"]) == ("dead", dead)
