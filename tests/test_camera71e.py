"""fixcam71e: the tile camera's picks in play (reviewf71).

RISK 2: the pick lit in one list (``lit``, kept over a flicker since d786faa2) was lit again
in the next tile's list after an offer, a reject and a short lift, so a habitual A, which
must pick nothing at first (``_picked``), counted the stale pick.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.app.session.reads import OTHER
from companion.hw.buttons import Button, Press
from companion.hw.ports import Slot, SlotReading
from companion.systems.jongrogue.tiles import EMPTY
from tests.test_camera71d import Shown, Stop, on, run


def test_a_pick_lit_before_an_offer_and_a_reject_is_not_lit_in_the_next_list() -> None:
    """An unsure read, I lights 3m; a clear 6m is offered and B rejects it; the slot reads
    empty 0.4 s and the unsure read comes back: its picks come up with nothing lit, and an
    A pressed from habit counts nothing."""
    unsure = on(None, "3m", "6m", "9m")
    plan = [(0.5, unsure), (2.0, on("6m", "6m")),
            (3.5, SlotReading(Slot.DRAW, EMPTY, 1.0)), (3.9, unsure)]
    done: set[str] = set()
    back: list[Shown] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, lit = last
        if picks and lit is None and now > 1.0 and "first" not in done:
            done.add("first")
            return [Button.ITEM]  # lights 3m
        if 2.5 < now < 2.7 and "reject" not in done:
            done.add("reject")
            return [Button.FLEE]  # B: rejects the 6m on offer
        if now > 3.9 and picks and not back:
            back.append(last)
        if now > 5.0 and "habit" not in done:
            done.add("habit")
            return [Button.ATTACK]
        return []

    try:
        tile, _ = run(plan, act, limit=8.0)
    except Stop:
        tile = None
    assert "first" in done and "reject" in done and "habit" in done
    assert back and back[0][2] == ("3m", "6m", "9m", OTHER) and back[0][3] is None
    assert tile is None
