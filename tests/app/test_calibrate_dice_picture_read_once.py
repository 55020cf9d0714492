"""a77dice NIT 6: ``calibrate dice`` on a still picture read the same picture ``--frames``
times and said "in 8 of 8 frames", a steadiness check that never happened (``--frames 300``
took a minute for nothing): it is read once, and ``--frames`` with it is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from tests.dice_scenes import still_scene


@pytest.fixture
def picture(tmp_path: Path) -> tuple[Path, str]:
    """A photo of two dice lying still, and their values as the calibration lists them."""
    scene = still_scene(700, 2)
    path = tmp_path / "lay.png"
    cv2.imwrite(str(path), scene.image)
    return path, ", ".join(map(str, sorted(d.value for d in scene.dice)))


def test_a_picture_is_read_once(picture: tuple[Path, str],
                                capsys: pytest.CaptureFixture[str]) -> None:
    path, values = picture
    assert cli.main(["calibrate", "dice", "--source", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"read 2 dice ({values}) in the picture; finder threshold" in out
    assert " frames" not in out
    assert (config_dir() / "dice.toml").exists()


def test_frames_with_a_picture_is_refused(picture: tuple[Path, str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = picture
    assert cli.main(["calibrate", "dice", "--source", str(path), "--frames", "300"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no dice asked for, no frame read
    assert (f"--frames is how many frames of one lay the thresholds are tuned on, and {path} "
            "is one picture, read once: leave --frames out, or give a folder of pictures or "
            "a video of the dice lying still") in " ".join(err.split())
    assert not (config_dir() / "dice.toml").exists()


class Webcam:
    """cv2.VideoCapture's seam: a webcam showing ``picture`` for ever."""

    picture: np.ndarray | None = None

    def __init__(self, device: Any) -> None:
        pass

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        return True, Webcam.picture

    def release(self) -> None:
        pass


def test_a_camera_s_one_frame_is_no_picture(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """r77dice NIT on e9d385a2: `--frames 1` of a live camera said "in the picture"."""
    scene = still_scene(700, 2)
    monkeypatch.setattr(Webcam, "picture", scene.image)
    monkeypatch.setattr(cv2, "VideoCapture", Webcam)
    assert cli.main(["calibrate", "dice", "--source", "camera:0", "--frames", "1"]) == 0
    values = ", ".join(map(str, sorted(d.value for d in scene.dice)))
    assert f"read 2 dice ({values}) in 1 frame; finder threshold" in capsys.readouterr().out
