"""r77genso NIT on 51ca0009: after buy, sell or gear, a character a Death Curse (呪殺呪,
GM-MAGIC-13) is on is shown with it as `genso sheet` shows it: `death_curses` in the JSON
and the curse's line on screen; both were left out."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made


def test_buy_sell_and_gear_show_the_live_curses_as_the_sheet_does(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    weapon = tomllib.loads(aki.read_text(encoding="utf-8"))["weapons"][0]
    assert main(["genso", "calendar", "curse", "Mio", "Aki"]) == 0
    capsys.readouterr()
    assert main(["genso", "sheet", "Aki", "--json"]) == 0
    curses = json.loads(capsys.readouterr().out)["death_curses"]
    assert curses != []
    assert main(["genso", "sheet", "Aki"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for verb in (["buy", "Aki", "torch"], ["sell", "Aki", "torch", "--price", "1"],
                 ["gear", "Aki", weapon, "--off"]):
        assert main(["genso", *verb, "--json"]) == 0, verb
        assert json.loads(capsys.readouterr().out)["death_curses"] == curses
    for verb in (["buy", "Aki", "torch"], ["gear", "Aki", weapon]):
        assert main(["genso", *verb]) == 0, verb
        shown = capsys.readouterr().out.splitlines()
        assert [line for line in lines if "呪殺呪" in line] == \
            [line for line in shown if "呪殺呪" in line] != []
