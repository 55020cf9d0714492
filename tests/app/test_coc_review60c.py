"""review60c: ``coc defaults`` says that CO-GRAP-2's ap is read only with each_turn = false
(R3: set alone, it is accepted and does nothing); the old-Budo sheet note is printed once,
when the fight file is written (N1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main

NOTE = "used only when CO-GRAP-2.each_turn is false"


def test_defaults_say_when_the_break_free_cost_is_read(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.split()[:2] == ["CO-GRAP-2", "ap"])
    assert line.endswith(f"range: from 1 to 3 (CO-TURN-3.action_points)  ({NOTE})")
    assert main(["coc", "defaults", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    assert rows["CO-GRAP-2", "ap"]["note"] == NOTE
    assert "note" not in rows["CO-GRAP-2", "each_turn"]
    assert sum("note" in r for r in rows.values()) == 1
