"""The genso Death Curse (呪殺呪) death the calendar keeps; the dead refused; opposed checks.

genso70: the audit of 幻想迷宮冒険譚's calendar, checks and table (/tmp/audit/genso70.md).

- DEFECT 1: a Death Curse's death told by `genso calendar pass` was forgotten at once; the
  dead caster then lifted and cast curses, grew, rested, rolled and fought on. The calendar
  keeps it now (``died``), and every command refuses the dead, as it refuses the HP-dead.
- DEFECT 2: `genso check` let the dead (死亡) and the incapacitated (行動不能) roll.
- DEFECT 3: the table's opposed check (対抗判定) offered only sheets as the other side, so a
  lone PC had only Back; a monster of the fight is a side, as `--vs orc` is.
- DEFECT 4: a curse kept under a preset's key (``pc1``) was not 駆け出し冒険者１'.
- RISK 5: a monster could not be the acting side A of an opposed check.
- NIT 7: a trap check refused the seed's own difficulty words (難しい).
- NIT 8: ``1 ターン turns``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.dice import ScriptedDice
from companion.systems.genso.calendar import (
    Calendar,
    DeathCurse,
    calendar_from_mapping,
    calendar_mapping,
)
from companion.systems.genso.checks import Winner, opposed_check
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from companion.systems.genso.travel import journey
from tests.app.genso_cli_out_helpers import unwrapped

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) == 2
    return capsys.readouterr().err


def calendar_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "calendar.toml"


def saved_sheet(user_dirs: Path, capsys: pytest.CaptureFixture[str], name: str,
                **fields: int) -> Path:
    """pc1's sheet saved as ``name`` with ``fields`` (hp, mp) set, in the data folder."""
    path = user_dirs / "data" / "genso" / "characters" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    genso(capsys, "sheet", "pc1", "--save-as", str(path))
    lines = [f'name = "{name}"' if line.startswith("name = ") else
             next((f"{k} = {v}" for k, v in fields.items() if line.startswith(f"{k} = ")), line)
             for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- DEFECT 1 -----------------------------------------------------------------------------


def test_a_death_told_by_calendar_pass_is_kept_and_every_command_treats_them_as_dead(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's play: Mio curses Ben, Ben curses Cat, and Ben dies at sunset on day 367.
    The dead Ben then lifted Cat's curse, cursed Dan, grew and fought at full HP."""
    saved_sheet(user_dirs, capsys, "Ben")
    genso(capsys, "calendar", "curse", "Mio", "Ben")
    genso(capsys, "calendar", "pass", "1")
    genso(capsys, "calendar", "curse", "Ben", "Cat")
    said = genso(capsys, "calendar", "pass", "366")
    assert "Ben died at sunset on day 367 of Mio's 呪殺呪/Death Curse" in said
    kept = tomllib.loads(calendar_file(user_dirs).read_text(encoding="utf-8"))
    assert kept["died"] == [{"target": "Ben", "caster": "Mio", "cast_on": 1, "dies_on": 367}]
    assert "the dead lift no curse" in refused(capsys, "calendar", "lift", "Cat")
    assert "the dead cast no curse" in refused(capsys, "calendar", "curse", "Ben", "Dan")
    assert "no curse is cast on the dead" in refused(capsys, "calendar", "curse", "Eve", "Ben")
    dead = ("Ben is dead (死亡: died at sunset on day 367 of Mio's 呪殺呪/Death Curse, "
            "GM-MAGIC-13); ")
    for argv, what in ((("grow", "Ben", "award"), "growth"), (("grow", "Ben", "hp"), "growth"),
                       (("rest", "Ben"), "rest and sleep"), (("rest", "Ben", "--sleep"), "rest"),
                       (("fight", "new", "--party", "Ben", "--monsters", "orc"), "leave Ben out"),
                       (("check", "general", "--sheet", "Ben", "--dice", "sim"), "the dead roll"),
                       (("check", "opposed", "--sheet", "pc1", "--vs", "Ben", "--dice", "sim"),
                        "the dead roll")):
        assert dead + what in refused(capsys, *argv), argv
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()
    sheet = genso(capsys, "sheet", "Ben")
    assert ("状態/condition DEAD 死亡 (GM-MAGIC-13: died at sunset on day 367 of Mio's "
            "呪殺呪/Death Curse)") in sheet
    data = json.loads(genso(capsys, "sheet", "Ben", "--json"))
    assert data["condition"] == "dead" and [c["target"] for c in data["dead"]] == ["Ben"]
    # Still told by `calendar` on a later day, and kept by the next change (Cat, whose
    # curse the dead Ben could not lift, died at sunset on day 368).
    genso(capsys, "calendar", "pass", "1")
    shown = json.loads(genso(capsys, "calendar", "--json"))
    assert [c["target"] for c in shown["dead"]] == ["Ben", "Cat"] and shown["died"] == []
    assert "Ben died at sunset on day 367" in genso(capsys, "calendar")


def test_a_calendar_saved_before_deaths_were_kept_loads_and_keeps_them_from_then(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An old file (no ``died``) reads as before; a file with one reads it back."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text('day = 366\ndeath_curses = [{target = "Ben", caster = "Mio", cast_on = 1, '
                    'dies_on = 367}]\n', encoding="utf-8")
    assert "Ben dies at sunset on day 367 (1 day left)" in genso(capsys, "calendar")
    assert "died" not in path.read_text(encoding="utf-8")  # a read writes nothing
    genso(capsys, "calendar", "pass", "2")
    assert "Ben died at sunset on day 367" in genso(capsys, "calendar")
    calendar = Calendar(5, (DeathCurse("Kai", "Ann", 1, 367),), (DeathCurse("Ben", "Mio", 1, 3),))
    assert calendar_from_mapping(calendar_mapping(calendar), "x") == calendar
    assert "died" not in calendar_mapping(Calendar(5))


@pytest.mark.parametrize(("died", "wrong"), [
    ('[{target = "Ben", caster = "Mio", cast_on = 1, dies_on = 9}]',
     "died 1: Ben died at sunset on day 9, not before day 5"),
    ('[{target = "Ben", caster = "Mio", cast_on = 1, dies_on = 2}, '
     '{target = "Ben", caster = "Ann", cast_on = 1, dies_on = 3}]', "died 2: Ben died twice"),
    ('[{target = "", caster = "Mio", cast_on = 1, dies_on = 2}]', "died 1: target must be"),
])
def test_a_calendar_file_whose_deaths_cannot_be_is_refused_naming_them(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], died: str, wrong: str) -> None:
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text(f"day = 5\ndied = {died}\n", encoding="utf-8")
    assert wrong in refused(capsys, "calendar")


# --- DEFECT 2 -----------------------------------------------------------------------------


def test_a_check_refuses_the_dead_and_the_incapacitated_naming_the_state_and_rule(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = str(saved_sheet(user_dirs, capsys, "Dead", hp=-6))
    drained = str(saved_sheet(user_dirs, capsys, "Drained", mp=0))
    gone = "Dead is dead (死亡: HP -6, below -5, GM-COMBAT-8); the dead roll no check"
    down = "Drained is INCAPACITATED 行動不能 (MP 0: below 1, GM-COMBAT-8)"
    for argv, said in (
            (("opposed", "--sheet", dead, "--vs", "orc"), gone),
            (("trap", "--sheet", dead), gone),
            (("general", "--sheet", drained), down),
            (("opposed", "--sheet", "pc1", "--vs", dead), gone),
            (("opposed", "--sheet", "pc1", "--vs", drained), down)):
        assert said in refused(capsys, "check", *argv, "--dice", "sim"), argv
    assert "成功/success" in genso(capsys, "check", "general", "--sheet", "pc1", "--seed", "1")


def test_the_table_offers_no_check_to_the_incapacitated(user_dirs: Path) -> None:
    drained = preset(RULES, "pc2")
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), replace(drained, mp=0)],
                                      [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    mode.path = ["check", "c:general"]
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.choice for o in ask.options] == [f"t:{PC1}", "back"]


