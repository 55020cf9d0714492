"""``companion coc fight``: a blade an ally drew with Iai (CO-IAI-1) keeps its number on the
lender's sheet, shown lent in ``fight show --json``, and the lender's ``--with weapon=0`` aimed
at it is refused by name (coc72 DEFECT 2, engine revision 20): it had been taken out of the
list, so Kat's weapon=0 punched with her fist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.coc_command_helpers import CHARACTERISTICS

SHEET = CHARACTERISTICS + "{skills}\n"


def write(folder: Path, name: str, dex: int, skills: str, weapons: tuple[str, ...]) -> str:
    path = folder / f"{name.lower()}.toml"
    path.write_text(SHEET.format(name=name, dex=dex, skills=skills) + "".join(
        f'[[weapons]]\nkey = "{w}"\n' for w in weapons), encoding="utf-8")
    return str(path)


def test_the_lenders_weapon_0_is_its_lent_sword(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nok = write(tmp_path, "Nok", 16, "iai = 80\nfist = 50", ("fist",))
    kat = write(tmp_path, "Kat", 14, "japanese_sword = 60\nfist = 50", ("japanese_sword", "fist"))
    foe = write(tmp_path, "Foe", 10, "fist = 50", ("fist",))
    assert main(["coc", "fight", "new", "--profile", "003", "--investigators", nok, kat,
                 "--foes", foe]) == 0
    assert main(["coc", "fight", "act", "attack", "Nok", "Foe", "--with", "iai=true",
                 "--with", "borrow=Kat", "--with", "weapon=0", "--seed", "3"]) == 0
    assert "Nok draws Kat's 日本刀/Japanese Sword (CO-IAI-1)" in capsys.readouterr().out
    assert main(["coc", "fight", "act", "end_turn", "Nok"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "show", "--json"]) == 0
    shown = {c["name"]: [(w["key"], w["lent"], w["lent_from"]) for w in c["weapons"]]
             for c in json.loads(capsys.readouterr().out)["combatants"]}
    assert shown["Kat"] == [("japanese_sword", "Nok", ""), ("fist", "", "")]
    # grapple73's known item: whom Nok's copy was drawn from is in the JSON too
    assert shown["Nok"] == [("fist", "", ""), ("japanese_sword", "", "Kat")]
    assert main(["coc", "fight", "act", "attack", "Kat", "Foe", "--with", "weapon=0",
                 "--seed", "4"]) == 2
    assert "Kat's 日本刀/Japanese Sword is in Nok's hands (CO-IAI-1)" in capsys.readouterr().err


def test_the_owner_draws_its_lent_sword_back_as_its_weapon_0(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewcoc72 RISK 2: Kat draws back with Iai the sword Nok drew from her. It is her
    weapon 0 again, out of Nok's list; she had got a second copy (weapon 2) while her
    weapon 0 stayed "in Nok's hands", and the table tagged her own sword "Nok's blade"."""
    nok = write(tmp_path, "Nok", 16, "iai = 80\nfist = 50", ("fist",))
    kat = write(tmp_path, "Kat", 14, "iai = 70\njapanese_sword = 60\nfist = 50",
                ("japanese_sword", "fist"))
    foe = write(tmp_path, "Foe", 10, "fist = 50", ("fist",))
    (tmp_path / "foe.toml").write_text("max_hp = 90\n" + (tmp_path / "foe.toml").read_text(
        encoding="utf-8"), encoding="utf-8")
    assert main(["coc", "fight", "new", "--profile", "003", "--investigators", nok, kat,
                 "--foes", foe]) == 0
    assert main(["coc", "fight", "act", "attack", "Nok", "Foe", "--with", "iai=true",
                 "--with", "borrow=Kat", "--with", "weapon=0", "--seed", "3"]) == 0
    assert main(["coc", "fight", "act", "end_turn", "Nok"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", "attack", "Kat", "Foe", "--with", "iai=true",
                 "--with", "borrow=Nok", "--with", "weapon=1", "--seed", "3"]) == 0
    assert ("Kat draws back the 日本刀/Japanese Sword lent to Nok (CO-IAI-1)"
            in capsys.readouterr().out)
    assert main(["coc", "fight", "show", "--json"]) == 0
    shown = {c["name"]: [(w["key"], w["lent"]) for w in c["weapons"]]
             for c in json.loads(capsys.readouterr().out)["combatants"]}
    assert shown["Kat"] == [("japanese_sword", ""), ("fist", "")]
    assert shown["Nok"] == [("fist", "")]
    assert main(["coc", "fight", "act", "attack", "Kat", "Foe", "--with", "weapon=0",
                 "--seed", "4"]) == 0
    assert "Kat 日本刀/Japanese Sword (1D100<=60)" in capsys.readouterr().out
