"""a77gensotown DEFECT 4: `genso gear` on a weapon the character holds readied already moves
it to the front, weapon 0, the one `fight attack` strikes with (GM-EQUIP-1, as the help
promises); it said "Ben carries no 小刀/Knife to equip" while Ben held it as weapon 1, and
only `--off` and `gear` again got it there."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import MAGE, edited, made


def weapons(sheet: Path) -> list[str]:
    held: list[str] = tomllib.loads(sheet.read_text(encoding="utf-8"))["weapons"]
    return held


def test_a_weapon_held_as_weapon_1_becomes_weapon_0(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ben = made(user_dirs, capsys, "Ben", MAGE)
    held = weapons(ben)
    assert len(held) == 2, held  # a new PC holds two (GM-CHAR-7): club and knife
    first, second = held
    assert main(["genso", "gear", "Ben", second]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ben already has ")
    assert "readied (weapon 1); now weapon 0, the one `fight attack` strikes with; " \
           f"`--weapon {first}` strikes with " in out.splitlines()[0]
    assert weapons(ben) == [second, first]
    pack = tomllib.loads(ben.read_text(encoding="utf-8"))["equipment"]
    assert second not in pack and first not in pack
    # Weapon 0 already: nothing to change, and said so.
    before = ben.read_text(encoding="utf-8")
    assert main(["genso", "gear", "Ben", second]) == 2
    assert "readied as weapon 0: nothing to change" in capsys.readouterr().err
    assert ben.read_text(encoding="utf-8") == before


def test_a_weapon_moved_to_the_front_keeps_its_comment(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r77genso: in a `weapons` list one item a line, the comment the player wrote on the
    weapon moved to weapon 0 goes with it, and one of two of a kind stays on its own copy;
    the list was written over as the weapon taken out and a bare one put in."""
    ben = made(user_dirs, capsys, "Ben", MAGE)
    first, second = weapons(ben)
    edited(ben, "weapons", f'[\n    "{first}",  # grandpa\'s\n    "{second}"  # a gift\n]')
    edited(ben, "money", "{gold = 20, large_silver = 0, silver = 0}")
    assert main(["genso", "gear", "Ben", second]) == 0
    text = ben.read_text(encoding="utf-8")
    assert f'    "{second}",  # a gift\n    "{first}",  # grandpa\'s\n]' in text, text
    assert main(["genso", "buy", "Ben", first]) == 0
    assert main(["genso", "gear", "Ben", first]) == 0  # the new one, bare, is weapon 0
    assert main(["genso", "gear", "Ben", second]) == 0
    text = ben.read_text(encoding="utf-8")
    assert (f'    "{second}",  # a gift\n    "{first}",\n    "{first}",  # grandpa\'s\n]'
            in text), text
    assert main(["genso", "gear", "Ben", first]) == 0  # the bare one comes first, bare
    text = ben.read_text(encoding="utf-8")
    assert (f'    "{first}",\n    "{second}",  # a gift\n    "{first}",  # grandpa\'s\n]'
            in text), text