# --- DEFECT 3 -----------------------------------------------------------------------------


def test_a_lone_pc_rolls_an_opposed_check_against_a_monster_at_the_table(
        user_dirs: Path) -> None:
    """The audit's script: pc1 against 1 orc, GM → Check → 対抗判定 → pc1 offered Back alone.
    The orc rolls by its block (Body 6), as `genso check opposed --vs orc` does."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    mode.path = ["check", "c:opposed", f"t:{PC1}"]
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    orc = next(c.name for c in fight.state.order if c.name != PC1)
    assert [o.choice for o in ask.options] == [f"t:{orc}", "back"]
    mode.path = []
    for key in ["gm", "check", "c:opposed", f"t:{PC1}", f"t:{orc}", "a:body", "act:yes",
                "m:0", "m:0"]:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    for faces in ((3, 4), (2, 2)):
        assert isinstance(mode.ask(), RollAsk)
        mode.answer(Throw(faces))
    checked = mode.last_check
    assert checked is not None
    lines = checked.check.text.splitlines()
    assert any(line.startswith(f"{orc}: 2D + 体力/Body 6") and "4[2,2]+6=10" in line
               for line in lines), lines
    assert any(f"{PC1} の勝ち/wins" in line for line in lines), lines


# --- DEFECT 4 -----------------------------------------------------------------------------


def test_a_curse_on_a_presets_key_is_on_the_preset(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = genso(capsys, "calendar", "curse", "Mio", "pc1")
    assert f"Mio casts 呪殺呪/Death Curse on {PC1} on day 1" in said
    assert f"呪殺呪/Death Curse on {PC1} by Mio" in genso(capsys, "sheet", "pc1")
    assert f"{PC1} already carries Mio's" in refused(capsys, "calendar", "curse", "Mio",
                                                      "駆け出し冒険者1")
    genso(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    genso(capsys, "calendar", "pass", "366")
    line = next(x for x in unwrapped(genso(capsys, "fight", "sunset")).splitlines()
                if x.startswith("GM-MAGIC-13"))
    assert f"{PC1} PC is in this fight, which plays them on until the death is recorded" \
        in line
    assert f"Mio lifts the 呪殺呪/Death Curse on {PC1}" in genso(capsys, "calendar", "lift",
                                                                  "pc1")


def test_a_curse_kept_under_a_presets_key_before_is_read_as_the_presets(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file an older companion wrote with ``pc1``: the sheet shows it, a second curse of
    the same caster is refused, and the next change keeps the name."""
    path = calendar_file(user_dirs)
    path.parent.mkdir(parents=True)
    path.write_text('day = 1\ndeath_curses = [{target = "pc1", caster = "Mio", cast_on = 1, '
                    'dies_on = 367}]\n', encoding="utf-8")
    assert f"呪殺呪/Death Curse on {PC1} by Mio" in genso(capsys, "sheet", "pc1")
    assert "already carries Mio's" in refused(capsys, "calendar", "curse", "Mio", PC1)
    genso(capsys, "calendar", "curse", "Ann", "Kai")
    kept = tomllib.loads(path.read_text(encoding="utf-8"))
    assert [c["target"] for c in kept["death_curses"]] == [PC1, "Kai"]


