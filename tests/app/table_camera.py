"""The camera the calibration tests calibrate: the rendered mat behind a webcam's name.

``--source render:…`` calibrates nothing (it is no camera's view of the player's table), so a
test that needs a calibration saved, or a camera to enrol with, looks through ``camera:0``,
the camera's opening (the world's edge) answered by a :class:`RenderedSource` showing the
tiles asked for. Every other source opens as it does for the player.
"""

from __future__ import annotations

import pytest

from companion.hw.camera.capture import FrameSource, RenderedSource, open_source, parse_tiles_spec

WEBCAM = "camera:0"


def table_camera(monkeypatch: pytest.MonkeyPatch, tiles: str = "") -> str:
    """Make ``camera:0`` show the rendered mat with ``tiles`` on it (``draw=5p,room_tl=1m``);
    the source to give ``--source``."""
    def opened(spec: str) -> FrameSource:
        return RenderedSource(parse_tiles_spec(tiles)) if spec == WEBCAM else open_source(spec)

    monkeypatch.setattr("companion.app.calibrate.camera.open_source", opened)
    return WEBCAM
