"""What the dice camera's tests share: a folder of pictures that runs out, a clock, the dice
tray's rolls and what it says when its pictures run out (tidy72: no test module imports
another)."""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from companion.app.commands.play.table_modes import camera_rolls
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.rolls import CameraRolls
from tests.app.test_fixdice66 import Hands
from tests.dice_scenes import still_scene


class Now:
    """The test's clock for :class:`Hands`: the real one, as camera_rolls's frames run on it."""

    @property
    def now(self) -> float:
        return time.monotonic()


def tray_rolls(source: Path, hands: Hands) -> CameraRolls:
    """The tray's camera rolls as ``companion play`` builds them, its dice camera ``source``
    set in config.toml (dice.camera_source)."""
    config = load_config(env={}, overrides={"dice.camera_source": str(source),
                                            "input.poll_seconds": 0.01})
    return camera_rolls(config, Controls([hands]))


def a_folder_of(tmp_path: Path, frames: int) -> Path:
    """A folder of ``frames`` pictures of one still 2D6 throw (a camera's frames of it)."""
    folder = tmp_path / "throws"
    folder.mkdir()
    image = still_scene(600, 2).image
    for n in range(frames):
        cv2.imwrite(str(folder / f"f{n:02}.png"), image)
    return folder


def said_on_running_out(hands: Hands) -> str:
    (prompt,) = [p for p, _ in hands.shown if p.startswith("The dice camera")]
    return " ".join(prompt.split())
