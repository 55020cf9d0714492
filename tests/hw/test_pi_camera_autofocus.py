"""The Pi camera's autofocus (a78tilecam RISK 2): the BOM's Camera Module 3 was started with
libcamera's default AfMode, Manual, its lens left at about 1 m and the mat at 35-40 cm out
of focus for good; calibration then told the player to turn a lens ring it does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hw.camera.capture import open_source
from companion.hw.camera.quality import MIN_FOCUS, PictureQuality
from tests.hw.capture_helpers import forget_after

FAKE_PICAMERA2 = (
    "import numpy as np\n"
    "class Picamera2:\n"
    "    made = []\n"
    "    def __init__(self):\n"
    "        self.camera_controls = {{{controls}}}\n"
    "        self.set = []\n"
    "        self.started = False\n"
    "        Picamera2.made.append(self)\n"
    "    def create_video_configuration(self, main):\n"
    "        return main\n"
    "    def configure(self, config):\n"
    "        pass\n"
    "    def start(self):\n"
    "        self.started = True\n"
    "    def set_controls(self, controls):\n"
    "        assert self.started, 'controls set before start'\n"
    "        self.set.append(controls)\n"
    "    def stop(self):\n"
    "        pass\n"
    "    def close(self):\n"
    "        pass\n"
    "    def capture_array(self, name):\n"
    "        return np.full((48, 64, 3), 90, np.uint8)\n")
# libcamera's Python controls as Picamera2 takes them: AfModeEnum is Manual 0, Auto 1,
# Continuous 2.
FAKE_LIBCAMERA = (
    "import enum, types\n"
    "class AfModeEnum(enum.IntEnum):\n"
    "    Manual = 0\n"
    "    Auto = 1\n"
    "    Continuous = 2\n"
    "controls = types.SimpleNamespace(AfModeEnum=AfModeEnum)\n")


@pytest.mark.parametrize("autofocus", [True, False])
def test_continuous_autofocus_is_turned_on_where_the_camera_offers_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autofocus: bool) -> None:
    """A camera whose controls hold AfMode focuses continuously once started; a fixed-focus
    one (Camera Module 2, HQ) is given no focus control, which it would refuse."""
    offered = ('"AfMode": (0, 2, 0), "ExposureTime": (1, 66666, 20000)' if autofocus
               else '"ExposureTime": (1, 66666, 20000)')
    for module, text in (("picamera2", FAKE_PICAMERA2.format(controls=offered)),
                         ("libcamera", FAKE_LIBCAMERA)):
        (tmp_path / module).mkdir()
        (tmp_path / module / "__init__.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    forget_after(monkeypatch, "picamera2")
    forget_after(monkeypatch, "libcamera")
    source = open_source("picamera")
    frame = source.read()
    assert frame is not None and source.message == "ok"
    import libcamera
    import picamera2
    (camera,) = picamera2.Picamera2.made
    assert camera.set == ([{"AfMode": libcamera.controls.AfModeEnum.Continuous}] if autofocus
                          else [])
    source.close()


def test_a_soft_picture_is_not_only_told_to_turn_a_lens_ring() -> None:
    """An autofocus camera has no ring: it is kept 10 cm or more from the mat."""
    soft = PictureQuality(focus=MIN_FOCUS - 20, exposure=180.0, glare={})
    (line,) = soft.problems()
    assert line == (f"the picture is soft (focus {MIN_FOCUS - 20:.0f} < {MIN_FOCUS:.0f}): turn "
                    "the lens ring or move the camera to its focus distance (an autofocus "
                    "camera, as the Camera Module 3, has no ring: keep it 10 cm or more from "
                    "the mat)")
