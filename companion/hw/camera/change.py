"""Whether a camera's view changed: a cheap look beside the costly reads.

A frame (or a slot's crop) is compared at quarter size in grey, where sensor noise
averages out: a share of pixels that moved by more than ``threshold`` grey levels above
``share`` is a change (a hand, a die rolling, a tile laid or lifted). The dice camera
tells a throw in progress by it (:class:`companion.hw.dice.source.Motion`), and the tile
reader a quiet table, which the wait polls less often. Neither skips a read by it: a
blank White laid on an empty slot, or a white die on the white tray, changes too little.
"""

from __future__ import annotations

import cv2
import numpy as np

THRESHOLD = 25  # grey levels a quarter-size pixel must move by: noise averages well under
SHARE = 0.002  # the share of such pixels that is a change


def shrink(image: np.ndarray) -> np.ndarray:
    """``image`` in grey at a quarter of its size, to compare with :func:`changed`."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    small: np.ndarray = cv2.resize(grey, (grey.shape[1] // 4, grey.shape[0] // 4),
                                   interpolation=cv2.INTER_AREA)
    return small


def changed(before: np.ndarray, now: np.ndarray, threshold: int = THRESHOLD,
            share: float = SHARE) -> bool:
    """Whether ``now`` differs from ``before`` (both :func:`shrink`'s); any change of
    size does."""
    if before.shape != now.shape:
        return True
    moved = cv2.countNonZero((cv2.absdiff(now, before) > threshold).astype(np.uint8))
    return bool(moved > share * now.size)
