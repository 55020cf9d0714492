"""The picks offered after an unsure camera read keep the tile's name beside a long status.

At text_scale 1.25 the status of an unsure read (what is wrong, and how to pick) narrowed
the pick boxes to two fifths of the row, and ``8m 八萬 (8 of characters)`` read ``[A]…萬
(8…ers)``: what the player picks by was cut (screen72 DEFECT 2). Where no share of the
row beside the status keeps every label whole, the status goes over the boxes, the
footer taking the rows it needs from the body."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.app.session.reads import OTHER, PICK_HINT, pick_option
from companion.hw.display import screen as screen_module
from companion.hw.display.option_buttons import TAP_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View, example_view
from companion.systems.jongrogue.tiles import parse_tiles
from tests.hw.screen_layout_helpers import spy_text

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "1280x720": (1280, 720),
         "640x384": (640, 384)}
PICKS = parse_tiles("8m 3m 7z")
#: The status of an unsure read of the draw slot, as the camera's reads say it.
STATUS = "cannot read the draw tile: straighten it 読めない: まっすぐ置いて" + PICK_HINT


def unsure_picks() -> View:
    """A game screen offering the picks, as the session shows them (the screen's example
    game behind them)."""
    return replace(example_view(), prompt="Draw a tile and put it on the draw slot "
                   "牌を引いて引き牌の枠に置いて: 1d9 for the start room 開始部屋の1d9",
                   options=(*(pick_option(tile) for tile in PICKS), pick_option(OTHER)),
                   prompt_tile="back", highlight=0, status=STATUS, guidance=False)


@pytest.fixture(params=[(size, scale) for size in SIZES for scale in (1.0, 1.25)],
                ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    monkeypatch.setitem(screen_module.LAYOUTS, size, SIZES[size])
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


def test_each_pick_keeps_its_tile_name_and_the_status_reads_whole(
        screen: ScreenDisplay) -> None:
    drawn = spy_text(screen)
    screen.render(unsure_picks())
    labels = [d for d in drawn if d.label]
    assert labels and not [d.shown for d in labels if d.cut]
    shown = " ".join(d.shown for d in labels)
    for tile in PICKS:
        assert f"{tile} {tile.name_ja}" in shown, shown
    # The status is not what gives way instead: its every row reads whole, all of it drawn.
    rows = [d for d in drawn if not d.label and d.text.strip() in STATUS and len(d.text) > 3]
    assert rows and not [d.shown for d in rows if d.cut]
    assert " ".join(d.shown for d in rows).split() == STATUS.split()


def test_the_picks_stay_a_fingertip_tall(screen: ScreenDisplay) -> None:
    """The rows the status takes over the boxes leave them a tap target's height."""
    screen.render(unsure_picks())
    boxes = [box for box, _ in screen._targets]
    assert len(boxes) == 4 and all(box.h >= screen.m(TAP_MIN) for box in boxes), boxes
