"""A renderer of dice scenes: the camera dice reader's test and benchmark photos.

Ordinary six-sided pip dice (white, ivory or coloured; rounded edges; Lambert
shading with a soft cast shadow) are placed on a table (wood grain, felt,
gingham, tartan, polka dots, a printed mat) and photographed by a pinhole
camera looking down at an angle, so faces are seen in perspective. A scene can
hold several dice, dice touching face to face, a die tilted against another,
or a blurred throw (dice moving while the shutter is open). Every scene carries
its ground truth, so the reader can be scored on images it has never seen.
For training, a scene's dice can be painted any colours instead (Paints.ANY:
marbled, clear and glossy bodies, an emblem on the 1, square pips) and its
camera can look down more steeply (``max_tilt``), as real dice and webcams show.

The world is in millimetres with the table at z = 0 and z pointing up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

import cv2
import numpy as np

Image = np.ndarray
FloatArray = np.ndarray

# A real die: opposite faces add up to 7. Value -> outward normal in the die's own frame.
FACE_NORMALS: dict[int, tuple[int, int, int]] = {
    1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0),
}

# Pip centres on a face of side 1 centred on 0, in units of the pip spread.
PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

class Emblem(Enum):
    """A maker's mark some dice bear on the 1 face instead of its pip."""

    DISC = "disc"
    RING = "ring"
    STAR = "star"


@dataclass(frozen=True, slots=True)
class Paint:
    """How a die looks: body and pip colours (BGR albedo, 0..255) and what sets it apart."""

    body: tuple[float, float, float]
    pips: tuple[float, float, float]
    veins: tuple[float, float, float] | None = None  # marbled: a second colour swirls through
    clear: float = 0.0  # translucent: the share of the table and light the body lets through
    emblem: Emblem | None = None  # drawn on the 1 face instead of its pip, in emblem_colour
    emblem_colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    emblem_side: float = 0.0  # the emblem's radius, in face sides
    square_pips: bool = False
    grain: int = 0  # seeds the marbling and glare, so a die looks alike from one render to the next
    gloss: float = 0.0  # the chance a face shows a lamp's or window's reflection, pip-like glare


# The renderer's dice by name: plain bodies and pips (BGR albedo, 0..255).
CATALOGUE: dict[str, Paint] = {
    "white": Paint((236, 236, 234), (28, 28, 30)),
    "ivory": Paint((196, 226, 240), (30, 30, 40)),
    "red": Paint((40, 36, 196), (238, 238, 238)),
    "blue": Paint((178, 84, 28), (238, 238, 238)),
    "green": Paint((66, 150, 38), (238, 238, 238)),
    "yellow": Paint((36, 206, 232), (28, 28, 30)),
    "orange": Paint((28, 118, 236), (28, 28, 30)),
    "purple": Paint((136, 44, 104), (238, 238, 238)),
    "black": Paint((40, 38, 38), (232, 232, 232)),
}


class Paints(Enum):
    """Which dice a scene shows."""

    CATALOGUE = "catalogue"  # CATALOGUE: the benchmark's and the tests' scenes
    ANY = "any"  # any body and pip colours, marbled, clear, glare, emblems, square pips


class Table(Enum):
    """The surface the dice lie on."""

    WOOD = "wood"
    FELT = "felt"
    GINGHAM = "gingham"
    TARTAN = "tartan"
    POLKA = "polka"
    MAT = "mat"
    COMPANION_MAT = "companion mat"  # our printed A4 mat: markers, slot outlines, tiles


MAX_TILT = 25.0  # degrees from straight down the camera may look, unless asked for more
SIZE = (1280, 720)  # a rendered picture's width and height

# Tables a scene's seed picks from. The companion's own mat is asked for by name, so the
# benchmark's seeds keep the scenes they were first scored on.
SEEDED_TABLES = (Table.WOOD, Table.FELT, Table.GINGHAM, Table.TARTAN, Table.POLKA, Table.MAT)


class SceneKind(Enum):
    """What a scene tests; the bench reports each kind on its own line."""

    LOOSE = "loose"  # dice lying apart
    TOUCHING = "touching"  # at least one pair of dice face to face
    TILTED = "tilted"  # one die leans against another (its face is not level)
    BLURRED = "blurred"  # the dice are still moving: the reader must say unsure
    EMPTY = "empty"  # no dice at all: the reader must report nothing


@dataclass(frozen=True, slots=True)
class OpenFace:
    """A face of a die other than its top that the camera sees, and how squarely."""

    centre: tuple[float, float]
    facing: float  # cosine of the angle between the face's normal and the line of sight


@dataclass(frozen=True, slots=True)
class TrueDie:
    """Ground truth for one die: its up face and where its top face is in the image."""

    value: int
    centre: tuple[float, float]
    side_px: float
    colour: str
    tilted: bool
    facing: float = 1.0  # the top face's OpenFace.facing
    open_faces: tuple[OpenFace, ...] = ()


@dataclass(frozen=True, slots=True)
class Scene:
    """A rendered photo with the dice it shows."""

    image: Image
    dice: tuple[TrueDie, ...]
    kind: SceneKind
    table: Table


