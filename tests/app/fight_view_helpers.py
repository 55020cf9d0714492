"""A fight's view with its fighters' conditions (the fighters' table tests; tidy72c: no test
module imports another)."""

from __future__ import annotations

from companion.hw.display.view import FighterView, FightView


def fight(*conditions: tuple[str, ...]) -> FightView:
    """The genso table's first fight of two beginners against two orcs (`companion genso
    fight new --party pc1 pc2 --monsters orc:2`), ``conditions`` on its fighters."""
    ready = (*conditions, *(((),) * 4))
    fighters = (
        FighterView("駆け出し冒険者１ PC 1", "味方 party", 12, 12, 8, 8, ready[0], acting=True),
        FighterView("駆け出し冒険者２ PC 2", "味方 party", 10, 10, 12, 12, ready[1]),
        FighterView("オーク1 Orc 1", "敵 enemy", 12, 12, 8, 8, ready[2], ally=False),
        FighterView("オーク2 Orc 2", "敵 enemy", 12, 12, 8, 8, ready[3], ally=False))
    return FightView("vs オーク Orc ×2", 1, "駆け出し冒険者１ PC 1", fighters)
