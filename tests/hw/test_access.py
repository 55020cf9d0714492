"""Accessibility (the audit of /tmp/audit/access.md): contrast of text on what it is drawn
on, measured as WCAG 2.x ratios from the palette, and cues that do not rest on colour
alone (the lit option and the acting row outlined, trouble marked, sides shaped).

アクセシビリティ: パレットから計算したコントラスト比と、色だけに頼らない手がかり。
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pygame
import pytest
from rich.console import Console

from companion.hw.display.canvas import (
    ACCENT,
    BACKGROUND,
    BAD,
    DIM,
    GOOD,
    HIGHLIGHT,
    ON_HIGHLIGHT,
    PANEL,
    TEXT,
    Color,
)
from companion.hw.display.fight_panels import SQUARE_DARK, SQUARE_LIGHT
from companion.hw.display.game_panels import SYSTEM_HINT
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import LIT_MARK, TROUBLE_MARK, TerminalDisplay, board_text
from companion.hw.display.view import (
    BoardView,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
    View,
    example_fight_view,
    example_view,
    message_view,
)

# Machado et al. (2009) at severity 1.0, in linear RGB: how a colour looks to a protanope,
# a deuteranope and a tritanope; and greyscale (luminance alone).
_CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
    "mono": ((0.2126, 0.7152, 0.0722),) * 3,
}


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(linear: float) -> float:
    c = min(1.0, max(0.0, linear))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def seen(color: Color, vision: str) -> tuple[float, float, float]:
    """``color`` as ``vision`` (a key of ``_CVD``) sees it."""
    lin = [_linear(c) for c in color]
    r, g, b = (_encode(sum(w * v for w, v in zip(row, lin, strict=True)))
               for row in _CVD[vision])
    return r, g, b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The WCAG 2.x contrast ratio of two sRGB colours (1 to 21)."""
    def luminance(c: tuple[float, float, float]) -> float:
        r, g, b = (_linear(v) for v in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.fixture(params=["800x480", "1024x600"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    display = ScreenDisplay(request.param)
    yield display
    display.close()


def colours_drawn(screen: ScreenDisplay) -> list[tuple[str, Color]]:
    """Every text rendered from now on, with its colour."""
    drawn: list[tuple[str, Color]] = []
    text = screen._text

    def spy(value: str, size: int, color: Color = TEXT) -> pygame.Surface:
        drawn.append((value, color))
        return text(value, size, color)

    screen.__dict__["_text"] = spy
    return drawn


# ---- H1, M3: the lit option and the acting combatant's row -------------------------------

def test_text_on_the_highlight_passes_aa() -> None:
    """H1/M3: on the blue fill, TEXT was 4.19:1, ACCENT 2.99:1 and DIM 1.90:1."""
    for color in (TEXT, ACCENT, ON_HIGHLIGHT):
        assert contrast(color, HIGHLIGHT) >= 4.5
    assert contrast(ON_HIGHLIGHT, PANEL) >= 4.5


def _acting_fight() -> FightView:
    return FightView(title="Fight", round=1, turn="アン", fighters=(
        FighterView(name=Name("アン", "Ann PC"), side=Name("味方", "party"), hp=8, hp_max=10,
                    acting=True, conditions=("full dodge 全力回避",)),
        FighterView(name=Name("カルト", "Cult"), side=Name("敵", "foe"), hp=3, hp_max=9,
                    ally=False),
    ))


def test_the_acting_row_draws_no_text_that_fails_on_its_fill(screen: ScreenDisplay) -> None:
    """H1: the acting combatant's English name and its side and conditions were DIM on the
    highlight (1.90:1): every text of that row passes 4.5:1 on it."""
    drawn = colours_drawn(screen)
    screen.render(replace(message_view("?", (Option("attack", "Attack 攻撃"),)),
                          fight=_acting_fight()))
    acting = [(t, c) for t, c in drawn if "Ann" in t or "全力回避" in t or "アン" in t]
    assert acting
    for text, color in acting:
        assert contrast(color, HIGHLIGHT) >= 4.5, (text, color)


def _box_pixels(screen: ScreenDisplay, index: int) -> list[Color]:
    rect = next(r for r, i in screen._targets if i == index)
    return [tuple(screen.surface.get_at((x, y)))[:3]  # type: ignore[misc]
            for x in range(rect.x, rect.right) for y in (rect.y, rect.y + 1)]


def test_the_lit_option_stands_out_in_every_colour_vision(screen: ScreenDisplay) -> None:
    """M3: with its fill darkened for its label's sake, the lit option is set apart by a
    thick light (TEXT) outline: its edge and fill are each a clear step from an unlit box's, as
    each colour vision (and greyscale) sees them."""
    options = (Option("attack", "Attack 攻撃"), Option("flee", "Flee 逃げる"))
    view = replace(message_view("?", options), highlight=0)
    screen.render(view)
    lit_edge, unlit_edge = _box_pixels(screen, 0), _box_pixels(screen, 1)
    assert TEXT in lit_edge and DIM not in lit_edge
    assert DIM in unlit_edge and TEXT not in unlit_edge
    for vision in _CVD:
        assert contrast(seen(TEXT, vision), seen(DIM, vision)) >= 2, vision
        assert contrast(seen(TEXT, vision), seen(PANEL, vision)) >= 3, vision
        assert contrast(seen(HIGHLIGHT, vision), seen(BACKGROUND, vision)) >= 1.5, vision


def _edge_width(screen: ScreenDisplay, index: int, color: Color) -> int:
    """How many rows of ``color`` the top edge of option ``index``'s box is, at its middle."""
    rect = next(r for r, i in screen._targets if i == index)
    rows = 0
    while tuple(screen.surface.get_at((rect.centerx, rect.y + rows)))[:3] == color:
        rows += 1
    return rows


def test_an_unlit_box_has_a_two_pixel_edge_and_the_lit_box_a_thicker_one(
        screen: ScreenDisplay) -> None:
    """L1: an unlit box's edge was 1 px of DIM around a fill 1.19:1 from the footer's: the
    box hardly read as one (sweep 53 item 17). It is 2 px; the lit box's TEXT outline stays
    thicker, for TEXT is only 2.2:1 from DIM (above): the lit box is told by its outline's
    width as well as its lightness."""
    options = (Option("attack", "Attack 攻撃"), Option("flee", "Flee 逃げる"))
    screen.render(replace(message_view("?", options), highlight=0))
    unlit, lit = _edge_width(screen, 1, DIM), _edge_width(screen, 0, TEXT)
    assert unlit >= 2
    assert lit > unlit


# ---- H3, M5: trouble is told from guidance by more than its colour ------------------------

def test_trouble_text_passes_aa_where_it_is_drawn() -> None:
    """H3: BAD text (a trouble status, a down combatant's DEAD) was 3.82:1 on PANEL."""
    for ground in (PANEL, BACKGROUND):
        assert contrast(BAD, ground) >= 4.5


def _footer_colours(screen: ScreenDisplay, guidance: bool) -> set[Color]:
    """The colours in the footer of a status screen with its text left undrawn: only what
    is drawn besides the text (a mark) is left."""
    blank = pygame.Surface((1, 1), pygame.SRCALPHA)
    screen.__dict__["_text"] = lambda *_: blank
    view = replace(message_view("?", (Option("go", "Go"),),
                                status="save behind: the disk is full; not saved"),
                   guidance=guidance)
    screen.render(view)
    box = screen._targets[0][0]
    footer = pygame.Rect(box.right, box.y, screen.width - box.right, box.h)
    return {tuple(screen.surface.get_at((x, y)))[:3]  # type: ignore[misc]
            for x in range(footer.x, footer.right) for y in range(footer.y, footer.bottom)}


def test_a_trouble_status_is_marked_and_guidance_is_not(screen: ScreenDisplay) -> None:
    """H3: guidance (ACCENT) and trouble (BAD) differed by colour alone, and for a
    protanope the trouble was the fainter. Trouble is drawn after a warning triangle (a
    shape, so no font needs a ⚠ glyph); guidance has none."""
    assert BAD in _footer_colours(screen, guidance=False)
    assert BAD not in _footer_colours(screen, guidance=True)


def test_without_a_japanese_font_the_trouble_mark_is_still_drawn() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    try:
        assert BAD in _footer_colours(display, guidance=False)
    finally:
        display.close()


def _terminal(view: View, **console: Any) -> str:
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=100, **console)).show(view)
    return out.getvalue()


@pytest.mark.parametrize("console", [{"no_color": True}, {"color_system": None},
                                     {"force_terminal": True, "color_system": None}])
def test_the_terminal_marks_trouble_in_text(console: dict[str, Any]) -> None:
    """M5: with no colours (NO_COLOR, TERM=dumb) the trouble line was plain text and the
    guidance bold: trouble leads with ``!``, guidance does not."""
    view = message_view("?", (Option("go", "Go"),), status="not saved 未保存")
    lines = _terminal(view, **console).splitlines()
    assert f"{TROUBLE_MARK}not saved 未保存" in lines
    lines = _terminal(replace(view, guidance=True), **console).splitlines()
    assert "not saved 未保存" in lines


# ---- H4, M4: the sides by shape; the acting piece's ring ----------------------------------

def _board_fight(*pieces: PieceView) -> View:
    fighters = tuple(FighterView(Name("", p.mark or "X"), Name("", "side"), 5, 9, ally=p.ally,
                                 acting=p.acting) for p in pieces)
    board = BoardView(8, 8, pieces)
    return replace(message_view("?", (Option("go", "Go"),)),
                   fight=FightView("Fight", 1, "X", fighters, board=board))


def _pixels_of(screen: ScreenDisplay, color: Color) -> list[tuple[int, int]]:
    """Where ``color`` is drawn above the footer (whose lit option is outlined in TEXT)."""
    surface = screen.surface
    footer = screen._targets[0][0].y - screen.m(40)
    return [(x, y) for x in range(surface.get_width()) for y in range(footer)
            if tuple(surface.get_at((x, y)))[:3] == color]


def _fill_ratio(points: list[tuple[int, int]]) -> float:
    """How much of its bounding box a shape fills: a disc π/4, a diamond 1/2."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return len(points) / ((max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1))


def test_a_foe_on_the_board_is_a_diamond_and_an_ally_a_disc(screen: ScreenDisplay) -> None:
    """H4: ally and foe were a green and a red disc, alike to a deuteranope (1.8:1, both
    khaki). A foe is a diamond."""
    blank = pygame.Surface((1, 1), pygame.SRCALPHA)  # no text: only the shapes are counted
    screen.__dict__["_text"] = lambda *_: blank
    screen.__dict__["_fighters"] = lambda *_: None  # (the rows' tokens are tested below)
    screen.render(_board_fight(PieceView(1, 1, ""), PieceView(5, 5, "", ally=False)))
    assert _fill_ratio(_pixels_of(screen, GOOD)) > 0.7
    assert _fill_ratio(_pixels_of(screen, BAD)) < 0.6


def test_each_row_shows_its_side_as_a_shape(screen: ScreenDisplay) -> None:
    """H4: beside a board a row's side was left to its stripe's colour. Every row, narrow or
    not, one line or two, has the side's token (the board's disc or diamond)."""
    tokens: list[bool] = []
    token = screen._side_token

    def spy(ally: bool, *args: Any) -> None:
        tokens.append(ally)
        token(ally, *args)

    screen.__dict__["_side_token"] = spy
    fight = _acting_fight()
    for fighters in (fight.fighters, fight.fighters * 8):  # two-line rows, one-line rows
        for board in (None, BoardView(8, 8)):  # wide rows, narrow rows beside a board
            tokens.clear()
            screen.render(replace(message_view("?", (Option("go", "Go"),)),
                                  fight=replace(fight, fighters=fighters, board=board)))
            assert True in tokens and False in tokens, (len(fighters), board)


def test_the_acting_piece_is_ringed_in_light_over_a_dark_gap(screen: ScreenDisplay) -> None:
    """M4: the ACCENT ring on a GOOD disc was 1.26:1, a slightly bigger disc to red-green
    and greyscale eyes. The ring is TEXT, parted from any piece by BACKGROUND."""
    blank = pygame.Surface((1, 1), pygame.SRCALPHA)
    screen.__dict__["_text"] = lambda *_: blank
    screen.__dict__["_fighters"] = lambda *_: None
    screen.render(_board_fight(PieceView(1, 1, "")))
    assert not _pixels_of(screen, TEXT)
    screen.render(_board_fight(PieceView(1, 1, "", acting=True)))
    ring, disc = _pixels_of(screen, TEXT), _pixels_of(screen, GOOD)
    assert ring and _fill_ratio(ring) < 0.9
    assert min(x for x, _ in ring) < min(x for x, _ in disc) - 2  # a gap between
    for square in ((58, 68, 84), (44, 52, 64)):
        assert contrast(TEXT, square) >= 3


def test_the_terminal_board_writes_a_foe_in_lower_case() -> None:
    """H4/M5: ally ``B→`` and foe ``D←`` looked alike without colour."""
    board = BoardView(3, 1, (PieceView(0, 0, "B", (1, 0)), PieceView(2, 0, "D", (-1, 0),
                                                                     ally=False)))
    assert board_text(board).plain.splitlines()[0] == "1  B→  ·   d← "


# ---- M5: the lit option on a terminal with no styles --------------------------------------

@pytest.mark.parametrize("console", [{"color_system": None}, {"no_color": True}])
def test_the_terminal_marks_the_lit_option_in_text(console: dict[str, Any]) -> None:
    """M5: under TERM=dumb (no styles at all) the lit option, shown only in reverse, looked
    like every other: it leads with ▶, the others with a space (the width is the same)."""
    options = (Option("fight", "Fight 戦う"), Option("flee", "Flee 逃げる"))
    shown = _terminal(replace(message_view("?", options), highlight=1), **console)
    assert f" (1) Fight 戦う  {LIT_MARK}(a) Flee 逃げる" in shown  # (a: the lit one)


# ---- L1: edges that show; L3: the header says it can be tapped ---------------------------

def test_the_board_squares_are_told_apart_and_every_piece_stands_on_them() -> None:
    """L1: the squares were 1.28:1, hard to count for a move or a range."""
    assert contrast(SQUARE_LIGHT, SQUARE_DARK) >= 1.6
    for square in (SQUARE_LIGHT, SQUARE_DARK):
        for piece in (GOOD, BAD, DIM, TEXT):
            assert contrast(piece, square) >= 3, (piece, square)


def test_an_hp_bar_shows_its_whole_length(screen: ScreenDisplay) -> None:
    """L1: a bar's empty part was PANEL on BACKGROUND (1.19:1), so its length, and the
    fraction filled, were hard to see. The bar is outlined in DIM, in the header and in a
    combatant's row, its empty end too."""
    m = screen.m
    surface = screen.render(example_view())  # HP 9/14: the right end is empty
    header_bar = pygame.Rect(screen.width - m(210), m(10), m(200), m(18))
    assert tuple(surface.get_at((header_bar.right - 1, header_bar.centery)))[:3] == DIM
    rows: list[pygame.Rect] = []
    fighter = screen._fighter

    def spy(f: FighterView, index: int, rect: pygame.Rect, *args: Any) -> None:
        rows.append(rect)
        fighter(f, index, rect, *args)

    screen.__dict__["_fighter"] = spy
    surface = screen.render(replace(message_view("?", (Option("go", "Go"),)),
                                    fight=_acting_fight()))
    foe = rows[1]  # HP 3/9
    bar = pygame.Rect(foe.right - m(6) - m(110), foe.y + m(28), m(110), m(8))
    assert tuple(surface.get_at((bar.right - 1, bar.centery)))[:3] == DIM