@dataclass(frozen=True, slots=True)
class _Camera:
    rotation: FloatArray  # rows: camera x (right), y (down), z (forward) in world axes
    centre: FloatArray
    focal: float
    principal: tuple[float, float]

    def project(self, points: FloatArray) -> FloatArray:
        cam = (points - self.centre) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-6)
        return np.stack(
            [self.focal * cam[:, 0] / z + self.principal[0],
             self.focal * cam[:, 1] / z + self.principal[1]], axis=1)

    def table_homography(self) -> FloatArray:
        """Table-plane (x, y, 1) in mm to image pixels."""
        k = np.array([[self.focal, 0, self.principal[0]], [0, self.focal, self.principal[1]],
                      [0, 0, 1]])
        t = -self.rotation @ self.centre
        out: FloatArray = k @ np.column_stack([self.rotation[:, 0], self.rotation[:, 1], t])
        return out


@dataclass(frozen=True, slots=True)
class _Die:
    value: int
    rotation: FloatArray  # die frame -> world
    centre: FloatArray
    side: float
    colour: str
    tilted: bool
    paint: Paint


@dataclass(frozen=True, slots=True)
class _Light:
    direction: FloatArray  # unit vector towards the light
    ambient: float
    diffuse: float


def _rot_x(a: float) -> FloatArray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_y(a: float) -> FloatArray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _rot_z(a: float) -> FloatArray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


# Rotation that brings each value's face to the top (+z).
_UP: dict[int, FloatArray] = {
    1: np.eye(3), 6: _rot_x(np.pi), 2: _rot_y(-np.pi / 2), 5: _rot_y(np.pi / 2),
    3: _rot_x(np.pi / 2), 4: _rot_x(-np.pi / 2),
}


def _make_camera(rng: np.random.Generator, size: tuple[int, int], side_px: float,
                 die_mm: float, max_tilt: float) -> _Camera:
    width, height = size
    dist = rng.uniform(280, 520)
    focal = side_px * dist / die_mm
    tilt = np.radians(rng.uniform(0, max_tilt))
    roll = rng.uniform(0, 2 * np.pi)
    down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    rotation = _rot_x(tilt).T @ down  # pitch about the camera's own x axis
    rotation = _rot_z(roll).T @ rotation
    forward = rotation[2]
    centre = -forward * dist  # look at the table origin
    principal = (width / 2 + rng.uniform(-20, 20), height / 2 + rng.uniform(-20, 20))
    return _Camera(rotation, centre, float(focal), principal)


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: int) -> FloatArray:
    small = rng.standard_normal((shape[0] // cell + 2, shape[1] // cell + 2))
    big = cv2.resize(small, (shape[1] + 2 * cell, shape[0] + 2 * cell),
                     interpolation=cv2.INTER_CUBIC)
    out: FloatArray = big[cell:cell + shape[0], cell:cell + shape[1]]
    return out


def _random_colour(rng: np.random.Generator, lo: int, hi: int) -> FloatArray:
    return rng.uniform(lo, hi, 3)


def _hsv(hue: float, saturation: float, value: float) -> tuple[float, float, float]:
    """BGR 0..255 of a hue in degrees, saturation and value 0..1."""
    pixel = np.array([[[hue / 2, saturation * 255, value * 255]]], dtype=np.float32)
    b, g, r = cv2.cvtColor(pixel.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return float(b), float(g), float(r)


def _luma(colour: tuple[float, float, float]) -> float:
    return 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]


def _any_paint(rng: np.random.Generator) -> Paint:
    """A die of any colours: the real dice the catalogue lacks (issue 23: marbled green
    dice with yellow pips, black dice with red pips, clear dice, an emblem on the 1)."""
    grey = rng.random() < 0.3
    body = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.2) if grey else rng.uniform(0.3, 1),
                rng.uniform(0.08, 1))
    while True:
        pips = [_hsv(0, 0, rng.uniform(0.0, 0.2)), _hsv(0, rng.uniform(0, 0.1),
                                                          rng.uniform(0.85, 1)),
                _hsv(rng.uniform(35, 60), rng.uniform(0.6, 1), rng.uniform(0.8, 1)),
                _hsv(rng.uniform(-10, 10) % 360, rng.uniform(0.7, 1), rng.uniform(0.6, 1)),
                _hsv(rng.uniform(0, 360), rng.uniform(0.3, 1), rng.uniform(0.2, 1))
                ][int(rng.integers(5))]
        # Pips a player can read stand out by lightness, or by hue and some lightness
        # (red pips on a black die).
        lightness = abs(_luma(pips) - _luma(body))
        if lightness >= 45 or (lightness >= 15
                               and float(np.linalg.norm(np.subtract(pips, body))) >= 120):
            break
    veins = None
    if rng.random() < 0.35:
        veins = _hsv(rng.uniform(0, 360), rng.uniform(0, 1), rng.uniform(0.1, 1))
    emblem = [None, None, None, None, Emblem.DISC, Emblem.RING, Emblem.STAR][int(rng.integers(7))]
    emblem_colour = _hsv(rng.uniform(0, 360), rng.uniform(0.5, 1), rng.uniform(0.5, 1))
    clear = rng.uniform(0.25, 0.7) if rng.random() < 0.25 else 0.0
    paint = Paint(body, pips, veins, clear, emblem,
                  emblem_colour if rng.random() < 0.6 else pips, rng.uniform(0.17, 0.3),
                  bool(rng.random() < 0.15), int(rng.integers(1 << 30)))
    # Clear dice are glossy: a real one's glare took its 1 for a 3 (issue 23).
    glossy = clear > 0 or rng.random() < 0.35
    return replace(paint, gloss=rng.uniform(0.3, 0.9) if glossy else 0.0)


