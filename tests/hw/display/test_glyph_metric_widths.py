"""Widths summed from glyph metrics (step62) against freetype's own layout (review62a).

S1: pygame's ``get_metrics`` hands back a glyph's max_x as C's unsigned 32-bit sum, so a
combining accent (its bitmap wholly left of the pen, e+U+0301 of a decomposed "José")
measured some 4 billion px, and a text with one was cut to "Z…" or wrapped a letter a
row. S2: the sum holds only for a font laid out plain; a style set on the font is left to
get_rect. S4: the picture cache keeps at most its limit. Drawn through
:class:`ScreenDisplay` on SDL's dummy driver with DejaVu Sans (a font a user can set as
``display.font``; Debian's and Raspberry Pi OS's) and with pygame's own font."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pygame
import pygame.freetype
import pytest

from companion.hw.display import canvas
from companion.hw.display.fonts import FontFile, find_cjk_font
from companion.hw.display.screen import ScreenDisplay

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
PYGAME_FONT = Path(pygame.__file__).parent / pygame.freetype.get_default_font()

#: The review's adversarial strings: controls, zero-width and joining characters, astral
#: characters (no glyph: left to get_rect), ligature and kerning pairs, a descender,
#: spaces (trailing, ideographic), combining marks before, after and alone.
ADVERSARIAL = (
    "e\u0301", "\u0301a", "a\u0301", "\u0301", "\u0300\u0301\u0302", "Zoe\u0308",
    "Jose\u0301 ", "o\u0308\u0304", "\u20dd", "x\u20dd", "\u0327c", "c\u0327",
    "tab\there", "new\nline", "nul\x00", "zero\u200bwidth", "a\u200db", "\u2764\ufe0f",
    "soft\u00adhyphen", "\ufeffbom", "dice \U0001f3b2", "\U0001f004 mahjong", "\ufb01ne",
    "AV", "j", "jj", " ", "   ", "x ", " x", "\u3000", "か\u3099", "\u302a", "声調\u302a",
    "", "Check −1 ≥ 3 → success",
)
NFD_LINE = unicodedata.normalize("NFD", "Zoë's poison: Check −1 (José)")


def _display(font: FontFile) -> Iterator[ScreenDisplay]:
    if not font.path.is_file():
        pytest.skip(f"{font.path} is not installed")
    shown = ScreenDisplay("800x480", font=font, find_font=False)
    yield shown
    shown.close()


@pytest.fixture(params=[DEJAVU, PYGAME_FONT, None],
                ids=["DejaVu Sans", "pygame's font", "Japanese font found"])
def display(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    """(The Japanese font found, Noto Sans CJK on the Pi, has U+302A ending left of the pen.)"""
    font = FontFile(request.param) if request.param is not None else find_cjk_font()
    if font is None:
        pytest.skip("no Japanese font found")
    yield from _display(font)


@pytest.fixture
def dejavu() -> Iterator[ScreenDisplay]:
    yield from _display(FontFile(DEJAVU))


@pytest.mark.parametrize("size", [11, 14, 17, 20, 25])
def test_widths_are_freetypes_for_every_adversarial_text(display: ScreenDisplay,
                                                         size: int) -> None:
    """Each width summed is the one get_rect lays out, and the one the text is drawn at."""
    wrong = {text: (display._measure(text, size),
                    int(display._font.get_rect(text, size=size).width))
             for text in ADVERSARIAL if text}
    wrong = {text: pair for text, pair in wrong.items() if pair[0] != pair[1]}
    assert wrong == {}
    for text in ADVERSARIAL:
        assert display._text_width(text, size) == display._text(text, size).get_width(), text


def test_a_combining_accent_is_its_bitmap_wide(dejavu: ScreenDisplay) -> None:
    """U+0301 alone and after a letter: its bitmap ends left of the pen."""
    assert dejavu._measure("e\u0301", 14) == dejavu._font.get_rect("e\u0301", size=14).width
    assert dejavu._measure("e\u0301", 14) < 20
    assert dejavu._measure("\u0301", 14) == dejavu._font.get_rect("\u0301", size=14).width


def test_a_decomposed_name_that_fits_is_neither_cut_nor_wrapped(dejavu: ScreenDisplay) -> None:
    """"Zoë's poison: Check −1 (José)" typed on macOS (decomposed) fits 380 px whole: it
    was cut to "Z…" (24 px) and wrapped a letter a row."""
    whole = dejavu._text(NFD_LINE, 14)
    assert whole.get_width() < 380
    fitted = dejavu._fit(NFD_LINE, 14, 380)
    assert fitted.get_width() == whole.get_width()
    assert pygame.image.tobytes(fitted, "RGBA") == pygame.image.tobytes(whole, "RGBA")
    assert dejavu._fit_middle(NFD_LINE, 14, 380).get_width() == whole.get_width()
    assert dejavu._wrap(NFD_LINE, 14, 380) == [NFD_LINE]
    # Too narrow, it is cut, and the cut fits.
    assert dejavu._fit(NFD_LINE, 14, 120).get_width() <= 120
    assert len(dejavu._wrap(NFD_LINE, 14, 120)) == 2


@pytest.mark.parametrize("style", ["strong", "oblique", "wide", "underline", "vertical",
                                   "kerning"])
def test_a_font_not_laid_out_plain_is_measured_by_freetype(dejavu: ScreenDisplay,
                                                           style: str) -> None:
    """A style set later (a bold title) is measured as freetype lays it out: the summed
    plain widths, cached, were too narrow for it."""
    text = "Warning WAVE ffi"
    plain = dejavu._measure(text, 20)  # every glyph's plain metrics cached
    setattr(dejavu._font, style, True)
    laid_out = int(dejavu._font.get_rect(text, size=20).width)
    if style in ("strong", "oblique", "wide", "vertical"):
        assert laid_out != plain
    assert dejavu._measure(text, 20) == laid_out
    setattr(dejavu._font, style, False)
    assert dejavu._measure(text, 20) == plain


def test_an_unpadded_or_rotated_font_is_measured_by_freetype(dejavu: ScreenDisplay) -> None:
    """(freetype refuses to pad a rotated text.)"""
    dejavu._font.pad = False
    for rotation in (0, 90):
        dejavu._font.rotation = rotation
        for text in ("j", " x ", "Warning"):
            assert dejavu._measure(text, 20) == dejavu._font.get_rect(text, size=20).width


def test_the_picture_cache_keeps_at_most_its_limit(dejavu: ScreenDisplay) -> None:
    """A face's picture keeps the blank body under it too. Room was made for the face
    before: when the body was the least recently used (the faces drawn since at another
    height), it went, came back, and the cache held one beyond its limit (7 of 6, 1.9 MB
    more at 600x800)."""
    faces = ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p")
    limit = canvas._PICTURE_CACHE_LIMIT
    for face in faces[: limit - 1]:
        dejavu._tile(face, 40)
    for face in faces[: limit - 2]:  # at a new height: the body is the oldest now
        dejavu._tile(face, 50)
    assert next(iter(dejavu._picture_cache)) == "empty"
    for face in faces[limit - 1:]:
        dejavu._tile(face, 40)
        assert len(dejavu._picture_cache) <= limit
    assert len(dejavu._picture_cache) == limit
    assert {"empty", faces[-1]} <= dejavu._picture_cache.keys()
