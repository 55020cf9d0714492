"""Rendered dice throws written as a picture folder for `companion events … --dice camera`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.hw.dice.render import SceneKind, Table, render_scene

# The first felt scene of one die showing each value that the reader reads so (seeds 700-713,
# found by a search of them): rendering and reading is ~1 s a scene, and the search cost each
# run 14 of them. The tests' own reads check the values still read so.
DIE_SEEDS = {1: 700, 5: 701, 4: 703, 3: 704, 6: 705, 2: 713}


def throws(folder: Path, *faces: int) -> Path:
    """A folder of frames, in name order: each throw lying still, the dice lifted between."""
    folder.mkdir()
    frames: list[np.ndarray] = []
    for at, face in enumerate(faces):
        frames += ([lifted()] * 8 if at else []) + [die_showing(face)] * 8
    for number, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{number:03d}.png"), frame)
    return folder


@cache
def die_showing(value: int) -> np.ndarray:
    """A rendered throw of one die on felt showing ``value``, which the reader reads so."""
    scene = render_scene(DIE_SEEDS[value], kind=SceneKind.LOOSE, count=1, table=Table.FELT)
    assert scene.dice[0].value == value
    return scene.image


@cache
def lifted() -> np.ndarray:
    """The table with the dice picked up."""
    return render_scene(701, kind=SceneKind.EMPTY, table=Table.FELT).image
