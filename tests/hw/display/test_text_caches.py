"""The screen's text caches (step61): a wrap measures a line's prefixes without rendering
them, and a full cache lets its least recently used text go, never all at once. Emptied
whole, the cache made the next screen render every text again (a log's 400 prefixes:
100 ms, the worst step of bench_play); and the prefixes filled it. Drawn through
:class:`ScreenDisplay` on SDL's dummy driver."""

from __future__ import annotations

import itertools

import pytest

from companion.hw.display import canvas
from companion.hw.display.screen import ScreenDisplay

CHECK = ("  ranged 遠隔攻撃 (shuriken) vs 大蛇 (snake): rate 1 = 6 attack 攻撃力 − 4 level "
         "レベル − 0 strength 強さ − 2 weapon 武器 = 0, clamped to 1..9; drew 1s → 1 ≥ 1 → "
         "success 成功")


def test_a_wrap_measures_without_rendering(display: ScreenDisplay) -> None:
    """Wrapped, a check's line adds no text to the cache, and each row is as wide as the
    panel lets it be: it fits, and its next row's first word would not have."""
    rows = display._wrap(CHECK, 14, 300)
    assert not display._text_cache
    assert len(rows) > 2
    for row, after in itertools.pairwise(rows):
        assert display._text(row, 14).get_width() <= 300
        assert display._text(f"{row} {after.split(' ')[0]}", 14).get_width() > 300


@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_a_measured_width_is_the_drawn_width(display: ScreenDisplay, scale: float) -> None:
    """What a wrap measures is what is drawn: each prefix of a check, at each size."""
    display.text_scale = scale
    words = CHECK.split(" ")
    for size in (13, 14, 16, 20):
        for end in range(len(words) + 1):
            text = " ".join(words[:end])
            assert display._text_width(text, size) == display._text(text, size).get_width()


def test_a_full_cache_lets_go_of_the_least_recently_drawn(
        display: ScreenDisplay, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four texts kept: the first, drawn again, stays when two new ones come (the two
    drawn longest ago go); emptied whole, it was rendered again."""
    monkeypatch.setattr(canvas, "_TEXT_CACHE_LIMIT", 4)
    first = display._text("Log 記録", 14)
    for text in ("b", "c", "d"):
        display._text(text, 14)
    display._text("Log 記録", 14)
    for text in ("e", "f"):
        display._text(text, 14)
    assert display._text("Log 記録", 14) is first
    kept = "Log 記録" if display.has_cjk else "Log"
    assert [text for text, _, _ in display._text_cache] == ["d", "e", "f", kept]
