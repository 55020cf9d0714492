"""fixg70d: `genso calendar undo-death` takes back a death the calendar recorded.

A Death Curse death told by `calendar pass` is kept in calendar.toml (``died``, genso70
DEFECT 1), and every command then refuses the character; a GM who ran `pass` by mistake
could take it back only by editing the file. `undo-death TARGET` does it through the
command's locked, atomic save: a GM's correction, not a rule of the game (GM-MAGIC-13
brings no one back).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from tests.app.genso_preset_helpers import genso, refused

PC1 = "駆け出し冒険者１"
VILLAGER = "普通の村人（男性）"
CORRECTION = "a GM's correction, not a rule of the game"


def calendar_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "calendar.toml"


def kept(user_dirs: Path) -> dict[str, Any]:
    return tomllib.loads(calendar_file(user_dirs).read_text(encoding="utf-8"))


def test_a_death_recorded_by_pass_is_undone_and_the_character_plays_again(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mio's curse kills pc1 at `pass 367`; `undo-death pc1` (the key, as `calendar`
    names it 駆け出し冒険者１) takes the record back, and check, fight new and sheet take
    pc1 as alive; the day stays, the curse stays off the calendar."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "calendar", "pass", "367")
    assert kept(user_dirs)["died"] == [
        {"target": PC1, "caster": "Mio", "cast_on": 1, "dies_on": 367}]
    assert f"{PC1} is dead" in refused(capsys, "check", "general", "--sheet", "pc1",
                                       "--seed", "1")
    out, _ = genso(capsys, "calendar", "undo-death", "pc1")
    assert f"the calendar records no death for {PC1}: {CORRECTION}" in out
    assert f"Taken back: {PC1} died at sunset on day 367 of Mio's 呪殺呪/Death Curse" in out
    assert "the day stays 368" in out
    after = kept(user_dirs)
    assert "died" not in after and after["day"] == 368 and after["death_curses"] == []
    out, err = genso(capsys, "check", "general", "--sheet", "pc1", "--seed", "1")
    assert "一般判定/general check" in out and "dead" not in err
    genso(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    assert (user_dirs / "data" / "genso" / "fight.json").exists()
    sheet, _ = genso(capsys, "sheet", "pc1")
    assert "DEAD" not in sheet and "died" not in sheet
    shown = json.loads(genso(capsys, "calendar", "--json")[0])
    assert shown["dead"] == [] and shown["day"] == 368
    # The living take a curse again, as any other.
    genso(capsys, "calendar", "curse", "Kai", "pc1")


def test_undo_death_of_one_with_no_recorded_death_is_refused_naming_who_has(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name with no death, or a caster whose curse killed no one of that name, is refused
    with the recorded dead listed; the file is not written."""
    genso(capsys, "calendar", "curse", "Mio", "Ben")
    genso(capsys, "calendar", "pass", "367")
    before = calendar_file(user_dirs).read_bytes()
    err = refused(capsys, "calendar", "undo-death", "Cat")
    assert ("the calendar records no death for Cat (recorded dead: Ben, at sunset on day "
            "367 of Mio's)") in err
    err = refused(capsys, "calendar", "undo-death", "Ben", "--caster", "Kai")
    assert "records no death of Kai's 呪殺呪/Death Curse for Ben" in err
    assert calendar_file(user_dirs).read_bytes() == before
    genso(capsys, "calendar", "undo-death", "Ben", "--caster", "Mio")
    err = refused(capsys, "calendar", "undo-death", "Ben")
    assert "records no death for Ben (recorded dead: no one)" in err


