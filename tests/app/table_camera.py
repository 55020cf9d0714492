"""The camera the calibration tests calibrate: the rendered mat behind a webcam's name.

``--source render:…`` calibrates nothing (it is no camera's view of the player's table), so a
test that needs a calibration saved, or a camera to enrol with, looks through ``camera:0``,
the camera's opening (the world's edge) answered by a :class:`RenderedSource` showing the
tiles asked for. Every other source opens as it does for the player. A test that needs the
companion's own webcam code to see a picture (one burnt out, say) makes OpenCV's opening of
the webcam give it instead (:func:`webcam_showing`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import pytest

from companion.hw.camera.capture import FrameSource, RenderedSource, open_source, parse_tiles_spec

WEBCAM = "camera:0"


def table_camera(monkeypatch: pytest.MonkeyPatch, tiles: str = "") -> str:
    """Make ``camera:0`` show the rendered mat with ``tiles`` on it (``draw=5p,room_tl=1m``);
    the source to give ``--source``. It is the camera the game reads the tiles with too
    (input.camera_source), as the player's table camera is: calibrating another one is
    noted (camera75 NIT 9)."""
    def opened(spec: str) -> FrameSource:
        return RenderedSource(parse_tiles_spec(tiles)) if spec == WEBCAM else open_source(spec)

    monkeypatch.setattr("companion.app.calibrate.camera.open_source", opened)
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", WEBCAM)
    return WEBCAM


class _Webcam:
    """What ``cv2.VideoCapture`` opens for a webcam plugged in: ``frames``, round and round."""

    def __init__(self, frames: Sequence[np.ndarray]) -> None:
        self._frames = frames
        self._sent = 0

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        self._sent += 1
        return True, self._frames[(self._sent - 1) % len(self._frames)].copy()

    def release(self) -> None:
        pass


def webcam_showing(monkeypatch: pytest.MonkeyPatch, frames: Sequence[np.ndarray]) -> str:
    """Make a webcam (``camera:0``, opened by the companion's own OpenCV camera, as the
    player's is) send ``frames``; the source to give ``--source``."""
    def plugged_in(device: Any) -> _Webcam:
        return _Webcam(frames)

    monkeypatch.setattr(cv2, "VideoCapture", plugged_in)
    return WEBCAM
