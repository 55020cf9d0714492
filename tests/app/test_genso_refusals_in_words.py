"""cli59 F11 (genso): the command line's refusals say what to do, in words, not Python.

- `grow SHEET spell` without --spell names the option and where the spells are listed;
- `new` with abilities other than 6, 5, 4 gives them as "Body 6, Perception 6, Magic 4",
  not a dict;
- an action after a fight is over names `fight new` (and `fight apply` while a sheet
  waits for it, review59a N5);
- `fight new` with the whole party down (HP −1 on a sheet) is refused, nothing written:
  the fight would be over before its first action; a party member down beside others
  who can fight is said in a note;
- `fight apply` of a preset PC says its HP and MP are written nowhere, and how to keep
  them (`genso sheet KEY --save-as FILE`);
- `rest SHEET 0` is refused (1 day or more), as `events rest --hours 0` is;
- the sheet's protection with nothing worn says so, not 防護力/protection twice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.genso.files import sheet_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def make_dan(capsys: pytest.CaptureFixture[str], hp: int | None = None) -> Path:
    code, _, err = run(capsys, "new", "Dan", "--body", "6", "--perception", "4", "--magic",
                       "5", "--skill", "combat", "--seed", "1", "--json")
    assert code == 0, err
    path = sheet_path("Dan")
    if hp is not None:
        text = path.read_text(encoding="utf-8")
        lines = [f"hp = {hp}" if line.startswith("hp = ") else line
                 for line in text.splitlines()]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_grow_spell_without_spell_names_the_option(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_dan(capsys)
    code, _, err = run(capsys, "grow", "Dan", "spell")
    assert code != 0
    assert "with --spell NAME (see `companion genso list spells`)" in err


def test_new_gives_the_abilities_in_words(user_dirs: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "new", "X", "--body", "6", "--perception", "6", "--magic", "4",
                       "--skill", "combat")
    assert code != 0
    assert "got Body 6, Perception 6, Magic 4" in err and "{" not in err


def test_an_action_after_the_end_names_apply_and_new(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "fight", "new", "--party", "pc1", "--monsters", "slime")[0] == 0
    assert run(capsys, "fight", "end")[0] == 0
    code, _, err = run(capsys, "fight", "attack", "pc1", "slime", "--seed", "1")
    assert code != 0
    assert "the fight is over" in err
    # Presets only: nothing to apply, and the next fight new needs no --force (review59a).
    assert "fight apply" not in err and "`companion genso fight new --party …`" in err


def test_a_fight_over_before_it_began_is_refused(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_dan(capsys, hp=-1)
    code, _, err = run(capsys, "fight", "new", "--party", "Dan", "--monsters", "orc")
    assert code != 0
    assert "the fight would be over before it began" in err
    assert "Dan PC is INCAPACITATED 行動不能 (HP -1)" in err and "nothing was written" in err
    assert run(capsys, "fight", "show")[0] != 0  # no fight was saved


def test_one_down_beside_others_is_said(user_dirs: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    make_dan(capsys, hp=-1)
    code, _, err = run(capsys, "fight", "new", "--party", "Dan", "pc1", "--monsters", "orc")
    assert code == 0, err
    assert "note: Dan PC 1 is INCAPACITATED 行動不能 (HP -1): they take no turn" in err


def test_one_out_by_mp_is_said_so_and_sent_to_sleep(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso74 NIT 5: a PC out by MP 0, its HP whole, was "INCAPACITATED 行動不能 (HP 8)", and
    told to heal by rest first; the pool below 1 is named, and the night's sleep that fills
    MP (GM-HEAL-2) is what it is told."""
    path = make_dan(capsys)
    text = path.read_text(encoding="utf-8")
    path.write_text("\n".join("mp = 0" if line.startswith("mp = ") else line
                              for line in text.splitlines()) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "fight", "new", "--party", "Dan", "pc1", "--monsters", "orc")
    assert code == 0, err
    assert "note: Dan PC 1 is INCAPACITATED 行動不能 (MP 0: below 1): they take no turn" in err
    code, _, err = run(capsys, "fight", "new", "--party", "Dan", "--monsters", "orc",
                       "--force")
    assert code != 0 and "Dan PC is INCAPACITATED 行動不能 (MP 0: below 1)" in err
    assert "let Dan sleep first (`" in err and "genso rest SHEET --sleep` fills MP" in err
    assert "heal Dan" not in err


def test_apply_of_a_preset_says_how_to_keep_its_hp(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "fight", "new", "--party", "pc1", "--monsters", "slime")[0] == 0
    assert run(capsys, "fight", "end")[0] == 0
    code, out, _ = run(capsys, "fight", "apply")
    assert code == 0
    assert "its HP 12 MP 8 are written nowhere" in out
    assert "`companion genso sheet pc1 --save-as FILE`" in out


def test_rest_of_no_days_is_refused(user_dirs: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = make_dan(capsys)
    before = path.read_text(encoding="utf-8")
    code, _, err = run(capsys, "rest", "Dan", "0")
    assert code != 0 and "a rest lasts 1 day or more, found 0" in err
    assert path.read_text(encoding="utf-8") == before


def test_protection_with_nothing_worn_is_not_said_twice(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sheet", "pc1")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("防護力/protection"))
    assert line == "防護力/protection 0 (防具なし/no armour or shield)"
