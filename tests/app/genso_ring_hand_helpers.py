"""A genso sheet wearing Rings of Storage (GM-ITEM-3) on its hands, and the rings read back
from it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.app.genso_json_helpers import genso

PC1 = "駆け出し冒険者１"


STORAGE = "蓄積の指輪/Ring of Storage"


def ringed(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str) -> Path:
    """pc1 (MP 8, 0 stored) saved with ``extra`` TOML lines after its own."""
    sheet = tmp_path / "rs.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    with sheet.open("a", encoding="utf-8") as out:
        out.write(extra)
    return sheet


def rings(sheet: Path) -> dict[str, list[str]]:
    """The sheet's rings by hand; none worn, the writer leaves the table out."""
    worn: dict[str, list[str]] = tomllib.loads(sheet.read_text(encoding="utf-8")).get(
        "rings", {})
    return worn
