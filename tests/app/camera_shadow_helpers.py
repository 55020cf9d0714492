"""A shadow edge drawn across a rendered camera frame (the camera shadow and classify tests;
tidy72c: no test module imports another)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.hw.camera.mat import MatDetector
from companion.hw.ports import Slot

SHADOW = 0.65  # the light left under the shadow


def shadow_edge(frame: np.ndarray, detector: MatDetector, line: str) -> np.ndarray:
    """``frame`` with a hard shadow over one side of a straight line across the draw slot:
    ``edge`` runs down it a third of the way across (its left third shaded), ``diag`` from
    its bottom-left corner to its top near the right (the upper left shaded)."""
    detection = detector.detect(frame)
    assert detection.homography is not None
    r = detector.geometry.slot_spec(Slot.DRAW).rect
    x, y, w, h = r.x_mm, r.y_mm, r.width_mm, r.height_mm
    ends = {"edge": [[x + 0.35 * w, y + h], [x + 0.35 * w, y]],
            "diag": [[x, y + h], [x + 0.8 * w, y]]}[line]
    to_frame = np.linalg.inv(detection.homography)
    (x0, y0), (x1, y1) = cv2.perspectiveTransform(np.array([ends], np.float32), to_frame)[0]
    yy, xx = np.mgrid[0:frame.shape[0], 0:frame.shape[1]].astype(np.float32)
    shaded = (x1 - x0) * (yy - y0) - (y1 - y0) * (xx - x0) < 0  # left of the line's way
    out = frame.astype(np.float32)
    out[shaded] *= SHADOW
    return out.astype(np.uint8)