def _table_texture(rng: np.random.Generator, table: Table, shape: tuple[int, int],
                   mm_per_px: float) -> FloatArray:
    """A table surface in table coordinates (BGR float 0..255)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64) * mm_per_px
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    fine = _smooth_noise(rng, shape, 2)
    if table is Table.WOOD:
        base = np.array([rng.uniform(30, 80), rng.uniform(60, 115), rng.uniform(95, 170)])
        warp = _smooth_noise(rng, shape, 40) * rng.uniform(3, 8)
        plank = rng.uniform(70, 140)
        grain = np.sin(2 * np.pi * (v + warp + 7 * np.floor(u / 400)) / rng.uniform(2.5, 6))
        seams = (np.abs(((v + plank / 2) % plank) - plank / 2) < 0.6).astype(np.float64)
        light = 1 + 0.12 * grain + 0.06 * _smooth_noise(rng, shape, 12) - 0.45 * seams
        tex = base[None, None, :] * light[..., None]
    elif table is Table.FELT:
        base = _random_colour(rng, 20, 150)
        tex = base[None, None, :] * (1 + 0.05 * fine[..., None])
    elif table is Table.GINGHAM:
        a, b = _random_colour(rng, 20, 200), _random_colour(rng, 20, 200)
        period = rng.uniform(6, 20)
        su = ((u // period) % 2).astype(np.float64)
        sv = ((v // period) % 2).astype(np.float64)
        mix = (su + sv) / 2
        tex = a[None, None, :] * (1 - mix[..., None]) + b[None, None, :] * mix[..., None]
    elif table is Table.TARTAN:
        tex = np.zeros((h, w, 3)) + _random_colour(rng, 20, 120)
        for _ in range(4):
            colour = _random_colour(rng, 20, 200)
            period, width, phase = rng.uniform(20, 60), rng.uniform(1, 8), rng.uniform(0, 60)
            for coord in (u, v):
                band = ((coord + phase) % period) < width
                tex[band] = 0.5 * tex[band] + 0.5 * colour
    elif table is Table.POLKA:
        back, dot = _random_colour(rng, 20, 160), _random_colour(rng, 20, 255)
        period, radius = rng.uniform(6, 20), rng.uniform(1.2, 3.5)
        du = (u % period) - period / 2
        dv = ((v + (u // period) % 2 * period / 2) % period) - period / 2
        inside = np.clip(radius - np.hypot(du, dv), 0, 1)
        tex = back[None, None, :] * (1 - inside[..., None]) + dot[None, None, :] * inside[..., None]
    elif table is Table.COMPANION_MAT:
        tex = _companion_mat(rng, shape, mm_per_px)
    else:  # a printed mat: mid grey with ruled lines and a few printed marks
        grey = rng.uniform(70, 150)
        tex = np.full((h, w, 3), grey) * rng.uniform(0.9, 1.1, 3)
        lines = (np.abs((u % 40) - 20) < 0.4) | (np.abs((v % 40) - 20) < 0.4)
        tex[lines] *= 0.6
        for _ in range(12):
            centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.circle(tex, centre, int(rng.uniform(2, 10) / mm_per_px),
                       (grey * 0.5,) * 3, -1)
    return np.asarray(tex * (1 + 0.03 * fine[..., None]), dtype=np.float64)


def _companion_mat(rng: np.random.Generator, shape: tuple[int, int],
                   mm_per_px: float) -> FloatArray:
    """The companion's printed mat with tiles on some slots, lying somewhere on a plain table."""
    from companion.hw.camera.mat import MatGeometry  # the tile camera's mat and tile art
    from companion.hw.camera.sim_scene import draw_mat_with_tiles
    from companion.systems.jongrogue.tiles import EMPTY, READER_LABELS

    geometry = MatGeometry.load()
    faces = [label for label in READER_LABELS if label != EMPTY]
    tiles = {spec.slot: faces[int(rng.integers(len(faces)))]
             for spec in geometry.slots if rng.random() < 0.6}
    # Upside down: the camera's homography turns the texture's rows over, and the mat was
    # seen mirrored, so its markers never found and its tiles mirror images (dicecam71
    # RISK 9: the mat's dice area was never read in these renders).
    mat = draw_mat_with_tiles(geometry, 1 / mm_per_px, tiles, rng)[::-1]
    tex: FloatArray = np.zeros((*shape, 3)) + _random_colour(rng, 30, 160)
    # The dice fall near the middle of the texture: put it anywhere from the mat's dice
    # area to its markers and tiles.
    mh, mw = mat.shape[:2]
    x0 = int(rng.uniform(shape[1] / 2 - mw, shape[1] / 2))
    y0 = int(rng.uniform(shape[0] / 2 - mh, shape[0] / 2))
    xs, ys = slice(max(x0, 0), min(x0 + mw, shape[1])), slice(max(y0, 0), min(y0 + mh, shape[0]))
    tex[ys, xs] = mat[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0]
    return tex


