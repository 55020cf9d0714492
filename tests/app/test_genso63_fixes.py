"""Audit genso63's findings, fixed: a weapon readied with `gear` is weapon 0, the one
`fight attack` strikes with, as `gear --help` says (DEFECT 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.test_dicesys55 import genso


def test_a_weapon_readied_with_gear_is_the_one_fight_attack_strikes_with(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1: `gear --help` said a weapon equipped becomes weapon 0, but it was put after
    the club and knife, so `fight attack` without --weapon still struck with the club."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    assert main(["genso", "buy", str(sheet), "staff"]) == 0
    assert main(["genso", "gear", str(sheet), "staff"]) == 0
    said = capsys.readouterr().out
    assert "equipped 棒/Staff: weapon 0, the one `fight attack` strikes with" in said
    weapons = genso(capsys, "sheet", str(sheet))["sheet"]["weapons"]
    assert weapons[:3] == ["staff", "club", "knife"]
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    current = genso(capsys, "fight", "show")["current"]
    if current != "駆け出し冒険者１":
        genso(capsys, "fight", "wait", current)
    hit = genso(capsys, "fight", "attack", str(sheet), "orc", "--seed", "1")
    assert hit["entry"]["action"]["weapon"] == 0
    assert any(line["text"].startswith("棒/Staff (1D6-2)") for line in hit["entry"]["lines"])
