"""The monsters following the PC (JR-FLEE-2, 追跡) are drawn in a panel of their own under
the room's, their names and states whole (screen66 RISK 2: the room panel held the next
room's spots, and the snake attacking was on the screen nowhere). Drawn through
:class:`ScreenDisplay` on SDL's dummy driver at each size and text scale, over the game's
own menu and a long one's grid; what was drawn is read back from the texts it fitted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Name, TileView, View
from tests.app.pursuers_helpers import pursued, pursuers_view
from tests.hw.screen_layout_helpers import RING_MENU, spy_text

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": (720, 1280)}
ICE = TileView("7m", Name("氷の怪物", "ice monster"), "awake 起, haste 倍速")


def _drawn(view: View, size: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.render(view)
        return [d.shown for d in drawn]
    finally:
        screen.close()


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_the_pursuer_attacking_is_on_the_screen(size: str, scale: float,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The snake that followed the PC into room 4: its name and state, whole, under the
    panel's title; the room's own tiles (the bat deeply asleep) as before."""
    shown = _drawn(pursuers_view(pursued()), size, scale, monkeypatch)
    assert "Pursuing 追跡" in shown
    assert "大蛇 snake" in shown and "awake 起" in shown, shown
    assert shown.index("大蛇 snake") > shown.index("Pursuing 追跡")
    assert "大こうもり" in shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_two_pursuers_under_a_long_menu_s_grid_keep_their_states(
        size: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the body shortened by a two-row grid, the pursuers keep their states: the first
    in its row (a haste, the state that changes the fight), one with no room left named
    on a last row with its state."""
    view = replace(pursuers_view(pursued()), options=RING_MENU, highlight=0)
    snake = view.pursuers[0]
    shown = _drawn(replace(view, pursuers=(ICE, snake)), size, scale, monkeypatch)
    assert "Pursuing 追跡 (2)" in shown
    assert "氷の怪物 ice monster" in shown and "awake 起, haste 倍速" in shown, shown
    assert "大蛇 snake" in shown or "+1: 大蛇 snake (awake 起)" in shown, shown
