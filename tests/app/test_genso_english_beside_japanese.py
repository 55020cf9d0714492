"""cli59 F10 (genso): English beside the seed's Japanese on the command line, and the
Japanese the help shows taken as input.

- `fight show` rows and the action lines (and `fight log`, `fight undo`, `fight apply`)
  give each combatant's English after its name as the table does (オーク Orc,
  オーク・ウォーリア1 Orc Warrior 1, 駆け出し冒険者１ PC; review59a D1/R4: one function,
  words.english_names, for both); the JSON keeps the names the fight file keys them by;
- `list items` says 打撃力/striking power and 防御点/protection;
- a move says its mode's Japanese (全力移動/full);
- a monster's weapon is capitalised as a PC's is (棍棒/Club);
- `new --skill` takes 戦闘, 戦闘ー１ (the help's words) as well as combat;
- the sheet labels the age (年齢/age 15).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.dice.notation import display_width


def out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def test_fight_rows_and_lines_give_the_english(user_dirs: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    shown = out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc",
                "orc_warrior:2")
    assert "turn: 駆け出し冒険者１ PC" in shown
    rows = shown.splitlines()[1:5]
    assert [r[8:r.index("HP")].strip() for r in rows] == [
        "駆け出し冒険者１ PC", "オーク Orc", "オーク・ウォーリア1 Orc Warrior 1",
        "オーク・ウォーリア2 Orc Warrior 2"]
    # The pools still line up, in terminal columns (a full-width letter takes two).
    assert len({display_width(r[:r.index("HP")]) for r in rows}) == 1
    hit = out(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")
    assert "GM-COMBAT-2  駆け出し冒険者１ PC → オーク Orc: " in hit
    assert "GM-COMBAT-8  オーク Orc: HP " in hit
    assert "駆け出し冒険者１ PC → オーク Orc" in out(capsys, "fight", "log")
    data = json.loads(out(capsys, "fight", "show", "--json"))
    assert [c["name"] for c in data["combatants"]] == ["駆け出し冒険者１", "オーク",
                                                       "オーク・ウォーリア1", "オーク・ウォーリア2"]
    assert out(capsys, "fight", "undo").startswith(
        "undone: 駆け出し冒険者１ PC → オーク Orc 攻撃 attack")


def test_a_name_from_a_sheet_file_keeps_its_own_name(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "new", "Dan", "--body", "6", "--perception", "5", "--magic", "4", "--skill",
        "combat", "--seed", "1")
    shown = out(capsys, "fight", "new", "--party", "Dan", "--monsters", "slime")
    assert "party Dan PC " in shown and "enemy スライム Slime " in shown


def test_a_move_names_its_mode_in_japanese(user_dirs: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "slime")
    assert "moves 全力移動/full (48 m)" in out(capsys, "fight", "move", "pc1", "full")


def test_a_monsters_weapon_is_capitalised_as_a_pcs(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    out(capsys, "fight", "wait", "pc1")
    monkeypatch.setattr("sys.stdin", io.StringIO("1 1\n3\n"))  # the defence fails: a hit
    hit = out(capsys, "fight", "attack", "orc", "pc1", "--dice", "typed")
    assert "棍棒/Club" in hit and "棍棒/club" not in hit


def test_list_items_gives_the_english_of_its_terms(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = out(capsys, "list", "items")
    assert "打撃力/striking power 1D6" in text and "防御点/protection 4" in text
    assert "打撃力 " not in text and "防御点 " not in text


@pytest.mark.parametrize("typed", ["戦闘", "戦闘ー１", "戦闘-1", "combat"])
def test_new_takes_the_skill_in_japanese(user_dirs: Path, capsys: pytest.CaptureFixture[str],
                                         typed: str) -> None:
    made = json.loads(out(capsys, "new", "Ken", "--body", "6", "--perception", "5",
                          "--magic", "4", "--skill", typed, "--seed", "1", "--json"))
    assert made["sheet"]["combat"] == 1


def test_the_sheet_labels_the_age(user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert out(capsys, "sheet", "pc1").splitlines()[0].endswith(" 年齢/age 15")
