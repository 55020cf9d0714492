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


def test_a_resumed_action_of_the_dead_steps_back_to_its_menu_and_deals_no_blow(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """calendar75 DEFECT 1: a table saved at pc1's With which weapon?, pc1 then recorded
    dead of the Death Curse: resumed, it steps back to the dead's menu (Skip turn, GM), the
    attack's dice never asked, journalled as the Backs that leave it, so the save replays
    to that menu (nothing set aside), after undo-death too. The dice typed went on to hit
    the orc for 6 damage."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    at_table(user_dirs, False, "attack", "t:オーク")
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True)
    assert keys(resumed.ask()) == ["wait", "gm"] and resumed.path == []
    assert resumed.journal == ["attack", "t:オーク", "back", "back"]
    assert resumed.fight.journal == [] and not list(user_dirs.glob("table*corrupt*"))
    skipped = at_table(user_dirs, True, "wait")  # Skip turn: the save holds the Backs
    assert skipped.journal == ["attack", "t:オーク", "back", "back", "wait"]
    assert [type(e.action).__name__ for e in skipped.fight.journal] == ["Wait"]
    genso(capsys, "calendar", "undo-death", PC1)
    undone = at_table(user_dirs, True)
    assert undone.journal == skipped.journal and undone.path == []


def test_at_a_later_die_the_resumed_action_of_the_dead_is_given_up(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Saved at the damage die (the hit thrown), pc1 then recorded dead: the resumed table
    gives the attack up with its throw (a save's ``back`` at a later die), the orc unhurt."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    saved = at_table(user_dirs, False, "attack", "t:オーク", "w:0", rolls=Hit())
    assert saved.journal == ["attack", "t:オーク", "w:0", "5,3"]
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True, rolls=Hit())
    assert not resumed.throws and resumed.path == [] and keys(resumed.ask()) == ["wait", "gm"]
    assert resumed.journal == ["attack", "t:オーク", "w:0", "5,3", "back"]
    assert at_table(user_dirs, True).journal == resumed.journal
    assert resumed.fight.journal == []


def live_pass(capsys: pytest.CaptureFixture[str], *before: str) -> GensoFightMode:
    """The table open on pc1's turn (``before`` picked), then `genso calendar pass 1` run
    from another shell records pc1 dead of Mio's Death Curse (due at today's sunset)."""
    genso(capsys, "calendar", "curse", "Mio", "pc1", "--set", "GM-MAGIC-13.year_days=1")
    genso(capsys, "calendar", "pass", "2")  # day 3: due at today's sunset
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    pick(mode, *before)
    assert not mode.cursed_dead(PC1)
    genso(capsys, "calendar", "pass", "1")
    return mode


@pytest.mark.parametrize("before", [(), ("attack",), ("attack", "t:オーク")])
def test_a_pass_from_another_shell_refuses_the_deads_next_pick(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], before: tuple[str, ...]) -> None:
    """calendar75 DEFECT 1, live: the menu drawn before the death was recorded still offers
    the attack; its pick is refused, the table back at the dead's menu saying why, and the
    journal replays to that menu."""
    mode = live_pass(capsys, *before)
    nxt = {(): "attack", ("attack",): "t:オーク", ("attack", "t:オーク"): "w:0"}[before]
    assert pick(mode, nxt) is not None
    assert keys(mode.ask()) == ["wait", "gm"] and mode.fight.journal == []
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert mode.view(ask.prompt).status == (
        f"{PC1} PC 1: died 死亡 (Death Curse 呪殺呪), acts no more 死者は行動しない: its "
        "action is not taken 行動は取りやめ")
    replay = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    for text in mode.journal:
        replay.restore(text)
    assert replay.path == [] and keys(replay.ask()) == ["wait", "gm"]
    pick(mode, "wait")  # Skip turn
    assert [type(e.action).__name__ for e in mode.fight.journal] == ["Wait"]


def test_back_in_the_deads_later_menu_leaves_the_whole_action_saying_why(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Live, at With which weapon? when the death is recorded: Back leaves the attack in one
    press, for the dead's own menu, and the status line says why (it left silently, by a
    check that only a resumed table's message was meant to use); the journal replays."""
    mode = live_pass(capsys, "attack", "t:オーク")
    assert keys(pick(mode, "back")) == ["wait", "gm"] and mode.path == []
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert mode.view(ask.prompt).status == (
        f"{PC1} PC 1: died 死亡 (Death Curse 呪殺呪), acts no more 死者は行動しない: its "
        "action is not taken 行動は取りやめ")
    assert mode.journal == ["attack", "t:オーク", "back", "back"]
    replay = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    for text in mode.journal:
        replay.restore(text)
    assert replay.path == [] and keys(replay.ask()) == ["wait", "gm"]


@pytest.mark.parametrize("throws", [[], [(5, 3)]])
def test_a_pass_from_another_shell_refuses_the_deads_dice(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        throws: list[tuple[int, ...]]) -> None:
    """Live, at the to-hit die or the damage die: the throw is not taken, no blow is dealt,
    and the journal's ``back`` gives the action up on a replay too."""
    genso(capsys, "calendar", "curse", "Mio", "pc1", "--set", "GM-MAGIC-13.year_days=1")
    genso(capsys, "calendar", "pass", "2")
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    pick(mode, "attack", "t:オーク", "w:0")
    for throw in throws:
        mode.answer(Throw(throw))
    genso(capsys, "calendar", "pass", "1")
    assert mode.answer(Throw((6,) * (1 if throws else 2))) == []
    assert mode.fight.journal == [] and mode.path == [] and not mode.throws
    assert keys(mode.ask()) == ["wait", "gm"] and mode.journal[-1] == "back"
    replay = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    for text in mode.journal:
        replay.restore(text)
    assert replay.path == [] and keys(replay.ask()) == ["wait", "gm"]


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
    action of the dead is half done, so the status line says nothing of an action dropped."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:1")
    at_table(user_dirs, False, "gm", "back")
    genso(capsys, "calendar", "pass", "367")
    resumed = at_table(user_dirs, True)
    ask = resumed.ask()
    assert keys(ask) == ["wait", "gm"] and isinstance(ask, ChoiceAsk)
    assert resumed.journal == ["gm", "back"] and resumed.path == []
    assert resumed.view(ask.prompt).status == ""
