"""The Pursuing 追跡 panel stays in the left column: with text a quarter larger under a long
menu's two-row grid the room grew into the rows under it (a state wrapping: "asleep 眠,
haste 倍速"), the pursuers were left the last check's least, and their first row and the
"+1: 大蛇 snake (awake 起)" row were drawn under the column, over the prompt
(reviewscreen66 DEFECT 1). The room now grows only down to the pursuers' least (their title,
the first one's name and state, the row naming the others), and the panel draws no row past
its place. Drawn through :class:`ScreenDisplay` on SDL's dummy driver, every blit and
rectangle drawn recorded where it lands."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pygame
import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.screen import HEADER_HEIGHT, ScreenDisplay
from companion.hw.display.view import Name, TileView, View, example_view
from tests.hw.screen_layout_helpers import RING_MENU, spy_text

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": (720, 1280)}
BAT = TileView("1m", Name("大こうもり", "bat"), "asleep 眠, haste 倍速")
KESTREL = TileView("2m", Name("チョウゲンボウ", "kestrel"), "deeply asleep 熟睡")
PURSUERS = (TileView("7m", Name("氷の怪物", "ice monster"), "awake 起, haste 倍速"),
            TileView("3p", Name("大蛇", "snake"), "awake 起"),
            TileView("9s", Name("大こうもり", "bat"), "awake 起"))


def _rooms() -> dict[str, tuple[TileView, ...]]:
    """The example room; one monster's state wrapping; two (review's overflow.py)."""
    room = example_view().room_tiles
    return {"example": tuple(room), "one long state": (BAT, *room[1:]),
            "two long states": (BAT, room[1], KESTREL, room[3])}


class _Spy(pygame.Surface):
    """The screen's surface, recording where each blit's ink lands."""

    inked: list[tuple[pygame.Rect, pygame.Surface]]

    def blit(self, source: pygame.Surface, dest: Any, *args: Any, **kwargs: Any) \
            -> pygame.Rect:
        at = dest.topleft if isinstance(dest, pygame.Rect) else tuple(dest)[:2]
        self.inked.append((source.get_bounding_rect().move(at), source))
        return super().blit(source, dest, *args, **kwargs)


@pytest.fixture
def panels(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[pygame.Rect]]:
    """Every panel drawn (``pygame.draw.rect`` filled), as the screen draws them."""
    drawn: list[pygame.Rect] = []
    rect = pygame.draw.rect

    def spy(surface: pygame.Surface, color: Any, box: Any, width: int = 0,
            *args: Any, **kwargs: Any) -> pygame.Rect:
        if width == 0:
            drawn.append(pygame.Rect(box))
        return rect(surface, color, box, width, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "rect", spy)
    yield drawn


def _views() -> Iterator[tuple[str, View]]:
    for name, room in _rooms().items():
        for count in (1, 2, 3):
            for grid in (True, False):
                view = replace(example_view(), room_tiles=room, pursuers=PURSUERS[:count],
                               highlight=0, system=True)
                yield (f"{name}, {count} pursuer(s), {'grid' if grid else 'menu'}",
                       replace(view, options=RING_MENU) if grid else view)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_nothing_of_the_pursuers_is_drawn_under_the_left_column(
        size: str, scale: float, monkeypatch: pytest.MonkeyPatch,
        panels: list[pygame.Rect]) -> None:
    """Every text and tile drawn in the body ends (its ink) above the column's bottom, and
    every panel in it too: none over the footer's prompt. The pursuers' title, and the first
    one's name and state, are drawn whole."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        spy = _Spy(screen.surface.get_size())
        screen.surface = spy
        drawn = spy_text(screen)
        for case, view in _views():
            spy.inked, drawn[:] = [], []
            panels.clear()
            screen.render(view)
            footer = screen.height - screen._footer_height(view)
            column_bottom = footer - screen.m(4)  # the body's margin over the footer
            header = screen.m(HEADER_HEIGHT)
            over = [(box, source.get_size()) for box, source in spy.inked
                    if header <= box.y < footer and box.bottom > column_bottom]
            assert not over, (case, column_bottom, over)
            over_panels = [box for box in panels if header <= box.y < footer
                           and box.bottom > column_bottom]
            assert not over_panels, (case, column_bottom, over_panels)
            shown = [d.shown for d in drawn]
            title = "Pursuing 追跡" + (f" ({len(view.pursuers)})" if len(view.pursuers) > 1
                                       else "")
            first = view.pursuers[0]
            assert title in shown and "氷の怪物 ice monster" in shown, (case, shown)
            assert first.detail in shown or first.detail.startswith(
                next(s for s in shown if s.startswith("awake")).rstrip("…")), (case, shown)
            if len(view.pursuers) == 2:  # the second in its row, or named on the last
                assert "大蛇 snake" in shown or "+1: 大蛇 snake (awake 起)" in shown, (case, shown)
    finally:
        screen.close()
