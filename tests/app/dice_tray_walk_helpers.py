"""The dice tray's walk picked afresh and the monster table's state after a throw, for the
follow-up throw tests."""

from __future__ import annotations

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.mode import RollAsk, Throw


def _monster_after(face: int) -> DiceTrayMode:
    """Event table → Monster, its 1D6 thrown and taken (a 2 to 6 awaits the count's die)."""
    mode = DiceTrayMode(("1D6", "2D6"), "camera カメラ")
    mode.answer(2)  # Event table
    mode.answer(3)  # Monster
    mode.answer(Throw((face,)))
    return mode


def picked_afresh(mode: DiceTrayMode) -> None:
    """Back at the menu, Monster picked again asks its own die, no throw kept."""
    mode.answer(2)  # Event table
    mode.answer(3)  # Monster
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt == "モンスター Monster (EV-MON-1)"
    assert mode.throws == []
