"""The keys a menu names: the buttons' legend, and the page box of a long menu (display
audit 56, items 7 and 8), drawn through :class:`ScreenDisplay` on SDL's dummy driver."""

from __future__ import annotations

from dataclasses import replace

from companion.app.session.controls import menu_press
from companion.hw.buttons import Button
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, example_view
from tests.hw.screen_layout_helpers import spy_text, texts_drawn

THIRTEEN = tuple(Option(f"o{i}", f"Option {i} 選択{i}") for i in range(13))
BACK_MENU = (Option("a", "Stay 続ける"), Option("b", "Shut down 終了"),
             Option("back", "Back 戻る", Button.FLEE))


def test_the_highlight_moving_back_is_not_called_back_beside_a_back_option(
        screen: ScreenDisplay) -> None:
    """"R back 前" stood over "[B] Back 戻る": two different backs on one screen."""
    texts = texts_drawn(screen)
    screen.render(replace(example_view(), options=BACK_MENU, highlight=0))
    legends = [t for t in texts if "next 次" in t and "ok 決定" in t]
    assert legends, texts
    assert all("back" not in legend.lower() for legend in legends)
    assert any("R prev 前へ" in legend for legend in legends)


def test_the_page_box_names_the_one_press_that_turns_the_page(screen: ScreenDisplay) -> None:
    """13 options: page 1 of 2 is turned by one back press (off the first option onto the
    last), not eleven of hold I; the box says so, and pressing what it says, or tapping
    it (MENU onto page 2's first), shows page 2."""
    count = len(THIRTEEN)
    drawn = spy_text(screen)
    screen.render(replace(example_view(), options=THIRTEEN, highlight=0))
    page_box = [d.text for d in drawn if d.label and "page 1/2" in d.text]
    assert page_box and all(t.startswith("[B] page 1/2") for t in page_box), page_box
    assert screen._more is not None
    highlight = 0
    pressed = menu_press(Button.FLEE, count, 0, {})[1]
    for press in (Button.MENU,) * screen._more[1]:  # what a tap on it does
        highlight = menu_press(press, count, highlight, {})[1]
    for shown in (pressed, highlight):
        drawn.clear()
        screen.render(replace(example_view(), options=THIRTEEN, highlight=shown))
        assert any(d.label and "page 2/2" in d.text for d in drawn)
