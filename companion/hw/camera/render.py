"""Synthetic tiles and camera scenes: the test stand-in for a camera, and the training data.

``render_tile`` draws one tile face (or back, or an empty slot) with the
variation real sets have: art style (the packaged CC0 art, or character and
honour tiles drawn from any CJK font found), ink colours, body colour, red
fives, blank or framed White; or a font's own drawing of the tile, from Unicode's
Mahjong Tiles block, in a set's inks (``tile_font``); ``draw_index`` adds the corner
rank or letter that Western sets print (used by training and by the evaluation's own
indexed renders, not by ``render_crop``). ``render_scene`` lays tiles on the printed mat
and photographs it with a random camera: perspective, light, blur, noise.
Everything is driven by a ``numpy.random.Generator`` so a seed repeats it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from companion.assets import tile_image_path
from companion.hw.camera.mat import MatGeometry
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import BACK, EMPTY, Suit, Tile

ART_SIZE = (150, 200)  # (w, h) the packaged 600x800 art is shrunk to once
TILE_MM = (27.0, 36.0)  # a riichi tile face, width x height
SLOT_ASPECT = 4 / 3  # a mat slot's height over its width
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "/Library/Fonts")
_KANJI_RANKS = ("一二三四五六七八九", "一二三四伍六七八九")
_MAN = ("萬", "万")
_HONOURS = ("東", "南", "西", "北", "", "發", "中")
MAHJONG_BLOCK = 0x1F000  # Unicode's Mahjong Tiles: winds, dragons, then the suits 1 to 9
_BLOCK_START = {Suit.MAN: 7, Suit.SOU: 16, Suit.PIN: 25}
_BLOCK_HONOURS = (0, 1, 2, 3, 6, 5, 4)  # East, South, West, North, White, Green, Red
# Fonts known to draw that block, by file name (find_tile_fonts checks that they do).
_TILE_FONT_NAMES = ("Symbola", "NotoSansSymbols2", "seguisym")


@functools.cache
def _art(name: Tile | str, red: bool = False) -> np.ndarray:
    """The packaged art for a kind as BGRA float32 in 0..1 at ART_SIZE."""
    data = np.frombuffer(tile_image_path(name, red).read_bytes(), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if image is None:
        raise FileNotFoundError(f"tile art for {name} is missing or unreadable")
    return cv2.resize(image, ART_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _over(base: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """Alpha-composite BGRA ``layer`` over BGRA ``base`` (same size, float 0..1)."""
    a = layer[..., 3:4]
    out = base.copy()
    out[..., :3] = layer[..., :3] * a + base[..., :3] * (1 - a)
    out[..., 3:4] = np.maximum(base[..., 3:4], a)
    return out


def _hue_shift(bgra: np.ndarray, shift: float, saturation: float) -> np.ndarray:
    """Rotate the hue of the ink (keeps white/black), scale its saturation."""
    bgr = (bgra[..., :3] * 255).astype(np.uint8)
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + shift) % 180
    hsv[..., 1] = np.clip(hsv[..., 1] * saturation, 0, 255)
    out = bgra.copy()
    out[..., :3] = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32) / 255
    return out


def _freetype() -> ModuleType:
    """pygame's freetype, started; imported lazily: only font-drawn variants need it."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return pygame.freetype


def _fonts_drawing(names: Sequence[str], text: str) -> tuple[Path, ...]:
    """Font files in FONT_DIRS whose name holds one of ``names`` and that draw every
    character of ``text`` (a name alone is no proof: Noto Sans Gothic is named for the
    Gothic alphabet, and draws no kanji)."""
    freetype = _freetype()
    found: list[Path] = []
    for folder in FONT_DIRS:
        root = Path(folder).expanduser()
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in (".ttc", ".otf", ".ttf") and any(k in path.name
                                                                       for k in names):
                try:
                    metrics = freetype.Font(str(path), 16).get_metrics(text)
                except (OSError, freetype.error):
                    continue  # unreadable font files are skipped, like missing ones
                if metrics and all(m is not None for m in metrics):
                    found.append(path)
    return tuple(found)


