"""The genso table's Death Curse dead: targets, checks' menus, the party down question.

fixgenso71b, the review of fixgenso71 (reviewg71): the genso table's fighter the calendar
records dead of a Death Curse (呪殺呪, GM-MAGIC-13)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.systems.genso.combat import Status
from companion.systems.genso.sheet import preset
from tests.app.genso_death_curse_helpers import (
    DIED,
    PC1,
    PC2,
    RULES,
    cut_table,
    genso,
    keys,
    monster_died_before,
    pc1_dies,
    pick,
    table,
)

# --- DEFECT 1 ------------------------------------------------------------------------------


def test_a_monster_named_as_a_recorded_death_is_a_new_one_and_acts(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """A Death Curse recorded on the orc of an earlier fight (by its fighter's name,
    `オーク`): this fight's orc is another, and acts, rolls, and is the other side."""
    monster_died_before()  # kept before calendar73 NIT 8 refused it
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


# --- RISK 3 --------------------------------------------------------------------------------


def throw(mode: GensoFightMode, faces: int = 6) -> None:
    """Every die the action asks for, as ``faces`` (a defence's as 1s: the blow lands)."""
    while isinstance(ask := mode.ask(), RollAsk):
        mode.answer(Throw(((1 if "defence" in ask.prompt else faces),) * ask.count))


def pc2_at_hp1() -> GensoFightMode:
    """pc1 and pc2 (at HP 1) against an orc."""
    return table(party=(preset(RULES, "pc1"), replace(preset(RULES, "pc2"), hp=1)))


def the_orc_fells_pc2() -> GensoFightMode:
    """pc1 skips its turn, pc2 (at HP 1) waits, the orc's blow fells pc2."""
    mode = pc2_at_hp1()
    pick(mode, "wait", "wait", "attack", f"t:{PC2}")
    throw(mode)
    assert [c.status for c in mode.fight.state.order][:2] == [Status.ACTIVE,
                                                              Status.INCAPACITATED]
    return mode


def replays(save: GensoFightMode, again: GensoFightMode) -> None:
    """``save``'s journal replays into ``again``, to the same actions."""
    replay(again, save.journal, save.progress())
    assert again.journal == save.journal
    assert [e.action for e in again.fight.journal] == [e.action for e in save.fight.journal]


def test_the_calendars_dead_count_down_for_the_party_down_question(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """pc1 dead by the calendar and pc2 felled: the party is down (全滅), the GM asked once
    whether to end the fight, as when the engine finds it down (GM-COMBAT-1)."""
    pc1_dies(capsys)
    mode = the_orc_fells_pc2()
    ask = mode.ask()
    assert keys(ask) == ["play on", "end"]
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("The party is down")
    assert keys(pick(mode, "play on")) == ["wait", "gm"]  # pc1's turn: asked no more
    ask = pick(mode, "wait")  # pc2 is passed over: the orc's turn
    assert isinstance(ask, ChoiceAsk) and "全滅 party down: GM → End fight" in ask.prompt
    assert keys(pick(mode, "attack")) == [f"t:{PC2}", "back"]
    ended = the_orc_fells_pc2()
    pick(ended, "end")
    assert ended.fight.state.outcome is not None
    assert ended.fight_view().outcome.endswith(" — 全滅 the party is down")


def test_the_calendars_dead_are_no_target_to_attack_or_heal(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    pc1_dies(capsys)
    mode = table()
    assert keys(pick(mode, "wait", "cast", "s:healing")) == [f"t:{PC2}", "back"]
    assert keys(pick(mode, "back", "back", "wait", "attack")) == [f"t:{PC2}", "back"]


def test_saves_with_the_dead_as_targets_or_asked_the_party_down_replay(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """Saves played before the death was recorded (pc2 heals pc1, the orc strikes pc1; pc2
    felled, pc1 acting on) replay once it is recorded; saves played after it (the party-down
    question answered play on, or end) replay once it is taken back (`calendar undo-death`)."""
    before = table()
    pick(before, "wait", "cast", "s:healing", f"t:{PC1}")
    throw(before)
    pick(before, "attack", f"t:{PC1}")
    throw(before)
    assert [type(e.action).__name__ for e in before.fight.journal] == ["Wait", "Cast", "Attack"]
    unasked = the_orc_fells_pc2()  # the party not down: pc1 stands, and acts on
    pick(unasked, "wait", "wait")
    pc1_dies(capsys)
    replays(before, table())
    replays(unasked, resumed := pc2_at_hp1())
    assert keys(resumed.ask()) == ["play on", "end"]  # played on from here: asked now
    played_on, ended = the_orc_fells_pc2(), the_orc_fells_pc2()
    pick(played_on, "play on", "wait", "wait", "gm", "end?", "end")
    pick(ended, "end")
    genso(capsys, "calendar", "undo-death", "pc1")
    for save in (played_on, ended):
        replays(save, pc2_at_hp1())
        assert save.fight.state.outcome is not None


# --- RISK 2 --------------------------------------------------------------------------------


def resumed_status(tmp: Path, *keys: str) -> str:
    """The status line of the table resumed from its save, after ``keys`` then a cut."""
    played = cut_table(tmp, not keys, *keys)
    if keys:
        return ""
    mode = played.mode
    ask = mode.ask()
    assert isinstance(mode, GensoFightMode) and isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt).status


def test_a_resumed_half_done_action_of_the_dead_is_dropped_and_says_so(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table saved while pc1 picked whom to attack, pc1 then recorded dead: the resumed
    table steps out of the attack to the dead's menu, and the status line says why once
    (calendar75 DEFECT 1: the attack went on and its blow was dealt)."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    resumed_status(user_dirs, "attack")
    assert resumed_status(user_dirs) == ""  # not dead yet
    genso(capsys, "calendar", "pass", "367")
    assert resumed_status(user_dirs) == (
        f"{PC1} PC 1: {DIED}, acts no more 死者は行動しない: its unfinished action is "
        "dropped 未完の行動は取りやめ")
