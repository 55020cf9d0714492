"""The canvas every screen is drawn on: the surface and its sizes, the colours, text
(rendered once and cached, cut to fit, wrapped), tile pictures (scaled once per size) and
the plain titled panel.

The state is set by :class:`~companion.hw.display.screen.ScreenDisplay` when it opens the
screen; the drawing layers above (game panels, dice tray, fight, option buttons) build on
these methods.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import pygame
import pygame.freetype

from companion.assets import tile_image_path
from companion.hw.display.fonts import without_cjk

Color = tuple[int, int, int]
BACKGROUND: Color = (18, 22, 28)
PANEL: Color = (32, 38, 48)
TEXT: Color = (232, 232, 226)
DIM: Color = (150, 158, 168)
ACCENT: Color = (240, 190, 80)
GOOD: Color = (96, 196, 120)
# Trouble and a foe: light enough to read as text on the panels (5.5:1 on PANEL; the
# (220, 80, 70) before was 3.8:1, and for a protanope fainter than guidance).
BAD: Color = (255, 110, 100)
# The lit option and the acting combatant's row: dark enough that TEXT (8.4:1) and ACCENT
# (6.0:1) read on it; the light outline drawn around it, more than its fill, sets it apart.
HIGHLIGHT: Color = (40, 64, 108)
# Secondary text on HIGHLIGHT (an English name, the side and conditions), where DIM is
# too dark (3.8:1 there; this is 6.8:1).
ON_HIGHLIGHT: Color = (200, 210, 225)

_TEXT_CACHE_LIMIT = 2048
#: Widths measured (a wrap measures each of a line's prefixes): numbers, so many more kept.
_WIDTH_CACHE_LIMIT = 16384
#: Each character's metrics at a size, from which a width is summed (:meth:`_measure`).
_GLYPH_CACHE_LIMIT = 4096
#: Tile pictures at their own size, decoded once (the faces laid on the blank body), and
#: scaled: a new height scales the one decoded, the PNGs are not read again (step62). At
#: 600x800 each is 1.9 MB: the blank body and the last few faces drawn, not the set (77 MB).
_PICTURE_CACHE_LIMIT = 6
_TILE_CACHE_LIMIT = 256
#: A character the font has no glyph for: its width is left to freetype (:meth:`_measure`).
_NO_GLYPH: tuple[int, ...] = ()
#: (At 800x480) the least size of any text play needs (a log, a result, a status, a
#: legend, the board's coordinates): about a 10 px capital, read at arm's length. Only
#: secondary references (a panel's title, a rule's ID beside its text, a tile's code, a
#: piece's mark on its disc) are smaller. 必要な文字の最小サイズ。
TEXT_MIN = 14
#: Before the acting fighter's name (kept whole when the name is cut: _fit_middle).
ACTING = "▶ "
#: ``display.text_scale``'s range: every font that much larger, the layout as it is.
TEXT_SCALES = (1.0, 1.25)


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


def _kept(cache: dict[_Key, _Value], key: _Key, limit: int, make: Callable[[], _Value],
          ) -> _Value:
    """``cache[key]``, made when missing; a full cache lets its least recently used go.
    Emptied whole when full, it made the next screen render (or measure) again every text
    it had, a log's 400 at once: 100 ms (step61)."""
    value = cache.pop(key, None)  # put back last: the most recently used
    if value is None:
        value = make()
        # Room made after ``make``, which may itself keep a value in this cache (a face's
        # picture, the blank body under it): made before, that one was kept beyond the
        # limit (review62a S4).
        while len(cache) >= limit:
            del cache[next(iter(cache))]
    cache[key] = value
    return value


def _signed32(value: int) -> int:
    """``value``, a C ``long`` holding an unsigned 32-bit sum, read as the signed number it
    stands for (as it already is where a long has 32 bits)."""
    return value - (1 << 32) if value >= 1 << 31 else value


def _load_png(tile: str) -> pygame.Surface:
    path = tile_image_path(tile)
    with path.open("rb") as handle:
        return pygame.image.load(handle, path.name).convert_alpha()


@dataclass(frozen=True, slots=True)
class _Metrics:
    """Every size on the screen, from one scale factor."""

    scale: float

    def __call__(self, value: float) -> int:
        return round(value * self.scale)