@functools.cache
def find_cjk_fonts() -> tuple[Path, ...]:
    """CJK fonts on this machine (Noto CJK and the like); empty when there are none."""
    return _fonts_drawing(("CJK", "Gothic", "Mincho", "Droid"),
                          "".join(_HONOURS + _KANJI_RANKS + _MAN) + "発")


@functools.cache
def _glyph(font: Path, index: int, text: str, size: int) -> np.ndarray:
    """Alpha mask (float 0..1) of ``text`` in ``font``, tightly cropped."""
    face = _freetype().Font(str(font), size, font_index=index)
    surface, _ = face.render(text, (255, 255, 255, 255))
    import pygame.surfarray

    alpha = np.array(pygame.surfarray.pixels_alpha(surface)).T.astype(np.float32) / 255.0
    ys, xs = np.nonzero(alpha > 0.05)
    if len(xs) == 0:
        return alpha
    return alpha[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _stamp(canvas: np.ndarray, mask: np.ndarray, box: tuple[float, float, float, float],
           colour: np.ndarray) -> None:
    """Draw ``mask`` in ``colour`` (BGR 0..1, or an image of them the mask's size) fitted
    into ``box`` (x0, y0, x1, y1 fractions)."""
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = int(box[0] * w), int(box[1] * h), int(box[2] * w), int(box[3] * h)
    bw, bh = max(x1 - x0, 1), max(y1 - y0, 1)
    mh, mw = mask.shape
    scale = min(bw / mw, bh / mh)
    tw, th = max(int(mw * scale), 1), max(int(mh * scale), 1)
    m = cv2.resize(mask, (tw, th), interpolation=cv2.INTER_AREA)[..., None]
    if colour.ndim == 3:
        colour = cv2.resize(colour, (tw, th), interpolation=cv2.INTER_NEAREST)
    ox, oy = x0 + (bw - tw) // 2, y0 + (bh - th) // 2
    region = canvas[oy : oy + th, ox : ox + tw]
    region[..., :3] = colour * m + region[..., :3] * (1 - m)
    region[..., 3:4] = np.maximum(region[..., 3:4], m)


_INKS = {  # BGR 0..1, a little darker/lighter around each is added at random
    "black": (0.1, 0.1, 0.1),
    "blue": (0.65, 0.25, 0.05),
    "navy": (0.45, 0.15, 0.1),
    "red": (0.15, 0.12, 0.75),
    "green": (0.2, 0.5, 0.1),
}


def _ink(rng: np.random.Generator, *names: str) -> np.ndarray:
    base = np.array(_INKS[str(rng.choice(names))], np.float32)
    return np.clip(base + rng.normal(0, 0.06, 3), 0, 1)


def _font_face(kind: Tile, rng: np.random.Generator, fonts: Sequence[Path]) -> np.ndarray:
    """A character or honour face drawn from a font, in a random set's colours."""
    face = np.zeros((ART_SIZE[1], ART_SIZE[0], 4), np.float32)
    font = fonts[int(rng.integers(len(fonts)))]
    index = int(rng.integers(4)) if font.suffix.lower() == ".ttc" else 0
    if kind.suit is Suit.MAN:
        ranks = _KANJI_RANKS[int(rng.random() < 0.4 and kind.rank == 5)]
        _stamp(face, _glyph(font, index, ranks[kind.rank - 1], 96), (0.18, 0.08, 0.82, 0.45),
               _ink(rng, "black", "blue", "navy"))
        _stamp(face, _glyph(font, index, str(rng.choice(_MAN)), 96), (0.14, 0.48, 0.86, 0.92),
               _ink(rng, "red"))
    elif kind.rank == 5:  # White: blank, or a blue frame
        _draw_white_frame(face, rng)
    else:
        colour = {6: ("green",), 7: ("red",)}.get(kind.rank, ("black", "blue", "navy"))
        text = _HONOURS[kind.rank - 1]
        if kind.rank == 6 and rng.random() < 0.3:
            text = "発"
        _stamp(face, _glyph(font, index, text, 120), (0.1, 0.14, 0.9, 0.86), _ink(rng, *colour))
    return face


@functools.cache
def find_tile_fonts() -> tuple[Path, ...]:
    """Fonts on this machine that draw Unicode's Mahjong Tiles (Symbola, Noto Sans Symbols 2)."""
    return _fonts_drawing(_TILE_FONT_NAMES,
                          "".join(chr(MAHJONG_BLOCK + i) for i in range(34)))


def mahjong_code_point(kind: Tile) -> int:
    """The Unicode character (Mahjong Tiles block) that draws ``kind``."""
    if kind.suit is Suit.HONOR:
        return MAHJONG_BLOCK + _BLOCK_HONOURS[kind.rank - 1]
    return MAHJONG_BLOCK + _BLOCK_START[kind.suit] + kind.rank - 1


@functools.cache
def _tile_glyph(font: Path, code: int) -> tuple[np.ndarray, np.ndarray]:
    """A font's drawing of one Mahjong Tiles character without the tile's own outline:
    its alpha mask (float 0..1) and its parts (connected components, numbered from 1)."""
    mask = _glyph(font, 0, chr(code), 220)
    _, parts = cv2.connectedComponents((mask > 0.3).astype(np.uint8), connectivity=8)
    rim = np.concatenate([parts[:2].ravel(), parts[-2:].ravel(),
                          parts[:, :2].ravel(), parts[:, -2:].ravel()])
    grow = np.ones((5, 5), np.uint8)
    outline = cv2.dilate(np.isin(parts, rim[rim > 0]).astype(np.uint8), grow) > 0
    # The anti-aliased rim of each part takes the part's number, so it takes its ink.
    parts = np.where(parts > 0, parts, cv2.dilate(parts.astype(np.float32), grow))
    mask = np.where(outline, 0.0, mask).astype(np.float32)
    parts = np.where(outline, 0, parts)
    ys, xs = np.nonzero(mask > 0.05)
    if len(xs) == 0:  # a White drawn blank
        return np.zeros((1, 1), np.float32), np.zeros((1, 1), np.int32)
    crop = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    return mask[crop], parts[crop].astype(np.int32)


def _part_inks(kind: Tile, parts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colours for a tile glyph's parts, as sets ink them: characters' ranks dark over a red
    萬, bamboo green with some red, circles in one ink or several, honours in theirs."""
    colours = np.zeros((*parts.shape, 3), np.float32)
    height = parts.shape[0]
    one_ink = _ink(rng, "blue", "green", "red", "black") if rng.random() < 0.3 else None
    for part in range(1, int(parts.max()) + 1):
        where = parts == part
        if not where.any():
            continue
        if kind.suit is Suit.MAN:
            top = np.nonzero(where)[0].mean() < 0.42 * height
            ink = _ink(rng, "black", "blue", "navy") if top else _ink(rng, "red")
        elif kind.suit is Suit.PIN:
            ink = one_ink if one_ink is not None else _ink(rng, "blue", "green", "red")
        elif kind.suit is Suit.SOU:
            names = ("green", "blue", "red") if kind.rank == 1 else ("green",) * 5 + ("red",)
            ink = _ink(rng, *names)
        else:
            ink = _ink(rng, *{5: ("blue", "navy", "black"), 6: ("green",),
                              7: ("red",)}.get(kind.rank, ("black", "blue", "navy")))
        colours[where] = ink
    return colours


def _tile_font_face(kind: Tile, rng: np.random.Generator, font: Path) -> np.ndarray:
    """A face drawn from ``font``'s Mahjong Tiles character for ``kind``, in a set's inks."""
    face = np.zeros((ART_SIZE[1], ART_SIZE[0], 4), np.float32)
    mask, parts = _tile_glyph(font, mahjong_code_point(kind))
    _stamp(face, mask, (0.1, 0.08, 0.9, 0.92), _part_inks(kind, parts, rng))
    return face


def _draw_white_frame(face: np.ndarray, rng: np.random.Generator) -> None:
    if rng.random() < 0.5:
        return
    h, w = face.shape[:2]
    colour = (*_ink(rng, "blue", "navy", "black"), 1.0)
    t = int(rng.integers(4, 10))
    m = rng.uniform(0.14, 0.24)
    cv2.rectangle(face, (int(w * m), int(h * m)), (int(w * (1 - m)), int(h * (1 - m))),
                  colour, t)
    if rng.random() < 0.5:
        m2 = m + 0.06
        cv2.rectangle(face, (int(w * m2), int(h * m2)), (int(w * (1 - m2)), int(h * (1 - m2))),
                      colour, max(t // 2, 2))


def _body(rng: np.random.Generator, vary: bool) -> np.ndarray:
    body = _art(EMPTY).copy()
    if vary:  # ivory, white, cream, bluish-white bodies
        tint = np.clip(1 + rng.normal(0, 0.05, 3) + np.array([-0.05, 0, 0.02]) * rng.random(), 0, 1)
        body[..., :3] = np.clip(body[..., :3] * tint * rng.uniform(0.9, 1.05), 0, 1)
    return body


def render_tile(label: str, rng: np.random.Generator | None = None, *, vary: bool = True,
                fonts: Sequence[Path] = (), tile_font: Path | None = None) -> np.ndarray:
    """One tile seen straight on, BGRA uint8 at ART_SIZE; ``label`` is a READER_LABELS entry.

    ``empty`` gives a fully transparent image (nothing on the slot). With
    ``vary`` the art style and colours are drawn at random from ``rng``;
    ``fonts`` adds font-drawn character and honour faces to the styles.
    ``tile_font`` (one of ``find_tile_fonts``) draws the face as that font draws the tile.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    if label == EMPTY:
        return np.zeros((ART_SIZE[1], ART_SIZE[0], 4), np.uint8)
    if label == BACK:
        back = _art(BACK)
        if vary:  # backs come in every strong colour
            back = _hue_shift(back, rng.uniform(0, 180), rng.uniform(0.6, 1.1))
        return (back * 255).astype(np.uint8)
    kind = Tile.from_notation(label)
    body = _body(rng, vary)
    use_font = (
        vary and fonts and kind.suit in (Suit.MAN, Suit.HONOR) and rng.random() < 0.5
    )
    if tile_font is not None:
        face = _tile_font_face(kind, rng, tile_font)
    elif use_font:
        face = _font_face(kind, rng, fonts)
    elif kind.suit is Suit.HONOR and kind.rank == 5:
        face = np.zeros_like(body)
        if vary:
            _draw_white_frame(face, rng)
    else:
        face = _art(kind, red=vary and kind.rank == 5 and rng.random() < 0.25)
        if vary and rng.random() < 0.6:
            face = _hue_shift(face, rng.normal(0, 25) % 180, rng.uniform(0.7, 1.2))
    if vary:  # real faces sit inside a margin of varying width
        s = rng.uniform(0.72, 0.95)
        w, h = ART_SIZE
        matrix = np.array([[s, 0, w * (1 - s) / 2], [0, s, h * (1 - s) / 2]], np.float32)
        matrix[:, 2] += rng.normal(0, 3, 2)
        face = cv2.warpAffine(face, matrix, ART_SIZE, flags=cv2.INTER_LINEAR)
    tile = _over(body, face)
    tile[..., 3] = body[..., 3]
    out: np.ndarray = (np.clip(tile, 0, 1) * 255).astype(np.uint8)
    return out


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


def camera_effects(image: np.ndarray, rng: np.random.Generator, *,
                   finger: float = 0.15) -> np.ndarray:
    """What a cheap camera and a home lamp do to a picture: light, glare, blur, noise, JPEG.

    ``image`` is BGR float32 0..255; a finger reaches in from an edge with
    probability ``finger``. Returns BGR uint8.
    """
    h, w = image.shape[:2]
    out = image.astype(np.float32, copy=True)
    if rng.random() < finger:
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
