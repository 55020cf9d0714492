"""Shared by the camera dice tests: a clock that passes half a second each time it is read, and
the session's camera rolls fed from frames with a player who answers (session_rolls, Player,
Capture, faces)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from companion.app.session.controls import Controls
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.hw.buttons import Press
from companion.hw.dice.source import CameraDiceSource, Motion


class Clock:
    """Time that passes half a second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


class Player:
    """Watches the screen; presses a key once a prompt starting with its text is shown."""

    def __init__(self, script: list[tuple[str, Press]]) -> None:
        self.script = script
        self.shown: list[tuple[str, str]] = []

    def show(self, prompt: str, **kwargs: object) -> None:
        self.shown.append((prompt, str(kwargs.get("status", ""))))

    def poll(self) -> list[Press]:
        if self.script and self.shown and self.shown[-1][0].startswith(self.script[0][0]):
            return [self.script.pop(0)[1]]
        return []


def faces(scene: Any) -> list[int]:
    return sorted(d.value for d in scene.dice)


def session_rolls(frames: Iterator[np.ndarray], player: Player) -> CameraRolls:
    """CameraRolls as `companion play` builds them (play.table_modes.camera_rolls), on
    these frames."""
    clock = Clock()
    controls = Controls([player])
    stream = CameraFrames(frames, controls, Motion().moving, sleep=lambda s: None)
    source = CameraDiceSource(frames=stream, timeout_s=600.0, clock=clock,
                              sleep=lambda s: None)
    return CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                       sleep=lambda s: None, clock=clock)


class Capture:
    """cv2.VideoCapture's seam: a webcam whose frames are the rendered throws given."""

    def __init__(self, frames: Iterator[np.ndarray]) -> None:
        self.frames = frames

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        return True, next(self.frames)

    def release(self) -> None:
        pass
