"""What the body keeps while an unsure read's status goes over the pick boxes.

At text_scale 1.25 the status of an unsure read goes over the picks, and the footer grew by
whole rows for it: the Log panel was dropped (its newest event, no check, shown nowhere
else), leaving a blank strip under the PC sheet at 1024x600, and the Last check kept only
its first row, cut, which said neither the verdict nor what came of it (reviews72 RISK 1).
The footer now takes only the pixels the status and the picks' labels need, the sheet gives
way to the log's title and newest row, and a one-row Last check shows the outcome."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pygame
import pytest

from companion.app.session.reads import OTHER, PICK_HINT, pick_option
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Name, TileView, View, example_view
from companion.systems.jongrogue.tiles import parse_tiles
from tests.hw.display.prompt_fit_helpers import ink_on_borders
from tests.hw.screen_layout_helpers import spy_text

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "640x384": (640, 384)}
PICKS = parse_tiles("8m 3m 7z")
STATUS = "cannot read the draw tile: straighten it 読めない: まっすぐ置いて" + PICK_HINT
#: As the game gives them, each line indented.
CHECK = ("  ranged 遠隔攻撃 (arrows) vs 大うずら (emu): rate 1 = 7 attack 攻撃力 − 5 level "
         "レベル − 0 strength 強さ − 1 weapon 武器; drew 9s → 9 ≥ 1 → success 成功",
         "  大うずら (emu) #33 defeated: +2 XP → 88")
#: The room the check was made in (floor 6, room 5): its monsters' states take two rows.
ROOM = (TileView("8p", Name("鎧保護の指輪", "ring of armour protection")),
        TileView("5z", Name("階段", "stairs down")),
        TileView("8m", Name("ガラガラ蛇", "rattlesnake"), "awake 起"),
        TileView("4m", Name("大こうもり", "bat"), "deeply asleep 熟睡"))
NEWEST = "Monster #35: 大こうもり (bat), deeply asleep (熟睡) (sleep check: row 8p, column 4m)"


def unsure_picks() -> View:
    """The picks after an unsure read of the draw slot, over a game with a check behind it
    and an event (no check) newest in its log."""
    game = example_view()
    return replace(game, prompt="Draw a tile and put it on the draw slot 牌を引いて引き牌の枠"
                   "に置いて: 1d9 for the start room 開始部屋の1d9",
                   options=(*(pick_option(tile) for tile in PICKS), pick_option(OTHER)),
                   prompt_tile="back", highlight=0, status=STATUS, guidance=False,
                   last_check=CHECK, log=(*game.log, NEWEST), room_tiles=ROOM)


@pytest.fixture(params=list(SIZES), ids=str)
def screen(request: pytest.FixtureRequest,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[ScreenDisplay]:
    monkeypatch.setitem(screen_module.LAYOUTS, request.param, SIZES[request.param])
    display = ScreenDisplay(request.param, text_scale=1.25)
    yield display
    display.close()


def test_the_log_keeps_its_title_and_newest_event(screen: ScreenDisplay) -> None:
    drawn = spy_text(screen)
    screen.render(unsure_picks())
    texts = [d.shown for d in drawn]
    assert "Log 記録" in texts
    assert any(text.startswith("Monster #35: 大こうもり") for text in texts), texts


def test_the_last_check_shows_its_outcome(screen: ScreenDisplay) -> None:
    drawn = spy_text(screen)
    screen.render(unsure_picks())
    texts = [d.shown for d in drawn]
    assert any("#33 defeated" in text and "88" in text for text in texts), texts


def test_no_blank_strip_under_the_sheet(screen: ScreenDisplay) -> None:
    """Every row of the right column, from the sheet's top to the footer, is inside a
    panel: none in the screen's background colour, as the log's dropped rows were."""
    surface = screen.render(unsure_picks())
    footer_top = screen.height - screen._footer_height(unsure_picks())
    x = screen.width * 3 // 4
    background = tuple(screen_module.BACKGROUND)
    blank = [y for y in range(screen.m(60), footer_top - screen.m(8))
             if tuple(surface.get_at((x, y)))[:3] == background[:3]]
    # The gaps between panels are a few pixels; a dropped panel's rows are dozens.
    assert len(blank) <= 3 * screen.m(6), blank


def test_the_picks_labels_keep_their_ink_inside_their_boxes(screen: ScreenDisplay) -> None:
    """The footer's least pixels are not had by shrinking the labels onto the borders: each
    box's bottom rows, above its border, hold no label ink. (At 640x384 the boxes are a
    fingertip tall, their labels drawn tight: the next test.)"""
    if screen.width == 640:
        pytest.skip("drawn tight there: test_no_label_ink_touches_a_border")
    surface = screen.render(unsure_picks())
    for box, _ in screen._targets:
        border = max(3, screen.m(3))  # the lit box's
        inner = pygame.Rect(box.x + screen.m(10), box.bottom - border - screen.m(2),
                            box.w - 2 * screen.m(10), screen.m(2))
        colours = {tuple(surface.get_at((x, y)))[:3] for x in range(inner.x, inner.right)
                   for y in range(inner.y, inner.bottom)}
        assert len(colours) == 1, (box, colours)


def test_no_label_ink_touches_a_border(screen: ScreenDisplay) -> None:
    """Inside each box's border, as thick as the lit one's, the first row of pixels above
    and below the label holds the box's fill alone: at 640x384 the boxes are a fingertip
    tall, and ``(8 of characters)`` and ``[A]`` touched the borders (reviews72 NIT 7)."""
    surface = screen.render(unsure_picks())
    assert screen._targets
    assert not ink_on_borders(screen, surface)
