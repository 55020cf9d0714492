"""The acting combatant's row: its outline runs around its text, never through its last
line (display audit 56, item 3), in a genso fight (no board) and a CoC fight (a board, a
row of three lines). Drawn through :class:`ScreenDisplay` on SDL's dummy driver; each
text's glyphs are read from the surfaces blitted onto the screen."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pygame
import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    FighterView,
    FightView,
    Name,
    PieceView,
    View,
    example_fight_view,
)

INVESTIGATORS, FOES = Name("探索者", "investigators"), Name("敵", "foes")


class _Blits(pygame.Surface):
    """The screen's surface, recording where each blitted picture's glyphs landed."""

    inks: list[pygame.Rect]

    def blit(self, source: pygame.Surface, dest: Any, *args: Any, **kwargs: Any) \
            -> pygame.Rect:
        at = pygame.Rect(dest, (0, 0)) if not isinstance(dest, pygame.Rect) else dest
        ink = source.get_bounding_rect()
        if ink.w and ink.h:
            self.inks.append(ink.move(at.x, at.y))
        return super().blit(source, dest, *args, **kwargs)


def _acting_box(screen: ScreenDisplay, view: View) -> tuple[pygame.Rect, list[pygame.Rect]]:
    """The acting row's rectangle, and the glyphs of every text drawn on the screen."""
    spy = _Blits(screen.surface.get_size())
    spy.inks = []
    screen.surface = spy
    rows: list[pygame.Rect] = []
    fighter = screen._fighter

    def seen(f: FighterView, index: int, rect: pygame.Rect, *args: Any) -> None:
        if f.acting:
            rows.append(rect.copy())
        fighter(f, index, rect, *args)

    screen.__dict__["_fighter"] = seen
    screen.render(view)
    assert len(rows) == 1
    return rows[0], spy.inks


@pytest.fixture
def own_surface(screen: ScreenDisplay) -> Iterator[ScreenDisplay]:
    surface = screen.surface
    yield screen
    screen.surface = surface
    screen.__dict__.pop("_fighter", None)


def _coc() -> View:
    """A CoC fight on its board: Ann's row, acting, has a third line (her square)."""
    fight = FightView(
        title="vs Cult, Deep · profile 003", round=1, turn="A Ann",
        fighters=(
            FighterView(Name("A Ann", "A Ann"), INVESTIGATORS, 13, 13, 10, 10,
                        ("AP 2", "d3 NE"), acting=True, san=50),
            FighterView(Name("B Bob", "B Bob"), INVESTIGATORS, 13, 13, 10, 10, ("b6 E",),
                        san=50),
            FighterView(Name("C Cult", "C Cult"), FOES, 1, 13, 10, 10, ("f5 SW",), ally=False,
                        san=50),
            FighterView(Name("D Deep", "D Deep"), FOES, -3, 13, 10, 10, ("g6 W", "DEAD 死亡"),
                        ally=False, down=True, san=50)),
        board=BoardView(8, 8, (PieceView(3, 2, "A", acting=True), PieceView(1, 5, "B"))))
    return replace(example_fight_view(), fight=fight)


@pytest.mark.parametrize("name", ["genso", "coc"])
def test_the_acting_rows_outline_runs_clear_of_its_text(own_surface: ScreenDisplay,
                                                        name: str) -> None:
    """Every glyph drawn in the acting row lies inside its outline's inner edge: the
    outline of a 44 px row cut through its second line's glyphs, and a CoC row's third
    line ("d3 NE") hung through it."""
    screen = own_surface
    view = example_fight_view() if name == "genso" else _coc()
    row, inks = _acting_box(screen, view)
    outline = max(2, screen.m(2))
    inside = row.inflate(-2 * outline, -2 * outline)
    texts = [ink for ink in inks if ink.colliderect(row) and ink.h < row.h]
    assert len(texts) >= 3, texts  # name, pools, a second line at least
    crossing = [ink for ink in texts if not inside.contains(ink)]
    assert not crossing, (row, crossing)
