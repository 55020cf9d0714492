"""Rendered dice faces and camera rolls on a clock of the test's, for the camera dice tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from companion.app.session.controls import Controls
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.hw.dice.source import CameraDiceSource, Motion
from tests.app.dice_camera_helpers import Clock, Hands


def faces(scene: Any) -> list[int]:
    return sorted(d.value for d in scene.dice)


def rolls_on(frames: Iterator[np.ndarray], hands: Hands, clock: Clock) -> CameraRolls:
    """CameraRolls as `companion play` builds them (play.table_modes.camera_rolls)."""
    controls = Controls([hands], clock=clock)
    def wait(seconds: float) -> None:  # the frames' pace: a camera's frame period
        clock.now += max(seconds, 0.01)

    stream = CameraFrames(frames, controls, Motion().moving, sleep=wait, clock=clock)

    def reader_clock() -> float:  # the reader's own time runs, 0.05 s a look
        clock.now += 0.05
        return clock.now

    source = CameraDiceSource(frames=stream, timeout_s=600.0, clock=reader_clock,
                              sleep=lambda s: None)
    def sleep(seconds: float) -> None:  # a judge's poll 0.05 s after the one before
        clock.now += 0.05

    return CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.05,
                       sleep=sleep, clock=clock)
