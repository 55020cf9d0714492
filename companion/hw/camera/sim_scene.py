"""The simulated camera: synthetic photos of the printed mat with tiles on it.

``draw_mat`` draws the printable mat (markers, slot outlines, labels): what
``scripts/make_mat.py`` prints and the slots' first empty look
(:mod:`companion.hw.camera.occupancy`). ``render_scene`` lays tiles
(:func:`companion.hw.camera.tile_faces.render_tile`) on it and photographs it with a
random camera: perspective, light, blur, noise. The simulated camera source
(:class:`companion.hw.camera.capture.RenderedSource`) and the tests show the reader these frames.
Everything is driven by a ``numpy.random.Generator`` so a seed repeats it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera.mat import MatGeometry
from companion.hw.camera.tile_faces import render_tile
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import EMPTY

TILE_MM = (27.0, 36.0)  # a riichi tile face, width x height


def draw_mat(geometry: MatGeometry, px_per_mm: float) -> np.ndarray:
    """The printable mat as a white BGR image: markers, slot outlines and English labels."""
    g = geometry
    width, height = round(g.width_mm * px_per_mm), round(g.height_mm * px_per_mm)
    mat = np.full((height, width, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, g.aruco_dictionary))
    for m in g.markers:
        size = round(m.size_mm * px_per_mm)
        marker = cv2.aruco.generateImageMarker(dictionary, m.id, size)
        x, y = round(m.x_mm * px_per_mm), round(m.y_mm * px_per_mm)
        mat[y : y + size, x : x + size] = marker[..., None]
    line = max(1, round(0.6 * px_per_mm))
    font_scale = 0.09 * px_per_mm
    boxes = [(s.rect, s.label_en) for s in g.slots] + [(g.dice, g.dice_label_en)]
    for rect, text in boxes:
        p0 = (round(rect.x_mm * px_per_mm), round(rect.y_mm * px_per_mm))
        p1 = (round((rect.x_mm + rect.width_mm) * px_per_mm),
              round((rect.y_mm + rect.height_mm) * px_per_mm))
        cv2.rectangle(mat, p0, p1, (150, 150, 150), line, cv2.LINE_AA)
        cv2.putText(mat, text, (p0[0], p1[1] + round(5 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    font_scale, (110, 110, 110), line, cv2.LINE_AA)
    return mat


@dataclass(frozen=True, slots=True)
class Camera:
    """How a synthetic photo of the mat is taken."""

    size: tuple[int, int] = (1280, 720)
    mat_fraction: float = 0.75  # how much of the frame width the mat spans
    tilt: float = 0.06  # random perspective, as a fraction of the mat size
    nudge_px: float = 25.0  # random shift of the mat in the frame
    blur: float = 0.6  # Gaussian sigma, pixels
    noise: float = 3.0  # sensor noise, grey levels
    brightness: float = 1.0
    lamp: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the light's colour: B, G, R gains


def place_tile(mat: np.ndarray, tile: np.ndarray, rect_px: tuple[float, float, float, float],
               tile_px: tuple[float, float], rng: np.random.Generator, *,
               upside_down: bool, jitter: float) -> None:
    """Paste BGRA ``tile`` into the BGR ``mat`` centred in ``rect_px`` (x, y, w, h)."""
    x, y, w, h = rect_px
    tw, th = tile_px
    cx = x + w / 2 + rng.uniform(-jitter, jitter) * (w - tw) / 2
    cy = y + h / 2 + rng.uniform(-jitter, jitter) * (h - th) / 2
    angle = rng.uniform(-8, 8) * jitter + (180.0 if upside_down else 0.0)
    src_h, src_w = tile.shape[:2]
    matrix = cv2.getRotationMatrix2D((src_w / 2, src_h / 2), angle, tw / src_w)
    matrix[:, 2] += (cx - src_w / 2, cy - src_h / 2)
    warped = cv2.warpAffine(tile, matrix, (mat.shape[1], mat.shape[0]), flags=cv2.INTER_AREA)
    a = warped[..., 3:4].astype(np.float32) / 255
    # a soft shadow under the tile, as under a real lamp
    shadow = cv2.GaussianBlur(a, (0, 0), max(tw * 0.06, 1.0))[..., None] * 0.35
    shadow = np.roll(shadow, (int(tw * 0.05), int(tw * 0.04)), axis=(0, 1))
    out = mat.astype(np.float32) * (1 - shadow)
    out = warped[..., :3].astype(np.float32) * a + out * (1 - a)
    mat[:] = np.clip(out, 0, 255).astype(np.uint8)


def draw_mat_with_tiles(geometry: MatGeometry, px_per_mm: float, tiles: Mapping[Slot, str],
                        rng: np.random.Generator, *, vary: bool = True,
                        fonts: Sequence[Path] = ()) -> np.ndarray:
    """The printable mat (``draw_mat``) with ``tiles`` (slot -> label) laid on their slots."""
    mat = draw_mat(geometry, px_per_mm)
    tile_px = (TILE_MM[0] * px_per_mm, TILE_MM[1] * px_per_mm)
    for spec in geometry.slots:
        label = tiles.get(spec.slot, EMPTY)
        if label == EMPTY:
            continue
        r = spec.rect
        place_tile(mat, render_tile(label, rng, vary=vary, fonts=fonts),
                   (r.x_mm * px_per_mm, r.y_mm * px_per_mm, r.width_mm * px_per_mm,
                    r.height_mm * px_per_mm),
                   tile_px, rng, upside_down=vary and rng.random() < 0.3,
                   jitter=1.0 if vary else 0.0)
    return mat


def render_scene(tiles: Mapping[Slot, str], rng: np.random.Generator | None = None, *,
                 geometry: MatGeometry | None = None, camera: Camera | None = None,
                 vary: bool = True, fonts: Sequence[Path] = (),
                 hide_markers: Sequence[int] = ()) -> np.ndarray:
    """A BGR camera frame of the mat with ``tiles`` (slot -> READER_LABELS label) on it.

    ``hide_markers`` covers those corner markers, as a hand would.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    g = geometry if geometry is not None else MatGeometry.load()
    cam = camera if camera is not None else Camera()
    ppm = 4.0
    mat = draw_mat_with_tiles(g, ppm, tiles, rng, vary=vary, fonts=fonts)
    for marker in g.markers:
        if marker.id in hide_markers:
            x, y, s = (round(v * ppm) for v in (marker.x_mm, marker.y_mm, marker.size_mm))
            cv2.rectangle(mat, (x - 4, y - 4), (x + s + 4, y + s + 4), (90, 120, 170), -1)
    fw, fh = cam.size
    mh, mw = mat.shape[:2]
    scale = cam.mat_fraction * fw / mw
    cx, cy = fw / 2 + rng.normal(0, cam.nudge_px), fh / 2 + rng.normal(0, cam.nudge_px)
    corners = np.array([[0, 0], [mw, 0], [mw, mh], [0, mh]], np.float32)
    dst = (corners - [mw / 2, mh / 2]) * scale + [cx, cy]
    dst += rng.normal(0, cam.tilt * mw * scale / 4, dst.shape)
    homography = cv2.getPerspectiveTransform(corners, dst.astype(np.float32))
    table = np.empty((fh, fw, 3), np.uint8)
    table[:] = np.clip(rng.normal((60, 90, 120), 25), 0, 255).astype(np.uint8)
    frame = cv2.warpPerspective(mat, homography, (fw, fh), dst=table,
                                borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA)
    gx = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.15), fw, dtype=np.float32)
    light = cam.brightness * gx[None, :, None] * np.array(cam.lamp, np.float32)
    photo: np.ndarray = frame.astype(np.float32) * light
    if cam.blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), cam.blur)
    if cam.noise > 0:
        photo += rng.normal(0, cam.noise, photo.shape).astype(np.float32)
    result: np.ndarray = np.clip(photo, 0, 255).astype(np.uint8)
    return result