class Canvas:
    """The surface, its metrics and fonts; text, tile pictures and panels drawn on it."""

    surface: pygame.Surface
    width: int
    m: _Metrics
    has_cjk: bool
    text_scale: float  # every font this much larger (display.text_scale), not the layout
    system_hint: str  # the header's word on the System menu
    _font: pygame.freetype.Font
    _text_cache: dict[tuple[str, int, Color], pygame.Surface]
    _width_cache: dict[tuple[str, int], int]
    _glyph_cache: dict[tuple[str, int], tuple[int, ...]]
    _picture_cache: dict[str, pygame.Surface]
    _tile_cache: dict[tuple[str, int], pygame.Surface]
    _targets: list[tuple[pygame.Rect, int]]
    _more: tuple[pygame.Rect, int] | None

    def _text(self, text: str, size: int, color: Color = TEXT) -> pygame.Surface:
        if not self.has_cjk:
            text = without_cjk(text)
        # In the screen's own pixel format a cached text blits several times faster.
        return _kept(self._text_cache, (text, size, color), _TEXT_CACHE_LIMIT,
                     lambda: self._font.render(text or " ", color,
                                               size=self._font_size(size))[0].convert_alpha())

    def _text_width(self, text: str, size: int) -> int:
        """The width :meth:`_text` draws ``text`` at, measured without drawing it: freetype
        sizes the rendered surface by the same measure. A wrap measures every prefix of a
        line, and rendered, each filled the text cache with a surface never drawn (step61)."""
        if not self.has_cjk:
            text = without_cjk(text)
        return _kept(self._width_cache, (text, size), _WIDTH_CACHE_LIMIT,
                     lambda: self._measure(text or " ", self._font_size(size)))

    def _measure(self, text: str, font_size: int) -> int:
        """``self._font.get_rect(text, size=font_size).width``, summed from each character's
        metrics (measured once a size) as freetype lays the text out (pygame's
        ``position_glyphs`` and ``fill_text_bounding_box``, padded, no kerning): the pen
        moves by each advance, the box spans every glyph's bitmap and the pen's start and
        end. get_rect lays out the whole text at each call, some 5 µs a character: a wrap
        measuring every prefix of a check's line, and the Last check's middle cut wrapping
        each shortening of it, took 100 ms a screen with a Japanese font (step62). A
        character with no glyph, or a font not laid out plain (:meth:`_plain`), is left to
        get_rect itself."""
        if not self._plain():
            return int(self._font.get_rect(text, size=font_size).width)
        pen, low, high, blank = 0, 0, 0, False  # 26.6 fixed point, as freetype's
        for n, char in enumerate(text):
            glyph = _kept(self._glyph_cache, (char, font_size), _GLYPH_CACHE_LIMIT,
                          partial(self._glyph, char, font_size))
            if not glyph:
                return int(self._font.get_rect(text, size=font_size).width)
            left, width, advance = glyph
            x = pen + left
            low, high = (x, x + width) if n == 0 else (min(low, x), max(high, x + width))
            pen += advance
            blank = width == 0
        if blank:  # a trailing space is counted by its advance
            low, high = (pen, high) if pen < low else (low, max(high, pen))
        high, low = max(high, pen), min(low, pen, 0)  # padded: from the pen's start to its end
        return ((high + 63) // 64 * 64 - low // 64 * 64) // 64

    def _glyph(self, char: str, font_size: int) -> tuple[int, ...]:
        """``char``'s bitmap left and width and its advance, in 26.6 fixed point;
        :data:`_NO_GLYPH` when the font has none."""
        metrics = self._font.get_metrics(char, size=font_size)
        if len(metrics) != 1 or metrics[0] is None:
            return _NO_GLYPH
        min_x, max_x, _, _, advance, _ = metrics[0]
        # pygame sums max_x as the bitmap's left (signed) plus its width (unsigned), in C's
        # unsigned 32 bits: a glyph ending left of the pen (a combining accent, e+U+0301 of
        # a decomposed "José") came back some 4 billion wide, and a text with one was cut
        # to "J…" or wrapped a letter a row (review62a S1). min_x and the advance (a float)
        # come back signed.
        max_x = _signed32(max_x)
        return (min_x * 64, (max_x - min_x) * 64, round(advance * 64))

    def _plain(self) -> bool:
        """Whether the font lays a text out as :meth:`_measure` sums it: no style (strong,
        oblique, wide, underline), not rotated nor vertical, no kerning, padded. Asked at
        each measure (a few attribute reads against a sum of many characters), so that a
        text first measured with a style set (a bold title) is measured by get_rect, not too
        narrow (review62a S2). The width caches key on text and size only: a text measured
        plain keeps that width, so a style set after the screen has drawn needs them
        emptied."""
        font = self._font
        return font.style == pygame.freetype.STYLE_NORMAL and not font.kerning \
            and font.rotation == 0 and not font.vertical and font.pad

    def _font_size(self, size: int) -> int:
        """The size a text asked at ``size`` is drawn at: :attr:`text_scale` times it. What
        measures a text measures it drawn, so a text too wide then shrinks or is cut as a
        text too long always was."""
        return max(1, round(size * self.text_scale))

    def _step(self, step: int) -> int:
        """A step between rows of text (a log's, a result's), grown with the fonts."""
        return max(step, math.ceil(step * self.text_scale))

    def _rows_fit(self, top: int, bottom: int, step: int, size: int, slack: int = 0) -> int:
        """How many rows of ``size`` text, ``step`` apart from ``top``, a panel has above
        ``bottom`` (less ``slack``); with larger fonts, only as many as end (their glyphs,
        not their padding) above ``bottom``, so that none runs over the panel's edge."""
        rows = max(0, (bottom - slack - top) // step)
        if self.text_scale > 1:
            ink = self._text("国g", size).get_bounding_rect().bottom
            rows = min(rows, max(0, (bottom - top - ink) // step + 1))
        return rows

    def _fit(self, text: str, size: int, width: int, color: Color = TEXT) -> pygame.Surface:
        """The text, cut with an ellipsis if it is wider than ``width``."""
        if not self.has_cjk:  # cut what is drawn, not the Japanese that is not
            text = without_cjk(text)
        # Cut by widths measured, and only the text shown rendered (step62).
        shown, measured = text, self._text_width(text, size)
        while measured > width and len(text) > 1:
            text = text[: max(1, len(text) * width // measured - 1)]
            shown = text + "…"
            measured = self._text_width(shown, size)
        return self._text(shown, size, color)

    def _fit_middle(self, text: str, size: int, width: int, color: Color = TEXT) \
            -> pygame.Surface:
        """The text, cut in the middle if it is wider than ``width``: its start (an option's
        key) and more of its end (where ``Giant Ant 1`` and ``Giant Ant 2`` differ) stay; a
        key (``[M×11]``, what the player presses) is kept whole. An option's label (a key,
        then its verb) is cut by :meth:`_fit_label` instead. The acting fighter's ``▶ ``
        is kept whole and not counted in the start kept: counted, the start kept at text
        scale 1.25 was the marker alone, "▶ …rsity" (screen70 NIT 4)."""
        lead = len(ACTING) if text.startswith(ACTING) else 0
        if not self.has_cjk:
            text = without_cjk(text)
        shown, measured = text, self._text_width(text, size)
        keep = len(text) * width // max(1, measured)
        key = text.find("] ") + 1 if text.startswith("[") else 0
        if key and measured > width:
            cut = self._fit_label(text, key, size, width, color)
            if cut is not None:
                return cut
        while measured > width and keep > lead + 2:
            head = max(lead + (keep - lead) * 2 // 5, key)
            shown = text[:head].rstrip() + "…" + text[len(text) - (keep - head):].lstrip()
            measured = self._text_width(shown, size)
            keep -= 1
        return self._text(shown, size, color) if measured <= width \
            else self._fit(text, size, width, color)

    def _fit_label(self, text: str, key: int, size: int, width: int, color: Color) \
            -> pygame.Surface | None:
        """``[A] Fight venus flytrap`` (its key ending at ``key``) cut to ``width``: the key
        and the verb after it whole, then the target cut at its end, as a word is read from
        its start (``[A] Fight venus fl…``); a last word of up to three characters, where two
        targets of one name differ (``TL``, ``2``), stays after the cut (``[A] Fight cen…
        TL``). A middle cut lost the verb ("[9] D…dornment", "[A] Fi…onster TR"): what the
        choice does, which its target's name does not say (label audit 54). None when the
        key and the verb alone do not fit."""
        verb = text.find(" ", key + 1)
        if verb < 0:
            return None
        head, target = text[:verb], text[verb + 1:]
        words = target.split(" ")
        tail = f" {words.pop()}" if len(words) > 1 and len(words[-1]) <= 3 else ""
        name = " ".join(words)
        for end in range(len(name) - 1, 0, -1):
            cut = f"{head} {name[:end].rstrip()}…{tail}"
            if self._text_width(cut, size) <= width:
                return self._text(cut, size, color)
        cut = f"{head}…{tail}"
        return self._text(cut, size, color) if self._text_width(cut, size) <= width else None

    def _wrap(self, text: str, size: int, width: int) -> list[str]:
        """Greedy wrap at spaces (or anywhere, for Japanese without spaces): every row fits
        ``width`` but a single character wider than it, and no character is lost."""
        words = text.split(" ")
        lines: list[str] = []
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if self._text_width(candidate, size) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word
            while self._text_width(line, size) > width and len(line) > 1:
                cut = self._fitting_prefix(line, size, width)
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
        return lines

    def _fitting_prefix(self, text: str, size: int, width: int) -> int:
        """How many of ``text``'s first characters fit ``width`` (at least one). A cut at a
        count estimated from the whole word's average width ran past the row in a
        proportional font ("2,3,1,…" of a 26D6 throw), and the row drawn cut to fit with an
        ellipsis lost the characters in between: 3,3 of the throw were never shown
        (screen70 DEFECT 2). Searched by halves over the widths, which grow with the count."""
        low, high = 1, len(text)  # low always fits, or is the one character
        while low < high:
            middle = (low + high + 1) // 2
            if self._text_width(text[:middle], size) <= width:
                low = middle
            else:
                high = middle - 1
        return low

    def _tile(self, tile: str, height: int) -> pygame.Surface:
        """``tile``'s picture ``height`` tall, scaled once from :meth:`_picture`."""
        def scaled() -> pygame.Surface:
            image = self._picture(tile)
            width = round(image.get_width() * height / image.get_height())
            return pygame.transform.smoothscale(image, (width, height))

        return _kept(self._tile_cache, (tile, height), _TILE_CACHE_LIMIT, scaled)

    def _picture(self, tile: str) -> pygame.Surface:
        """``tile``'s picture at its own size, decoded once: a face (transparent) laid on
        the blank tile body. The PNGs were decoded again, the body's too, for each size a
        tile was drawn at (a new room, the footer's prompt at another height): 15 ms
        (step62)."""
        def composed() -> pygame.Surface:
            if tile in ("back", "empty"):
                return _load_png(tile)
            body = self._picture("empty").copy()
            body.blit(_load_png(tile), (0, 0))
            return body

        return _kept(self._picture_cache, tile, _PICTURE_CACHE_LIMIT, composed)

    def _panel(self, rect: pygame.Rect, title: str | None = None) -> int:
        """Draw a panel; return the y where its content starts."""
        m = self.m
        pygame.draw.rect(self.surface, PANEL, rect, border_radius=m(6))
        if title is None:
            return rect.y + m(6)
        self.surface.blit(self._fit(title, m(13), rect.w - m(16), DIM),
                          (rect.x + m(8), rect.y + m(4)))
        return rect.y + m(24)

    def _warning_mark(self, x: int, y: int, size: int, color: Color,
                      ground: Color = PANEL) -> int:
        """A warning triangle with a ``!`` cut in it (in ``ground``, the colour it is drawn
        on), as tall as a ``size`` text's capitals on a row drawn at ``y``; returns the width
        it takes with its gap. 警告の三角印。"""
        side = round(size * 0.9)
        top, bottom = y + round(size * 0.3), y + round(size * 0.3) + side
        pygame.draw.polygon(self.surface, color, [(x + side // 2, top), (x + side, bottom),
                                                  (x, bottom)])
        bar = max(1, side // 6)
        cx = x + side // 2 - bar // 2
        pygame.draw.rect(self.surface, ground, (cx, top + side * 3 // 8, bar, side * 3 // 10))
        pygame.draw.rect(self.surface, ground, (cx, bottom - side // 5, bar, bar))
        return self._warning_mark_w(size)

    def _warning_mark_w(self, size: int) -> int:
        """The width :meth:`_warning_mark` takes beside a ``size`` text, with its gap."""
        return round(size * 0.9) + self.m(6)
