"""review59c (genso): a fight over but never applied, a sheet changed since it began (D1);
combatants' names matched as whole words (D4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso.table import read_fight_file
from companion.app.modes.names import add_english
from tests.app.genso_names_helpers import RULES, out


def ended_fight(capsys: pytest.CaptureFixture[str], sheet: Path) -> None:
    """A fight of ``sheet``'s PC (pc1's sheet) against an orc: one blow, then ended."""
    out(capsys, "sheet", "pc1", "--save-as", str(sheet))
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    out(capsys, "fight", "wait", str(sheet))
    out(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2")
    out(capsys, "fight", "end")


def test_fight_new_keeps_a_fight_never_applied_whose_sheet_changed(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D1: the sheet edited after the fight began, apply refuses it; `fight new` took the
    fight as done with and wrote over it, no --force and no copy, losing its HP 11."""
    sheet = tmp_path / "aki.toml"
    ended_fight(capsys, sheet)
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
    assert "`fight apply` refuses it: hp " in err and " → 11 (" in err, err  # review63c R3
    folder = user_dirs / "data" / "genso"
    out(capsys, *new, "--force")
    assert len(list(folder.glob("fight.json.replaced-*"))) == 1


def test_fight_new_writes_over_a_fight_applied_then_its_sheet_rested(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fight's record of its apply is the sure sign: a sheet changed after it (a rest)
    leaves the fight done with, written over with no --force and no copy."""
    sheet = tmp_path / "aki.toml"
    ended_fight(capsys, sheet)
    out(capsys, "fight", "apply")
    with sheet.open("a", encoding="utf-8") as f:
        f.write("# rested\n")
    out(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    assert not list((user_dirs / "data" / "genso").glob("fight.json.replaced-*"))


def test_a_name_is_matched_as_a_whole_word_on_the_command_line_and_the_table(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D4: a PC named Bo turned 体力/Body into 体力/Bo PC dy in `fight attack`'s line, and in
    the table's result as well."""
    aki = tmp_path / "aki.toml"
    out(capsys, "sheet", "pc1", "--save-as", str(aki))
    bo = tmp_path / "bo.toml"
    bo.write_text(re.sub(r'(?m)^name = .*$', 'name = "Bo"', aki.read_text(encoding="utf-8")),
                  encoding="utf-8")
    out(capsys, "fight", "new", "--party", str(bo), "--monsters", "orc")
    hit = out(capsys, "fight", "attack", "Bo", "オーク", "--seed", "3")
    assert "GM-COMBAT-2  Bo PC → オーク Orc: 体力/Body " in hit, hit
    assert "Bo PC dy" not in hit
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    view = GensoFightMode(RULES, fight).fight_view()
    line = next(step.text for step in view.result if step.rule == "GM-COMBAT-2")
    assert line.startswith("Bo PC → オーク Orc: 体力/Body "), line


def test_the_longest_name_wins_where_names_overlap() -> None:
    """Japanese names run on with no spaces, so they are found anywhere; where two
    overlap, the longer is named, even when the shorter begins first."""
    names = {"山田": "PC 1", "田中太郎": "PC 2", "Bo": "PC 3", "オーク1": "Orc 1"}
    assert add_english("山田中太郎 hits; 山田の番", names) == "山田中太郎 PC 2 hits; 山田 PC 1 の番"
    assert add_english("Bob and Bo, 体力/Body; オーク10", names) == \
        "Bob and Bo PC 3, 体力/Body; オーク10"


def test_a_name_of_one_kanji_is_not_named_inside_a_word() -> None:
    """A PC named 剣 was labelled inside 長剣 (長剣 PC 1): one kanji or katakana is named only
    with no kanji or katakana beside it, so 剣 before its particle (剣の) still is."""
    names = {"剣": "PC 1", "鬼": "PC 2", "ア": "PC 3"}
    assert add_english("剣の攻撃 with 長剣; 鬼火 hits 鬼; アント and ア.", names) == \
        "剣 PC 1 の攻撃 with 長剣; 鬼火 hits 鬼 PC 2; アント and ア PC 3."
    assert add_english("剣・鬼ー", names) == "剣 PC 1 ・鬼ー"  # ・ joins two words; ー is one
