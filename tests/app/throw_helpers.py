"""A genso fight awaiting its damage dice, for the tests of a throw's shape on the screen."""

from __future__ import annotations

from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import RollAsk, Throw
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.sheet import preset
from tests.app.genso_table_helpers import RULES


def damage_awaited() -> GensoFightMode:
    """A genso attack whose to-hit 2D6 is thrown: its damage die is awaited."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    mode = GensoFightMode(RULES, fight, "camera カメラ")
    for key in ("attack", "t:オーク", "w:0"):
        ask = mode.ask()
        assert ask is not None and not isinstance(ask, RollAsk)
        mode.answer([o.choice for o in ask.options].index(key))
    mode.answer(Throw((6, 6)))
    return mode
