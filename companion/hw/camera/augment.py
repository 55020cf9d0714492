"""Training-data augmentation for the tile classifier: slot crops as a camera sees them.

``render_crop`` is one synthetic rectified slot crop: a tile face
(:func:`companion.hw.camera.tile_faces.render_tile`) pasted on mat paper or table
(``slot_background``, ``paste``) with what a cheap camera and a home lamp add
(``camera_effects``). ``draw_index`` adds the corner rank or letter that Western sets
print (used by training and by the evaluation's own indexed renders, not by
``render_crop``); ``turn_crop`` turns a crop as a tile turned on its slot looks.
Used by ``scripts/train_tile_classifier.py``, ``scripts/eval_tile_classifier.py`` and
the tests, never at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera.tile_faces import render_tile
from companion.systems.jongrogue.tiles import EMPTY, Suit, Tile

SLOT_ASPECT = 4 / 3  # a mat slot's height over its width
_DRAGON_LETTERS = {5: "BPWD", 6: "FG", 7: "CR"}  # White, Green, Red dragons' corner letters


def draw_index(tile: np.ndarray, label: str, rng: np.random.Generator) -> np.ndarray:
    """``tile`` (BGRA uint8 from ``render_tile``) with a corner index, as Western sets print.

    Many sets sold outside Japan print a small rank (``7``) or letter (``E``,
    ``C``, ``B``) in a corner and shrink the art to make room; the art itself
    is the same kind, so the label does not change. Honours get their wind or
    dragon letter (``B``/``P``/``W``/``D`` on a White), suits their rank.
    """
    kind = Tile.from_notation(label)
    h, w = tile.shape[:2]
    out = tile.copy()
    if rng.random() < 0.7:  # the art shrinks away from the index, the body fills in
        b = int(w * 0.1)
        inner = out[b : h - b, b : w - b]
        ih, iw = inner.shape[:2]
        edge = np.concatenate([inner[0], inner[-1], inner[:, 0], inner[:, -1]])
        fill = np.median(edge, axis=0).astype(np.uint8)
        s = rng.uniform(0.78, 0.92)
        small = cv2.resize(inner, (max(int(iw * s), 1), max(int(ih * s), 1)),
                           interpolation=cv2.INTER_AREA)
        canvas = np.empty_like(inner)
        canvas[:] = fill
        y0 = ih - small.shape[0] if rng.random() < 0.8 else 0
        x0 = int(rng.integers(0, iw - small.shape[1] + 1))
        canvas[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
        canvas[..., 3] = inner[..., 3]
        out[b : h - b, b : w - b] = canvas
    if kind.suit is not Suit.HONOR:
        text = str(kind.rank)
    elif kind.rank <= 4:
        text = "ESWN"[kind.rank - 1]
    else:
        text = str(rng.choice(list(_DRAGON_LETTERS[kind.rank])))
    colour = rng.choice([[40, 40, 200], [30, 30, 30], [150, 60, 20], [40, 130, 40]])
    colour = np.clip(colour + rng.normal(0, 15, 3), 0, 255)
    scale = float(rng.uniform(0.7, 1.3))
    thick = int(rng.integers(2, 4))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    ys, xs = np.nonzero(tile[..., 3] > 200)  # the body, inside its rounded edge
    m = int(w * rng.uniform(0.04, 0.08))
    x0, y0, x1, y1 = xs.min() + m, ys.min() + m, xs.max() - m, ys.max() - m
    x = int(x0 if rng.random() < 0.5 else x1 - tw)
    y = int(y0 + th if rng.random() < 0.8 else y1)
    cv2.putText(out, text, (x, y), int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX,
                                                   cv2.FONT_HERSHEY_DUPLEX,
                                                   cv2.FONT_HERSHEY_TRIPLEX])),
                scale, (*colour.tolist(), 255), thick, cv2.LINE_AA)
    out[..., 3] = tile[..., 3]  # ink stays on the tile
    return out


def slot_background(rng: np.random.Generator, size: tuple[int, int], *,
                    paper: float = 0.85) -> np.ndarray:
    """Mat paper (with probability ``paper``, else cloth or wood), usually with the slot outline.

    An empty slot is always paper: the mat is under it. Other colours stand in
    for the table around a tile in a tight photograph.
    """
    w, h = size
    if rng.random() < paper:
        colour = np.clip(rng.normal(235, 12) + rng.normal(0, 6, 3), 120, 255)
    else:
        colour = rng.uniform(30, 220, 3)
    bg = np.empty((h, w, 3), np.float32)
    bg[:] = colour
    if rng.random() < 0.7:
        m = rng.integers(-2, 4, 4)
        grey = float(rng.uniform(90, 190))
        cv2.rectangle(bg, (int(m[0]), int(m[1])), (w - 1 - int(m[2]), h - 1 - int(m[3])),
                      (grey, grey, grey), int(rng.integers(1, 3)))
    return bg


_FINGER = 0.15  # the chance a finger reaches into a crop from an edge


def camera_effects(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a cheap camera and a home lamp do to a picture: light, glare, blur, noise, JPEG.

    ``image`` is BGR float32 0..255; a finger reaches in from an edge with
    probability _FINGER. Returns BGR uint8.
    """
    h, w = image.shape[:2]
    out = image.astype(np.float32, copy=True)
    if rng.random() < _FINGER:
        skin = np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 240)])
        edge = int(rng.integers(4))
        centre = [(rng.uniform(0, w), -h * 0.1), (w * 1.1, rng.uniform(0, h)),
                  (rng.uniform(0, w), h * 1.1), (-w * 0.1, rng.uniform(0, h))][edge]
        axes = (int(w * rng.uniform(0.12, 0.22)), int(h * rng.uniform(0.18, 0.32)))
        cv2.ellipse(out, (int(centre[0]), int(centre[1])), axes, float(rng.uniform(0, 180)),
                    0, 360, skin.tolist(), -1, cv2.LINE_AA)
    gain = rng.uniform(0.55, 1.3) * rng.uniform(0.85, 1.15, 3)
    ramp = np.linspace(rng.uniform(0.75, 1.1), rng.uniform(0.75, 1.1), w, dtype=np.float32)
    if rng.random() < 0.5:
        ramp = np.linspace(rng.uniform(0.75, 1.1), rng.uniform(0.75, 1.1), h, dtype=np.float32)
        out *= ramp[:, None, None]
    else:
        out *= ramp[None, :, None]
    out *= gain.astype(np.float32)
    if rng.random() < 0.15:  # a glare spot from a lamp
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.08, 0.25) * w
        out += (rng.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))[
            ..., None
        ]
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), sigma), np.float32)
    out += rng.normal(0, rng.uniform(0, 7), out.shape).astype(np.float32)
    result: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = int(rng.integers(25, 95))
        ok, jpeg = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = decoded
    return result


