"""`genso fight stone` names the stone as `fight cast` names the spell: by its key or its
Japanese or English name, in any width and case (a76gensofight NIT 3: argparse's choices
took only ``healing_stone`` and ``enchant_stone``, while cast takes 治癒呪). The fight file
keeps the key, as before, so a saved fight replays the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


@pytest.fixture
def fight(user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Aki (pc1, a Healing Stone and an Enchant Stone in the pack) and pc2 against a Wight,
    at Aki's turn: the fight file."""
    sheet = user_dirs / "aki.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    text = text.replace('name = "駆け出し冒険者１"', 'name = "Aki"').replace(
        "equipment = [", 'equipment = ["healing_stone", "enchant_stone", ')
    sheet.write_text(text, encoding="utf-8")
    run(capsys, "fight", "new", "--party", str(sheet), "pc2", "--monsters", "wight")
    return user_dirs / "data" / "genso" / "fight.json"


@pytest.mark.parametrize("typed, key", [
    ("治癒石", "healing_stone"), ("Healing Stone", "healing_stone"),
    ("ｈｅａｌｉｎｇ＿ｓｔｏｎｅ", "healing_stone"), ("付与石", "enchant_stone"),
    ("enchant stone", "enchant_stone"),
])
def test_a_stone_is_named_by_its_key_or_name(
        typed: str, key: str, fight: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = "pc2" if key == "healing_stone" else "wight"
    said = run(capsys, "fight", "stone", "Aki", typed, target, "--seed", "1")
    assert said.startswith("GM-ITEM-2"), said
    entry = json.loads(fight.read_text(encoding="utf-8"))["journal"][-1]
    assert entry["action"]["stone"] == key


def test_a_word_that_is_no_stone_is_refused_naming_both(
        fight: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "fight", "stone", "Aki", "治癒", "pc2"]) == 2
    assert ("fight stone 治癒: the stones used in a fight are healing_stone (治癒石/Healing "
            "Stone) or enchant_stone (付与石/Enchant Stone) (GM-ITEM-2)"
            in capsys.readouterr().err)
    assert main(["genso", "fight", "stone", "Aki", "healing", "pc2"]) == 2
    capsys.readouterr()
    assert json.loads(fight.read_text(encoding="utf-8"))["journal"] == []
