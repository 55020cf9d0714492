"""newfix61: words on the table's screens (newuser61 N9, N12) and `config --show`'s width
(N4; the help pages' is tests/app/test_cli_help.py)."""

from __future__ import annotations

import pytest
from rich.console import Console

from companion.app.modes.coc.words import describe
from companion.hw.display.terminal import fighters_table
from companion.hw.display.view import FightView
from companion.systems.coc.combat.actions import Place
from tests.app.fight_view_helpers import fight


def test_a_placing_reads_in_order() -> None:
    """The Result and Log panels said "Ann 配置 is placed e2 N"."""
    assert describe(Place("Ann", "e2", "N")) == "Ann 配置 is placed on e2, facing N 向き"


def rendered(view: FightView, compact: bool = False) -> list[str]:
    console = Console(width=80, record=True, color_system=None)
    console.print(fighters_table(view, compact))
    return console.export_text().splitlines()


def test_a_fighters_name_is_not_wrapped_beside_an_empty_conditions_column() -> None:
    """At 80 columns "駆け出し冒険者１ PC" was on one line and "1" on the next, while the
    conditions 状態 column beside it was empty and 17 cells wide."""
    for compact in (False, True):
        lines = rendered(fight(), compact)
        for name in ("駆け出し冒険者１ PC 1", "駆け出し冒険者２ PC 2"):
            assert any(name in line for line in lines), lines
        assert len(lines) <= (5 if compact else 10), lines


def test_config_show_fits_80_columns_each_line_a_comment_or_a_setting(
        capsys: pytest.CaptureFixture[str]) -> None:
    """newuser61 N4: 24 of its 77 lines ran past 80 columns (to 152), and where the
    terminal wrapped a comment its rest no longer began with #. (COLUMNS is 80: conftest.)"""
    from companion.app.cli import main
    from companion.app.config import load_config
    from companion.app.help_format import cell_len

    assert main(["config", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # (a path wider than a line is kept whole on its own, to be copied as it is)
    assert [line for line in lines if cell_len(line) > 80 and " " in line[2:]] == []
    settings = [line for line in lines if line and not line.startswith("# ")]
    assert [line.split(" = ")[0].rstrip() for line in settings] == list(load_config().settings)