# --- RISK 5, NIT 7, NIT 8 -----------------------------------------------------------------


def test_a_monster_may_be_the_acting_side_of_an_opposed_check(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PG 2-3: an orc that grabs a PC is the active side, and a tie fails the orc."""
    tie = opposed_check(RULES, ScriptedDice([(6, 3), (6, 4), (6, 4), (6, 3)]),
                        RULES.monster("orc"), preset(RULES, "pc1"), "body", active=True)
    assert (tie.a.total, tie.b.total, tie.winner) == (13, 13, Winner.B)
    said = genso(capsys, "check", "opposed", "--sheet", "orc", "--vs", "pc1", "--seed", "1")
    assert said.splitlines()[0] == f"GM-CHECK-5 対抗判定/opposed check: オーク/Orc vs {PC1}"
    assert "no sheet 'orc'" in refused(capsys, "check", "general", "--sheet", "orc")


@pytest.mark.parametrize(("word", "value"), [("非常に難しい", 16), ("難しい", 12), ("易しい", 8),
                                             ("very_hard", 16), ("hard", 12), ("easy", 8)])
def test_a_trap_check_takes_the_seeds_difficulty_words(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], word: str, value: int) -> None:
    said = json.loads(genso(capsys, "check", "trap", "--sheet", "pc1", "--difficulty", word,
                            "--seed", "1", "--json"))
    assert said["difficulty"] == value, said


def test_one_of_a_unit_of_travel_is_said_in_the_singular() -> None:
    assert journey(RULES, 100).text() == "100 m: 1 ターン turn"
    assert journey(RULES, 3600 + 1440).text() == "5040 m: 1 時間 hour, 2 ターン turns"
    assert journey(RULES, 18000 + 7200).text() == "25200 m: 1 日 day, 2 時間 hours"


def test_a_count_of_days_that_is_no_number_is_told_with_a_count_of_days(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`calendar pass abc` said "(e.g. 2 or -1)", and -1 days is refused."""
    with pytest.raises(SystemExit) as stopped:
        main(["genso", "calendar", "pass", "abc"])
    assert stopped.value.code == 2
    assert "'abc' is no whole number of days (e.g. 7)" in capsys.readouterr().err
    assert "day 1 → 4" in genso(capsys, "calendar", "pass", "３")
