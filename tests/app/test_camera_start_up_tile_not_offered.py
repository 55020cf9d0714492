"""reviewc66c DEFECT 2: a tile lying counted on a slot at start-up is never offered to pick
unless lifted and laid again.

On ``--resume`` (or a mode switch) the 5m counted before the cut lies on the draw slot. A
hand resting still over it (0.5 s or 2 s) read "uncertain", a still look of something else,
and the held slot took that for the tile lifted under a shadow and laid again: 5 s after
the hand left the untouched 5m was offered, "pick it if you lifted it and laid it again",
and one tap counted it a second time. The lift the camera cannot see bare is a shadow's: the
look in between must be the paper under the shadow, covered with no tile's outline, lying
still as such: the reader's ``paper(slot)`` on a poll where the slot is still
(``ReadState.settle``; reviewc67 DEFECT 1: "uncertain" settled under the hand that lifted
the tile sends no new reading when the paper is left). A hand over the tile is not: it shows
the tile's outline or its own, a flat hand moving over it is never still (reviewc67b DEFECT
2: one that then rests with its fingers seen was taken for the paper), and a flat palm
resting on it is skin, not grey paper (reviewc67b DEFECT 1).

The real camera reader over the rendered mat, the real classifier and the session's
TableTiles on game time (the harness of
tests/app/test_camera_hand_over_counted_tiles_and_twins.py); the player is a Picker who taps
the first tile offered to pick.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import ReaderSettings, SlotTracker
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_hand_helpers import (
    COVERED_AT_START,
    DRAW_LOWER,
    DRAW_WHOLE,
    RELAID_PICK,
    SKIN,
    Box,
    HandMat,
    Picker,
    hand,
    picks_since,
    statuses_since,
    table_of,
)
from tests.app.camera_table_helpers import Table
from tests.hw.camera_prediction_helpers import predicted

FLAT_OVER_5M = (0.215, 0.38, 0.335, 0.62)  # a flat palm over the draw slot tile's face


class PalmMat(HandMat):
    """The hand mat, with a flat palm (``palm``: no finger gaps, no straight sides, soft
    edges, the hand's skin) over a box of it, moving (a little elsewhere in each frame) or
    still."""

    def __init__(self, tiles: dict[Slot, str]) -> None:
        super().__init__(tiles)
        self.palm: tuple[Box, bool] | None = None

    def read(self) -> np.ndarray | None:
        frame = super().read()
        if frame is None or self.palm is None:
            return frame
        height, width = frame.shape[:2]
        box, moving = self.palm
        shift = (0.012 * np.sin(self.frame_no * 1.7), 0.012 * np.cos(self.frame_no * 1.3)) \
            if moving else (0.0, 0.0)
        x0, y0, x1, y1 = (edge + shift[k % 2] for k, edge in enumerate(box))
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        d = ((xx - (x0 + x1) / 2 * width) / ((x1 - x0) / 2 * width)) ** 2 \
            + ((yy - (y0 + y1) / 2 * height) / ((y1 - y0) / 2 * height)) ** 2
        alpha = np.clip((1.15 - d) / 0.3, 0, 1)[..., None]
        shade = (0.85 + 0.15 * np.exp(-d))[..., None]
        return np.clip(frame * (1 - alpha) + SKIN * shade * alpha, 0, 255).astype(np.uint8)


AT_START_5M = ("a tile lay on the draw slot at start-up: lift it and lay it again to count "
               "it 起動時から引き牌の枠にあった牌: 置き直して")


def resumed(classifier: TileClassifier, shadow: float | None = None,
            ) -> tuple[Table, PalmMat, TileLedger]:
    """``--resume``: 5m lies on the draw slot, counted before the cut (in the ledger), under
    a hard shadow edge (``shadow``: the light left) or in plain light; the player taps the
    first tile offered to pick."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    table.source = PalmMat({})
    table.reader.source = table.source
    source = table.source
    source.shadow = shadow
    source.place(Slot.DRAW, "5m")
    ledger.draw(Tile.from_notation("5m"), Place.TABLE)
    table.tiles.controls = Controls([Picker(table)])
    return table, source, ledger


@pytest.mark.parametrize("seconds", [0.5, 2.0])
@pytest.mark.parametrize("box", [DRAW_LOWER, DRAW_WHOLE], ids=["lower-half", "whole-slot"])
def test_a_still_hand_over_the_counted_start_up_tile_offers_nothing(
    classifier: TileClassifier, box: Box, seconds: float,
) -> None:
    """Plain light: a hand rests still over the counted 5m at 2 s for ``seconds`` and leaves;
    nobody lifts the tile. The draw slot asked for 15 s: no pick is offered (it was, at
    about 8 s, and the Picker's tap counted the 5m twice), nothing is counted, and the
    screen still says to lift the tile and lay it again."""
    table, _, ledger = resumed(classifier)
    hand(table, 2.0, seconds, box, moving=False)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=15.0) is None
    assert not picks_since(table, 0)
    assert all(tile in (None, "back") for _, _, tile, _ in table.shown)  # no read on offer
    assert table.last_status() == AT_START_5M
    looks = table.tiles.state.looks[Slot.DRAW]
    assert looks[0] == "5m" and looks[-1] == "5m" and len(looks) >= 3  # the hand was seen
    assert not any(table.tiles.state.unboxed[Slot.DRAW])  # ... but never as bare paper


