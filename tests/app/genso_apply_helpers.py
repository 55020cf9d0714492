"""A genso fight applied after an Orc's hit, for the apply-after-a-change tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC2, turn_of


def orc_hit_applied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) \
        -> tuple[Path, int, int]:
    """pc2 from a sheet file, hit by the Orc (GM-COMBAT-7), the fight ended and applied: the
    sheet, its HP before the fight and after the apply."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    full = genso(capsys, "sheet", str(two))["sheet"]["hp"]
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "3")
    genso(capsys, "fight", "end")
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]
    hurt = genso(capsys, "sheet", str(two))["sheet"]["hp"]
    assert hurt < full
    return two, full, hurt
