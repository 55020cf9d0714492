"""A character saved under a preset's or a monster's key (``genso new pc1``, ``genso sheet
… --save-as``): found by that key before the preset or the monster, and told so when saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso_fight_files import sheet_path

NEW = ("--body", "6", "--perception", "5", "--magic", "4", "--skill", "combat", "--seed", "1")


@pytest.mark.parametrize("name, shadowed", [
    ("pc1", "the preset 駆け出し冒険者１"), ("orc", "the monster オーク/Orc"),
])
def test_a_saved_character_named_by_a_key_is_said_to_win(
        name: str, shadowed: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 NIT 7: `genso new pc1` made pc1 the new PC in `genso sheet`, `fight new` and
    `check --vs` without a word (on purpose, reviewz70, but unsaid)."""
    assert main(["genso", "new", name, *NEW]) == 0
    err = capsys.readouterr().err
    assert f"note: {name!r} now names this saved character everywhere, not {shadowed}" in err
    assert f"remove {sheet_path(name)} to name {shadowed} again" in err
    assert main(["genso", "new", "Bob", *NEW]) == 0
    assert "now names" not in capsys.readouterr().err


def test_a_sheet_saved_as_a_preset_key_in_the_characters_folder_is_said_to_win(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`genso sheet pc1 --save-as` into the characters folder as pc2.toml is said so; to any
    other folder it names nothing and says nothing."""
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet_path("pc2"))]) == 0
    assert "not the preset 駆け出し冒険者２" in capsys.readouterr().err
    assert main(["genso", "sheet", "pc1", "--save-as", str(tmp_path / "pc2.toml")]) == 0
    assert "now names" not in capsys.readouterr().err
