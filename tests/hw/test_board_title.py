"""The CoC board's squares start under its panel's title at every text size.

At text_scale 1.25 the title "Board 盤面 · N↑ 北" grows and the squares stayed at the
panel's usual content line: the board's frame was drawn through the feet of 盤面 and 北
(screen72 NIT 5)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from companion.hw.display.canvas import DIM
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import BoardView, PieceView

TITLE = "Board 盤面 · N↑ 北"


@pytest.fixture(params=[(size, scale) for size in ("800x480", "1024x600")
                        for scale in (1.0, 1.25)], ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


@pytest.mark.parametrize("height", [150, 200, 300])  # the board filling its panel, or not
def test_the_board_frame_is_under_its_title(screen: ScreenDisplay, height: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    frames: list[pygame.Rect] = []
    draw = pygame.draw.rect

    def spy(surface: pygame.Surface, color: Any, rect: Any, *args: Any, **kwargs: Any) \
            -> pygame.Rect:
        if kwargs.get("width") == 1 and tuple(color)[:3] == tuple(DIM)[:3]:
            frames.append(pygame.Rect(rect))
        return draw(surface, color, rect, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "rect", spy)
    m = screen.m
    panel = pygame.Rect(m(280), m(40), m(210), m(height))
    screen._board(BoardView(8, 8, (PieceView(3, 3, "A"),), title=TITLE), panel)
    assert len(frames) == 1
    title = panel.y + m(4) + screen._text(TITLE, m(13)).get_bounding_rect().bottom
    assert frames[0].top >= title, (frames[0].top, title)
