"""Circle (筒子 pinzu) and bamboo (索子 souzu) faces drawn from their layouts, in many styles.

The packaged art is one set's drawing; real sets keep the layout of each rank
but draw the circles as rings, flowers, wheels or discs and the bamboo as
segmented sticks, beads or outlined canes, in their own colours. Training
draws some suit tiles this way (scripts/train_tile_classifier.py
``--drawn-suits``) so the classifier learns the layout, not one set's strokes.
The 1 of bamboo is a bird in most sets and has no layout to draw: it keeps the
packaged art.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.systems.jongrogue.tiles import Suit, Tile

# Centres (x, y as fractions of the face) of each rank's circles, and their radius (a
# fraction of the face's width): circles of one tile never touch (tests/hw/test_suit_art.py).
_CIRCLES: dict[int, tuple[tuple[tuple[float, float], ...], float]] = {
    1: (((0.5, 0.5),), 0.34),
    2: (((0.5, 0.27), (0.5, 0.73)), 0.21),
    3: (((0.24, 0.2), (0.5, 0.5), (0.76, 0.8)), 0.17),
    4: (((0.28, 0.27), (0.72, 0.27), (0.28, 0.73), (0.72, 0.73)), 0.17),
    5: (((0.26, 0.22), (0.74, 0.22), (0.5, 0.5), (0.26, 0.78), (0.74, 0.78)), 0.16),
    6: (((0.29, 0.17), (0.71, 0.17), (0.29, 0.56), (0.71, 0.56), (0.29, 0.84),
         (0.71, 0.84)), 0.14),
    7: (((0.22, 0.12), (0.5, 0.24), (0.78, 0.36), (0.29, 0.6), (0.71, 0.6), (0.29, 0.86),
         (0.71, 0.86)), 0.12),
    8: (((0.29, 0.13), (0.71, 0.13), (0.29, 0.38), (0.71, 0.38), (0.29, 0.62),
         (0.71, 0.62), (0.29, 0.87), (0.71, 0.87)), 0.12),
    9: (tuple((x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)), 0.12),
}
# Which group each circle's colour follows: sets colour the top and bottom of 6 and 7
# apart, the middle of 5 and the middle row of 9 apart, and so on.
_CIRCLE_GROUPS = {
    1: (0,), 2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 1, 0), 5: (0, 1, 2, 1, 0),
    6: (0, 0, 1, 1, 1, 1), 7: (0, 0, 0, 1, 1, 1, 1), 8: (0,) * 8, 9: (0, 0, 0, 1, 1, 1, 2, 2, 2),
}
# Sticks: centre (x, y), length (fraction of the face's height) and lean in degrees.
_Stick = tuple[float, float, float, float]
_STICKS: dict[int, tuple[_Stick, ...]] = {
    2: ((0.5, 0.27, 0.4, 0), (0.5, 0.73, 0.4, 0)),
    3: ((0.5, 0.27, 0.4, 0), (0.3, 0.73, 0.4, 0), (0.7, 0.73, 0.4, 0)),
    4: ((0.3, 0.27, 0.4, 0), (0.7, 0.27, 0.4, 0), (0.3, 0.73, 0.4, 0), (0.7, 0.73, 0.4, 0)),
    5: ((0.22, 0.27, 0.4, 0), (0.78, 0.27, 0.4, 0), (0.5, 0.5, 0.4, 0), (0.22, 0.73, 0.4, 0),
        (0.78, 0.73, 0.4, 0)),
    6: tuple((x, y, 0.4, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)),
    7: ((0.5, 0.15, 0.26, 0), *((x, y, 0.3, 0) for y in (0.48, 0.83) for x in (0.2, 0.5, 0.8))),
    8: ((0.16, 0.27, 0.4, 0), (0.38, 0.27, 0.4, 22), (0.62, 0.27, 0.4, -22),
        (0.84, 0.27, 0.4, 0), (0.16, 0.73, 0.4, 0), (0.38, 0.73, 0.4, -22),
        (0.62, 0.73, 0.4, 22), (0.84, 0.73, 0.4, 0)),
    9: tuple((x, y, 0.29, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)),
}
_STICK_GROUPS = {
    2: (0, 0), 3: (1, 0, 0), 4: (0, 0, 0, 0), 5: (0, 0, 1, 0, 0), 6: (0,) * 6,
    7: (1, 0, 0, 0, 0, 0, 0), 8: (0,) * 8, 9: (0, 1, 0, 0, 1, 0, 0, 1, 0),
}
# Inks real sets print circles and bamboo in (BGR 0..1).
_PALETTE = (
    (0.2, 0.5, 0.1), (0.35, 0.6, 0.15),  # greens
    (0.65, 0.25, 0.05), (0.45, 0.15, 0.1),  # blues
    (0.15, 0.12, 0.75), (0.1, 0.1, 0.55),  # reds
    (0.1, 0.1, 0.1),  # black
)
_RED = 4


def drawn_suit_face(kind: Tile, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A circles or bamboo face (ranks 2-9 of bamboo, 1-9 of circles) in a random style.

    BGRA float32 in 0..1 at ``size`` (w, h), transparent where there is no ink.
    """
    w, h = size
    face = np.zeros((h, w, 4), np.float32)
    pins = kind.suit is Suit.PIN
    if not pins and (kind.suit is not Suit.SOU or kind.rank < 2):
        raise ValueError(f"{kind} has no layout to draw")
    groups = (_CIRCLE_GROUPS if pins else _STICK_GROUPS)[kind.rank]
    inks = _inks(rng, max(groups) + 1)
    style = int(rng.integers(5 if pins else 4))
    spread = rng.uniform(0.9, 1.05)  # how far the layout reaches towards the rim

    def at(x: float, y: float) -> tuple[float, float]:
        return w * (0.5 + (x - 0.5) * spread), h * (0.5 + (y - 0.5) * spread)

    if pins:
        centres, radius = _CIRCLES[kind.rank]
        for (x, y), group in zip(centres, groups, strict=True):
            r = radius * min(w, h * 0.75) * rng.uniform(0.9, 1.1) * (1.2 if kind.rank == 1 else 1)
            _circle(face, at(x, y), r, inks[group], inks[-1], style)
    else:
        for (x, y, length, lean), group in zip(_STICKS[kind.rank], groups, strict=True):
            _stick(face, at(x, y), length * h * spread, lean, inks[group], inks[-1], style)
    return face


