"""A fight's Result title keeps its closing tag whole: a CoC tackle's option.

``Ann タックル tackles → Cult [Knock down 押し倒し]`` was cut at its end, ``… → Cult [Knock
d…``, and what the tackle did was lost (reviews72 NIT 5). The tag is kept whole and what
comes before it is cut in its middle (who, and at whom)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import example_fight_view
from tests.hw.screen_layout_helpers import spy_text

TAG = "[Knock down 押し倒し]"
TITLE = f"Ann タックル tackles → Cult {TAG}"


@pytest.fixture(params=[(size, scale) for size in ("800x480", "1024x600")
                        for scale in (1.0, 1.25)], ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


def test_the_tackles_option_reads_whole_in_the_result_title(screen: ScreenDisplay) -> None:
    view = example_fight_view()
    assert view.fight is not None
    drawn = spy_text(screen)
    screen.render(replace(view, fight=replace(view.fight, result_title=TITLE)))
    shown = [d.shown for d in drawn if TAG in d.text]
    assert shown and all(TAG in text for text in shown), shown
    # Who tackled is kept too, at the title's start.
    assert any(d.shown.startswith("An") for d in drawn if d.text.startswith("Ann タックル"))
