"""The screen's drawing caches (step62): what a frame decodes or measures is done once, and
the next frame asks it again of a cache, bounded. Before: a tile's PNG and the blank body
under it were decoded again for each height it was drawn at (15 ms); every width was laid
out by freetype's get_rect (the Last check's middle cut, wrapping each shortening of a
check: 100 ms with a Japanese font); each option label fitted again at each frame; each
text stripped of its Japanese again by some ten regular expressions. Drawn through
:class:`ScreenDisplay` on SDL's dummy driver; the spies sit at the pygame edge (the PNG
decoder, the freetype font) or count the canvas's own measuring calls."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pygame
import pygame.freetype
import pytest

from companion.assets import tile_image_path
from companion.hw.display import canvas, fonts
from companion.hw.display.screen import ScreenDisplay

CHECK = ("melee 近接攻撃 大蛇 (snake) #2: rate 3 = 6 attack 攻撃力 − 4 level レベル − 0 "
         "strength 強さ − 2 weapon 武器 + 3 haste 倍速 = 3, clamped to 1..9; drew 5s → 5 ≥ 3 "
         "→ success 成功")


class _FontSpy:
    """The freetype font, its calls counted."""

    def __init__(self, font: pygame.freetype.Font) -> None:
        self.font = font
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.font, name)
        if callable(value):
            def counted(*args: Any, **kwargs: Any) -> Any:
                self.calls[name] += 1
                return value(*args, **kwargs)
            return counted
        return value


def _spied(display: ScreenDisplay) -> _FontSpy:
    spy = _FontSpy(display._font)
    display._font = spy  # type: ignore[assignment]
    return spy


def test_tile_pngs_are_decoded_once(display: ScreenDisplay,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The blank body is decoded once for every face laid on it, and a tile drawn at a new
    height decodes nothing; each picture is the face on the body, scaled, as it was."""
    decoded: list[str] = []
    load = pygame.image.load

    def spy(handle: Any, name: str = "") -> pygame.Surface:
        decoded.append(name)
        return load(handle, name)

    monkeypatch.setattr(pygame.image, "load", spy)
    first = display._tile("5p", 80)
    display._tile("6p", 80)
    display._tile("5p", 60)
    display._tile("back", 60)
    assert Counter(decoded) == Counter({tile_image_path(t).name: 1
                                        for t in ("5p", "6p", "empty", "back")})
    body = canvas._load_png("empty")
    body.blit(canvas._load_png("5p"), (0, 0))
    old = pygame.transform.smoothscale(body, first.get_size())
    assert pygame.image.tobytes(first, "RGBA") == pygame.image.tobytes(old, "RGBA")


def test_tile_caches_are_bounded(display: ScreenDisplay,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiles at many heights keep at most the limits: the full-size pictures are 1.9 MB each."""
    monkeypatch.setattr(canvas, "_TILE_CACHE_LIMIT", 5)
    for tile in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p"):
        for height in (40, 50):
            display._tile(tile, height)
    assert len(display._tile_cache) == 5
    assert len(display._picture_cache) <= canvas._PICTURE_CACHE_LIMIT + 1


def test_widths_are_measured_without_laying_the_text_out(display: ScreenDisplay) -> None:
    """The Last check of a long check, cut in its middle to fit a short panel, lays out no
    text in freetype to measure it (get_rect), and drawn again measures nothing anew."""
    spy = _spied(display)
    rect = pygame.Rect(6, 200, 385, 90)  # two rows of text under the title
    display._lines("Last check 判定", (CHECK,), rect)
    assert spy.calls["get_rect"] == 0
    assert spy.calls["get_metrics"] > 0
    spy.calls.clear()
    display._lines("Last check 判定", (CHECK,), rect)
    assert not spy.calls["get_rect"] and not spy.calls["get_metrics"]
    assert not spy.calls["render"]


@pytest.mark.parametrize("text", [CHECK, "a", " ", "ends in a space ", "[A] 大蛇 snake TL…"])
def test_a_summed_width_is_freetypes(display: ScreenDisplay, text: str) -> None:
    """The width summed from each character's metrics is the width get_rect lays out, and
    the width the rendered text has, at each size."""
    words = text.split(" ")
    for size in (12, 13, 14, 16, 17, 20, 25):
        for end in range(1, len(words) + 1):
            prefix = " ".join(words[:end]) or " "
            shown = prefix if display.has_cjk else fonts.without_cjk(prefix) or " "
            expected = display._font.get_rect(shown, size=size).width
            assert display._measure(shown, size) == expected
            assert display._text_width(prefix, size) == display._text(prefix, size).get_width()


def test_an_option_label_is_fitted_once(display: ScreenDisplay,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A label fitted (its size, its rows) is fitted again for the next frame from the
    cache: no text measured or rendered."""
    label = "[A] Fight giant ant TL ジャイアント・アント左上"
    first = display._label_rows(label, 16, 120, 44)
    calls: Counter[str] = Counter()
    for name in ("_text", "_text_width"):
        method = getattr(display, name)

        def counted(*args: Any, _name: str = name, _method: Any = method) -> Any:
            calls[_name] += 1
            return _method(*args)

        monkeypatch.setattr(display, name, counted)
    assert display._label_rows(label, 16, 120, 44) == first
    assert not calls


def test_japanese_is_stripped_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same text stripped twice runs the expressions once."""
    runs: list[str] = []
    pattern = fonts._CJK

    class Spy:
        def sub(self, *args: Any) -> str:
            runs.append(args[-1])
            return pattern.sub(*args)

    monkeypatch.setattr(fonts, "_CJK", Spy())
    text = "大蛇 snake (眠 asleep) step62 once"
    assert fonts.without_cjk(text) == fonts.without_cjk(text) == "snake (asleep) step62 once"
    assert len(runs) == 1
