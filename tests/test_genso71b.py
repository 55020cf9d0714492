"""fixgenso71b, the review of fixgenso71 (reviewg71): the genso table's fighter the calendar
records dead of a Death Curse (呪殺呪, GM-MAGIC-13)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.systems.genso.sheet import preset
from tests.genso71_helpers import DIED, PC1, PC2, RULES, keys, pc1_dies, pick, table

# --- DEFECT 1 ------------------------------------------------------------------------------


def test_a_monster_named_as_a_recorded_death_is_a_new_one_and_acts(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """A Death Curse recorded on the orc of an earlier fight (by its fighter's name,
    `オーク`): this fight's orc is another, and acts, rolls, and is the other side."""
    pc1_dies(capsys, "オーク")
    mode = table()
    ask = pick(mode, "wait", "wait")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == "オーク"
    assert "attack" in keys(ask) and "what now?" in str(getattr(ask, "prompt", ""))
    orc = mode.fight_view().fighters[2]
    assert orc.name.ja == "オーク" and not orc.down and not orc.conditions
    mode.path = ["check", "c:opposed", f"t:{PC1}"]
    assert keys(mode.ask()) == [f"t:{PC2}", "t:オーク", "back"]


# --- NIT 5 ---------------------------------------------------------------------------------


def prompt(mode: GensoFightMode, *path: str) -> str:
    """The prompt of the menu at ``path``."""
    mode.path = list(path)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return ask.prompt


def test_the_checks_menus_name_the_dead_they_leave_out_as_the_table_names_them(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """Who rolls and against whom say why the dead are left out, naming them as the table
    does (PC 1); a Mark check names only the dead who know Mark (呪印呪), as none else could
    roll it anyway."""
    pc1_dies(capsys)
    left_out = f"(not {PC1} PC 1: {DIED})"
    mode = table()
    assert prompt(mode, "check", "c:general") == f"Who rolls? 誰が判定する？ {left_out}"
    assert prompt(mode, "check", "c:opposed", f"t:{PC2}") == (
        f"{PC2} against whom? 対抗相手は？ {left_out}")
    assert prompt(mode, "check", "c:mark") == "Nobody here can roll it 判定できる者がいない"
    marker = table(party=(replace(preset(RULES, "pc1"), spells=("mark",)),
                          preset(RULES, "pc2")))
    assert prompt(marker, "check", "c:mark") == (
        f"Nobody here can roll it 判定できる者がいない {left_out}")
