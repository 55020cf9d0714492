"""Camera-like changes of a photo, to judge the readers as other cameras would see the same
things: turned, larger, darker, brighter, under a warmer or cooler light, grey, more JPEG,
blurred, noisier (``scripts/eval_dice_reader.py --looks``,
``scripts/eval_tile_classifier.py --looks``). A development aid, as photos.py is: never
needed at run time.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import cv2
import numpy as np

Look = Callable[[np.ndarray], np.ndarray]


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert decoded is not None  # what was just encoded decodes
    return decoded


def _scaled(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """Each of the B, G, R channels times its gain (a light's colour, or its strength)."""
    scaled: np.ndarray = np.clip(image * np.array(gains), 0, 255).astype(np.uint8)
    return scaled


def _noisy(image: np.ndarray) -> np.ndarray:
    """Sensor noise (sigma 8), the same for the same picture every run."""
    rng = np.random.default_rng(zlib.crc32(image.tobytes()))
    return np.clip(image + rng.normal(0.0, 8.0, image.shape), 0, 255).astype(np.uint8)


# What is seen keeps its values (a die's pips stay 20 px or more across).
LOOKS: dict[str, Look] = {
    "quarter turn": lambda im: np.ascontiguousarray(np.rot90(im)),
    "half turn": lambda im: np.ascontiguousarray(im[::-1, ::-1]),
    "larger x1.6": lambda im: cv2.resize(im, None, fx=1.6, fy=1.6,
                                         interpolation=cv2.INTER_CUBIC),
    "darker": lambda im: (255 * (im / 255.0) ** 1.8).astype(np.uint8),
    "brighter": lambda im: _scaled(im, (1.4, 1.4, 1.4)),
    "warmer": lambda im: _scaled(im, (0.75, 0.95, 1.2)),
    "cooler": lambda im: _scaled(im, (1.25, 1.0, 0.8)),
    "grey": lambda im: cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
    "jpeg q25": lambda im: _jpeg(im, 25),
    "blurred": lambda im: cv2.GaussianBlur(im, (0, 0), 1.2),
    "noisier": _noisy,
}
# The looks of the light and the lens alone: a tile's crop is read turned already (the
# tile evaluation's own turned variants), and a larger one is shrunk to the model's size.
LIGHT_AND_LENS = ("darker", "brighter", "warmer", "cooler", "grey", "jpeg q25", "blurred",
                  "noisier")
