"""A picture of one tile, rendered on a plain background and written to a file, for the tests of
the commands that classify or calibrate from pictures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera.augment import paste
from companion.hw.camera.tile_faces import render_tile


def tile_picture(path: Path, label: str) -> Path:
    rng = np.random.default_rng(0)
    background = np.full((320, 240, 3), 235, np.float32)
    image = paste(background, render_tile(label, rng, vary=False), rng, fill=(0.8, 0.85))
    cv2.imwrite(str(path), np.clip(image, 0, 255).astype(np.uint8))
    return path
