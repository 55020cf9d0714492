"""Meeting a monster: which one, and whether it sleeps (JR-ENC-1, JR-SLEEP-1..3).

>>> snake = TABLES.monster_for(1, 1)
>>> one_m, two_m = Tile.from_notation("1m"), Tile.from_notation("2m")
>>> sleep_on_encounter(snake, one_m, corner=two_m, rings=0, sleep_check=True)[0]
<Sleeping.ASLEEP: 'asleep'>
>>> sleep_on_encounter(snake, one_m, corner=one_m, rings=0, sleep_check=True)[0]
<Sleeping.AWAKE: 'awake'>
>>> sleep_on_encounter(snake, one_m, corner=one_m, rings=0, sleep_check=False)[0]
<Sleeping.ASLEEP: 'asleep'>
"""

from __future__ import annotations

from typing import Any

from companion.systems.jongrogue.state import Sleeping
from companion.systems.jongrogue.tables import TABLES, Monster, Sleep
from companion.systems.jongrogue.tiles import Tile

# The columns that decide the state without a check.
_SURE = {column: Sleeping(column.value) for column in (Sleep.AWAKE, Sleep.ASLEEP,
                                                        Sleep.DEEPLY_ASLEEP)}


def sleep_on_encounter(
    monster: Monster,
    tile: Tile,
    corner: Tile | None,
    rings: int,
    sleep_check: bool,
    corner_honour_sleeps: bool = True,
) -> tuple[Sleeping, dict[str, Any]]:
    """The monster's state when met, and the sleep check's inputs if one was made.

    EZ (JR-SLEEP-1): the EZ column. Plus with the sleep check (JR-SLEEP-2/3):
    眠/起 and 熟睡/起 are decided by the cell at (rank of the room's top-left
    tile, rank of the monster tile) for the rings of stealth worn; a top-left
    honour tile means asleep ([DEFAULT] ``corner_honour_sleeps``).
    """
    if not sleep_check:
        return _SURE[monster.sleep_ez], {}
    sure = _SURE.get(monster.sleep_plus)
    if sure is not None:
        return sure, {}
    if corner is None or not corner.is_number:
        awake = not corner_honour_sleeps
    else:
        awake = TABLES.awake_by_check(corner.rank, tile.rank, rings)
    check = {"row": str(corner), "column": str(tile), "rings": rings, "awake": awake}
    if awake:
        return Sleeping.AWAKE, check
    if monster.sleep_plus is Sleep.ASLEEP_OR_AWAKE:
        return Sleeping.ASLEEP, check
    return Sleeping.DEEPLY_ASLEEP, check