def test_a_still_hand_over_the_start_up_tile_in_shadow_offers_nothing_a_lift_does(
    classifier: TileClassifier,
) -> None:
    """Under a shadow the lift is never seen bare: the start-up 5m lifted and laid again is
    still offered ("if you lifted it and laid it again") and counts when picked, but a hand
    resting on it first offered nothing in 15 s."""
    table, source, ledger = resumed(classifier, shadow=0.75)
    hand(table, 2.0, 2.0, DRAW_LOWER, moving=False)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=15.0) is None
    assert not picks_since(table, 0)
    assert table.last_status() == AT_START_5M
    start = len(table.shown)
    table.at(1.0, lambda: source.remove(Slot.DRAW))
    table.at(2.0, lambda: source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger), limit=10.0)) == "5m"
    assert picks_since(table, start) == {("5m",)}
    assert RELAID_PICK in statuses_since(table, start)
    assert COVERED_AT_START not in statuses_since(table, 0)  # it showed its tile plainly


@pytest.mark.parametrize(("shadow", "gap"), [(0.75, 1.0), (0.6, 3.0)])
def test_the_start_up_tile_lifted_and_laid_again_under_a_shadow_and_a_moving_hand_counts(
    classifier: TileClassifier, shadow: float, gap: float,
) -> None:
    """reviewc67 DEFECT 1: the usual lift under a shadow has the hand over the slot as the
    tile goes and as it comes back. The moving hand settles the slot on "uncertain" with the
    tile's outline in sight; the shadowed paper after it (``gap`` s) reads "uncertain" too,
    so no new reading came and the session never learnt the paper was seen: the 5m laid
    again was never offered, and the start-up tile could never be counted. The paper's
    still, outline-free look now marks that reading, and the pick is offered."""
    table, source, ledger = resumed(classifier, shadow=shadow)
    hand(table, 1.0, 0.6, DRAW_WHOLE, moving=True)
    table.at(1.3, lambda: source.remove(Slot.DRAW))  # under the hand
    hand(table, 1.6 + gap, 0.6, DRAW_WHOLE, moving=True)
    table.at(1.9 + gap, lambda: source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger), limit=15.0)) == "5m"
    assert picks_since(table, 0) == {("5m",)}
    assert RELAID_PICK in statuses_since(table, 0)


