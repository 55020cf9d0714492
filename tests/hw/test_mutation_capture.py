"""Mutation spot checks, round 4 (camera/capture.py, its frame sources): behaviour no other
test pinned; each test here fails on the slip named in it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.camera.capture import (
    FileSource,
    OpenCVCamera,
    RenderedSource,
    open_source,
    webcam_missing,
)
from companion.hw.ports import Slot
from tests.hw.capture_helpers import forget_after, picture


def test_a_video_asked_to_loop_starts_again_after_its_last_frame(tmp_path: Path) -> None:
    """A looping video (a demo's clip) gives its first frame again after its last, and never
    says it ended. (Mutant: the loop ignored for a video.)"""
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for value in (40, 200):
        writer.write(picture(value))
    writer.release()
    source = FileSource(path, loop=True)
    means = []
    for _ in range(5):
        frame = source.read()
        assert frame is not None, source.message
        means.append(round(float(frame.mean())))
    assert means[0] == means[2] == means[4] < means[1] == means[3]
    assert not source.ended
    source.close()


def test_only_a_single_picture_is_a_still_not_a_folder_or_a_video(tmp_path: Path) -> None:
    """A single picture never changes (the dice wait says so); a folder's pictures do, one
    after another. (Mutant: a folder of pictures taken for a still.)"""
    cv2.imwrite(str(tmp_path / "a.png"), picture(50))
    cv2.imwrite(str(tmp_path / "b.png"), picture(150))
    assert FileSource(tmp_path / "a.png").still
    folder = FileSource(tmp_path)
    assert folder.pictures and not folder.still


def test_a_pi_camera_that_stopped_mid_stream_is_started_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Pi camera that vanished mid-stream is let go and started again on the next read,
    so a camera whose cable was reseated gives frames again. (Mutant: the dead camera kept,
    every read failing on it for ever.)"""
    (tmp_path / "picamera2").mkdir()
    (tmp_path / "picamera2" / "__init__.py").write_text(
        "import numpy as np\n"
        "class Picamera2:\n"
        "    started = 0\n"
        "    def __init__(self):\n"
        "        Picamera2.started += 1\n"
        "        self.dead = Picamera2.started == 1\n"
        "        self.camera_controls = {}  # a fixed-focus camera: no AfMode\n"
        "    def create_video_configuration(self, main):\n"
        "        return main\n"
        "    def configure(self, config):\n"
        "        pass\n"
        "    def start(self):\n"
        "        pass\n"
        "    def stop(self):\n"
        "        pass\n"
        "    def close(self):\n"
        "        pass\n"
        "    def capture_array(self, name):\n"
        "        if self.dead:\n"
        "            raise RuntimeError('Camera frontend has timed out!')\n"
        "        return np.full((48, 64, 3), 90, np.uint8)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    forget_after(monkeypatch, "picamera2")
    source = open_source("picamera")
    assert source.read() is None
    assert source.message == "the Pi camera stopped (Camera frontend has timed out!)"
    frame = source.read()
    assert frame is not None and source.message == "ok"
    source.close()


def test_a_webcam_by_number_is_opened_by_its_index_and_by_path_by_its_path() -> None:
    """``camera:0`` and ``0`` are OpenCV's camera index 0, a number: the text "0" is taken
    by OpenCV for a file or pipeline named 0. A device path stays a path. (Mutant:
    ``camera:0``'s number left as text.)"""
    devices = [open_source(spec) for spec in ("camera:0", "0", "camera:/dev/video2")]
    assert all(isinstance(d, OpenCVCamera) for d in devices)
    assert [d.device for d in devices if isinstance(d, OpenCVCamera)] == [0, 0, "/dev/video2"]


def test_a_rendered_camera_s_noise_changes_from_frame_to_frame() -> None:
    """Each rendered frame is a new photograph of the same tiles: its sensor noise differs
    (a motion check or a stable-frames count meets a real camera's). (Mutant: the noise
    drawn from the seed alone, every frame the same.)"""
    source = RenderedSource({Slot.DRAW: "5p"}, seed=3)
    first, second = source.read(), source.read()
    assert first is not None and second is not None
    assert not np.array_equal(first, second)
    assert abs(float(first.mean()) - float(second.mean())) < 1.0


class Webcam:
    """cv2.VideoCapture's seam: a webcam that is plugged in."""

    released = 0

    def __init__(self, device: int | str) -> None:
        self.device = device

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def release(self) -> None:
        Webcam.released += 1


def test_a_webcam_found_there_is_let_go_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking whether a webcam is there opens it: it is released at once, or calibration's
    own opening of it would find it busy. (Mutant: left open.)"""
    monkeypatch.setattr(cv2, "VideoCapture", Webcam)
    Webcam.released = 0
    assert webcam_missing("camera:0") is None
    assert Webcam.released == 1
