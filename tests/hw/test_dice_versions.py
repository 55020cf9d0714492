"""The dice renderer and reader give the same numbers on every OpenCV and numpy a player may
have: the development set (OpenCV 5.x, numpy 2) and a Raspberry Pi's (scripts/
pi-constraints.txt: OpenCV 4.11, numpy 1.26). Each test pins a step whose result the two
sets differed on, with the value both must now give."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from companion.hw.dice import render
from companion.hw.dice.networks import NOTHING, DiceNetworks, Spot, models_dir
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.render import (
    _UP,
    CATALOGUE,
    _Camera,
    _compose,
    _Die,
    _draw_die,
    _Light,
    _rot_x,
    _rot_z,
)

OPENCV_MAJOR = int(cv2.__version__.split(".")[0])


def _light() -> _Light:
    direction = np.array([0.3, 0.2, 0.93])
    return _Light(direction / np.linalg.norm(direction), 0.4, 0.6)


def _camera(principal: tuple[float, float] = (32.3, 31.7)) -> _Camera:
    """A camera 300 mm above the table, looking down 12 degrees from straight."""
    rotation = _rot_x(np.radians(12)).T @ np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    return _Camera(rotation, -rotation[2] * 300.0, 1200.0, principal)


def test_a_die_is_drawn_alike_by_every_opencv() -> None:
    """A white 5 filling a 64-pixel picture. OpenCV 4.11's warpPerspective (which drew the
    faces before) read the face's texture at positions rounded to 1/32 pixel: the picture
    was up to 3.6 levels off OpenCV 5.1's, 42 levels in its sum, and the reader read seed
    4,200,028 otherwise. The values are OpenCV 5.1's picture to within 0.0001."""
    die = _Die(5, _rot_z(0.4) @ _UP[5], np.array([0.0, 0.0, 8.0]), 16.0, "white", False,
               CATALOGUE["white"])
    canvas = np.full((64, 64, 3), 90.0)
    _draw_die(canvas, die, _camera(), _light(), (0.08, 0.25, 0.08))
    assert float(canvas.sum()) == pytest.approx(2152675.685, abs=0.01)
    # Pixels where the 1/32-pixel positions were furthest off.
    assert canvas[45, 52, 0] == pytest.approx(163.5138, abs=1e-3)  # 4.11: 159.92
    assert canvas[21, 36, 0] == pytest.approx(127.6592, abs=1e-3)  # 4.11: 130.63
    assert canvas[29, 1, 0] == pytest.approx(152.7321, abs=1e-3)  # 4.11: 149.86


def test_the_warp_reads_its_source_at_exact_sub_pixel_positions() -> None:
    """Shifted a tenth of a pixel, a step from 0 to 1 is 0.9 where OpenCV 4.11 gave
    0.90625 (29/32); outside the source is 0, or the source mirrored (BORDER_REFLECT)."""
    src = np.zeros((4, 4, 1), np.float32)
    src[:, 2:] = 1.0
    shift = np.array([[1, 0, 0.1], [0, 1, 0], [0, 0, 1]], np.float64)
    out = render._warp_perspective(src, shift, (4, 4))
    assert out.dtype == np.float32 and out.shape == (4, 4, 1)
    assert out[0, :, 0].tolist() == pytest.approx([0.0, 0.0, 0.9, 1.0], abs=1e-7)
    # Half a pixel to the left: the last column reads half beyond the source.
    left = np.array([[1, 0, -0.5], [0, 1, 0], [0, 0, 1]], np.float64)
    assert render._warp_perspective(src, left, (4, 4))[0, :, 0].tolist() == \
        pytest.approx([0.0, 0.5, 1.0, 0.5], abs=1e-7)
    assert render._warp_perspective(src, left, (4, 4), reflect=True)[0, :, 0].tolist() == \
        pytest.approx([0.0, 0.5, 1.0, 1.0], abs=1e-7)
    # In perspective, as OpenCV 5 does it (to within its float32 arithmetic).
    rng = np.random.default_rng(1)
    texture = rng.uniform(0, 255, (40, 40, 3)).astype(np.float32)
    view = np.array([[0.9, 0.1, 3.3], [-0.05, 1.1, 2.7], [0.0004, 0.0009, 1.0]])
    mine = render._warp_perspective(texture, view, (48, 44))
    assert mine.shape == (44, 48, 3)
    if OPENCV_MAJOR >= 5:
        theirs = cv2.warpPerspective(texture, view, (48, 44), flags=cv2.INTER_LINEAR)
        assert np.abs(mine - theirs).max() < 0.01


def test_the_light_on_the_table_is_computed_in_float64() -> None:
    """The table lit without dice: ambient + diffuse * the light's height, in float64. With
    numpy 1.26 a float64 scalar times the float32 shadow was float32, numpy 2 float64."""
    light = _light()
    table = np.full((8, 8, 3), 100.0)
    canvas = _compose(table, [], _camera((4.2, 3.9)), light, (0.08, 0.25, 0.08), (8, 8))
    assert canvas.dtype == np.float64
    lit = light.ambient + light.diffuse * float(light.direction[2])
    assert np.array_equal(canvas, table * lit)


@cache
def _networks() -> DiceNetworks:
    return DiceNetworks(models_dir() / "dice_v1")


def test_a_probability_that_rounds_to_its_threshold_meets_it_on_every_numpy() -> None:
    """float32(0.7) is 0.69999999: held to a min_nothing of 0.7 in float32 (numpy 2) it is
    no die; numpy 1.26 compared in float64, and the mark was a die not read."""
    config = replace(ReaderConfig.load(), min_nothing=0.7)
    reader = DiceReader(config, _networks())
    probs = np.array([0.7, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.0, 0.0], np.float32)
    assert float(probs[NOTHING]) < 0.7
    assert reader._verdict(Spot(10.0, 10.0, 20.0, 0.9), probs) is None


class _Finder:
    """The finder's output for one mark: heat 0.9, at cell (2, 3), log side 3."""

    def run(self, _names: object, _feed: object) -> list[np.ndarray]:
        out = np.zeros((1, 4, 6, 6), np.float32)
        out[0, 0, 3, 2] = 0.9
        out[0, 1:, 3, 2] = (0.25, 0.5, 3.0)
        return [out]


def test_the_finder_sizes_a_mark_alike_on_every_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The side is exp(log side) / scale in float32, as numpy 2 divides a float32 by a
    Python float; numpy 1.26 divided in float64 (NEP 50)."""
    networks = _networks()
    monkeypatch.setattr(networks, "_finder", _Finder())
    frame = np.zeros((48, 96, 3), np.uint8)
    small = np.zeros((14, 28, 3), np.uint8)  # scale 28 / 96
    [spot] = networks.find(frame, 0.5, 64.0, small)
    assert spot.side == 68.86470031738281  # numpy 1.26: 68.8646981375558
    assert (spot.x, spot.y) == pytest.approx((2.25 * 4 * 96 / 28, 3.5 * 4 * 96 / 28))
