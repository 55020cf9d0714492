"""A shadow across an empty camera slot is no tile (reviewc66 RISK 2).

A shadow edge that stays on the draw slot (a lamp's arm, the camera's stand) made the
camera judge the bare paper covered; ``empty`` was then struck and the plain paper read a
sure White (``5z``), or a diagonal edge a sure ``1s``, counted with nothing on the slot. A
covered slot must now show a tile's outline before any tile is sure: the rendered mat,
the real classifier and reader, and the session's TableTiles on game time.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.app.session.mode import TileAsk
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.occupancy import Occupancy, SlotLooks
from companion.hw.ports import Slot
from companion.systems.jongrogue.wall import TileLedger
from tests.app.camera_shadow_helpers import shadow_edge
from tests.app.camera_table_helpers import StillMat, Table


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


class ShadowedMat(StillMat):
    """The still rendered mat; once ``line`` is set, a shadow edge stays across the draw slot."""

    def __init__(self, tiles: dict[Slot, str]) -> None:
        super().__init__(tiles)
        self.detector = MatDetector()
        self.line: str | None = None
        self.shaded: dict[tuple[frozenset[tuple[Slot, str]], str], np.ndarray] = {}

    def read(self) -> np.ndarray | None:
        frame = super().read()
        if frame is None or self.line is None:
            return frame
        key = (frozenset(self.tiles.items()), self.line)
        if key not in self.shaded:
            self.shaded[key] = shadow_edge(frame, self.detector, self.line)
        return self.shaded[key]


def shadowed_table(classifier: TileClassifier) -> tuple[Table, TileLedger]:
    ledger = TileLedger()
    table = Table(classifier, {}, ledger)
    table.source = ShadowedMat({})
    table.reader.source = table.source
    return table, ledger


@pytest.mark.parametrize("line", ["edge", "diag"])
def test_a_shadow_across_the_empty_draw_slot_asked_for_counts_nothing(
    classifier: TileClassifier, line: str,
) -> None:
    """The draw slot is asked for and seen bare; at 1 s a hard shadow edge (x0.65) falls
    across it and stays. Nothing is counted (it was 5z under ``edge``, 1s under ``diag``).
    A 5m then laid in the same shadow still counts."""
    table, ledger = shadowed_table(classifier)
    ask = TileAsk("lay", Slot.DRAW, ledger)
    table.at(1.0, lambda: setattr(table.source, "line", line))
    assert table.read(ask, limit=4.0) is None
    assert table.source.line == line  # the shadow fell while the slot was asked for
    table.at(0.5, lambda: table.source.place(Slot.DRAW, "5m"))
    assert str(table.read(ask, limit=4.0)) == "5m"


@pytest.mark.parametrize(("line", "tile"), [("edge", "5z"), ("edge", "1s"), ("diag", "5m")])
def test_a_shadow_edge_is_no_tile_s_outline_and_a_tile_in_it_still_reads(
    classifier: TileClassifier, line: str, tile: str,
) -> None:
    """The slot's own judgement: a shadow edge across bare paper makes it covered but shows
    no tile's outline, so no label is sure; a tile in the same shadow (a blank White, the
    face most like paper, too) shows its outline and reads sure."""
    detector = MatDetector()
    for tiles, boxed in (({}, False), ({Slot.DRAW: tile}, True)):
        source = ShadowedMat(tiles)
        source.line = line
        frame = source.read()
        assert frame is not None
        crops = detector.slot_crops(frame, detector.detect(frame))
        prediction, evidence = SlotLooks(detector.geometry).read(
            classifier, {Slot.DRAW: crops[Slot.DRAW]})[Slot.DRAW]
        assert evidence.occupancy is Occupancy.COVERED
        assert evidence.boxed is boxed, tiles
        if boxed:
            assert prediction.best.label == tile
            assert prediction.best.confidence >= classifier.info.min_confidence
        else:
            assert prediction.best.confidence < classifier.info.min_confidence
