"""Slot crops balanced by the mat's white paper (companion/hw/camera/white_balance.py): a
lamp's colour is not read as the tiles' own."""

from __future__ import annotations

import numpy as np
import pytest

from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.reader import frame_readings
from companion.hw.camera.sim_scene import Camera, render_scene
from companion.hw.camera.tile_faces import find_cjk_fonts
from companion.hw.camera.white_balance import balanced
from companion.hw.ports import Slot

# A lamp's colour, B, G, R, as a camera exposing for the brightest channel sees it: a warm
# bulb's (about 2,700 K) and a cool daylight lamp's.
WARM = (0.48, 0.72, 1.0)
COOL = (1.0, 0.8, 0.64)


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


@pytest.mark.parametrize("lamp", [WARM, COOL], ids=["warm", "cool"])
@pytest.mark.needs_japanese_font
def test_blank_whites_under_a_coloured_lamp_read_white_not_a_back(
        classifier: TileClassifier, lamp: tuple[float, float, float]) -> None:
    """Under a warm bulb a blank White is as yellow as many sets' backs: before the crops
    were balanced, 13 of these 24 Whites were read as a back, every one surely (under the
    cool lamp 8, 5 surely)."""
    detector = MatDetector()
    slots = [s.slot for s in detector.geometry.slots]
    rng = np.random.default_rng(5)
    fonts = find_cjk_fonts()
    whites, misread = 0, []
    for _ in range(10):
        tiles = {s: str(rng.choice(["5z", "back", "5z", "1p"])) for s in slots}
        frame = render_scene(tiles, rng, camera=Camera(lamp=lamp), fonts=fonts)
        readings, _ = frame_readings(frame, classifier, detector)
        whites += sum(label == "5z" for label in tiles.values())
        misread += [(label, readings[slot].best) for slot, label in tiles.items()
                    if readings[slot].best.label != label]
    assert whites == 24
    assert misread == []


def _paper_and_tile(colour: tuple[float, float, float]) -> np.ndarray:
    """A slot crop at 3 px/mm: paper round a grey printed outline, a darker tile inside,
    all under light of ``colour`` (B, G, R)."""
    crop = np.full((144, 108, 3), 235.0)
    crop[2:-2, 2:-2] = 150  # the printed outline, inside the rim
    crop[4:-4, 4:-4] = 235
    crop[30:110, 25:85] = (120, 160, 200)  # a tile's coloured face
    return np.clip(crop * np.array(colour), 0, 255).astype(np.uint8)


def test_the_paper_comes_out_grey_and_the_tile_keeps_its_colour_against_it() -> None:
    seen = {Slot.DRAW: _paper_and_tile(WARM), Slot.ROOM_TL: _paper_and_tile(WARM)}
    out = balanced(seen, px_per_mm=3.0)[Slot.DRAW].astype(int)
    paper, tile = out[10, 10], out[70, 55]
    assert max(paper) - min(paper) <= 1
    expected = np.array([120, 160, 200]) * paper[0] / 235
    assert np.abs(tile - expected).max() <= 2


def test_a_neutral_light_leaves_the_crops_as_they_were() -> None:
    seen = {Slot.DRAW: _paper_and_tile((1.0, 1.0, 1.0))}
    assert np.array_equal(balanced(seen, px_per_mm=3.0)[Slot.DRAW], seen[Slot.DRAW])


def test_one_rim_under_a_hand_does_not_move_the_light() -> None:
    """The light is the median over the slots: a skin-coloured rim (a hand) is outvoted."""
    seen = {s: _paper_and_tile((1.0, 1.0, 1.0)) for s in (Slot.DRAW, Slot.ROOM_TL, Slot.ROOM_TR)}
    seen[Slot.DRAW][:] = (120, 150, 210)
    out = balanced(seen, px_per_mm=3.0)
    assert np.array_equal(out[Slot.ROOM_TL], seen[Slot.ROOM_TL])


def test_grey_crops_are_left_as_they_are() -> None:
    grey = {Slot.DRAW: np.full((144, 108), 200, np.uint8)}
    assert balanced(grey, px_per_mm=3.0) is grey
