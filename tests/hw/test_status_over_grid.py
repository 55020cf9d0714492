"""The status over a grid of options starts under the prompt's ink at every text size.

At text_scale 1.25 the prompt grows and the status over the grid stayed where it was: the
descenders of "type the D100, tens 十の位" ran 2 px into "your own dice, typed
手持ちのダイスを入力" (screen72 NIT 6). The footer gives the grid the few pixels more."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pygame
import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.option_buttons import TAP_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, example_view

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "640x384": (640, 384),
         "1280x720": (1280, 720)}
#: The typed dice's tens, as the dice tray's keypad asks them: eleven keys, a grid.
KEYPAD = replace(example_view(), prompt="Dice tray ダイストレイ: type the D100, tens 十の位",
                 options=(*(Option(f"t{n}", f"{n}_ ({n}0–{n}9)") for n in range(1, 10)),
                          Option("t0", "0_ (00=100)"), Option("back", "Back 戻る")),
                 highlight=0, status="your own dice, typed 手持ちのダイスを入力",
                 guidance=True)


@pytest.fixture(params=[(size, scale) for size in SIZES for scale in (1.0, 1.25)],
                ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    monkeypatch.setitem(screen_module.LAYOUTS, size, SIZES[size])
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


def test_the_status_over_a_grid_starts_under_the_prompts_ink(screen: ScreenDisplay) -> None:
    statuses: list[pygame.Rect] = []
    status = screen._status

    def spy(text: str, rect: pygame.Rect, *args: Any) -> None:
        statuses.append(rect.copy())
        status(text, rect, *args)

    screen.__dict__["_status"] = spy
    screen.render(KEYPAD)
    assert screen._grid(KEYPAD) and len(statuses) == 1
    footer = screen.height - screen._footer_height(KEYPAD)
    rows = screen._prompt_rows(KEYPAD, screen._prompt_width(KEYPAD))
    size = screen._prompt_size(KEYPAD)
    # The prompt's last row, drawn m(24) under the one before it, m(6) into the footer.
    last = footer + screen.m(6) + (len(rows) - 1) * screen.m(24)
    ink = max(screen._text(row, size).get_bounding_rect().bottom for row in rows)
    # The status's first row's glyphs' top, as drawn at its size, in its rect.
    top = screen._text(KEYPAD.status, screen.m(TEXT_MIN)).get_bounding_rect().top
    assert last + ink < statuses[0].y + top, (last + ink, statuses[0].y + top)
    # The grid's boxes stay a fingertip tall under it.
    boxes = [box for box, _ in screen._targets]
    assert boxes and min(box.top for box in boxes) >= statuses[0].bottom
    assert all(box.h >= screen.m(TAP_MIN) for box in boxes)
