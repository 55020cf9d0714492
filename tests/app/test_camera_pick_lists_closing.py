"""The tile camera's pick lists: when the empty slot's list closes, and no stale lit pick.

fixcam71e: the tile camera's picks in play (reviewf71).

RISK 1: the list of every legal tile opened for a slot the camera reads as empty (the
"Other tile…" box, or a long ITEM press) closed on one "uncertain" read, and the box came back
only EMPTY_HINT_SECONDS later. It ends now as d786faa2's lists do on a lift: once the slot
reads otherwise LIFTED_SECONDS, or on a pick.

RISK 2: the pick lit in one list (``lit``, kept over a flicker since d786faa2) was lit again
in the next tile's list after an offer, a reject and a short lift, so a habitual A, which
must pick nothing at first (``_picked``), counted the stale pick.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.app.session.reads import EMPTY_HINT, LIFTED_SECONDS, OTHER, READS_EMPTY
from companion.hw.buttons import Button, Pick, Press
from companion.hw.ports import Slot, SlotReading
from companion.systems.jongrogue.tiles import EMPTY
from tests.app.camera_pick_list_helpers import Shown, Stop, on, run


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


# --- RISK 1: the list of a slot read as empty outlasts a flicker of the read -------------------


def blank_flicker(tap: bool, back: float) -> list[tuple[float, str, int, str | None]]:
    """A blank White 5z 白 the camera reads as an empty slot; the box comes, a touch-only
    player taps it (``tap``) and moves down the list; at 12.0 s the read is "uncertain",
    and the slot reads empty again at ``back``. What was shown: time, status, picks, lit."""
    unsure = on(None, "5z", "6z", "7z")
    plan = [(12.0, unsure), (back, SlotReading(Slot.DRAW, EMPTY, 1.0))]
    seen: list[tuple[float, str, int, str | None]] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, status, picks, lit = last
        seen.append((now, status, len(picks), None if lit is None else picks[lit]))
        if tap and picks == (OTHER,):
            return [Pick(0)]
        if len(picks) > 4 and lit is None and 11.0 < now < 11.5:
            return [Button.ITEM] * 3
        return []

    with pytest.raises(Stop):
        run(plan, act, limit=back + 2.0)
    return seen


def test_the_list_opened_from_other_tile_for_a_slot_read_empty_outlasts_a_flicker() -> None:
    """One "uncertain" read of 0.3 s closed the 34 picks, and the box came back only
    EMPTY_HINT_SECONDS later: a touch-only player waited 10 s with nothing to tap."""
    seen = blank_flicker(tap=True, back=12.3)
    opened = [s for s in seen if 11.5 <= s[0] <= 14.0]
    assert opened and all(s[1].startswith(READS_EMPTY) and s[2] > 4 for s in opened)
    assert len({s[3] for s in opened}) == 1 and opened[0][3] is not None  # the place kept


def test_the_box_for_a_slot_read_empty_outlasts_a_flicker() -> None:
    """Not tapped yet: the box is back as soon as the slot reads empty again, not
    EMPTY_HINT_SECONDS later."""
    seen = blank_flicker(tap=False, back=12.3)
    assert any(s[1] == EMPTY_HINT and s[0] < 12.0 for s in seen)
    assert any(s[1] == EMPTY_HINT and 12.3 < s[0] <= 12.6 for s in seen)


def test_a_read_other_than_empty_that_lasts_closes_the_list() -> None:
    """The lift rule the other way: "uncertain" LIFTED_SECONDS and more is the tile read
    now, and its own four picks come up, nothing lit."""
    seen = blank_flicker(tap=True, back=12.0 + LIFTED_SECONDS + 0.5)
    assert any(s[2] > 4 for s in seen if s[0] < 12.0)
    later = [s for s in seen if 12.0 + LIFTED_SECONDS + 0.2 <= s[0] <= 12.0 + LIFTED_SECONDS + 0.5]
    assert later and all(s[2] == 4 and s[3] is None for s in later)
