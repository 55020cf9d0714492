"""A room tile with two states at text 1.25 says both in whole words and keeps its English
name: seed 12's sleeping invisible phantom read "ファントム" / "deeply" / "asleep" / "熟睡,
invi…" at 800x480, "phantom" nowhere and "invisible" cut (a78screen item 6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Name, TileView
from companion.systems.jongrogue.game import Game
from tests.hw.screen_layout_helpers import spy_text

PHANTOM = TileView("2m", Name("ファントム", "phantom"), "deeply asleep 熟睡, invisible 透明")


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_a_sleeping_invisible_phantom_keeps_its_states_and_name(scale: float) -> None:
    mode = JongRogueMode(Game("plus"))
    ask = mode.ask()
    floor = TileView("6z", Name("床", "empty floor"))
    view = replace(mode.view(ask.prompt, options=getattr(ask, "options", ())), room=1,
                   room_tiles=(floor, PHANTOM, floor, floor))
    screen = ScreenDisplay("800x480", text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    shown = [d.shown for d in drawn if not d.cut]
    assert "phantom" in shown and "ファントム" in shown
    assert any("熟睡" in text for text in shown)
    assert any("透明" in text or "invisible" in text for text in shown)
    assert not [d.shown for d in drawn if d.cut and ("熟睡" in d.text or "透明" in d.text)]
