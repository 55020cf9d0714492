"""Synthetic tile faces: one tile drawn straight on, as real sets vary.

``render_tile`` draws one tile face (or back, or an empty slot) with the
variation real sets have: art style (the packaged CC0 art, or character and
honour tiles drawn from any CJK font found), ink colours, body colour, red
fives, blank or framed White; or a font's own drawing of the tile, from Unicode's
Mahjong Tiles block, in a set's inks (``tile_font``). The simulated camera
(:mod:`companion.hw.camera.sim_scene`) lays them on the mat; the training data
(:mod:`companion.hw.camera.augment`) puts them in slot crops.
Everything is driven by a ``numpy.random.Generator`` so a seed repeats it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from companion.assets import tile_image_path
from companion.systems.jongrogue.tiles import BACK, EMPTY, Suit, Tile

ART_SIZE = (150, 200)  # (w, h) the packaged 600x800 art is shrunk to once
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
