"""a77dice RISK 3: a webcam that stopped sending pictures during ``calibrate dice`` (a
loose cable) was calibrated on the frames it gave, saved, exit 0, and its stopping never
said; a folder holding fewer pictures than ``--frames`` is read, and says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app import cli
from companion.app.commands.dice import CALIBRATION_FILE
from companion.app.paths import config_dir
from companion.hw.camera.capture import OpenCVCamera
from companion.hw.dice.frames import take_frames
from tests.dice_scenes import still_scene


class LooseWebcam:
    """cv2.VideoCapture's seam: a webcam showing two dice for ``frames`` reads, then none,
    as one whose cable came loose."""

    sent = 0
    frames = 2
    picture: np.ndarray | None = None

    def __init__(self, device: Any) -> None:
        pass

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        LooseWebcam.sent += 1
        if LooseWebcam.sent > LooseWebcam.frames:
            return False, None
        return True, LooseWebcam.picture

    def release(self) -> None:
        pass


def test_a_webcam_that_stops_sending_pictures_is_said_and_nothing_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(LooseWebcam, "sent", 0)
    monkeypatch.setattr(LooseWebcam, "picture", still_scene(700, 2).image)
    monkeypatch.setattr(cv2, "VideoCapture", LooseWebcam)
    assert cli.main(["calibrate", "dice", "--source", "camera:0"]) == 1
    out = capsys.readouterr().out
    assert ("Not saved: the camera gave only 2 of 8 frames: camera:0 stopped sending "
            "pictures (unplugged?); check the cable and run it again\n") in out
    assert not (config_dir() / CALIBRATION_FILE).exists()


def test_a_folder_of_fewer_pictures_than_frames_is_read_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "lay"
    folder.mkdir()
    picture = still_scene(700, 2).image
    for name in ("a.png", "b.png"):
        cv2.imwrite(str(folder / name), picture)
    assert cli.main(["calibrate", "dice", "--source", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "Read 2 frames of the 8 asked for: the folder holds no more\n" in out
    assert (config_dir() / CALIBRATION_FILE).exists()


class Clock:
    """A clock that moves only when the camera takes time to read or the caller sleeps."""

    now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class SlowWebcam(LooseWebcam):
    """A webcam that takes a second for each frame and drops the seventh once."""

    clock = Clock()

    def read(self) -> tuple[bool, Any]:
        SlowWebcam.clock.now += 1.0
        LooseWebcam.sent += 1
        if LooseWebcam.sent == 7:
            return False, None
        return True, LooseWebcam.picture


def test_a_slow_webcam_that_drops_one_frame_is_waited_for_from_its_last_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """r77dice RISK 3: the five seconds' wait counted from the start, so six frames at a
    second each then one dropped gave up with 6 of 8 frames ("unplugged?")."""
    clock = Clock()
    monkeypatch.setattr(SlowWebcam, "clock", clock)
    monkeypatch.setattr(LooseWebcam, "sent", 0)
    monkeypatch.setattr(LooseWebcam, "picture", still_scene(700, 2).image)
    monkeypatch.setattr(cv2, "VideoCapture", SlowWebcam)
    # The webcam reopens after a dropped frame by the same clock.
    monkeypatch.setitem(OpenCVCamera.__init__.__kwdefaults__, "clock", clock)
    frames, _ = take_frames("camera:0", 8, 5.0, clock=clock, sleep=clock.sleep)
    assert len(frames) == 8
    assert clock.now < 12.0


def test_a_webcam_silent_for_the_wait_after_its_last_frame_has_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(LooseWebcam, "sent", 0)
    monkeypatch.setattr(LooseWebcam, "frames", 3)
    monkeypatch.setattr(LooseWebcam, "picture", still_scene(700, 2).image)
    monkeypatch.setattr(cv2, "VideoCapture", LooseWebcam)
    monkeypatch.setitem(OpenCVCamera.__init__.__kwdefaults__, "clock", clock)
    frames, why = take_frames("camera:0", 8, 5.0, clock=clock, sleep=clock.sleep)
    assert len(frames) == 3
    assert why == "camera:0 stopped sending pictures (unplugged?); retrying"
    assert 5.0 < clock.now < 6.0  # the wait, then given up
