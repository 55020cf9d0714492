"""A capture source's picture, a short video of them and its forgetting after a while, for
the camera capture tests."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest


def picture(value: int) -> np.ndarray:
    return np.full((48, 64, 3), value, np.uint8)


def four_frame_video(path: Path, fourcc: str) -> Path:
    """A video at ``path`` of four 64x48 frames of picture(40), (120), (200) and (80), 5 a
    second, coded as ``fourcc`` ("mp4v", "MJPG", "XVID"). Gives ``path``."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 5, (64, 48))
    for value in (40, 120, 200, 80):
        writer.write(picture(value))
    writer.release()
    return path


def forget_after(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """``module`` imported afresh now and forgotten after the test: a stand-in left in
    sys.modules opened a "Pi camera" for every later test in the process (a later play
    waited for a tile for ever)."""
    monkeypatch.setitem(sys.modules, module, None)  # its undo removes what the test imports
    del sys.modules[module]
