"""A straight-down camera picture of the mat with a real tile photo laid on a slot, for the
camera's occupancy and turned-tile tests (tidy74: no test module imports another)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.hw.camera.mat import MatDetector
from companion.hw.camera.sim_scene import draw_mat, place_tile
from companion.hw.ports import Slot

PPM = 4.0  # the top-down mat pictures: 4 px per mm, markers and all


def mat_with_photo(detector: MatDetector, photo: np.ndarray | None, slot: Slot,
                   seed: int = 0, *, margin: float = 0.07) -> np.ndarray:
    """A straight-down camera picture of the mat, with a real tile photo laid on ``slot``.

    A landscape photo is a tile lying sideways (36 mm wide); ``margin`` is cut
    off each side (the table around the tile in a tight photo).
    """
    rng = np.random.default_rng(seed)
    mat = draw_mat(detector.geometry, PPM)
    if photo is not None:
        h, w = photo.shape[:2]
        my, mx = round(h * margin), round(w * margin)
        tile = np.dstack([photo[my:h - my, mx:w - mx], np.full((h - 2 * my, w - 2 * mx), 255,
                                                               np.uint8)])
        r = detector.geometry.slot_spec(slot).rect
        place_tile(mat, tile, (r.x_mm * PPM, r.y_mm * PPM, r.width_mm * PPM, r.height_mm * PPM),
                   ((36 if w > h else 27) * PPM, (27 if w > h else 36) * PPM), rng,
                   upside_down=False, jitter=0.3)
    lamp = (mat.astype(np.float32) * 0.86 + rng.normal(0, 2, mat.shape)).clip(0, 255)
    return cv2.GaussianBlur(lamp.astype(np.uint8), (0, 0), 0.7)
