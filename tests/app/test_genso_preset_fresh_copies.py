"""The genso NPC preset's fresh copy, by where it came from, not by its name.

fixg70c: follow-up to fixg70b's NPC-preset death rule (/tmp/audit/reviewcg70b.md).

- DEFECT 1: a character counted as a fresh copy of an NPC preset by its name alone
  (folded: 騎士(男性) is knight_m's 騎士（男性）), so a dead PC of that name, and a sheet file
  saved from the preset, came back to life. Only a copy made from the preset itself is a
  fresh copy; at the table, by where the fighter came from.
- RISK 1: "a curse cast after the recorded death is someone else's" held for every name,
  so a hand-edited calendar had a sample PC die twice; now only for NPC presets' names.
- NIT 2: the note "a fresh copy of the preset" was said of a saved PC.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.app.commands.genso import fight_entrant
from companion.app.modes.genso import GensoFightMode
from companion.systems.genso.combat import Fight, Side, entrants_for
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_preset_helpers import genso, refused

RULES = load_rules()
PC1 = "駆け出し冒険者１"
KNIGHT = "騎士（男性）"  # knight_m's name
FRESH = "is a fresh copy of the preset"


def calendar_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "calendar.toml"


def refused_everywhere(capsys: pytest.CaptureFixture[str], ref: str, name: str) -> None:
    """``ref`` (dead of pc1's curse on day 367) is refused by every command, and its sheet
    shows it dead, with no word of a fresh copy."""
    dead = f"{name} is dead (死亡: died at sunset on day 367 of {PC1}'s 呪殺呪/Death Curse"
    for argv in (("check", "general", "--sheet", ref, "--ability", "body", "--seed", "1"),
                 ("check", "opposed", "--sheet", "pc2", "--vs", ref, "--seed", "1"),
                 ("grow", ref, "award"), ("rest", ref),
                 ("fight", "new", "--party", ref, "--monsters", "orc")):
        err = refused(capsys, *argv)
        assert dead in err and FRESH not in err, argv
    err = refused(capsys, "calendar", "curse", "Ben", ref)
    assert f"{name} died at sunset on day 367" in err and "no curse is cast on the dead" in err
    sheet, err = genso(capsys, "sheet", ref)
    assert "DEAD 死亡 (GM-MAGIC-13: died at sunset on day 367" in sheet
    assert f"{name} died at sunset on day 367 of {PC1}'s" in sheet
    assert FRESH not in err


def test_a_pc_named_as_an_npc_preset_folds_stays_dead(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's repro: a `genso new` PC named 騎士(男性) is cursed and dies; it is not
    knight_m's fresh copy, whatever its name folds to. knight_m itself still is."""
    genso(capsys, "new", "騎士(男性)", "--body", "6", "--perception", "5", "--magic", "4",
          "--skill", "combat", "--seed", "1")
    genso(capsys, "calendar", "curse", "pc1", "騎士(男性)")
    said, _ = genso(capsys, "calendar", "pass", "367")
    assert "騎士(男性) died at sunset on day 367" in said
    refused_everywhere(capsys, "騎士(男性)", "騎士(男性)")
    # The preset, loaded by its key, is a fresh copy: a note, and the check is rolled.
    out, err = genso(capsys, "check", "general", "--sheet", "knight_m", "--seed", "1")
    assert "a 騎士(男性) died at sunset on day 367" in err and f"this {KNIGHT} {FRESH}" in err
    assert "一般判定/general check" in out


def test_a_sheet_file_saved_from_a_preset_keeps_its_death(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hired knight kept in a file (`sheet knight_m --save-as`, the preset's name) is one
    person: its death stays; at the table too, where a knight joined from the preset is a
    fresh copy and one from the file is not."""
    hans = user_dirs / "hans.toml"
    genso(capsys, "sheet", "knight_m", "--save-as", str(hans))
    genso(capsys, "calendar", "curse", "pc1", str(hans))
    genso(capsys, "calendar", "pass", "367")
    kept = tomllib.loads(calendar_file(user_dirs).read_text(encoding="utf-8"))
    assert [c["target"] for c in kept["died"]] == [KNIGHT]
    refusing = (
        ("check", "general", "--sheet", str(hans), "--seed", "1"),
        ("fight", "new", "--party", "pc2", "--npc", str(hans), "--monsters", "orc"))
    for argv in refusing:
        err = refused(capsys, *argv)
        assert f"{KNIGHT} is dead (死亡: died at sunset on day 367" in err and FRESH not in err
    sheet, err = genso(capsys, "sheet", str(hans))
    assert "DEAD 死亡" in sheet and FRESH not in err
    _, err = genso(capsys, "sheet", "knight_m")
    assert FRESH in err
    # The table: the preset's knight shows no death; the file's shows it.
    from_preset = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc2"), preset(RULES, "knight_m")], [("orc", 1)])))
    assert fold_name(KNIGHT) not in from_preset.curses()
    from_file = GensoFightMode(RULES, Fight(RULES, [
        *entrants_for(RULES, [preset(RULES, "pc2")], [("orc", 1)]),
        fight_entrant(RULES, str(hans), Side.ENEMY)]))
    assert from_file.curses()[fold_name(KNIGHT)] == "呪殺呪 curse 死亡 died"


def test_a_curse_cast_after_a_pcs_death_ends_with_it_and_a_pc_dies_once(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RISK 1, the reviewer's hand edit: pc1 dead on day 367, and Ben's curse cast on day
    370 written in by hand. It ends with pc1's death, as before fixg70b; a file keeping
    pc1's death twice is refused. An NPC preset's name may die twice (a fresh copy)."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    died = f'died = [{{target = "{PC1}", caster = "Ann", cast_on = 1, dies_on = 367}}]\n'
    path.write_text(f'day = 740\ndeath_curses = [{{target = "{PC1}", caster = "Ben", '
                    f'cast_on = 370, dies_on = 736}}]\n{died}', encoding="utf-8")
    said, _ = genso(capsys, "calendar", "pass", "1")
    assert (f"Ben's 呪殺呪/Death Curse on {PC1} (cast on day 370) ends with {PC1}'s death"
            in said)
    assert "died at sunset on day 736" not in said
    kept = tomllib.loads(path.read_text(encoding="utf-8"))
    assert [(c["target"], c["dies_on"]) for c in kept["died"]] == [(PC1, 367)]
    assert kept["death_curses"] == []
    for target in (PC1, KNIGHT):
        path.write_text(
            f'day = 800\ndied = [{{target = "{target}", caster = "Ann", cast_on = 1, '
            f'dies_on = 367}}, {{target = "{target}", caster = "Ben", cast_on = 370, '
            'dies_on = 736}]\n', encoding="utf-8")
        if target == PC1:
            assert f"died 2: {PC1} died twice" in refused(capsys, "calendar")
        else:
            shown, _ = genso(capsys, "calendar")
            assert f"{KNIGHT} died at sunset on day 736 of Ben's" in shown


def test_a_pc_saved_under_a_presets_key_keeps_its_curse_and_dies(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewz70: a PC saved as `knight_m` (a preset's key) was cursed under that name, then
    the calendar read the key as the preset 騎士（男性）: the curse and its death went to the
    preset and the PC never died. A key a saved character goes by is that character's, as
    `genso sheet` and `fight new` take the saved one first."""
    genso(capsys, "new", "knight_m", "--body", "6", "--perception", "5", "--magic", "4",
          "--skill", "combat", "--seed", "1")
    genso(capsys, "calendar", "curse", "pc1", "knight_m")
    shown, _ = genso(capsys, "calendar")
    assert "knight_m" in shown and KNIGHT not in shown
    said, _ = genso(capsys, "calendar", "pass", "367")
    assert "knight_m died at sunset on day 367" in said
    refused_everywhere(capsys, "knight_m", "knight_m")
