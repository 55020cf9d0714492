"""The dice reader's size search: dice far larger or smaller than the finder's first look
assumes are found, on rendered frames scaled up and down (the camera's stand-ins)."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.hw.dice.reader import DiceReader, ReaderConfig, ReadStatus, _sizes
from companion.hw.dice.render import Scene, SceneKind, render_scene


@cache
def reader() -> DiceReader:
    return DiceReader()


def _scaled(s: Scene, face_px: float) -> np.ndarray:
    """The part of the scene around its dice, scaled so the median face is ``face_px``."""
    xs, ys = [d.centre[0] for d in s.dice], [d.centre[1] for d in s.dice]
    side = float(np.median([d.side_px for d in s.dice]))
    x0, y0 = max(0, int(min(xs) - 2 * side)), max(0, int(min(ys) - 2 * side))
    x1, y1 = int(max(xs) + 2 * side), int(max(ys) + 2 * side)
    factor = face_px / side
    return cv2.resize(s.image[y0:y1, x0:x1], None, fx=factor, fy=factor,
                      interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)


@pytest.mark.parametrize("seed", [100, 104, 107])
def test_two_or_three_large_dice_are_found_and_read(seed: int) -> None:
    """Faces of 170 px, far above the middle of the sizes read (63 px), where the first
    look alone sees nothing or only pips: a look at a larger size finds the dice."""
    s = render_scene(seed, kind=SceneKind.LOOSE, count=3)
    read = reader().read(_scaled(s, 170))
    assert read.status is ReadStatus.OK, read.message
    assert read.values == sorted(d.value for d in s.dice)
    assert all(140 < d.side_px < 220 for d in read.dice)


def test_the_sizes_searched_step_from_the_middle_up_and_down_within_the_work_bound() -> None:
    config = ReaderConfig.load()
    middle = float(np.sqrt(config.min_face_px * config.max_face_px))
    wide = _sizes(config, (720, 1280, 3))
    assert wide[0] == pytest.approx(middle)
    assert wide[1:] == pytest.approx([2 * middle, 4 * middle])  # larger looks cost less
    assert max(wide) / 2 ** 0.5 <= config.max_face_px < max(wide) * 2 / 2 ** 0.5
    # A smaller frame (a webcam's 640x480) can afford a look at faces half the middle size.
    assert _sizes(config, (480, 640, 3))[3:] == pytest.approx([middle / 2])
