"""A game's camera really absent, as on a laptop, for the tests of what play does when the
camera cannot be had: the Pi camera (``input.camera_source = "picamera"``, the default) with
Picamera2 not there to open it, wherever the tests run. It passes play's start check, which
looks for no camera, and stops the game at once where the camera is opened (a webcam's
number or /dev/video9 is waited for, "retrying"). A picture path not there was the stand-in,
and play now refuses it at its start check, saying the path is not there (setup75 RISK 3)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

#: How the camera's error begins (capture.PiCameraSource).
PICAMERA2_MISSING = "Picamera2 is not installed for the companion's Python"


def no_pi_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's camera the Pi camera, its ``import picamera2`` failing, in this process."""
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", "picamera")


def no_pi_camera_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a companion started as a program whose camera is the Pi camera,
    its ``import picamera2`` failing: a package of that name first on its path that raises
    ImportError, as on a laptop or a bare venv."""
    fake = tmp_path / "no-picamera2"
    (fake / "picamera2").mkdir(parents=True, exist_ok=True)
    (fake / "picamera2" / "__init__.py").write_text(
        'raise ImportError("No module named picamera2")\n', encoding="utf-8")
    return {"COMPANION_INPUT_CAMERA_SOURCE": "picamera",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(fake),
                                                        os.environ.get("PYTHONPATH")]))}
