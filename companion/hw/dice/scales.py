"""The camera dice reader's size search: which face sizes the finder's first looks assume
(``_sizes``), which look's marks are most like dice (``_strength``), the part of the frame
the second look sees (``_around``), and the first look's marks of dice too large for the
second (``_beyond_sight``). The looks themselves are ``DiceReader.marks`` (reader.py).
"""

from __future__ import annotations

import numpy as np

from companion.hw.dice.networks import TRAINED_FACE_PX, Spot
from companion.hw.dice.reader_config import ReaderConfig

# The second look sees the dice at their median size; one much larger than the others (a
# 16 mm die among 10 mm ones) is too large for it. A first look's mark at least _BEYOND_SIGHT
# times the size the second look assumed (the finder sees faces up to about 1.7 times the
# size it assumes) and further than _EXPLAINED face sides from every second look's mark is
# kept (see _beyond_sight). Of any size, such marks were the sides of a webcam's dice, which
# the second look rightly left out (two frames of the shared real photos' train part).
_BEYOND_SIGHT = 1.7
_EXPLAINED = 0.75
# The second look is at the dice only: the part of the frame within _AROUND face sides of
# the first look's marks, and of the places it marked at reader.py's _HINT times the
# finder's threshold (a die the first look did not mark touches one it marked, or is one
# of those places).
_AROUND = 1.5
# The size search: the first looks assume face sizes _LADDER times apart (the finder was
# trained on faces 9 to 28 px in its input, about TRAINED_FACE_PX times 1.7 either way), and
# the look whose marks are strongest (see _strength) is the first look. Looks at
# smaller sizes see a larger frame: they are made only while they cost at most _SMALL_WORK
# times the look at the middle size on a 1280x720 frame (_BASE_PIXELS in the finder's input).
# A look at another size wins over the middle one only when its _STRONGEST strongest marks
# are clearly hotter (reader.py's _PREFER_MIDDLE).
_STRONGEST = 3
_LADDER = 2.0
_SMALL_WORK = 2.0
_BASE_PIXELS = 320 * 180


def _sizes(config: ReaderConfig, shape: tuple[int, ...]) -> list[float]:
    """The face sizes the finder's first looks assume, the middle of those read first.

    The finder sees faces within about _LADDER times of the size it assumes; the sizes
    step by _LADDER from the middle of ``min_face_px``..``max_face_px`` up and down while
    they can see a face within those limits, and down only while the look costs at most
    _SMALL_WORK times a 1280x720 frame's look at the middle size.
    """
    middle = float(np.sqrt(config.min_face_px * config.max_face_px))
    sizes = [middle]
    size = middle * _LADDER
    while size / _LADDER ** 0.5 <= config.max_face_px:
        sizes.append(size)
        size *= _LADDER
    size = middle / _LADDER
    pixels = shape[0] * shape[1]
    while (size * _LADDER ** 0.5 >= config.min_face_px
           and pixels * (TRAINED_FACE_PX / size) ** 2 <= _SMALL_WORK * _BASE_PIXELS):
        sizes.append(size)
        size /= _LADDER
    return sizes


def _beyond_sight(marks: list[Spot], sight: float, other: list[Spot]) -> list[Spot]:
    """``marks``, of a second look that assumed faces of ``sight`` pixels, and the first
    look's marks (``other``) it could not see: dice at least _BEYOND_SIGHT times larger,
    further than _EXPLAINED face sides (the side of the die it marked) from each of
    ``marks``. Nearer, it is the same die, or two touching dice the first look saw as one
    blur between them (about half a side from each); a larger die touching a smaller one
    lies at least a side of the smaller from it."""
    seen = list(marks)
    for mark in other:
        if mark.side > _BEYOND_SIGHT * sight and all(
                np.hypot(mark.x - m.x, mark.y - m.y) >= _EXPLAINED * m.side for m in marks):
            seen.append(mark)
    return seen


def _strength(marks: list[Spot], threshold: float) -> float:
    """How much like dice a look's marks are: the heat of its _STRONGEST strongest marks at
    ``threshold`` or above, over _STRONGEST (a mark short counts 0).

    Not the sum of all: a look at faces much smaller than the dice marks many pips faintly;
    not the hottest alone: a look at faces much larger than two or three dice can mark one
    of them hotly and miss the others.
    """
    heats = sorted((m.heat for m in marks if m.heat >= threshold), reverse=True)[:_STRONGEST]
    return sum(heats) / _STRONGEST


def _around(marks: list[Spot], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part of a frame of ``shape`` within _AROUND face sides of ``marks``: x0, y0, x1, y1."""
    margin = _AROUND * max(m.side for m in marks)
    return (max(0, int(min(m.x for m in marks) - margin)),
            max(0, int(min(m.y for m in marks) - margin)),
            min(shape[1], int(max(m.x for m in marks) + margin) + 1),
            min(shape[0], int(max(m.y for m in marks) + margin) + 1))
