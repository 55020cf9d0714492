"""genso62: the genso table shows a Death Curse (呪殺呪, GM-MAGIC-13) that `genso calendar`
keeps on a fighter, in its row's conditions, as its sheet does: the days to the sunset that
kills it, today's sunset, or the past sunset it died at. The table had no view of the
calendar. A calendar that cannot be read leaves the table playing, with no curse shown and
the status saying why."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.dice import ScriptedDice
from companion.systems.genso.combat import Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def conditions(mode: GensoFightMode) -> dict[str, tuple[str, ...]]:
    return {row.name.ja: row.conditions for row in mode.fight_view().fighters}


def calendar(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    assert main(["genso", "calendar", *words]) == 0
    capsys.readouterr()


def a_fight() -> GensoFightMode:
    party = [preset(RULES, "pc1"), preset(RULES, "pc2")]
    return GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, party, [("orc", 1)])))


def test_a_fighters_death_curse_is_in_its_row(user_dirs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    calendar(capsys, "curse", "Mio", "駆け出し冒険者1")  # half-width 1, folded as fights fold it
    mode = a_fight()
    shown = conditions(mode)
    assert "呪殺呪 curse 366d" in shown[PC1]
    assert not any("呪殺呪" in c for c in shown[PC2] + shown["オーク"])
    calendar(capsys, "pass", "366")
    # Read once per action, not at every frame: the next action shows the day passed.
    assert "呪殺呪 curse 366d" in conditions(mode)[PC1]
    mode.fight.push(Wait(PC1), ScriptedDice([]))
    assert "呪殺呪 curse 今日 today" in conditions(mode)[PC1]
    calendar(capsys, "pass", "1")  # says the death, and the calendar keeps it
    assert "呪殺呪 curse 死亡 died" in conditions(a_fight())[PC1]  # genso70 DEFECT 1


def test_a_sunset_a_hand_edit_left_behind_shows_the_death(user_dirs: Path) -> None:
    path = user_dirs / "data" / "genso" / "calendar.toml"
    path.parent.mkdir(parents=True)
    path.write_text('day = 3\ndeath_curses = [{target = "駆け出し冒険者１", caster = "Mio", '
                    'cast_on = 1, dies_on = 2}]\n', encoding="utf-8")
    assert "呪殺呪 curse 死亡 died" in \
        conditions(a_fight())[PC1]


def test_an_unreadable_calendar_shows_no_curse_and_says_why(user_dirs: Path) -> None:
    path = user_dirs / "data" / "genso" / "calendar.toml"
    path.parent.mkdir(parents=True)
    path.write_text("day =\n", encoding="utf-8")
    mode = a_fight()
    shown = conditions(mode)
    assert not any("呪殺呪" in c for row in shown.values() for c in row)
    assert mode.view("").status.startswith(  # (review61e R2, review61h N1)
        f"呪殺呪の表示なし Death Curses not shown: {path}: not TOML")
