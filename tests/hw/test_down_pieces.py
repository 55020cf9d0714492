"""A down piece (dead, unconscious) on a fight's board is crossed out (accessibility audit
L4): on the screen an ``x`` drawn over its grey token, on the terminal an ``x`` in its
arrow's place, which TERM=dumb and NO_COLOR keep (grey and dim were all that told it from
a standing piece).
"""

from __future__ import annotations

import io
from dataclasses import replace

import pygame
import pytest
from rich.console import Console

from companion.hw.display.screen import TEXT, ScreenDisplay
from companion.hw.display.terminal import DOWN_MARK, TerminalDisplay, board_text
from companion.hw.display.view import BoardView, PieceView, View, example_fight_view


def _board(*pieces: PieceView) -> View:
    view = example_fight_view()
    assert view.fight is not None
    return replace(view, fight=replace(view.fight, board=BoardView(8, 8, pieces)))


def _text_pixels(surface: pygame.Surface) -> set[tuple[int, int]]:
    return {(x, y) for x in range(surface.get_width()) for y in range(surface.get_height())
            if surface.get_at((x, y))[:3] == TEXT}


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("ally", [True, False])
def test_a_down_piece_is_crossed_out_on_the_screen(size: str, ally: bool) -> None:
    screen = ScreenDisplay(size)
    try:
        standing = PieceView(3, 4, "C", ally=ally)
        before = _text_pixels(screen.render(_board(standing)))
        after = _text_pixels(screen.render(_board(replace(standing, down=True))))
    finally:
        screen.close()
    cross = after - before
    assert cross, "nothing drawn over the down piece"
    xs, ys = [x for x, _ in cross], [y for _, y in cross]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    assert right - left >= 8 and abs((right - left) - (bottom - top)) <= 2  # square, not a bar
    # Both diagonals: each corner of its box is reached (an x, not a slash or a plus).
    for cx, cy in ((left, top), (right, top), (left, bottom), (right, bottom)):
        assert any(abs(x - cx) <= 2 and abs(y - cy) <= 2 for x, y in cross), (cx, cy)
    centre = ((left + right) // 2, (top + bottom) // 2)
    assert any(abs(x - centre[0]) <= 1 and abs(y - centre[1]) <= 1 for x, y in cross)


def test_a_standing_piece_is_not_crossed_out() -> None:
    screen = ScreenDisplay("800x480")
    try:
        plain = _text_pixels(screen.render(_board()))
        standing = _text_pixels(screen.render(_board(PieceView(3, 4, "C"))))
    finally:
        screen.close()
    assert standing == plain


def test_a_down_piece_is_crossed_out_on_the_terminal_board() -> None:
    board = BoardView(4, 1, (PieceView(0, 0, "B", (1, 0)),
                             PieceView(1, 0, "C", (1, 0), down=True),
                             PieceView(2, 0, "D", (-1, 0), ally=False, down=True),
                             PieceView(3, 0, "C10", (1, 0), down=True)))
    rows = board_text(board).plain.splitlines()
    assert rows[0] == f"1  B→  C{DOWN_MARK}  d{DOWN_MARK} {DOWN_MARK}C10"
    assert len({len(row) for row in rows}) == 1  # the squares still line up under a … d


def test_the_down_mark_survives_a_terminal_with_no_styles() -> None:
    """TERM=dumb (and NO_COLOR): no dim, no colour; the x is all that says it."""
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, no_color=True)
    board = BoardView(2, 1, (PieceView(0, 0, "A"), PieceView(1, 0, "B", down=True)))
    view = _board()
    assert view.fight is not None
    TerminalDisplay(console).show(replace(view, fight=replace(view.fight, board=board)))
    shown = out.getvalue()
    assert "\x1b[" not in shown
    assert f"A   B{DOWN_MARK}" in shown
