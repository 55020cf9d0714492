"""a78journey NIT 5: `genso fight log` of a fight with no action in its journal (a new one,
or one whose every action was undone) shows the round's start, its order and whose turn it
is (GM-COMBAT-1), as `coc fight log` shows its round's start; it printed one empty line.
Its --json keeps the empty journal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.help_format import cell_len

NEW_FIGHT_LOG = (
    "GM-COMBAT-1  round 1 (12 s each, GM-CORE-2): 駆け出し冒険者１ PC 1,\n"
    "             駆け出し冒険者２ PC 2, オーク1 Orc 1, オーク2 Orc 2, オーク3 Orc 3\n"
    "no actions yet 行動なし: 駆け出し冒険者１ PC 1's turn\n")


def _log(capsys: pytest.CaptureFixture[str], *more: str) -> str:
    capsys.readouterr()
    assert main(["genso", "fight", "log", *more]) == 0
    return capsys.readouterr().out


def test_a_new_fight_and_one_undone_to_its_start_log_the_round_start(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:3"]) == 0
    said = _log(capsys)
    assert said == NEW_FIGHT_LOG
    assert all(cell_len(line) <= 80 for line in said.splitlines())
    assert json.loads(_log(capsys, "--json"))["journal"] == []
    assert main(["genso", "fight", "wait", "pc1"]) == 0
    assert "駆け出し冒険者１ PC 1 waits" in _log(capsys)
    assert main(["genso", "fight", "undo"]) == 0
    assert _log(capsys) == NEW_FIGHT_LOG
