"""Review 55b's genso findings: `fight new --force` over a fight whose results the sheets do
not hold says the order that works (and the kept copy by name); every `fight apply` or
`fight end` printed carries the fight's own `--file`; an opposed check against a monster
with a blank Body rolls its Magic (GM-MON-3's Default), not the PC's; `gear` of a second
copy names its own number; `fight cast --weapon` takes a key or name."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.genso.fights import save_fight
from companion.app.modes.genso import GensoFightMode, read_fight_file
from tests.app.fight_new_helpers import hurt
from tests.app.genso_json_helpers import PC1, RULES, genso

MAGE = "一般的な魔術師（男性）"


def run_printed(command: str) -> int:
    """Run a `companion …` command as printed between backquotes, as a player pastes it."""
    argv = shlex.split(command)
    assert argv[0] == "companion"
    return main(argv[1:])


def commands_in(text: str) -> list[str]:
    return re.findall(r"`(companion [^`]+)`", text)


def sheet_hp(capsys: pytest.CaptureFixture[str], sheet: Path) -> int:
    capsys.readouterr()
    hp: int = genso(capsys, "sheet", str(sheet))["sheet"]["hp"]
    return hp


def test_force_over_a_fight_never_applied_says_the_order_that_plays_the_new_one_right(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The note said to apply the kept copy after `--force`: the new fight was left at the
    sheet's old HP and its own apply refused. Now it says the new fight took the sheets
    without those results, names the kept copy's apply, and to start the new fight again;
    done in that order, the new fight begins at the HP the old one left."""
    sheet = hurt(tmp_path, capsys)
    genso(capsys, "fight", "flee", str(sheet))
    again = ["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc", "--force"]
    assert main([*again, "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["combatants"][0]["hp"] == 12  # the sheet as it was, as said
    assert "this new fight took those sheets as they were, without them" in out.err
    assert "then this `fight new` again with --force" in out.err
    (apply,) = commands_in(out.err.split("note: of the fight replaced")[1])
    assert run_printed(apply) == 0
    assert sheet_hp(capsys, sheet) == 11
    assert main([*again, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["combatants"][0]["hp"] == 11
    genso(capsys, "fight", "flee", str(sheet))
    genso(capsys, "fight", "apply")  # the new fight's own apply is not refused


def test_the_apply_and_end_commands_printed_name_the_fights_own_file(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fight played with --file printed `companion genso fight apply` (and `fight end`)
    with no --file: as printed they acted on the default fight."""
    other = tmp_path / "my fight.json"
    sheet = hurt(tmp_path, capsys, "--file", str(other))
    assert main(["genso", "fight", "apply", "--file", str(other)]) == 2
    (end,) = commands_in(capsys.readouterr().err)
    assert end == f"companion genso fight end --file {shlex.quote(str(other))}"
    assert run_printed(end) == 0
    (apply,) = commands_in(capsys.readouterr().out)
    assert run_printed(apply) == 0
    assert sheet_hp(capsys, sheet) == 11


def test_the_tables_apply_hint_names_the_fight_file_it_plays(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --mode genso --fight other.json` ended with `companion genso fight apply`, the
    default fight's."""
    other = tmp_path / "other.json"
    sheet = hurt(tmp_path, capsys, "--file", str(other))
    genso(capsys, "fight", "flee", str(sheet), "--file", str(other))
    fight = read_fight_file(RULES, other)
    closing = GensoFightMode(RULES, fight, fight_path=other).closing()
    assert closing.endswith(f"companion genso fight apply --file {other}")
    save_fight(fight, other)
    assert run_printed(closing.split(": ")[-1]) == 0
    assert sheet_hp(capsys, sheet) == 11


def test_the_table_and_the_command_agree_a_fight_that_changed_no_sheet_needs_no_apply(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table asked for `fight apply` of any sheet PC not yet applied, though the fight
    changed nothing on its sheet (fled unhurt); the command said nothing. Both now ask what
    apply would write."""
    sheet = tmp_path / "one.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    assert main(["genso", "fight", "flee", str(sheet)]) == 0
    assert "fight apply" not in capsys.readouterr().out
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    assert "apply" not in GensoFightMode(RULES, fight).closing()


def test_fight_new_over_a_fight_in_progress_says_how_to_keep_what_it_left(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a finished fight was checked: one in progress with a PC hurt was replaced with no
    word. Now the refusal and the --force note say to end it and apply it; as printed for
    the kept copy, they write the HP to the sheet."""
    sheet = hurt(tmp_path, capsys)
    new = ["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"]
    assert main(new) == 2
    err = capsys.readouterr().err
    assert f"it is not over, and the HP and MP it left {PC1} are not on their sheets" in err
    assert main([*new, "--force"]) == 0
    note = capsys.readouterr().err.split("note: of the fight replaced")[1]
    end, apply = commands_in(note)
    assert "fight.json.replaced-" in end and "fight end --file" in end
    assert run_printed(end) == 0 and run_printed(apply) == 0
    capsys.readouterr()
    assert sheet_hp(capsys, sheet) == 11


def test_fight_new_over_a_fight_whose_sheet_is_gone_says_so(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet deleted since was told "write them first with `fight apply`", which then
    failed: it is gone."""
    sheet = hurt(tmp_path, capsys)
    genso(capsys, "fight", "flee", str(sheet))
    sheet.unlink()
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 2
    err = capsys.readouterr().err
    assert f"the sheet of {PC1}, {sheet.resolve()}, is gone since it began" in err
    assert "write them first" not in err


def test_an_opposed_check_against_a_blank_body_rolls_the_monsters_magic(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CHECK-5 against a wraith (no Body) was refused with `give --ability magic`, which
    made the PC roll Magic too. GM-MON-3's Default (blank_body_uses_magic): the monster's
    side is its Magic in place of Body, said so; the PC still rolls Body."""
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "wraith", "--seed",
                 "1"]) == 0
    text = capsys.readouterr().out
    assert f"{PC1}: 2D + 体力/Body" in text
    wraith = RULES.monster("wraith")
    assert (f"{wraith.name}: 2D + 魔力/Magic in place of 体力/Body (GM-MON-3) "
            f"{wraith.magic}") in text
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "wraith", "--set",
                 "GM-MON-3.blank_body_uses_magic=false"]) == 2
    err = capsys.readouterr().err
    assert "Default of Magic in its place (blank_body_uses_magic) is off" in err
    assert "--ability" not in err


def test_gear_of_a_second_copy_names_its_own_number(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-1: a second club readied names its own number: weapon 0, the one readied
    goes first (genso63 DEFECT 1), and the club held before follows it."""
    sheet = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    assert main(["genso", "buy", str(sheet), "club"]) == 0
    assert main(["genso", "gear", str(sheet), "club"]) == 0
    assert "equipped 棍棒/Club: weapon 0, the one `fight attack` strikes with" in (
        capsys.readouterr().out)
    assert genso(capsys, "sheet", str(sheet))["sheet"]["weapons"][:2] == ["club", "club"]


def test_fight_cast_weapon_takes_a_key_or_name(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-3: `fight cast --weapon` took only a number (`invalid int value: 'club'`),
    though attack's takes a key or name; a number beyond the list names those carried."""
    genso(capsys, "fight", "new", "--party", "pc1", "mage_m", "--monsters", "orc")
    for _ in range(3):  # the mage's turn, whoever goes first
        current = genso(capsys, "fight", "show")["current"]
        if current == MAGE:
            break
        genso(capsys, "fight", "wait", current)
    cast = genso(capsys, "fight", "cast", "mage_m", "exorcism", "pc1", "--weapon", "knife",
                 "--seed", "1")
    assert cast["entry"]["action"]["weapon"] == 1
    genso(capsys, "fight", "undo")
    assert main(["genso", "fight", "cast", "mage_m", "exorcism", "pc1", "--weapon", "7"]) == 2
    assert "has no weapon 7 (carried: 0 棍棒/Club (club), 1 小刀/Knife (knife)" in (
        capsys.readouterr().err)


def test_the_force_notes_loop_followed_as_printed_ends_with_no_false_note(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review 55c #1: after the first `--force` note's end and apply of the kept copy, the
    second `--force` said the fight the first one made (never played) had left HP not on the
    sheets, and the apply it named was refused, the sheet changed since that fight began.
    A sheet apply would refuse is not counted: the loop ends."""
    sheet = hurt(tmp_path, capsys)
    again = ["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc", "--force"]
    assert main(again) == 0
    note = capsys.readouterr().err.split("note: of the fight replaced")[1]
    assert "run those, then this `fight new` again with --force" in note
    end, apply = commands_in(note)
    assert run_printed(end) == 0 and run_printed(apply) == 0
    assert sheet_hp(capsys, sheet) == 11
    assert main([*again, "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["combatants"][0]["hp"] == 11
    assert "note: of the fight replaced" not in out.err


def test_a_sheet_rested_after_its_apply_is_not_said_to_lack_the_results(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review 55c #1: apply, then `genso rest`, and `fight new` said the results were never
    written, naming an apply that was then refused; the table asked for it too."""
    sheet = hurt(tmp_path, capsys)
    genso(capsys, "fight", "flee", str(sheet))
    genso(capsys, "fight", "apply")
    applied = sheet.read_text(encoding="utf-8")
    genso(capsys, "rest", str(sheet), "1")
    assert sheet.read_text(encoding="utf-8") != applied
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    assert "apply" not in GensoFightMode(RULES, fight).closing()
    new = ["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"]
    # Over and applied: written over with no --force (review59a D3), and no word of results
    # left unwritten.
    assert main(new) == 0
    err = capsys.readouterr().err
    assert "never written" not in err and "fight apply" not in err
    assert "note: of the fight replaced" not in err and "was over" in err
