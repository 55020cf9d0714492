"""Benchmark the cameras while the session waits on the player: CPU per second of waiting.

    python scripts/bench_camera_idle.py              # 20 s per wait
    python scripts/bench_camera_idle.py --seconds 60

Three waits, each the session's own loop on a camera that never blocks and shows a still
table (the rendered mat, empty, with fresh sensor noise on every frame, drawn beforehand
so that drawing costs nothing): waiting for a tile (``wait_for_tile`` on the camera tile
reader, ``poll_seconds`` 0.05 as `companion play` polls), waiting for the first throw
(``CameraDiceSource.read_throw`` through the session's ``CameraFrames``), and waiting for
the next throw with the last one's dice still lying there (``CameraFrames`` holding frames
back until the dice move). Each prints the process's CPU seconds (user + system) per
second of waiting, and frames or polls taken. onnxruntime and OpenCV run on 1 thread.

A live camera blocks until its next frame (30 fps), so on one the dice waits cost at
most what is printed here; a Pi 4 is some 3-5 times slower per core than a laptop.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

import cv2
import numpy as np

from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import ReadState, wait_for_tile
from companion.app.session.rolls import CameraFrames
from companion.hw.buttons import Press
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader
from companion.hw.dice.frames import CameraStream
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.hw.ports import Slot
from companion.systems.jongrogue.wall import TileLedger

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


class Nobody:
    """Controls nobody presses, for ``seconds`` (then the wait is over)."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def poll(self) -> list[Press]:
        if time.monotonic() >= self.deadline:
            raise Waited
        return []


def cpu() -> float:
    user, system = os.times()[:2]
    return user + system


def report(name: str, seconds: float, start_cpu: float, taken: int) -> None:
    used = cpu() - start_cpu
    print(f"{name}: {used / seconds * 100:5.1f} % of one core "
          f"({used:.2f} s CPU in {seconds:.0f} s; {taken} frames, {taken / seconds:.1f} per s)")


def tile_wait(seconds: float, classifier: TileClassifier) -> None:
    camera = StillTable()
    reader = CameraTileReader(camera, classifier)
    start = cpu()
    try:
        wait_for_tile(reader, ReadState(startup=True), Slot.DRAW, TileLedger(),
                      Controls([Nobody(seconds)]), Confirm(3.0), lambda *shown: None,
                      poll_seconds=0.05)
    except Waited:
        pass
    report("waiting for a tile (camera)", seconds, start, camera.taken)


def dice_wait(seconds: float, rethrow: bool) -> None:
    camera = StillTable()
    frames = CameraFrames(CameraStream(camera), Controls([Nobody(seconds)]), Motion().moving)
    frames.rethrow = rethrow  # the last throw's dice lie there: held back until they move
    source = CameraDiceSource(frames=frames)
    start = cpu()
    try:
        source.read_throw(2, 6, may_type=True)
    except Waited:
        pass
    name = "waiting for the next throw (dice held back)" if rethrow \
        else "waiting for a throw (dice camera)"
    report(name, seconds, start, camera.taken)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each wait")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    classifier = TileClassifier(threads=1)
    tile_wait(args.seconds, classifier)
    dice_wait(args.seconds, rethrow=False)
    dice_wait(args.seconds, rethrow=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