def _face_texture(value: int, size: int, paint: Paint, normal: FloatArray,
                  u_dir: FloatArray, v_dir: FloatArray, light: _Light, bevel: float,
                  spread: float, pip_radius: float,
                  hidden: bool = False) -> tuple[FloatArray, FloatArray]:
    """One face of a rounded die, lit, as (BGR 0..255, alpha 0..1).

    ``hidden``: a face turned from the camera, seen through a clear body: only its pips,
    dim and soft (the ghost pips that make a real clear die hard to read, issue 23).
    """
    coords = (np.arange(size) + 0.5) / size - 0.5
    x, y = np.meshgrid(coords, coords)
    inner = 0.5 - bevel
    # Across the rounded edge the surface normal turns towards the neighbouring face.
    au = np.clip((np.abs(x) - inner) / bevel, 0, 1) * np.sign(x) * (np.pi / 4)
    av = np.clip((np.abs(y) - inner) / bevel, 0, 1) * np.sign(y) * (np.pi / 4)
    nrm = (normal[None, None, :] + np.tan(au)[..., None] * u_dir[None, None, :]
           + np.tan(av)[..., None] * v_dir[None, None, :])
    nrm /= np.linalg.norm(nrm, axis=2, keepdims=True)
    shade = light.ambient + light.diffuse * np.clip(nrm @ light.direction, 0, None)
    # A clear body glows with the light it lets through, so it is shaded less.
    shade = shade * (1 - paint.clear) + paint.clear * (light.ambient + light.diffuse)
    body = np.broadcast_to(np.array(paint.body), (size, size, 3))
    if paint.veins is not None:
        swirl = _smooth_noise(np.random.default_rng(paint.grain + value), (size, size),
                              max(2, size // 4))
        # Clouds of the second colour, and streaks along their edges.
        vein = np.maximum(np.clip(0.5 + 0.6 * swirl, 0, 1) * 0.8,
                          np.clip(1 - 3 * np.abs(swirl), 0, 1) * 0.5)[..., None]
        body = body * (1 - vein) + np.array(paint.veins) * vein
    colour = body * shade[..., None]
    # Pips are shallow dips: their own colour, a little darker on the lit side.
    marks: list[tuple[FloatArray, FloatArray | float, tuple[float, float, float]]] = []
    if value == 1 and paint.emblem is not None:
        d, angle, r = np.hypot(x, y), np.arctan2(y, x), paint.emblem_side
        if paint.emblem is Emblem.RING:
            inside = np.clip((r - d) * size, 0, 1) * np.clip((d - 0.6 * r) * size, 0, 1)
        elif paint.emblem is Emblem.STAR:
            inside = np.clip((r * (0.55 + 0.45 * np.abs(np.cos(2.5 * angle))) - d) * size, 0, 1)
        else:
            inside = np.clip((r - d) * size, 0, 1)
        marks.append((inside, 1.0, paint.emblem_colour))
    else:
        for pu, pv in PIP_LAYOUTS[value]:
            dx, dy = np.abs(x - pu * spread), np.abs(y - pv * spread)
            d = np.maximum(dx, dy) * 1.15 if paint.square_pips else np.hypot(dx, dy)
            marks.append((np.clip((pip_radius - d) * size, 0, 1),
                          0.85 + 0.15 * np.clip(1 - d / pip_radius, 0, 1), paint.pips))
    opaque = np.zeros((size, size))
    for inside, dip, ink in marks:
        colour = (colour * (1 - inside[..., None])
                  + (np.array(ink) * (shade * dip)[..., None]) * inside[..., None])
        opaque = np.maximum(opaque, inside)
    if hidden:
        # Seen through the body: its tint over the pips, softened by the depth of the die.
        ghost = cv2.GaussianBlur(opaque, (0, 0), max(0.5, 0.025 * size))
        tinted = 0.7 * colour + 0.3 * np.array(paint.body) * (light.ambient + light.diffuse)
        return tinted, ghost
    if paint.gloss:
        colour = _glare(colour, np.random.default_rng([paint.grain, value]), paint.gloss)
    # Outline: a square with corners rounded like the edges, anti-aliased.
    qx, qy = np.abs(x) - inner, np.abs(y) - inner
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)
    alpha = np.clip((bevel - outside) * size + 0.5, 0, 1)
    # The table shows through a clear body, not through its painted pips.
    alpha = alpha * (1 - 0.6 * paint.clear * (1 - opaque))
    return colour, alpha


def _glare(colour: FloatArray, rng: np.random.Generator, gloss: float) -> FloatArray:
    """``colour`` (one face) with a light's reflection on it, ``gloss`` of the time: a bright
    triangle, bar or spot, as big as a pip or much bigger."""
    if rng.random() >= gloss:
        return colour
    size = colour.shape[0]
    mask = np.zeros((size, size), np.float32)
    centre = rng.uniform(0.2, 0.8, 2) * size
    reach = rng.uniform(0.06, 0.25) * size
    corners = int(rng.choice([3, 4, 12]))  # a triangle, a bar, a round spot
    angles = np.sort(rng.uniform(0, 2 * np.pi, corners)) if corners < 12 else \
        np.linspace(0, 2 * np.pi, corners, endpoint=False)
    stretch = np.array([1.0, rng.uniform(0.2, 1.0)]) if corners == 4 else np.ones(2)
    turn = rng.uniform(0, np.pi)
    points = np.stack([np.cos(angles) * stretch[0], np.sin(angles) * stretch[1]], axis=1)
    points = points @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    cv2.fillConvexPoly(mask, (centre + reach * points).astype(np.int32), 1.0,
                       lineType=cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, 0.01 * size)) * rng.uniform(0.5, 0.95)
    out: FloatArray = colour * (1 - mask[..., None]) + 250.0 * mask[..., None]
    return out


