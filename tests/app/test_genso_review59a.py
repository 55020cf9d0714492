"""review59a (genso): names, the fight-new refusal, the help, the checks' Defaults at the
table.

- D1/R4: the command line names each combatant as the table does, through one function
  (words.english_names) on the combatant: a player's name holding a monster's
  (オークスレイヤー, オーク) stays whole, and the same combatant reads the same at both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso.table import read_fight_file
from companion.systems.genso.rules import load_rules

RULES = load_rules()


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def test_a_name_holding_a_monsters_is_left_whole(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The player's オークスレイヤー was shown オーク/Orcスレイヤー: the monster's name was
    replaced inside it."""
    out(capsys, "new", "オークスレイヤー", "--body", "6", "--perception", "5", "--magic", "4",
        "--skill", "combat", "--seed", "1")
    shown = out(capsys, "fight", "new", "--party", "オークスレイヤー", "--monsters", "orc")
    hit = out(capsys, "fight", "attack", "オークスレイヤー", "オーク", "--seed", "1")
    logged = out(capsys, "fight", "log")
    for text in (shown, hit, logged):
        assert "Orcスレイヤー" not in text and "オーク Orcスレイヤー" not in text, text
    assert "GM-COMBAT-2  オークスレイヤー PC → オーク Orc: " in hit
    assert "オークスレイヤー PC → オーク Orc" in logged
    undone = out(capsys, "fight", "undo")
    assert undone.startswith("undone: オークスレイヤー PC → オーク Orc 攻撃 attack"), undone


def test_the_command_line_and_the_table_name_a_combatant_alike(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fight show` gave 駆け出し冒険者１/Novice adventurer 1 where the table gives
    駆け出し冒険者１ PC 1; each combatant's row and the action's line now read the same."""
    out(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    hit = out(capsys, "fight", "attack", "pc1", "orc1", "--seed", "1")
    shown = out(capsys, "fight", "show")
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    view = GensoFightMode(RULES, fight).fight_view()
    labels = [f"{f.name.ja} {f.name.en}" for f in view.fighters]
    assert labels == ["駆け出し冒険者１ PC 1", "駆け出し冒険者２ PC 2", "オーク1 Orc 1",
                      "オーク2 Orc 2"]
    for label in labels:
        assert label in shown, (label, shown)
    table_line = next(step.text for step in view.result if step.rule == "GM-COMBAT-2")
    assert f"GM-COMBAT-2  {table_line}" in hit
