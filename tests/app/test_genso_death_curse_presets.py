"""The genso Death Curse deaths of NPC presets' copies; the incapacitated in table saves.

fixg70b: follow-up fixes to genso70's (/tmp/audit/reviewg70.md).

- DEFECT A: a table save in which an incapacitated (行動不能) fighter rolled a check, or was
  the other side of an opposed one, did not resume: the menus no longer offered them.
- DEFECT B: a Death Curse death kept under an NPC preset's name (普通の村人（男性）) left
  every later copy of the preset dead, for good.
- grow award gave experience to the HP-dead.
- RISK D: two curses (or deaths) that became one person's when a preset's key was read as
  its name were merged without a word.
- NIT F: check refused the dead in two shapes, and said "HP 0, MP 3: below 1".
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_preset_helpers import genso, refused

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
VILLAGER = "普通の村人（男性）"


def calendar_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "calendar.toml"


def saved_sheet(user_dirs: Path, capsys: pytest.CaptureFixture[str], name: str, ref: str = "pc1",
                **fields: int) -> Path:
    """``ref``'s sheet saved as ``name`` with ``fields`` (hp, mp) set, in the data folder."""
    path = user_dirs / "data" / "genso" / "characters" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    genso(capsys, "sheet", ref, "--save-as", str(path))
    lines = [f'name = "{name}"' if line.startswith("name = ") else
             next((f"{k} = {v}" for k, v in fields.items() if line.startswith(f"{k} = ")), line)
             for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- DEFECT A -----------------------------------------------------------------------------


def drained_fight() -> GensoFightMode:
    """pc1, and pc2 drained to MP 0 (行動不能, GM-COMBAT-8), against an orc."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"),
                                              replace(preset(RULES, "pc2"), mp=0)],
                                      [("orc", 1)]))
    return GensoFightMode(RULES, fight)


@pytest.mark.parametrize("journal", [
    # The reviewer's save, recorded at 0a49cba4: the drained pc2 rolls a general check.
    ["gm", "check", "c:general", f"t:{PC2}", "a:body", "d:default", "m:0", "3,4"],
    # pc1 against the drained pc2, whom the old "against whom" offered.
    ["gm", "check", "c:opposed", f"t:{PC1}", f"t:{PC2}", "a:body", "act:yes", "m:0", "m:0",
     "3,4", "2,2"],
])
def test_a_save_in_which_the_incapacitated_rolled_a_check_resumes(
        user_dirs: Path, journal: list[str]) -> None:
    mode = drained_fight()
    replay(mode, journal, 1)
    checked = mode.last_check
    assert checked is not None and PC2 in checked.check.text
    # Live, the incapacitated are still not offered (genso70 DEFECT 2).
    live = drained_fight()
    live.path = ["check", "c:general"]
    ask = live.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.choice for o in ask.options] == [f"t:{PC1}", "back"]
    live.path = ["check", "c:opposed", f"t:{PC1}"]
    ask = live.ask()
    assert isinstance(ask, ChoiceAsk)
    assert f"t:{PC2}" not in [o.choice for o in ask.options]


# --- DEFECT B -----------------------------------------------------------------------------


def test_a_dead_npc_presets_copy_leaves_later_copies_alive_with_a_note(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's play: Mio curses a villager, who dies on day 367; a villager later is
    a fresh copy of the preset. A sample PC (pc1) is one person, and stays dead."""
    genso(capsys, "calendar", "curse", "Mio", "villager_m")
    genso(capsys, "calendar", "curse", "Ann", "pc1")
    genso(capsys, "calendar", "pass", "367")
    fresh = (f"note: a {VILLAGER} died at sunset on day 367 of Mio's 呪殺呪/Death Curse "
             f"(GM-MAGIC-13); this {VILLAGER} is a fresh copy of the preset")
    _, err = genso(capsys, "fight", "new", "--party", "pc2", "--npc", "villager_m",
                   "--monsters", "orc")
    assert fresh in err
    _, err = genso(capsys, "check", "general", "--sheet", "villager_m", "--seed", "1")
    assert fresh in err
    sheet, err = genso(capsys, "sheet", "villager_m")
    assert fresh in err and "DEAD" not in sheet and "died" not in sheet
    # A sheet file saved from the preset, by its name, is one person: the one who died
    # (reviewcg70b DEFECT 1; tests/app/test_genso_preset_fresh_copies.py).
    copy = saved_sheet(user_dirs, capsys, VILLAGER, "villager_m")
    assert f"{VILLAGER} is dead" in refused(capsys, "check", "general", "--sheet", str(copy),
                                             "--seed", "1")
    # The table's row of the fresh copy shows no death.
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc2"), preset(RULES, "villager_m")], [("orc", 1)])))
    assert fold_name(VILLAGER) not in mode.curses() and fold_name(PC1) in mode.curses()
    # A fresh copy may be cursed, and die of it in turn: the calendar keeps both deaths.
    genso(capsys, "calendar", "curse", "Ben", "villager_m")
    said, _ = genso(capsys, "calendar", "pass", "367")
    assert f"{VILLAGER} died at sunset on day 734 of Ben's" in said
    kept = tomllib.loads(calendar_file(user_dirs).read_text(encoding="utf-8"))
    assert sorted((c["target"], c["dies_on"]) for c in kept["died"]) == [
        (VILLAGER, 367), (VILLAGER, 734), (PC1, 367)]
    genso(capsys, "calendar")  # the file reads back
    # pc1 is one person: dead for good.
    assert f"{PC1} is dead (死亡: died at sunset on day 367 of Ann's" in refused(
        capsys, "check", "general", "--sheet", "pc1", "--dice", "sim")


# --- grow award ---------------------------------------------------------------------------


def test_grow_award_refuses_the_hp_dead_and_awards_the_incapacitated(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = saved_sheet(user_dirs, capsys, "Dead", hp=-6)
    before = dead.read_text(encoding="utf-8")
    assert ("Dead is dead (死亡: HP -6, below -5, GM-COMBAT-8); experience (GM-GROW-1) does "
            "not bring the dead back") in refused(capsys, "grow", str(dead), "award")
    assert dead.read_text(encoding="utf-8") == before
    drained = saved_sheet(user_dirs, capsys, "Drained", mp=0)
    exp = tomllib.loads(drained.read_text(encoding="utf-8"))["exp"]
    genso(capsys, "grow", str(drained), "award")
    assert tomllib.loads(drained.read_text(encoding="utf-8"))["exp"] == exp + 1


# --- RISK D -------------------------------------------------------------------------------


def test_a_curse_and_a_death_kept_twice_under_one_person_are_merged_with_a_note(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An old file with Mio's curse on ``pc1`` (day 1) and on 駆け出し冒険者1 (day 3), and
    deaths of ``pc2`` and 駆け出し冒険者２ (one person): each kept once, the older, and said."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text(
        'day = 400\ndeath_curses = [{target = "pc1", caster = "Mio", cast_on = 1, '
        'dies_on = 700}, {target = "駆け出し冒険者1", caster = "Mio", cast_on = 3, '
        'dies_on = 702}]\ndied = [{target = "pc2", caster = "Ann", cast_on = 1, dies_on = 367},'
        ' {target = "駆け出し冒険者2", caster = "Kai", cast_on = 2, dies_on = 368}]\n',
        encoding="utf-8")
    shown, err = genso(capsys, "calendar")
    assert ("Mio's 呪殺呪/Death Curse on 駆け出し冒険者1 (cast on day 3) is the one on pc1 "
            f"(cast on day 1), one person, {PC1}: kept once, the older") in err
    assert (f"駆け出し冒険者2's death at sunset on day 368 is pc2's at sunset on day 367, one "
            f"person, {PC2}: kept once, the first") in err
    assert "cast on day 3" not in shown
    genso(capsys, "calendar", "pass", "1")
    kept = tomllib.loads(path.read_text(encoding="utf-8"))
    assert [(c["target"], c["cast_on"]) for c in kept["death_curses"]] == [(PC1, 1)]
    assert [(c["target"], c["dies_on"]) for c in kept["died"]] == [(PC2, 367)]
    _, err = genso(capsys, "calendar")
    assert "kept once" not in err  # said until the change that saves it


# --- NIT F --------------------------------------------------------------------------------


def test_check_refuses_the_dead_in_one_shape_and_names_only_what_is_below_1(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = str(saved_sheet(user_dirs, capsys, "Dead", hp=-6))
    down = str(saved_sheet(user_dirs, capsys, "Down", hp=0))
    assert ("Dead is dead (死亡: HP -6, below -5, GM-COMBAT-8); the dead roll no check"
            in refused(capsys, "check", "general", "--sheet", dead, "--dice", "sim"))
    err = refused(capsys, "check", "general", "--sheet", down, "--dice", "sim")
    assert "Down is INCAPACITATED 行動不能 (HP 0: below 1, GM-COMBAT-8)" in err
    assert "MP" not in err.split("GM-COMBAT-8")[0]


# --- RISK C -------------------------------------------------------------------------------


def test_at_the_table_a_monster_may_be_the_active_side_whom_a_tie_fails(
        user_dirs: Path) -> None:
    """PG 2-3: an orc grabs a lone PC. "The other side is active" makes the orc side A, as
    `genso check opposed --sheet orc --vs pc1` does; a tie fails it, so the PC wins."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    orc = next(c.name for c in fight.state.order if c.name != PC1)
    mode = GensoFightMode(RULES, fight)
    for key in ["gm", "check", "c:opposed", f"t:{PC1}", f"t:{orc}", "a:body", "act:vs",
                "m:0", "m:0"]:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    prompts = []
    for faces in ((3, 4), (3, 4)):
        ask = mode.ask()
        assert isinstance(ask, RollAsk)
        prompts.append(ask.prompt)
        mode.answer(Throw(faces))
    assert "オーク" in prompts[0] and PC1 in prompts[1], prompts
    checked = mode.last_check
    assert checked is not None
    lines = checked.check.text.splitlines()
    assert lines[0] == f"GM-CHECK-5 対抗判定/opposed check: {orc} vs {PC1}", lines
    assert any(f"{PC1} の勝ち/wins" in line for line in lines), lines
    assert checked.to_json()["call"]["vs_active"] is True
    # A save of it replays as played.
    again = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")],
                                                            [("orc", 1)])))
    replay(again, mode.journal, mode.progress())
    assert again.last_check is not None and again.last_check.check.text == checked.check.text
