"""genso60 (the rules60g audit of `genso` against seed 002): the table and the command line.

- GM-MOVE-1 / GM-MON-7: a monster's Move menu and the lines that tell its move (the undo
  line, the table's log) give its own metres (the Orc's 4/16/64 m), not a character's
  3/12/48 m;
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Fight, Move, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import asked, played_keys

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def test_an_orcs_move_menu_and_log_give_its_own_metres() -> None:
    """GM-MOVE-1, GM-MON-7 (GM 4 オーク
    「戦闘移動（ ４ｍ ）通常移動（１６ｍ ）全力移動（６４ｍ ）」):
    on the Orc's turn the Move menu reads 4/16/64 m, and its move's log line 16 m; a PC's
    menu still reads the rules' 3/12/48 m."""
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")],
                                                           [("orc", 1)])))
    played_keys(mode, ("move",), SimulatedDice.seeded(1))
    assert [o.label for o in asked(mode).options][:3] == [
        "戦闘移動 combat 3 m", "通常移動 normal 12 m", "全力移動 full 48 m"]
    played_keys(mode, ("back", "wait", "move"), SimulatedDice.seeded(1))
    assert [o.label for o in asked(mode).options][:3] == [
        "戦闘移動 combat 4 m", "通常移動 normal 16 m", "全力移動 full 64 m"]
    played_keys(mode, ("m:normal",), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Move("オーク", "normal")
    assert mode.describe(Move("オーク", "normal")) == "オーク Orc 通常移動 normal 16 m"
    assert mode.fight_view().log[-1].startswith("オーク Orc 通常移動 normal 16 m ＞")
    fight = mode.fight
    fight.push(Wait(PC1), SimulatedDice.seeded(1))
    assert fight.describe(Move(PC1, "full")) == f"{PC1} 全力移動 full 48 m"


def test_undoing_an_orcs_move_names_its_own_metres(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MOVE-1: `fight undo` of the Orc's normal move said ``通常移動 normal 12 m`` while
    its line said 16 m; it says 16 m."""
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    out(capsys, "fight", "wait", "pc1")
    assert "(16 m)" in out(capsys, "fight", "move", "オーク", "normal")
    assert "undone: オーク Orc 通常移動 normal 16 m" in out(capsys, "fight", "undo")
