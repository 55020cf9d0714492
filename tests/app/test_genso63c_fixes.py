"""Review63c's findings on fix63g, fixed: a second `fight apply` wrote the fight's results
again over a sheet a night's sleep brought back to its text at the start (DEFECT 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.test_dicesys55 import genso
from tests.app.test_genso63_fixes import PC2, turn_of


def test_a_second_apply_leaves_a_sheet_slept_back_to_its_start(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 (GM-MAGIC-1, GM-HEAL-2): pc2 spends 4 MP on Healing, the fight is applied
    (MP 8), then pc2 sleeps (MP full): its sheet is byte for byte as the fight began, and
    the next apply took it for one never applied and wrote MP 8 over the night's sleep."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    start = two.read_bytes()
    full = genso(capsys, "sheet", str(two))["sheet"]["mp"]
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--seed", "1")
    genso(capsys, "fight", "end")
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]
    spent = genso(capsys, "sheet", str(two))["sheet"]["mp"]
    assert spent < full
    genso(capsys, "rest", str(two), "--sleep")
    assert two.read_bytes() == start  # the case: the sheet is as the fight began
    again = genso(capsys, "fight", "apply")["sheets"]
    assert [r["result"] for r in again] == ["kept"]
    assert two.read_bytes() == start
    assert genso(capsys, "sheet", str(two))["sheet"]["mp"] == full
    assert main(["genso", "fight", "apply"]) == 0
    said = capsys.readouterr().out
    assert f"{two.resolve()} not written: this fight's apply wrote it before, and it was " \
        "changed since (a rest, a purchase, a hand): left as it is" in said
    # Done with: `fight new` writes over it with no --force and keeps no copy.
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    folder = user_dirs / "data" / "genso"
    assert not list(folder.glob("fight.json.replaced-*"))
    assert "applied" not in json.loads((folder / "fight.json").read_text(encoding="utf-8"))
