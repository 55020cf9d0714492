"""What the dice camera's tests share: a folder of pictures that runs out, a clock, the dice
tray's rolls and what it says when its pictures run out, and the player's presses once a
prompt is shown (Hands) on a clock that passes only when the test says (Clock). No test
module imports another."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import cv2

from companion.app.commands.play.table_modes import camera_rolls
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.rolls import CameraRolls
from companion.hw.buttons import Press
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


class Clock:
    """Time that passes only when the test says."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


#: A prompt's start, the presses given once it is shown, and how long after (Hands).
Step = tuple[str, Sequence[Press]] | tuple[str, Sequence[Press], float]


class Hands:
    """Presses given once a prompt starting with a text is shown: each ``(text, presses)``
    gives its first press at the next poll, and each after it ``gap`` seconds after the one
    before (a double press's two halves: 0.1 s); ``(text, presses, after)``: the first
    ``after`` seconds after the prompt is seen (the player reading it)."""

    def __init__(self, script: list[Step], clock: Clock, gap: float = 0.1) -> None:
        self.script = script
        self.clock = clock
        self.gap = gap
        self.shown: list[tuple[str, str]] = []
        self.pending: list[tuple[Press, float]] = []  # each press, and when it comes

    def show(self, prompt: str, **kwargs: object) -> None:
        self.shown.append((prompt, str(kwargs.get("status", ""))))

    def poll(self) -> list[Press]:
        if self.pending:
            if self.clock.now >= self.pending[0][1] - 1e-9:
                return [self.pending.pop(0)[0]]
            return []
        if self.script and self.shown and self.shown[-1][0].startswith(self.script[0][0]):
            _, presses, *after = self.script.pop(0)
            start = self.clock.now + (after[0] if after else 0.0)
            self.pending = [(p, start + n * self.gap) for n, p in enumerate(presses)]
            return self.poll()
        return []
