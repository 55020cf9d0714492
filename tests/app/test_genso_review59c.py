"""review59c (genso): a fight over but never applied, a sheet changed since it began (D1);
combatants' names matched as whole words (D4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def test_fight_new_keeps_a_fight_never_applied_whose_sheet_changed(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D1: the sheet edited after the fight began, apply refuses it; `fight new` took the
    fight as done with and wrote over it, no --force and no copy, losing its HP 11."""
    sheet = tmp_path / "aki.toml"
    out(capsys, "sheet", "pc1", "--save-as", str(sheet))
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    out(capsys, "fight", "wait", str(sheet))
    out(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2")
    out(capsys, "fight", "end")
    with sheet.open("a", encoding="utf-8") as f:
        f.write("# the GM notes a potion bought\n")
    assert main(["genso", "fight", "apply"]) == 2
    assert "was changed since the fight began" in capsys.readouterr().err
    assert main(["genso", "fight", "attack", str(sheet), "orc", "--seed", "1"]) == 2
    assert "fight new --party … --force" in capsys.readouterr().err
    new = ("fight", "new", "--party", str(sheet), "--monsters", "orc")
    assert main(["genso", *new]) == 2
    err = capsys.readouterr().err
    assert "pass --force" in err, err
    assert "HP 11 MP" in err and "`fight apply` refuses it" in err, err
    folder = user_dirs / "data" / "genso"
    out(capsys, *new, "--force")
    assert len(list(folder.glob("fight.json.replaced-*"))) == 1


def test_fight_new_writes_over_a_fight_applied_then_its_sheet_rested(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fight's record of its apply is the sure sign: a sheet changed after it (a rest)
    leaves the fight done with, written over with no --force and no copy."""
    sheet = tmp_path / "aki.toml"
    out(capsys, "sheet", "pc1", "--save-as", str(sheet))
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    out(capsys, "fight", "wait", str(sheet))
    out(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2")
    out(capsys, "fight", "end")
    out(capsys, "fight", "apply")
    with sheet.open("a", encoding="utf-8") as f:
        f.write("# rested\n")
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    assert not list((user_dirs / "data" / "genso").glob("fight.json.replaced-*"))
