"""What the genso table's tests share: its rules, two PCs, a seeded fight and its file, a game
played from scripted choices, and the table in a terminal (moved from
tests/app/test_genso_mode.py, tidy72: no test module imports another)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import (
    GensoFightMode,
    table_session,
    write_fight_file,
)
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.play_pty_helpers import Terminal
from tests.app.table import CutRolls, Player

RULES = load_rules()


PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


SEED = 5


def new_fight() -> Fight:
    """Two sample PCs (one with Healing) against two Orcs (GM-DATA-1, GM-MON-7)."""
    return Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")],
                                     [("orc", 2)]))


def fight_file(tmp_path: Path) -> Path:
    path = tmp_path / "fight.json"
    write_fight_file(path, new_fight())
    return path


CHOICES = ["attack", "t:オーク1", "w:0", "cast", "s:healing", "t:" + PC1,
           "full", "t:" + PC2, "attack", "t:" + PC1, "attack", "t:オーク2", "w:1",
           "dodge", "gm", "end?", "end", "close"]


def play(tmp_path: Path, choices: list[str], *, resume: bool = False,
         rolls: CutRolls | None = None) -> GensoFightMode:
    session = table_session(RULES, tmp_path / "fight.json", tmp_path / "table.json",
                            resume=resume, seed=SEED, choices=Player(choices), rolls=rolls)
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    assert isinstance(session.mode, GensoFightMode)
    return session.mode


def two_actions_then_a_stop(folder: Path) -> GensoFightMode:
    """A table in ``folder`` that played an attack and a wait, then stopped waiting."""
    fight_file(folder)
    return play(folder, ["attack", "t:オーク1", "w:0", "wait"])


def genso_table_in_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              dice: list[str]) -> tuple[Path, Terminal]:
    """`companion genso fight new` (pc1 and pc2 against two orcs), then `companion play
    --mode genso` with these dice options on a pty, in folders of the test's own."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    for key in ("COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"):
        monkeypatch.setenv(key, env[key])
    fight = tmp_path / "f.json"
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2",
                 "--file", str(fight)]) == 0
    return fight, Terminal(["--mode", "genso", "--fight", str(fight), *dice, "--display",
                            "terminal", "--choices", "keyboard"], env)
