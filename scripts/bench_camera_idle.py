"""Benchmark the cameras while the session waits on the player: CPU per second of waiting.

    .venv/bin/python scripts/bench_camera_idle.py              # 20 s per wait
    .venv/bin/python scripts/bench_camera_idle.py --seconds 60

Three waits, each the session's own loop on a camera that never blocks and shows a still
table (the rendered mat, empty, with fresh sensor noise on every frame, drawn beforehand
so that drawing costs nothing): waiting for a tile (``wait_for_tile`` on the camera tile
reader, ``poll_seconds`` 0.05 as `companion play` polls), waiting for the first throw
(``CameraDiceSource.read_throw`` through the session's ``CameraFrames``), and waiting for
the next throw with the last one's dice still lying there (``CameraFrames`` holding frames
back until the dice move). Each prints the process's CPU seconds (user + system) per
second of waiting, and frames taken, for its two phases apart: the start, the first
``IDLE_AFTER_S`` (3 s) plus one second, in which the camera is looked at at its full rate
(companion/hw/camera/pace.py) and the first read runs the classifier for the first time;
and the idle wait after it, looked at every ``IDLE_PERIOD_S`` (0.25 s), the pace of a
minutes-long wait. Over the whole wait the figure fell the longer the wait (a tile: 19 %
of one core in 5 s, 9 % in 20 s). ``--seconds`` below the start's length times the start
alone. onnxruntime and OpenCV run on 1 thread.

A live camera blocks until its next frame (30 fps), so on one the dice waits cost at
most what is printed here; a Pi 4 is some 3-5 times slower per core than a laptop.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import ReadState, wait_for_tile
from companion.app.session.rolls import CameraFrames
from companion.hw.buttons import Press
from companion.hw.camera import pace
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader
from companion.hw.dice.frames import CameraStream
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.hw.ports import Slot
from companion.systems.jongrogue.wall import TileLedger

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats import number_from  # a script beside this one

NOISY_FRAMES = 8  # distinct noisy frames of the still table, shown round and round


class StillTable:
    """A camera that never blocks, showing the empty mat with new noise each frame."""

    def __init__(self) -> None:
        source = RenderedSource({})
        self.frames = itertools.cycle([source.read() for _ in range(NOISY_FRAMES)])
        self.taken = 0
        self.message = "ok"

    def read(self) -> np.ndarray | None:
        self.taken += 1
        frame: np.ndarray = next(self.frames)
        return frame.copy()

    def close(self) -> None:
        pass


class Waited(Exception):
    """The wait has lasted the seconds asked for."""


def cpu() -> float:
    user, system = os.times()[:2]
    return user + system


def start_seconds() -> float:
    """How long a wait's start is timed apart: until the camera is looked at at the idle
    pace (pace.IDLE_AFTER_S after the first look), and a second more, so that the first
    look's lateness (the classifier's first run) leaves no full-rate frame in the idle."""
    return pace.IDLE_AFTER_S + 1.0


@dataclass(frozen=True)
class Phase:
    """A part of a wait: its wall seconds, the CPU seconds it used and the frames taken."""

    seconds: float
    cpu: float
    frames: int

    def __str__(self) -> str:
        return (f"{self.cpu / self.seconds * 100:5.1f} % of one core ({self.cpu:.2f} s CPU in "
                f"{self.seconds:.1f} s; {self.frames} frames, "
                f"{self.frames / self.seconds:.1f} per s)")


class Nobody:
    """Controls nobody presses, for ``seconds`` (then the wait is over); as they are polled,
    the wait is parted into its start and its idle phase (:func:`start_seconds`)."""

    def __init__(self, seconds: float, camera: StillTable) -> None:
        self.camera = camera
        self.began = (time.monotonic(), cpu(), camera.taken)
        self.deadline = self.began[0] + seconds
        self.marks = [self.began]  # (time, CPU, frames) where each phase begins, and the end

    def poll(self) -> list[Press]:
        now = time.monotonic()
        if len(self.marks) == 1 and now >= self.began[0] + start_seconds() \
                and now < self.deadline:
            self.marks.append((now, cpu(), self.camera.taken))
        if now >= self.deadline:
            self.marks.append((now, cpu(), self.camera.taken))
            raise Waited
        return []

    def phases(self) -> list[Phase]:
        """The start and, in a wait longer than it, the idle phase, once the wait is over."""
        return [Phase(b[0] - a[0], b[1] - a[1], b[2] - a[2])
                for a, b in itertools.pairwise(self.marks)]


def report(name: str, phases: list[Phase]) -> None:
    print(f"{name}:")
    print(f"  start (full rate): {phases[0]}")
    if len(phases) > 1:
        print(f"  then idle:         {phases[1]}")
    else:
        print(f"  then idle:         not reached: give --seconds over {start_seconds():.0f}")


def tile_wait(seconds: float, classifier: TileClassifier) -> list[Phase]:
    camera = StillTable()
    reader = CameraTileReader(camera, classifier)
    nobody = Nobody(seconds, camera)
    try:
        wait_for_tile(reader, ReadState(startup=True), Slot.DRAW, TileLedger(),
                      Controls([nobody]), Confirm(3.0), lambda *shown: None,
                      poll_seconds=0.05)
    except Waited:
        pass
    return nobody.phases()


def dice_wait(seconds: float, rethrow: bool) -> list[Phase]:
    camera = StillTable()
    nobody = Nobody(seconds, camera)
    frames = CameraFrames(CameraStream(camera), Controls([nobody]), Motion().moving)
    frames.rethrow = rethrow  # the last throw's dice lie there: held back until they move
    source = CameraDiceSource(frames=frames)
    try:
        source.read_throw(2, 6, may_type=True)
    except Waited:
        pass
    return nobody.phases()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=number_from(0, above=True), default=20.0,
                        help="length of each wait (default %(default)s)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    classifier = TileClassifier(threads=1)
    report("waiting for a tile (camera)", tile_wait(args.seconds, classifier))
    report("waiting for a throw (dice camera)", dice_wait(args.seconds, rethrow=False))
    report("waiting for the next throw (dice held back)",
           dice_wait(args.seconds, rethrow=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