def _warp_perspective(src: Image, matrix: FloatArray, size: tuple[int, int],
                      reflect: bool = False) -> Image:
    """``src`` (float32, H x W x C) seen through the homography ``matrix`` (source pixels to
    destination pixels) in a ``size`` (width, height) picture: cv2.warpPerspective with
    INTER_LINEAR, and BORDER_REFLECT when ``reflect`` (else BORDER_CONSTANT 0), computed
    here so every OpenCV and numpy gives the same picture.

    OpenCV 4.x (4.11, what a Raspberry Pi installs with numpy<2) interpolates at source
    positions rounded to 1/32 pixel (INTER_BITS fixed point); 5.x at the exact positions
    (on x86 through Intel IPP). The renders differed by up to 3 levels
    where a face's texture has an edge, which moved the reader's marks: seed 4,200,028's
    leaning 5 was marked by its side on 5.1 and not on 4.11, and a test of the reader's
    rules on that scene failed on 4.11 (tests/hw/test_dice_versions.py). Here every step
    is float64 arithmetic numpy does alike in every version (no matrix products, whose
    BLAS kernels may differ); it is within 0.002 of OpenCV 5.1's picture.
    """
    width, height = size
    # The inverse homography (up to scale, which the division by w removes): the adjugate,
    # in Python floats.
    (a, b, c), (d, e, f), (g, h, i) = (tuple(float(v) for v in row)
                                       for row in np.asarray(matrix, dtype=np.float64))
    inverse = ((e * i - f * h, c * h - b * i, b * f - c * e),
               (f * g - d * i, a * i - c * g, c * d - a * f),
               (d * h - e * g, b * g - a * h, a * e - b * d))
    xs = np.arange(width, dtype=np.float64)[None, :]
    ys = np.arange(height, dtype=np.float64)[:, None]
    (m00, m01, m02), (m10, m11, m12), (m20, m21, m22) = inverse
    with np.errstate(divide="ignore", invalid="ignore"):
        w = m20 * xs + (m21 * ys + m22)
        sx = (m00 * xs + (m01 * ys + m02)) / w
        sy = (m10 * xs + (m11 * ys + m12)) / w
    # A point at infinity (w 0) is outside the source; far points stay far.
    sx = np.clip(np.nan_to_num(sx, nan=-2.0), -1e6, 1e6)
    sy = np.clip(np.nan_to_num(sy, nan=-2.0), -1e6, 1e6)
    fx, fy = np.floor(sx), np.floor(sy)
    ax, ay = (sx - fx).reshape(-1, 1), (sy - fy).reshape(-1, 1)
    ix, iy = fx.astype(np.int64).ravel(), fy.astype(np.int64).ravel()
    rows, cols = src.shape[:2]
    channels = 1 if src.ndim == 2 else src.shape[2]
    # The source's pixels one to a row, and a row of zeros for the corners outside it.
    flat = np.concatenate([src.reshape(rows * cols, channels),
                           np.zeros((1, channels), dtype=src.dtype)])

    def reflected(index: np.ndarray, n: int) -> np.ndarray:
        """BORDER_REFLECT (fedcba|abcdefgh|hgfedcb) of ``index`` into 0..n-1."""
        index = np.mod(index, 2 * n)
        out: np.ndarray = np.where(index < n, index, 2 * n - 1 - index)
        return out

    def corner(dy: int, dx: int) -> np.ndarray:
        x, y = ix + dx, iy + dy
        if reflect:
            at = reflected(y, rows) * cols + reflected(x, cols)
        else:
            at = np.where((x >= 0) & (x < cols) & (y >= 0) & (y < rows), y * cols + x,
                          rows * cols)
        pixels: np.ndarray = np.take(flat, at, axis=0).astype(np.float64)
        return pixels

    p00, p10 = corner(0, 0), corner(1, 0)
    top = p00 + ax * (corner(0, 1) - p00)
    bottom = p10 + ax * (corner(1, 1) - p10)
    out: Image = (top + ay * (bottom - top)).astype(np.float32)
    return out.reshape((height, width) if src.ndim == 2 else (height, width, channels))


