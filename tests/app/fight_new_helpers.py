"""Fights made anew over an old one, for the fight new --force tests: the examples' sheets and
the command line each system's `fight new` takes (NEW), a fight saved by it, and a genso fight
saved hurt."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.fight_replaced import table_holder
from tests.app.genso_json_helpers import genso

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
#: Each system's ``fight new``, and what its table says it is in the lock file.
NEW = {
    "genso": (["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"],
              table_holder("genso")),
    "coc": (["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"), "--foes",
             str(EXAMPLES / "cultist.toml")], table_holder("coc")),
}


def saved_fight(user_dirs: Path, system: str) -> Path:
    """A fight saved by ``fight new`` in ``system``'s data folder; its path."""
    assert main(NEW[system][0]) == 0
    return user_dirs / "data" / system / "fight.json"


def hurt(tmp_path: Path, capsys: pytest.CaptureFixture[str], *file: str) -> Path:
    """pc1 from a sheet file, hit by the orc (seed 2) to HP 11 of 12, the fight not over."""
    sheet = tmp_path / "one.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc", *file)
    genso(capsys, "fight", "wait", str(sheet), *file)
    hit = genso(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2", *file)
    assert hit["combatants"][0]["hp"] == 11
    return sheet
