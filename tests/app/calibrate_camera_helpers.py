"""The mat as the camera sees it, for the calibrate camera tests: the empty mat rendered, a
picture warped into the frame at given corners, and a rectangle's corners."""

from __future__ import annotations

import cv2
import numpy as np

from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.mat import MatDetector, Rect


def empty_mat() -> np.ndarray:
    """The frame ``--source render:`` shows: the project's own mat, clear."""
    frame = RenderedSource({}).read()
    assert frame is not None
    return frame


def in_frame(frame: np.ndarray, corners_mm: np.ndarray) -> np.ndarray:
    """Where points on the mat (mm) lie in ``frame``, as the mat detector places them."""
    detection = MatDetector().detect(frame)
    assert detection.homography is not None
    to_frame = np.linalg.inv(detection.homography)
    return cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2).astype(np.float64),
                                    to_frame).reshape(-1, 2)


def rect_corners(rect: Rect) -> np.ndarray:
    x, y, w, h = rect.x_mm, rect.y_mm, rect.width_mm, rect.height_mm
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def first_said(out: str) -> str:
    """The first message in ``out`` as one line: its first line and those after it two
    cells further in (how a long "mat not found" is wrapped at 80 columns)."""
    first, *rest = out.splitlines()
    lines = [first]
    for line in rest:
        if not line.startswith("  "):
            break
        lines.append(line)
    return " ".join(line.strip() for line in lines)