def _draw_die(canvas: FloatArray, die: _Die, camera: _Camera, light: _Light,
              style: tuple[float, float, float]) -> None:
    """Paint the visible faces of one die, far faces first."""
    bevel, spread, pip_radius = style
    half = die.side / 2
    faces = []
    for value, n in FACE_NORMALS.items():
        n_local = np.array(n, dtype=np.float64)
        normal = die.rotation @ n_local
        centre = die.centre + normal * half
        hidden = bool(normal @ (camera.centre - centre) <= 0)
        if hidden and not die.paint.clear:
            continue
        # Two in-face axes; the second is the normal crossed with the first.
        helper = np.array([1.0, 0, 0]) if abs(n_local[0]) < 0.5 else np.array([0, 1.0, 0])
        u_dir = die.rotation @ np.cross(n_local, helper)
        v_dir = np.cross(normal, u_dir)
        faces.append((float(np.linalg.norm(centre - camera.centre)), value, normal, centre,
                      u_dir, v_dir, hidden))
    # Far faces first: a clear die's hidden faces lie under its body, which lets them show.
    faces.sort(key=lambda f: -f[0])
    height, width = canvas.shape[:2]
    for _, value, normal, centre, u_dir, v_dir, hidden in faces:
        corners = np.array([centre + half * (su * u_dir + sv * v_dir)
                            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        img_pts = camera.project(corners)
        x0, y0 = np.floor(img_pts.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(img_pts.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1 <= x0 or y1 <= y0:
            continue
        span = float(np.linalg.norm(img_pts[0] - img_pts[2]))
        size = int(np.clip(span * 1.5, 24, 256))
        colour, alpha = _face_texture(value, size, die.paint, normal, u_dir, v_dir, light,
                                      bevel, spread, pip_radius, hidden)
        src = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
        dst = (img_pts - np.array([x0, y0])).astype(np.float32)
        warp = cv2.getPerspectiveTransform(src, dst)
        roi = (int(x1 - x0), int(y1 - y0))
        seen = _warp_perspective(np.dstack([colour, alpha]).astype(np.float32), warp, roi)
        col, alp = seen[..., :3], seen[..., 3]
        region = canvas[y0:y1, x0:x1]
        region *= 1 - alp[..., None]
        region += col * alp[..., None]


def _shadow_mask(dice: list[_Die], camera: _Camera, light: _Light,
                 size: tuple[int, int]) -> np.ndarray:
    """Where each die blocks the light on the table, softened, 0..1."""
    width, height = size
    mask = np.zeros((height, width), dtype=np.float32)
    for die in dice:
        cube = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)],
                        dtype=np.float64) * die.side / 2
        verts = die.centre + cube @ die.rotation.T
        on_table = verts - (verts[:, 2:3] / light.direction[2]) * light.direction[None, :]
        on_table[:, 2] = 0
        footprint = verts.copy()
        footprint[:, 2] = 0
        pts = camera.project(np.vstack([on_table, footprint]))
        hull = cv2.convexHull(pts.astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(mask, hull, 1.0, lineType=cv2.LINE_AA)
    side = max(d.side for d in dice) if dice else 1.0
    sigma = max(1.0, 0.12 * side * camera.focal / float(np.linalg.norm(camera.centre)))
    return cv2.GaussianBlur(mask, (0, 0), sigma)


def _place_dice(rng: np.random.Generator, kind: SceneKind, count: int, die_mm: float,
                camera: _Camera, size: tuple[int, int]) -> list[_Die]:
    """Lay out dice the scene kind asks for, inside the picture and not overlapping."""
    width, height = size
    colours = list(CATALOGUE)
    same = rng.random() < 0.5
    first = colours[int(rng.integers(len(colours)))]

    def colour() -> str:
        return first if same else colours[int(rng.integers(len(colours)))]

    def flat(value: int, xy: FloatArray, yaw: float) -> _Die:
        rotation = _rot_z(yaw) @ _UP[value]
        name = colour()
        return _Die(value, rotation, np.array([xy[0], xy[1], die_mm / 2]), die_mm, name,
                    False, CATALOGUE[name])

    def visible(die: _Die) -> bool:
        px = camera.project(die.centre[None, :])[0]
        margin = 1.2 * die.side * camera.focal / float(np.linalg.norm(camera.centre))
        return bool(margin < px[0] < width - margin and margin < px[1] < height - margin)

    def clear(dice: list[_Die], new: list[_Die]) -> bool:
        return all(np.hypot(*(a.centre[:2] - b.centre[:2])) > 1.9 * die_mm
                   for a in dice for b in new)

    dice: list[_Die] = []
    half_w = 0.5 * width * float(np.linalg.norm(camera.centre)) / camera.focal
    half_h = 0.5 * height * float(np.linalg.norm(camera.centre)) / camera.focal
    groups_wanted = {SceneKind.TOUCHING: 1, SceneKind.TILTED: 1}.get(kind, 0)
    tries = 0
    while len(dice) < count and tries < 400:
        tries += 1
        xy = rng.uniform([-half_w, -half_h], [half_w, half_h])
        yaw = rng.uniform(0, 2 * np.pi)
        group: list[_Die]
        if groups_wanted and count - len(dice) >= 2:
            a = flat(int(rng.integers(1, 7)), xy, yaw)
            axis = _rot_z(yaw)
            if kind is SceneKind.TOUCHING:
                offset = axis @ np.array([die_mm + rng.uniform(0, 0.4),
                                          rng.uniform(-0.4, 0.4) * die_mm, 0])
                b = flat(int(rng.integers(1, 7)), xy + offset[:2],
                         yaw + np.radians(rng.uniform(-4, 4)))
            else:
                tilt = np.radians(rng.uniform(12, 35))
                pivot = xy + (axis @ np.array([die_mm / 2 + die_mm * np.sin(tilt),
                                               rng.uniform(-0.3, 0.3) * die_mm, 0]))[:2]
                rotation = axis @ _rot_y(-tilt) @ _rot_z(rng.integers(4) * np.pi / 2)
                value = int(rng.integers(1, 7))
                rotation = rotation @ _UP[value]
                centre = (np.array([pivot[0], pivot[1], 0])
                          + axis @ _rot_y(-tilt) @ np.array([die_mm / 2, 0, die_mm / 2]))
                name = colour()
                b = _Die(value, rotation, centre, die_mm, name, True, CATALOGUE[name])
            group = [a, b]
        else:
            group = [flat(int(rng.integers(1, 7)), xy, yaw)]
        if all(visible(d) for d in group) and clear(dice, group):
            dice.extend(group)
            if len(group) == 2:
                groups_wanted -= 1
    return dice


def _compose(table_img: FloatArray, dice: list[_Die], camera: _Camera,
             light: _Light, style: tuple[float, float, float],
             size: tuple[int, int]) -> FloatArray:
    shadow = _shadow_mask(dice, camera, light, size)  # float32
    # The shade in float32, then the light in float64, with explicit types: numpy 1.x took
    # a float64 scalar (light.direction[2]) times a float32 array for float32, numpy 2 takes
    # it for float64 (NEP 50), and the scenes differed by a level here and there.
    shade = (np.float32(1) - np.float32(0.85) * shadow).astype(np.float64)
    lit = light.ambient + light.diffuse * float(light.direction[2]) * shade
    canvas: FloatArray = table_img * lit[..., None]
    for die in sorted(dice, key=lambda d: -float(np.linalg.norm(d.centre - camera.centre))):
        _draw_die(canvas, die, camera, light, style)
    return canvas


def _table_contrasts(table: FloatArray, bodies: list[tuple[float, float, float]]) -> bool:
    """True when every die's body colour stands apart from the table's common colours."""
    sample = table[::16, ::16].reshape(-1, 3)
    for colour in bodies:
        body = np.array(colour, dtype=np.float64)
        near = np.linalg.norm(sample - body[None, :], axis=1) < 70
        if near.mean() > 0.02:
            return False
    return True


@dataclass(frozen=True, slots=True)
class _Layout:
    """A scene before it is drawn: what the seed chose, and the generator to go on with."""

    rng: np.random.Generator
    kind: SceneKind
    table: Table
    camera: _Camera
    light: _Light
    azimuth: float
    style: tuple[float, float, float]
    dice: list[_Die]


def _lay_out(seed: int, kind: SceneKind | None, count: int | None, table: Table | None,
             paints: Paints, max_tilt: float) -> _Layout:
    rng = np.random.default_rng(seed)
    if kind is None:
        kinds = [SceneKind.LOOSE, SceneKind.LOOSE, SceneKind.TOUCHING, SceneKind.TILTED]
        kind = kinds[int(rng.integers(len(kinds)))]
    if table is None:
        table = SEEDED_TABLES[int(rng.integers(len(SEEDED_TABLES)))]
    if count is None:
        count = 0 if kind is SceneKind.EMPTY else int(rng.integers(2 if kind in (
            SceneKind.TOUCHING, SceneKind.TILTED) else 1, 7))
    die_mm = rng.uniform(12, 19)
    camera = _make_camera(rng, SIZE, rng.uniform(40, 100), die_mm, max_tilt)
    elevation = np.radians(rng.uniform(40, 80))
    azimuth = rng.uniform(0, 2 * np.pi)
    light = _Light(np.array([np.cos(elevation) * np.cos(azimuth),
                             np.cos(elevation) * np.sin(azimuth), np.sin(elevation)]),
                   rng.uniform(0.35, 0.5), rng.uniform(0.5, 0.7))
    # Bevel, pip spread and pip radius (face sides): pips stay clear of the rounded edge.
    style = (rng.uniform(0.06, 0.1), rng.uniform(0.22, 0.27), rng.uniform(0.07, 0.09))
    dice = _place_dice(rng, kind, count, die_mm, camera, SIZE)
    if paints is Paints.ANY:
        # From a generator of their own, so the scene is laid out as with the catalogue's.
        tint = np.random.default_rng([seed, 1])
        one = _any_paint(tint) if tint.random() < 0.4 else None
        dice = [replace(d, colour=Paints.ANY.value, paint=one or _any_paint(tint))
                for d in dice]
    return _Layout(rng, kind, table, camera, light, azimuth, style, dice)


def scene_dice(seed: int, kind: SceneKind | None = None, table: Table | None = None,
               paints: Paints = Paints.CATALOGUE, max_tilt: float = MAX_TILT
               ) -> tuple[TrueDie, ...]:
    """The dice ``render_scene`` would show for these arguments, without drawing the picture.

    A thousand times quicker than rendering: for choosing seeds by their dice.
    """
    layout = _lay_out(seed, kind, None, table, paints, max_tilt)
    return tuple(_truth(d, layout.camera) for d in layout.dice)


def render_scene(seed: int, kind: SceneKind | None = None, count: int | None = None,
                 table: Table | None = None, paints: Paints = Paints.CATALOGUE,
                 max_tilt: float = MAX_TILT) -> Scene:
    """Render one scene from a seed; the same seed always gives the same picture.

    ``kind`` and ``table`` are drawn from the seed when not given; ``count`` is
    the number of dice (1..6 when not given; 0 for an EMPTY scene). ``paints``
    ANY lays the scene out as CATALOGUE would and paints its dice otherwise.
    The camera looks down up to ``max_tilt`` degrees from straight (MAX_TILT: a
    camera over a tray; a webcam beside the table sees the dice's sides much more).
    """
    layout = _lay_out(seed, kind, count, table, paints, max_tilt)
    rng, kind, table, camera = layout.rng, layout.kind, layout.table, layout.camera
    light, azimuth, style, dice = layout.light, layout.azimuth, layout.style, layout.dice
    width, height = SIZE

    # The table: a texture in table millimetres, seen through the camera's homography.
    dist = float(np.linalg.norm(camera.centre))
    extent = 1.6 * max(width, height) * dist / camera.focal
    mm_per_px = extent / 640
    bodies = [d.paint.body for d in dice]
    for _ in range(8):
        tex = _table_texture(rng, table, (640, 640), mm_per_px)
        if _table_contrasts(tex, bodies):
            break
    shift = np.array([[mm_per_px, 0, -extent / 2], [0, mm_per_px, -extent / 2], [0, 0, 1]])
    homography = camera.table_homography() @ shift
    table_img = _warp_perspective(tex.astype(np.float32), homography, SIZE, reflect=True)
    table_img = table_img.astype(np.float64)

    if kind is SceneKind.BLURRED:
        # Dice still rolling: average sub-frames along a tumbling path.
        travel = rng.uniform(20, 60) * np.array([np.cos(azimuth), np.sin(azimuth)])
        spin_axis = rng.standard_normal(3)
        spin_axis /= np.linalg.norm(spin_axis)
        frames = []
        steps = 8
        for i in range(steps):
            t = i / (steps - 1) - 0.5
            angle = t * np.radians(rng.uniform(40, 90)) if i else 0.0
            k = np.array([[0, -spin_axis[2], spin_axis[1]], [spin_axis[2], 0, -spin_axis[0]],
                          [-spin_axis[1], spin_axis[0], 0]])
            spin = np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)
            moved = [_Die(d.value, spin @ d.rotation,
                          d.centre + np.array([travel[0] * t, travel[1] * t, 0]), d.side,
                          d.colour, d.tilted, d.paint) for d in dice]
            frames.append(_compose(table_img, moved, camera, light, style, SIZE))
        canvas = np.mean(frames, axis=0)
    else:
        canvas = _compose(table_img, dice, camera, light, style, SIZE)

    # The camera: exposure, white balance, vignetting, focus, sensor noise, JPEG.
    yy, xx = np.mgrid[0:height, 0:width]
    r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / (width / 2) ** 2
    vignette = 1 - rng.uniform(0, 0.25) * r2
    canvas = canvas * vignette[..., None] * rng.uniform(0.85, 1.2) * rng.uniform(0.9, 1.1, 3)
    canvas = cv2.GaussianBlur(canvas.astype(np.float32), (0, 0), rng.uniform(0.4, 1.1))
    canvas = canvas + rng.normal(0, rng.uniform(1, 4), canvas.shape)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 96))])
    if ok:
        image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)

    return Scene(image, tuple(_truth(d, camera) for d in dice), kind, table)


def _truth(die: _Die, camera: _Camera) -> TrueDie:
    """Where ``die``'s top face and its other faces open to the camera are in the image."""
    seen: dict[int, tuple[tuple[float, float], float, float]] = {}
    for value, n in FACE_NORMALS.items():
        normal = die.rotation @ np.array(n, dtype=np.float64)
        middle = die.centre + normal * die.side / 2
        sight = camera.centre - middle
        distance = float(np.linalg.norm(sight))
        px = camera.project(middle[None, :])[0]
        seen[value] = ((float(px[0]), float(px[1])), float(normal @ sight) / distance, distance)
    centre, facing, distance = seen.pop(die.value)
    opened = tuple(OpenFace(c, f) for c, f, _ in seen.values() if f > 0)
    return TrueDie(die.value, centre, die.side * camera.focal / distance, die.colour,
                   die.tilted, facing, opened)