def paste(background: np.ndarray, tile: np.ndarray, rng: np.random.Generator, *,
          fill: tuple[float, float] = (0.62, 1.02)) -> np.ndarray:
    """Put BGRA (or opaque BGR) ``tile`` on ``background`` at a random place, turn and tilt.

    ``fill`` bounds the tile's width as a fraction of the background's; above 1
    the tile's edges are cut off, as in a tight photo.
    """
    h, w = background.shape[:2]
    th, tw = tile.shape[:2]
    if tile.shape[2] == 3:
        tile = np.dstack([tile, np.full((th, tw), 255, np.uint8)])
    u = rng.uniform(*fill)
    scale = min(u * w / tw, u * h / th * 1.02)
    angle = rng.normal(0, 4) + (180.0 if rng.random() < 0.5 else 0.0)
    cx = w / 2 + rng.uniform(-1, 1) * max(w - tw * scale, 2) / 2
    cy = h / 2 + rng.uniform(-1, 1) * max(h - th * scale, 2) / 2
    matrix = cv2.getRotationMatrix2D((tw / 2, th / 2), angle, scale)
    matrix[:, 2] += (cx - tw / 2, cy - th / 2)
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    moved = corners @ matrix[:, :2].T + matrix[:, 2]
    moved += rng.normal(0, 0.025 * w, moved.shape)  # a little leftover perspective
    homography = cv2.getPerspectiveTransform(corners, moved.astype(np.float32))
    warped = cv2.warpPerspective(tile, homography, (w, h), flags=cv2.INTER_AREA)
    a = warped[..., 3:4].astype(np.float32) / 255
    shade = cv2.GaussianBlur(a, (0, 0), 2.0).reshape(h, w, 1)
    shade = np.roll(shade, (2, 1), axis=(0, 1)) * rng.uniform(0.1, 0.45)
    out: np.ndarray = warped[..., :3].astype(np.float32) * a + background * (1 - shade) * (1 - a)
    return out


def turn_crop(image: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``image`` turned clockwise by quarter turns, as a tile turned on its slot looks.

    A portrait crop turned sideways is padded top and bottom (edge pixels
    repeated) back to a slot's 3:4, as a tile lying across a slot fills its
    width and leaves mat above and below.
    """
    turned = np.ascontiguousarray(np.rot90(image, -quarter_turns))
    h, w = turned.shape[:2]
    if h >= w * SLOT_ASPECT * 0.9:
        return turned
    pad = round((w * SLOT_ASPECT - h) / 2)
    out: np.ndarray = cv2.copyMakeBorder(turned, pad, pad, 0, 0, cv2.BORDER_REPLICATE)
    return out


def render_crop(label: str, rng: np.random.Generator, *, size: tuple[int, int] = (72, 96),
                fonts: Sequence[Path] = ()) -> np.ndarray:
    """A synthetic rectified slot crop (BGR uint8, ``size`` = (w, h)) showing ``label``.

    This is what the classifier sees on the mat, with every nuisance the
    camera adds; it is the synthetic half of the training data.
    """
    background = slot_background(rng, size, paper=1.0 if label == EMPTY else 0.85)
    if label == EMPTY:
        canvas = background
    else:
        canvas = paste(background, render_tile(label, rng, vary=True, fonts=fonts), rng)
    return camera_effects(canvas, rng)