def _inks(rng: np.random.Generator, groups: int) -> list[np.ndarray]:
    """One ink per colour group, and a second ink for details (last)."""
    if rng.random() < 0.3:  # a set of one ink
        one = _PALETTE[int(rng.integers(len(_PALETTE)))]
        chosen = [one] * groups
    else:
        order = rng.permutation(len(_PALETTE))
        chosen = [_PALETTE[i] for i in order[:groups]]
        if groups > 1 and rng.random() < 0.6:  # the odd group out is red in most sets
            chosen[-1] = _PALETTE[_RED]
    detail = _PALETTE[int(rng.integers(len(_PALETTE)))]
    return [np.clip(np.array(c) + rng.normal(0, 0.05, 3), 0, 1) for c in (*chosen, detail)]


def _draw(face: np.ndarray, ink: np.ndarray, shape: np.ndarray) -> None:
    """Lay ``ink`` where the uint8 mask ``shape`` is set (anti-aliased by its grey)."""
    a = shape.astype(np.float32)[..., None] / 255
    face[..., :3] = ink * a + face[..., :3] * (1 - a)
    face[..., 3:] = np.maximum(face[..., 3:], a)


def _circle(face: np.ndarray, centre: tuple[float, float], r: float, ink: np.ndarray,
            detail: np.ndarray, style: int) -> None:
    h, w = face.shape[:2]
    cx, cy = round(centre[0] * 16), round(centre[1] * 16)  # cv2's shift=4 sub-pixel units
    line = cv2.LINE_AA

    def disc(radius: float, thickness: int) -> np.ndarray:
        mask = np.zeros((h, w), np.uint8)
        cv2.circle(mask, (cx, cy), max(1, round(radius * 16)), 255, thickness, line, 4)
        return mask

    ring = max(2, round(r * 0.18))
    if style == 0:  # concentric rings and a dot
        _draw(face, ink, disc(r, ring))
        _draw(face, ink, disc(r * 0.55, max(2, ring // 2)))
        _draw(face, detail, disc(r * 0.2, -1))
    elif style == 1:  # a flower: petals round a centre
        petals = 6 + 2 * (r > 20)
        for k in range(petals):
            t = 2 * math.pi * k / petals
            mask = np.zeros((h, w), np.uint8)
            px, py = centre[0] + 0.55 * r * math.cos(t), centre[1] + 0.55 * r * math.sin(t)
            cv2.circle(mask, (round(px * 16), round(py * 16)), max(1, round(r * 0.38 * 16)),
                       255, -1, line, 4)
            _draw(face, ink, mask)
        _draw(face, detail, disc(r * 0.25, -1))
    elif style == 2:  # a wheel: a rim and spokes
        _draw(face, ink, disc(r, ring))
        spokes = np.zeros((h, w), np.uint8)
        for k in range(8):
            t = math.pi * k / 4
            end = (round((centre[0] + r * math.cos(t)) * 16),
                   round((centre[1] + r * math.sin(t)) * 16))
            cv2.line(spokes, (cx, cy), end, 255, max(1, ring // 2), line, 4)
        _draw(face, ink, spokes)
        _draw(face, detail, disc(r * 0.22, -1))
    elif style == 3:  # a filled disc with a pale eye
        _draw(face, ink, disc(r, -1))
        eye = disc(r * 0.45, -1)
        face[eye > 0, :3] = np.clip(face[eye > 0, :3] + 0.6, 0, 1)
        _draw(face, detail, disc(r * 0.15, -1))
    else:  # a ring of beads
        beads = 10 + 4 * (r > 20)
        for k in range(beads):
            t = 2 * math.pi * k / beads
            mask = np.zeros((h, w), np.uint8)
            px, py = centre[0] + 0.8 * r * math.cos(t), centre[1] + 0.8 * r * math.sin(t)
            cv2.circle(mask, (round(px * 16), round(py * 16)), max(1, round(r * 0.17 * 16)),
                       255, -1, line, 4)
            _draw(face, ink, mask)
        _draw(face, detail, disc(r * 0.35, ring))


def _stick(face: np.ndarray, centre: tuple[float, float], length: float, lean: float,
           ink: np.ndarray, detail: np.ndarray, style: int) -> None:
    h, w = face.shape[:2]
    width = length * 0.26
    t = math.radians(lean)
    along = np.array([math.sin(t), math.cos(t)])  # down the stick
    across = np.array([along[1], -along[0]])
    c = np.array(centre)

    def quad(a0: float, a1: float, half: float) -> np.ndarray:
        """The stick's part from ``a0`` to ``a1`` (fractions of its length, -0.5..0.5)."""
        corners = [c + along * a * length + across * s * half for a, s in
                   ((a0, -1), (a0, 1), (a1, 1), (a1, -1))]
        return np.round(np.array(corners) * 16).astype(np.int32)

    mask = np.zeros((h, w), np.uint8)
    if style == 0:  # a segmented cane: nodes at its ends and middle
        cv2.fillConvexPoly(mask, quad(-0.5, 0.5, width / 2), 255, cv2.LINE_AA, 4)
        _draw(face, ink, mask)
        for a in (-0.45, 0.0, 0.45):
            node = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(node, quad(a - 0.04, a + 0.04, width * 0.65), 255, cv2.LINE_AA, 4)
            _draw(face, detail, node)
    elif style == 1:  # an outlined cane with a pale middle line
        cv2.polylines(mask, [quad(-0.5, 0.5, width / 2)], True, 255, max(2, round(width / 4)),
                      cv2.LINE_AA, 4)
        _draw(face, ink, mask)
        middle = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(middle, quad(-0.35, 0.35, width / 8), 255, cv2.LINE_AA, 4)
        _draw(face, detail, middle)
    elif style == 2:  # beads on a string
        for a in np.linspace(-0.36, 0.36, 3):
            bead = np.zeros((h, w), np.uint8)
            p = c + along * a * length
            axes = (round(width * 0.6 * 16), round(length * 0.16 * 16))
            cv2.ellipse(bead, (round(p[0] * 16), round(p[1] * 16)), axes, -lean, 0, 360, 255, -1,
                        cv2.LINE_AA, 4)
            _draw(face, ink, bead)
    else:  # a solid cane, lit down one side
        cv2.fillConvexPoly(mask, quad(-0.5, 0.5, width / 2), 255, cv2.LINE_AA, 4)
        _draw(face, ink, mask)
        shine = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(shine, quad(-0.42, 0.42, width / 7), 255, cv2.LINE_AA, 4)
        lit = shine > 0
        face[lit, :3] = np.clip(face[lit, :3] + 0.45, 0, 1)