def test_the_system_hint_says_the_header_can_be_tapped() -> None:
    """L3: a tap anywhere on the header opens the System menu; the hint said only
    ``hold I``. (Section 10 of test_screen_layout.py: it is drawn, beside the title.)"""
    assert SYSTEM_HINT.startswith("tap")


# ---- display audit 54, item 4: no faint text on a terminal -----------------------------------

def _faint_text(out: str) -> str:
    """What ``out`` writes faint (SGR 2, until 0 or 22 resets it); a colour's own
    ``38;2;r;g;b`` is not a 2."""
    faint, written = False, []
    for token in re.split(r"(\x1b\[[0-9;]*m)", out):
        if not token.startswith("\x1b["):
            written.append(token if faint else "")
            continue
        codes, i = token[2:-1].split(";"), 0
        while i < len(codes):
            if codes[i] in ("38", "48"):  # a colour: 5;n or 2;r;g;b follows
                i += 3 if codes[i + 1] == "5" else 5
                continue
            faint = codes[i] == "2" or (faint and codes[i] not in ("", "0", "22"))
            i += 1
    return "".join(written)


def test_the_terminal_draws_no_text_faint() -> None:
    """The System hint, the M legend, a rule's ID, the board's coordinates and a down
    combatant's name were faint: half the foreground's brightness, about 3.7:1 on a black
    console (under the 4.5:1 text needs). They are in the terminal's own colours now."""
    assert contrast((102, 102, 102), (0, 0, 0)) < 4.5  # xterm's grey 80% fg, faint on black
    fight = example_fight_view()
    assert fight.fight is not None
    down = replace(fight.fight.fighters[0], hp=0, down=True)
    fight = replace(fight, system=True, fight=replace(
        fight.fight, fighters=(down, *fight.fight.fighters[1:]),
        board=BoardView(8, 8, (PieceView(0, 0, "A", down=True), PieceView(2, 3, "B")))))
    ring_menu = tuple(Option(f"o{i}", f"option {i}") for i in range(12))
    menu = replace(example_view(), system=True, options=ring_menu, highlight=0)
    for view in (fight, menu):
        out = _terminal(view, force_terminal=True, color_system="truecolor")
        # (Faint only what is no text: an empty square's dot, the HP bar's empty part.)
        assert set(_faint_text(out)) <= set(" ·.░\n"), _faint_text(out)


def test_every_text_colour_of_the_screen_passes_aa_on_its_panels() -> None:
    """The screen's theme, checked with the terminal's (item 4): each text colour reads at
    4.5:1 or more on the background and on a panel (DIM, the faintest, is 5.6:1 there)."""
    for color in (TEXT, DIM, ACCENT, GOOD, BAD, ON_HIGHLIGHT):
        for ground in (BACKGROUND, PANEL):
            assert contrast(color, ground) >= 4.5, (color, ground)
