"""A table whose fight file the GM changed while it was stopped, for the fight file question
tests: genso's rules and a fight of one PC and one orc, a table stopped at its first menu and
its fight ended on the command line, a screen whose buttons answer each message, the resume's
arguments and the settings with simulated dice."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.app.config import Config, load_config
from companion.app.modes import genso
from companion.app.modes.fight_file import write_fight_file
from companion.dice import SimulatedDice
from companion.hw.buttons import Button, Press
from companion.hw.display.view import View
from companion.systems.genso.combat import EndFight, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import Player

RULES = load_rules()


class Screen:
    """The table's screen and its buttons: ``answers`` pressed, one a message screen, once it
    is shown; at the fight's first menu the power goes."""

    def __init__(self, answers: list[Button]) -> None:
        self.answers = answers
        self.views: list[View] = []
        self.answered = 0

    def show(self, view: View) -> None:
        self.views.append(view)

    def poll(self) -> list[Press]:
        if not self.views or self.answered == len(self.views):
            return []
        if not self.views[-1].message:
            raise KeyboardInterrupt
        self.answered = len(self.views)
        return [self.answers.pop(0)]

    def close(self) -> None:
        return None


def genso_fight(ended: bool = False) -> Fight:
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    if ended:
        fight.push(EndFight(), SimulatedDice.seeded(0))
    return fight


def stopped_genso_table(folder: Path) -> tuple[Path, Path]:
    """A genso table that stopped at its first menu, then the GM's change of its fight file
    (the fight ended on the command line)."""
    fight, state = folder / "fight.json", folder / "table.json"
    write_fight_file(fight, genso_fight())
    session = genso.table_session(RULES, fight, state, resume=False, seed=5,
                                  choices=Player([]))
    with pytest.raises(KeyboardInterrupt):
        session.run()
    write_fight_file(fight, genso_fight(ended=True))
    return fight, state


def resumed(folder: Path) -> argparse.Namespace:
    return argparse.Namespace(fight=folder / "fight.json", state=folder / "table.json",
                              resume=True, seed=5, mode=None, headless=False)


def sim() -> Config:
    """The settings with simulated dice, read in the test's own config folder (at import,
    before conftest's, the user's own config.toml was read: robust59 F8)."""
    return load_config(env={}, overrides={"dice.source": "sim"})
