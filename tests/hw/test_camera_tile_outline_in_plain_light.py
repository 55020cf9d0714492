"""A real tile in plain light shows a tile's outline (reviewc66c DEFECT 1).

fixphantom66 made a covered slot give a sure tile only with straight new sides both along
and across it, which a shadow edge lacks. A White on white paper shows only its sides with
a cast shadow, and a tile laid across the slot or flush to its side has some sides on the
slot's printed outline: such tiles (and ~2 % of 6z/9s/2z laid with the renderer's own
jitter) settled on "uncertain" instead of reading sure. The rendered mat through the
camera, the real classifier; the shadows that must stay unsure are in
test_camera_shadow_on_an_empty_slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from companion.hw.camera import sim_scene
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.occupancy import Occupancy, SlotLooks
from companion.hw.ports import Slot


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


@pytest.fixture(scope="module")
def detector() -> MatDetector:
    return MatDetector()


class Pose:
    """Stands in for the renderer's random draws: the tile's offset (-1..1 of the room left
    in the slot, 1 = flush right/bottom) and its turn in degrees, fixed."""

    def __init__(self, dx: float, dy: float, angle: float) -> None:
        self.draws: Iterator[float] = iter((dx, dy, angle))

    def uniform(self, low: float, high: float) -> float:
        return next(self.draws)


@pytest.fixture
def posed(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Lay the next rendered tile at a fixed pose (the renderer's own ``place_tile``)."""
    place = sim_scene.place_tile

    def lay(dx: float, dy: float, angle: float) -> None:
        def fixed(mat: np.ndarray, tile: np.ndarray, rect_px: Any, tile_px: Any,
                  rng: Any, *, upside_down: bool, jitter: float) -> None:
            place(mat, tile, rect_px, tile_px, Pose(dx, dy, angle),  # type: ignore[arg-type]
                  upside_down=False, jitter=1.0)
        monkeypatch.setattr(sim_scene, "place_tile", fixed)

    return lay


def read_slot(classifier: TileClassifier, detector: MatDetector, frame: np.ndarray | None,
              slot: Slot) -> tuple[str, float, bool, Occupancy]:
    assert frame is not None
    crops = detector.slot_crops(frame, detector.detect(frame))
    prediction, evidence = SlotLooks(detector.geometry).read(
        classifier, {slot: crops[slot]})[slot]
    return (prediction.best.label, prediction.best.confidence, evidence.boxed,
            evidence.occupancy)


@pytest.mark.parametrize(("tile", "dx", "dy", "angle"), [
    ("6z", 0.0, 0.0, 90.0),   # sideways: its short sides on the slot's printed outline
    ("6z", 0.0, 0.0, 270.0),
    ("5z", 0.0, 0.0, 90.0),   # a White across the slot: one side with a cast shadow
    ("2s", 0.0, 0.0, 90.0),
    ("5z", 1.0, 0.0, 0.0),    # a White flush right: its shadowed side on the outline
    ("5z", 0.0, 1.0, 0.0),    # ... flush bottom
    ("2s", 0.0, 1.0, 0.0),
])
def test_posed_tile_in_plain_light_reads_sure(classifier: TileClassifier,
                                              detector: MatDetector, posed: Any, tile: str,
                                              dx: float, dy: float, angle: float) -> None:
    posed(dx, dy, angle)
    frame = RenderedSource({Slot.DRAW: tile}, seed=3).read()
    label, confidence, boxed, occupancy = read_slot(classifier, detector, frame, Slot.DRAW)
    assert occupancy is Occupancy.COVERED
    assert boxed
    assert (label, confidence >= classifier.info.min_confidence) == (tile, True)


@pytest.mark.parametrize(("tile", "seed", "slot"), [
    ("6z", 15, Slot.DRAW), ("9s", 15, Slot.DRAW), ("6z", 29, Slot.ROOM_BL),
    ("2z", 22, Slot.ROOM_BL),
])
def test_renderer_jitter_reads_sure(classifier: TileClassifier, detector: MatDetector,
                                    tile: str, seed: int, slot: Slot) -> None:
    """The renderer's own realistic poses (offset up to flush, +-8 deg, upside down)."""
    frame = RenderedSource({s.slot: tile for s in detector.geometry.slots}, seed=seed,
                           vary=True).read()
    label, confidence, boxed, _ = read_slot(classifier, detector, frame, slot)
    assert boxed
    assert (label, confidence >= classifier.info.min_confidence) == (tile, True)
