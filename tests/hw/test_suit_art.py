"""Circles and bamboo drawn from their layouts (companion/hw/camera/suit_art.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.hw.camera import suit_art
from companion.hw.camera.render import ART_SIZE, render_tile
from companion.hw.camera.suit_art import drawn_suit_face
from companion.systems.jongrogue.tiles import Tile

W, H = ART_SIZE
SPREAD = (0.9, 1.05)  # how far drawn_suit_face stretches a layout from the face's centre
R_JITTER = 1.1  # and how much larger than the table's radius a circle may be drawn
SEEDS = range(12)  # enough to draw every style of circle and cane


def _centres(layout: tuple[tuple[float, ...], ...], spread: float) -> np.ndarray:
    return np.array([(W * (0.5 + (p[0] - 0.5) * spread), H * (0.5 + (p[1] - 0.5) * spread))
                     for p in layout])


def _largest_radius(rank: int) -> float:
    return suit_art._CIRCLES[rank][1] * min(W, H * 0.75) * R_JITTER * (1.2 if rank == 1 else 1)


@pytest.mark.parametrize("rank", range(1, 10))
def test_circles_of_one_tile_never_touch_and_stay_on_the_face(rank: int) -> None:
    layout, _ = suit_art._CIRCLES[rank]
    assert len(layout) == len(suit_art._CIRCLE_GROUPS[rank]) == rank
    r = _largest_radius(rank)
    for spread in SPREAD:
        centres = _centres(layout, spread)
        for i in range(rank):
            x, y = centres[i]
            assert r <= x <= W - r and r <= y <= H - r
            for j in range(i):
                assert math.dist(centres[i], centres[j]) > 2 * r


@pytest.mark.parametrize("rank", range(1, 10))
def test_a_drawn_circles_face_has_ink_at_each_circle_and_nowhere_else(rank: int) -> None:
    layout, radius = suit_art._CIRCLES[rank]
    for seed in SEEDS:
        face = drawn_suit_face(Tile.from_notation(f"{rank}p"), np.random.default_rng(seed),
                               ART_SIZE)
        assert face.shape == (H, W, 4) and face.dtype == np.float32
        assert 0 <= face.min() and face.max() <= 1
        ink = face[..., 3] > 0.5
        ys, xs = np.nonzero(ink)
        # The spread is drawn at random: the ink's own middle tells which was used.
        best = min(np.hypot(xs[:, None] - _centres(layout, s)[None, :, 0],
                            ys[:, None] - _centres(layout, s)[None, :, 1]).min(axis=1).max()
                   for s in np.linspace(*SPREAD, 8))
        # A ring is drawn centred on its radius, so half its width (0.09 r) lies outside.
        assert best <= _largest_radius(rank) * 1.1 + 2, f"{rank}p seed {seed}: ink off its circles"
        for cx, cy in _centres(layout, 1.0):
            near = np.hypot(xs - cx, ys - cy) <= radius * W * 1.4
            assert near.any(), f"{rank}p seed {seed}: a circle without ink"


@pytest.mark.parametrize("rank", range(2, 10))
def test_a_drawn_bamboo_face_has_one_cane_per_rank(rank: int) -> None:
    sticks = suit_art._STICKS[rank]
    assert len(sticks) == len(suit_art._STICK_GROUPS[rank]) == rank
    for seed in SEEDS:
        face = drawn_suit_face(Tile.from_notation(f"{rank}s"), np.random.default_rng(seed),
                               ART_SIZE)
        ink = face[..., 3] > 0.5
        ys, xs = np.nonzero(ink)
        assert len(xs), f"{rank}s seed {seed}: no ink"
        for x, y, length, _ in sticks:
            cx, cy = W * x, H * y
            near = np.hypot(xs - cx, ys - cy) <= length * H * 0.3
            assert near.any(), f"{rank}s seed {seed}: a cane without ink"
        assert (xs.min(), ys.min()) >= (0, 0) and ink[:, [0, -1]].sum() == 0


def test_the_one_of_bamboo_and_other_suits_have_no_layout_to_draw() -> None:
    rng = np.random.default_rng(0)
    for label in ("1s", "5m", "1z"):
        with pytest.raises(ValueError, match="no layout"):
            drawn_suit_face(Tile.from_notation(label), rng, ART_SIZE)


def test_render_tile_draws_suits_from_their_layout_only_when_asked() -> None:
    packaged = render_tile("5p", np.random.default_rng(4), vary=True)
    drawn = render_tile("5p", np.random.default_rng(4), vary=True, drawn_suits=True)
    assert packaged.shape == drawn.shape == (H, W, 4)
    assert not np.array_equal(packaged, drawn)
    # A bird has no layout: the 1 of bamboo keeps its art, drawn_suits or not.
    bird = render_tile("1s", np.random.default_rng(4), vary=True)
    assert np.array_equal(bird, render_tile("1s", np.random.default_rng(4), vary=True,
                                            drawn_suits=True))
