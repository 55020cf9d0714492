"""a78journey DEFECT 1: a weapon readied with `genso gear` while a fight that holds the
character goes on is said to strike from the next fight, naming that fight, and `fight attack
--weapon` of it is refused saying why (GM-EQUIP-1, GM-COMBAT-1: the fight keeps the weapons
`fight new` copied; the seed gives no step to ready another in a fight). gear said the sword
was `fight attack`'s, the fight struck with the club, and `--weapon sword` was refused as a
weapon Aki carried not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso_fight_files import default_fight_path


def _said(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> str:
    capsys.readouterr()
    assert main(argv) == code
    out = capsys.readouterr()
    return out.out + out.err


def _aki_with_a_sword(capsys: pytest.CaptureFixture[str]) -> None:
    _said(capsys, ["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                   "--skill", "magic", "--seed", "1"])
    _said(capsys, ["genso", "buy", "Aki", "sword"])


def test_gear_mid_fight_names_the_fight_that_keeps_its_weapons(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _aki_with_a_sword(capsys)
    _said(capsys, ["genso", "fight", "new", "--party", "Aki", "pc2", "--monsters", "orc:2"])
    said = " ".join(_said(capsys, ["genso", "gear", "Aki", "sword"]).split())
    assert said.startswith(
        "equipped 剣/Sword: weapon 0, the one `fight attack` strikes with from the next "
        f"fight (the fight under way at {default_fight_path()} keeps Aki's weapons as they "
        "were at its start); `--weapon club` strikes with 棍棒/Club")
    # the club, the fight's weapon 0 already, strikes now too: nothing said of the fight
    again = " ".join(_said(capsys, ["genso", "gear", "Aki", "club"]).split())
    assert "now weapon 0, the one `fight attack` strikes with;" in again
    assert "fight under way" not in again
    refused = " ".join(_said(capsys, ["genso", "fight", "attack", "Aki", "orc1", "--weapon",
                                      "sword", "--seed", "5"], 2).split())
    assert ("--weapon sword: Aki did not carry 剣/Sword into this fight (carried: 0 棍棒/Club "
            "(club), 1 小刀/Knife (knife), 2 拳/Fist (fist)): a fight keeps its fighters' "
            "weapons as `fight new` copied them from their sheets, so one bought or readied "
            "since strikes from the next fight") in refused
    # a word that is no weapon at all is refused as before
    assert "carries no such weapon" in _said(
        capsys, ["genso", "fight", "attack", "Aki", "orc1", "--weapon", "swrd"], 2)


def test_gear_with_no_fight_going_on_says_nothing_of_one(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _aki_with_a_sword(capsys)
    _said(capsys, ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"])
    said = _said(capsys, ["genso", "gear", "Aki", "sword"])
    assert said.startswith("equipped 剣/Sword: weapon 0, the one `fight attack` strikes with")
    assert "fight under way" not in said
