"""The genso table's Death Curse dead: area spells, undo, the last foe, resumed actions.

fixgenso71d, the review of fixgenso71b (reviewg71b): the genso table's fighter the calendar
records dead of a Death Curse (呪殺呪, GM-MAGIC-13)."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.mode import ChoiceAsk, RollFeed, Throw
from companion.app.session.rolls import SimRolls
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Cast, Fight, entrants_for
from companion.systems.genso.sheet import preset
from tests.app.genso_death_curse_helpers import (
    PC1,
    PC2,
    RULES,
    Player,
    cut_table,
    genso,
    keys,
    pc1_dies,
    pick,
)


def at_table(tmp: Path, resume: bool, *keys: str,
             rolls: RollFeed | None = None) -> GensoFightMode:
    """The table on the fight file (resumed from its save, or begun anew), after ``keys``
    then a cut (simulated dice, or ``rolls``)."""
    played = cut_table(tmp, resume, *keys, rolls=rolls)
    assert isinstance(played.mode, GensoFightMode)
    return played.mode


# --- DEFECT 1 ------------------------------------------------------------------------------


def barrier_on_pc1_then_pc1_dies(tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The forest fairy's Barrier (結界呪, GM-MAGIC-5) with pc1 toggled in, the table cut, and
    then the calendar records pc1 dead of Mio's Death Curse."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "forest_fairy", "--monsters", "orc:1")
    at_table(tmp, False, "wait", "cast", "s:barrier", f"in:{PC1}")
    genso(capsys, "calendar", "pass", "367")


def test_an_area_spell_keeps_one_toggled_in_before_its_death_and_resumes(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The review's route: the Barrier cast live (resumed, Done) keeps the dead pc1 toggled
    in, as its replay does, so the table resumes again (it was refused: the fight file
    differed from the replay)."""
    barrier_on_pc1_then_pc1_dies(user_dirs, capsys)
    cast = at_table(user_dirs, True, "done")
    again = at_table(user_dirs, True)
    assert again.journal == cast.journal
    assert again.fight.to_json() == cast.fight.to_json()
    casts = [e.action for e in again.fight.journal if isinstance(e.action, Cast)]
    assert [c.targets for c in casts] == [(PC1,)]