def test_several_deaths_of_an_npc_presets_copies_need_the_caster(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two copies of villager_m dead of two casters' curses: `--caster` says whose death
    is taken back, and the other stays."""
    genso(capsys, "calendar", "curse", "Mio", "villager_m")
    genso(capsys, "calendar", "pass", "367")
    genso(capsys, "calendar", "curse", "Kai", "villager_m")
    genso(capsys, "calendar", "pass", "367")
    assert [d["caster"] for d in kept(user_dirs)["died"]] == ["Mio", "Kai"]
    err = refused(capsys, "calendar", "undo-death", "villager_m")
    assert f"{VILLAGER} is recorded dead 2 times" in err and "with --caster" in err
    genso(capsys, "calendar", "undo-death", "villager_m", "--caster", "Kai")
    assert kept(user_dirs)["died"] == [
        {"target": VILLAGER, "caster": "Mio", "cast_on": 1, "dies_on": 367}]


def test_an_old_calendar_file_reads_as_before_and_a_hand_edited_death_is_taken_back(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file from before ``died`` is untouched by a refused undo and by a read; one whose
    curse's sunset a hand edit left behind is settled first: the death is told, then taken
    back."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    old = ('day = 366\ndeath_curses = [{target = "Ben", caster = "Mio", cast_on = 1, '
           'dies_on = 367}]\n')
    path.write_text(old, encoding="utf-8")
    assert "records no death for Ben" in refused(capsys, "calendar", "undo-death", "Ben")
    assert "Ben dies at sunset on day 367 (1 day left)" in genso(capsys, "calendar")[0]
    assert path.read_text(encoding="utf-8") == old
    path.write_text(old.replace("366", "370"), encoding="utf-8")
    out, _ = genso(capsys, "calendar", "undo-death", "Ben")
    assert out.index("Ben died at sunset on day 367") < out.index(
        f"the calendar records no death for Ben: {CORRECTION}")
    assert kept(user_dirs) == {"day": 370, "death_curses": []}


def test_the_help_says_it_is_a_correction_not_a_rule(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["genso", "calendar", "undo-death", "--help"])
    out = capsys.readouterr().out
    assert CORRECTION in " ".join(out.split()) and "--caster" in out
    with pytest.raises(SystemExit):
        main(["genso", "calendar", "--help"])
    assert "undo-death" in capsys.readouterr().out


def test_the_other_curses_that_ended_with_the_death_come_back_or_are_named(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """calendar75 NIT 3: Mio's curse kills pc1 at sunset on day 3, and Ren's (due day 4)
    ends with the death. `undo-death` said only "that curse stays off" and Ren's was lost
    unsaid. Nothing in the seed ends a Death Curse but its sunset and its caster's lift
    (GM-MAGIC-13), so each not yet due comes back, named; Mio's, which killed, stays off."""
    genso(capsys, "calendar", "curse", "Mio", "pc1", "--set", "GM-MAGIC-13.year_days=1")
    genso(capsys, "calendar", "curse", "Ren", "pc1", "--set", "GM-MAGIC-13.year_days=2")
    genso(capsys, "calendar", "pass", "3")  # day 4: pc1 died at sunset on day 3
    assert kept(user_dirs)["ended_with_death"] == [
        {"target": PC1, "caster": "Ren", "cast_on": 1, "dies_on": 4}]
    out, _ = genso(capsys, "calendar", "undo-death", "pc1")
    assert (f"GM-MAGIC-13 Ren's 呪殺呪/Death Curse on {PC1} (cast on day 1, due at sunset "
            "on day 4), which ended with the death, is back on the calendar: only its sunset "
            "or its caster's lift ends it") in out
    after = kept(user_dirs)
    assert after["death_curses"] == [{"target": PC1, "caster": "Ren", "cast_on": 1,
                                      "dies_on": 4}]
    assert "died" not in after and "ended_with_death" not in after


def test_one_whose_sunset_has_passed_stays_off_and_is_named(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ren's curse, ended with pc1's death on day 3, was due on day 4; undone on day 6, it
    is named and stays off (kept, it would kill at once), as the one that killed does."""
    genso(capsys, "calendar", "curse", "Mio", "pc1", "--set", "GM-MAGIC-13.year_days=1")
    genso(capsys, "calendar", "curse", "Ren", "pc1", "--set", "GM-MAGIC-13.year_days=2")
    genso(capsys, "calendar", "pass", "5")
    out, _ = genso(capsys, "calendar", "undo-death", "pc1")
    assert (f"GM-MAGIC-13 Ren's 呪殺呪/Death Curse on {PC1} (cast on day 1, due at sunset "
            "on day 4), which ended with the death, stays off: its sunset is past") in out
    after = kept(user_dirs)
    assert after["death_curses"] == [] and "ended_with_death" not in after