@pytest.mark.parametrize("seconds", [0.5, 2.0])
def test_a_flat_palm_resting_on_the_start_up_tile_s_face_offers_nothing(
    classifier: TileClassifier, seconds: float,
) -> None:
    """reviewc67b DEFECT 1: a flat palm resting on the counted 5m's face (plain light) hides
    its outline and shows no straight sides: covered with no outline, as the paper under a
    shadow is, and still. 5 s after it left the untouched 5m was offered "if you lifted it"
    and the tap counted it twice. The paper is grey (the crops balanced by the mat's paper);
    skin is not: nothing is offered."""
    table, source, ledger = resumed(classifier)
    table.at(2.0, lambda: setattr(source, "palm", (FLAT_OVER_5M, False)))
    table.at(2.0 + seconds, lambda: setattr(source, "palm", None))
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=15.0) is None
    assert not picks_since(table, 0)
    assert table.last_status() == AT_START_5M
    looks = table.tiles.state.looks[Slot.DRAW]
    assert looks[0] == "5m" and None in looks and looks[-1] == "5m"  # the palm was seen
    assert not any(table.tiles.state.unboxed[Slot.DRAW])  # ... but never as the paper


@pytest.mark.parametrize(("shadow", "rest"), [(0.75, DRAW_LOWER), (None, FLAT_OVER_5M)],
                         ids=["shadow-lower", "plain-over-the-face"])
def test_a_flat_hand_moving_then_resting_on_the_start_up_tile_offers_nothing(
    classifier: TileClassifier, shadow: float | None, rest: Box,
) -> None:
    """reviewc67b DEFECT 2: a flat palm moving over the counted 5m's face (1 s) hides its
    outline and shows none of its own, so "uncertain" settled on outline-free frames; the
    hand then rests 2 s with its fingers seen (still, "uncertain" again: no new reading).
    The reading's outline-free flag and the later still look together made it paper: 5 s
    on the untouched 5m was offered "if you lifted it" and the tap counted it twice. The
    look is paper only if it lies still as paper on the same poll: nothing is offered."""
    table, source, ledger = resumed(classifier, shadow)
    table.at(2.0, lambda: setattr(source, "palm", (FLAT_OVER_5M, True)))
    table.at(3.0, lambda: setattr(source, "palm", None))
    hand(table, 3.0, 2.0, rest, moving=False)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=15.0) is None
    assert not picks_since(table, 0)
    assert table.last_status() == AT_START_5M
    looks = table.tiles.state.looks[Slot.DRAW]
    assert looks[0] == "5m" and None in looks and looks[-1] == "5m"  # the hands were seen
    assert not any(table.tiles.state.unboxed[Slot.DRAW])  # ... but never as the paper


def test_a_slot_settled_under_a_hand_reads_as_paper_once_its_frames_show_paper() -> None:
    """reviewc67 DEFECT 1: "uncertain" settled on frames with an outline (the hand over the
    tile) sends no new reading when the frames turn to the paper under a shadow (still
    "uncertain"); the tracker's ``paper`` says so, and not while any of its last frames
    shows an outline, nor for a tile."""
    settings = ReaderSettings(stable_frames=3, min_confidence=0.5)
    unsure = predicted(("5z", 0.0), ("1s", 0.0))
    tracker = SlotTracker(Slot.DRAW, settings)
    settled = [tracker.update(unsure, None, unboxed=False) for _ in range(3)][2]
    assert settled is not None and settled.label is None
    assert not tracker.paper
    assert [tracker.update(unsure, None, unboxed=True) for _ in range(2)] == [None, None]
    assert not tracker.paper  # one frame of the three still showed the outline
    assert tracker.update(unsure, None, unboxed=True) is None  # no reading sent again
    assert tracker.paper and tracker.settled is settled
    tracker.update(unsure, None, unboxed=False)
    assert not tracker.paper
    tracker.clear()
    assert not tracker.paper
    tile = SlotTracker(Slot.DRAW, settings)
    [tile.update(predicted(("5m", 0.9)), None, unboxed=True) for _ in range(3)]
    assert tile.settled is not None and tile.settled.label == "5m" and not tile.paper
