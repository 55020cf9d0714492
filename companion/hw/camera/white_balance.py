"""The light's colour, from the mat's white paper: slot crops balanced so the paper is grey.

A lamp's colour reaches the classifier as the tiles' own: under a warm bulb a blank White
dragon (``5z``) is as yellow as the back of many sets, and was read as a ``back`` with
confidence (rendered mat scenes under a warm bulb's light, B, G, R 0.48, 0.72, 1.0: 13 of
24 Whites, every one surely; tests/hw/test_camera_white_balance.py), and a cool light did
the same. The camera's own white balance leaves some of a lamp's colour in. The mat is
white paper, so the paper around each slot shows what colour the light is; each crop is
scaled, channel by channel, so that paper comes out grey of the same brightness, as it is
in the photos the classifier was taught on.

The paper is the brighter quarter of the RIM_MM ring at each slot crop's edge (the slot's
printed outline and anything lying over the rim are darker), and the light is the
per-channel median over the slots, so one slot's rim under a hand or a tile lying askew
does not move it.
"""

from __future__ import annotations

import numpy as np

from companion.hw.ports import Slot

RIM_MM = 2.0  # the paper ring at a slot crop's edge: the light's colour here, its strength
#               in occupancy.py
PAPER_SHARE = 0.25  # the brightest share of the ring taken for paper
# No lamp changes one channel against another more than this; beyond it, what the rims
# show is not paper (a hand, a cloth over the mat), and the gains stop there.
MAX_GAIN = 2.0


def rim_pixels(image: np.ndarray, rim_px: int) -> np.ndarray:
    """The pixels of the ``rim_px`` ring at the edge of ``image``: one row of B, G, R each,
    or one value each for a grey image."""
    parts = (image[:rim_px], image[-rim_px:], image[:, :rim_px], image[:, -rim_px:])
    return np.concatenate([part.reshape(-1, *image.shape[2:]) for part in parts])


def _paper_colour(crop: np.ndarray, rim_px: int) -> np.ndarray:
    """The mean B, G, R of the paper in the ``rim_px`` ring at the edge of ``crop``."""
    ring = rim_pixels(crop, rim_px)
    grey = ring.astype(np.float32).mean(axis=1)
    paper: np.ndarray = ring[grey >= np.quantile(grey, 1 - PAPER_SHARE)].mean(axis=0)
    return paper


def balanced(crops: dict[Slot, np.ndarray], px_per_mm: float) -> dict[Slot, np.ndarray]:
    """``crops`` (BGR, rectified at ``px_per_mm``) with the light's colour taken out; grey
    crops as they are."""
    if not crops or any(c.ndim != 3 for c in crops.values()):
        return crops
    rim = max(1, round(RIM_MM * px_per_mm))
    light = np.median([_paper_colour(c, rim) for c in crops.values()], axis=0)
    gains = np.clip(light.mean() / np.maximum(light, 1.0), 1 / MAX_GAIN, MAX_GAIN)
    return {slot: np.clip(np.rint(crop * gains.astype(np.float32)), 0, 255).astype(np.uint8)
            for slot, crop in crops.items()}
