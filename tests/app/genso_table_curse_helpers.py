"""A genso table whose fighters all carry a Death Curse (呪殺呪, GM-MAGIC-13), and its
frame and drawn screen."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import SimulatedDice
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.genso.combat import Attack, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.hw.screen_layout_helpers import Drawn, drawn_on

RULES = load_rules()
PC1 = "駆け出し冒険者１"

PARTY = ("pc1", "pc2", "knight_m", "mage_f")


def curse_all(capsys: pytest.CaptureFixture[str], keys: tuple[str, ...] = PARTY) -> None:
    for key in keys:
        assert main(["genso", "calendar", "curse", "Mio", preset(RULES, key).name]) == 0
    capsys.readouterr()


def the_fight(keys: tuple[str, ...] = PARTY) -> tuple[GensoFightMode, View]:
    """The party against two orcs after PC 1's hit (test_terminal_height's genso fight)."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, k) for k in keys], [("orc", 2)]))
    fight.push(Attack(PC1, "オーク1", 0), SimulatedDice.seeded(5))
    mode = GensoFightMode(RULES, fight, "simulated 仮想")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode, mode.view(ask.prompt, options=ask.options, highlight=0)


def frame(view: View, width: int, height: int) -> list[str]:
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=width, height=height, force_terminal=True,
                            color_system=None)).show(view)
    return out.getvalue().removeprefix("\x1b[2J\x1b[H").splitlines()


def on_screen(view: View) -> list[Drawn]:
    """What the 800x480 screen draws of ``view``."""
    return drawn_on(view)