def test_one_toggled_in_before_its_death_is_shown_and_can_be_taken_out(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The area menu shows the dead pc1 in, marked dead; taken out, it is offered no more,
    and the Barrier is cast on the caster alone, live as replayed."""
    barrier_on_pc1_then_pc1_dies(user_dirs, capsys)
    menu = at_table(user_dirs, True).ask()
    assert keys(menu) == [f"in:{PC1}", "done", "back"]
    assert isinstance(menu, ChoiceAsk)
    label = menu.options[0].label
    assert label.startswith("[x] ") and label.endswith(" 死亡 died")
    assert keys(at_table(user_dirs, True, f"in:{PC1}").ask()) == ["done", "back"]
    at_table(user_dirs, True, "done")
    again = at_table(user_dirs, True)
    casts = [e.action for e in again.fight.journal if isinstance(e.action, Cast)]
    assert [c.targets for c in casts] == [()]


# --- DEFECT 2 ------------------------------------------------------------------------------


def gm_undo_at_the_start(tmp: Path) -> tuple[str, GensoFightMode]:
    """GM → Undo on the first turn, nothing played: the session's status line and mode."""
    fight, save = tmp / "data" / "genso" / "fight.json", tmp / "table.json"
    played = table_session(RULES, fight, save, resume=False, seed=5,
                           choices=Player("gm", "undo?"), rolls=SimRolls(SimulatedDice.seeded(5)))
    with contextlib.suppress(KeyboardInterrupt):
        played.run()
    assert isinstance(played.mode, GensoFightMode)
    return played.status, played.mode


@pytest.mark.parametrize("dead", [True, False])
def test_gm_undo_with_nothing_to_undo_is_refused_and_the_table_goes_on(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], dead: bool) -> None:
    """On the dead pc1's turn (its only Undo) as on a living one's: the status line says
    there is nothing to undo and the GM's menu is asked again (the table stopped)."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    if dead:
        genso(capsys, "calendar", "pass", "367")
    status, mode = gm_undo_at_the_start(user_dirs)
    assert status == "nothing to undo 取り消す行動がない"
    assert mode.journal == ["gm"] and mode.path == ["gm"]
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and "undo?" in keys(ask)
    assert mode.cursed_dead(PC1) is dead
    assert at_table(user_dirs, True).journal == ["gm"]


# --- RISK 3 --------------------------------------------------------------------------------


def pc1_against_an_npc_that_dies(tmp: Path, capsys: pytest.CaptureFixture[str],
                                 *before: str) -> None:
    """pc1 against an NPC from a sheet file (pc2's, so named 駆け出し冒険者２), the table
    played ``before`` and cut, then the calendar records the NPC dead of Mio's Death
    Curse: the one foe left."""
    genso(capsys, "sheet", "pc2", "--save-as", str(tmp / "bandit.toml"))
    genso(capsys, "calendar", "curse", "Mio", PC2)
    genso(capsys, "fight", "new", "--party", "pc1", "--npc", str(tmp / "bandit.toml"))
    at_table(tmp, False, *before)
    genso(capsys, "calendar", "pass", "367")


def test_the_last_foe_dead_by_the_calendar_asks_to_end_the_fight(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Asked as the party down is; played on, the menus say how it ends; ended by the GM,
    the fight over says the party won beside the GM's end."""
    pc1_against_an_npc_that_dies(user_dirs, capsys)
    asked = at_table(user_dirs, True).ask()
    assert keys(asked) == ["play on", "end"]
    assert isinstance(asked, ChoiceAsk)
    assert asked.prompt.startswith("The foes are down: end the fight? 敵全滅: 戦闘終了？")
    menu = at_table(user_dirs, True, "play on", "wait", "wait").ask()
    assert keys(menu) == ["dodge", "move", "wait", "flee?", "gm"]
    assert isinstance(menu, ChoiceAsk)
    assert menu.prompt.endswith("敵全滅 foes down: GM → End fight ends the fight")
    over = at_table(user_dirs, True, "gm", "end?", "end").ask()
    assert isinstance(over, ChoiceAsk)
    assert over.prompt.startswith(
        "The fight is over 戦闘終了: 終了 the GM ended the fight — 勝利 the party won")


def test_saves_with_the_foes_question_or_before_it_replay(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A save played before the NPC's death resumes, then asks; its answer replays once the
    death is undone, with no question asked then."""
    pc1_against_an_npc_that_dies(user_dirs, capsys, "wait", "wait")
    ended = at_table(user_dirs, True, "end")
    assert ended.journal == ["wait", "wait", "end"]
    over = ended.ask()
    assert isinstance(over, ChoiceAsk) and over.prompt.startswith(
        "The fight is over 戦闘終了: 終了 the GM ended the fight — 勝利 the party won")
    genso(capsys, "calendar", "undo-death", PC2)
    again = at_table(user_dirs, True)
    assert again.journal == ended.journal
    assert again.fight.to_json() == ended.fight.to_json()


# --- NIT 1 ---------------------------------------------------------------------------------


def test_one_back_drops_the_resumed_action_of_the_dead(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table saved at pc1's With which weapon?, pc1 then recorded dead: one Back, as the
    status line says, leads to the dead's menu (it led to Attack whom?), journalled as the
    Backs it stands for, so the save replays to that menu, and after undo-death too."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    at_table(user_dirs, False, "attack", "t:オーク")
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True)
    assert keys(resumed.ask())[-1] == "back" and resumed.dead_mid_action().endswith(
        "Back 戻る to drop it")
    dropped = at_table(user_dirs, True, "back")
    assert keys(dropped.ask()) == ["wait", "gm"]
    assert dropped.journal == ["attack", "t:オーク", "back", "back"]
    assert at_table(user_dirs, True).journal == dropped.journal
    genso(capsys, "calendar", "undo-death", PC1)
    again = at_table(user_dirs, True)
    assert again.path == [] and again.journal == dropped.journal


def test_at_a_later_die_the_status_says_give_up_drops_it(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Saved at the damage die (the hit thrown): Back asks Again or Give up there, as for
    any action with throws taken, and the status line says so."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    saved = at_table(user_dirs, False, "attack", "t:オーク", "w:0", rolls=Hit())
    assert saved.journal == ["attack", "t:オーク", "w:0", "5,3"]
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True, rolls=Hit())
    assert resumed.throws and resumed.dead_mid_action() == (
        f"死亡 died: {PC1} PC 1's saved action goes on; Back 戻る, Give up やめる to drop it")


class Hit:
    """Throws the hit (5, 3), then stops the table at the damage die."""

    def next_throw(self, ask: object, show: object) -> Throw:
        if getattr(ask, "count", 0) != 2:
            raise KeyboardInterrupt
        return Throw((5, 3))


# --- NIT 2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ends", [True, False])
def test_the_party_down_question_says_what_the_preset_says(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], ends: bool) -> None:
    """pc1 dead by the calendar, the orc fells pc2: under GM-COMBAT-1 party_down_ends_fight
    the engine would have ended the fight, and the question says so, not the Default's
    "the GM declares the end"; the answers are the same."""
    pc1_dies(capsys)
    rules = RULES.with_overrides({"GM-COMBAT-1": {"party_down_ends_fight": ends}})
    mode = GensoFightMode(rules, Fight(rules, entrants_for(
        rules, [preset(rules, "pc1"), replace(preset(rules, "pc2"), hp=1)], [("orc", 1)])))
    pick(mode, "wait", "wait", "attack", f"t:{PC2}")
    mode.answer(Throw((1, 1)))  # pc2's defence fails
    mode.answer(Throw((6,)))  # the damage fells pc2
    asked = mode.ask()
    assert keys(asked) == ["play on", "end"] and isinstance(asked, ChoiceAsk)
    why = ("GM-COMBAT-1 party_down_ends_fight: the rules end it 規則により終了" if ends
           else "ＧＭは戦闘終了を宣言する")
    assert asked.prompt == (f"The party is down: end the fight? 全滅: 戦闘終了？ ({why}; no: "
                            "the fight goes on)")


# --- NIT 4 ---------------------------------------------------------------------------------


def test_resumed_at_the_deads_own_menu_the_status_line_says_nothing(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Saved at pc1's action menu (GM, Back), pc1 then recorded dead: resumed there, no
    action of the dead is half done, so the status line has no 'saved action goes on'."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    at_table(user_dirs, False, "gm", "back")
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True)
    ask = resumed.ask()
    assert keys(ask) == ["wait", "gm"] and isinstance(ask, ChoiceAsk)
    assert resumed.journal == ["gm", "back"] and resumed.path == []
    assert resumed.view(ask.prompt).status == ""
