"""fixgenso71, reviewg70 RISK E: at the table, a fighter the calendar records dead of a Death
Curse (呪殺呪, GM-MAGIC-13) still acted and rolled checks, its row saying died. Its turn now
offers only Skip turn, Undo and End fight, saying why; a save replays as it was played,
whatever the calendar says now.
"""

from __future__ import annotations

import pytest

from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from tests.app.genso_death_curse_helpers import DIED, PC1, PC2, genso, keys, pc1_dies, pick, table

# --- RISK E -------------------------------------------------------------------------------


def test_a_fighter_the_calendar_records_dead_only_skips_its_turn(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    pc1_dies(capsys)
    mode = table()
    assert mode.fight.state.current is not None and mode.fight.state.current.name == PC1
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert keys(ask) == ["wait", "gm"]  # reviewg71 RISK 4: the GM's menu, Undo and End in it
    assert f"{PC1} PC 1: {DIED}" in ask.prompt
    row = mode.fight_view().fighters[0]
    assert row.name.ja == PC1 and row.down and "呪殺呪 curse 死亡 died" in row.conditions
    assert not mode.fight_view().fighters[1].down
    # Nor does the dead roll a check, and the prompt says why.
    mode.path = ["check", "c:general"]
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert keys(ask) == [f"t:{PC2}", "back"] and f"(not {PC1} PC 1: {DIED})" in ask.prompt
    mode.path = ["check", "c:opposed", f"t:{PC2}"]
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and f"t:{PC1}" not in keys(ask)
    mode.path = []
    # Skip turn passes the turn (a Wait); the next fighter acts as before.
    ask = pick(mode, "wait")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == PC2
    assert "attack" in keys(ask)


def test_the_dead_fighters_turn_offers_the_gms_menu(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg71 RISK 4: the GM's steps (Sunset, Sleep, Check, …) on the dead's turn without a
    Wait pushed first; its Undo and End fight asked again, as GM → Undo and End fight are."""
    pc1_dies(capsys)
    mode = table()
    assert keys(pick(mode, "gm")) == ["undo?", "end?", "sunrise", "sunset", "sleep", "check",
                                      "back"]
    pick(mode, "sunset")
    assert [type(e.action).__name__ for e in mode.fight.journal] == ["Sunset"]
    assert mode.fight.state.current is not None and mode.fight.state.current.name == PC1
    pick(mode, "wait", "wait", "wait")  # pc1 skips, pc2 and the orc wait: round 2, pc1
    assert mode.fight.state.current is not None and mode.fight.state.current.name == PC1
    assert keys(pick(mode, "gm", "undo?")) == ["back", "undo"]
    pick(mode, "undo")  # the orc's wait taken back: its turn again
    assert len(mode.fight.journal) == 3 and mode.fight.state.current is not None
    assert mode.fight.state.current.name == "オーク"
    pick(mode, "wait")
    assert keys(pick(mode, "gm", "end?")) == ["back", "end"]
    assert keys(pick(mode, "back", "back")) == ["wait", "gm"]
    pick(mode, "gm", "end?", "end")
    assert mode.fight.state.current is None and mode.fight.state.outcome is not None


def test_a_save_replays_as_played_whatever_the_calendar_records_now(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """A save played before the death was recorded (pc1 attacks, rolls a check) replays with
    pc1 recorded dead; one played after (its Undo and End fight) replays once the death is
    taken back (`calendar undo-death`): the guard of reviewg70 DEFECT A."""
    before = table()
    pick(before, "gm", "check", "c:general", f"t:{PC1}", "a:body", "d:default", "m:0")
    before.answer(Throw((3, 4)))
    pick(before, "attack", "t:オーク", "w:0")
    while isinstance(ask := before.ask(), RollAsk):
        before.answer(Throw((6,) * ask.count))
    assert len(before.fight.journal) == 1 and before.last_check is None
    pc1_dies(capsys)
    again = table()
    replay(again, before.journal, before.progress())
    assert [e.action for e in again.fight.journal] == [e.action for e in before.fight.journal]
    assert again.journal == before.journal
    # After: the dead's menu, GM → Undo and End fight, then the death taken back; and a
    # save of fixgenso71's menu (Undo and End fight its own: reviewg71 RISK 4), before too.
    after = table()
    pick(after, "wait", "wait", "wait", "gm", "undo?", "undo", "wait", "gm", "end?", "end")
    old_menu = ["wait", "wait", "wait", "undo?", "undo", "wait", "end?", "end"]
    dead_then = table()
    replay(dead_then, old_menu, None)
    genso(capsys, "calendar", "undo-death", "pc1")
    for save, mode in ((after.journal, after), (old_menu, dead_then)):
        resumed = table()
        replay(resumed, save, mode.progress())
        assert resumed.fight.state.outcome is not None and resumed.journal == save
        assert [e.action for e in resumed.fight.journal] == [
            e.action for e in after.fight.journal]
