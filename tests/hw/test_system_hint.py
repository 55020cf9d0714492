"""The header's word on the System menu says how long the item button is held for it
(``buttons.system_press_seconds``): a player who let go at 1-2 s got an item press, and
the hint (``tap / hold I: System 設定``) did not say why. The app passes the seconds to
the display it builds; with no buttons the hint names the S key instead.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from rich.console import Console

from companion.app.commands.play.session import configured_display
from companion.app.config import load_config
from companion.hw.display import open_display
from companion.hw.display.game_panels import HP_BAR_MIN, HP_BAR_W, SYSTEM_HINT, system_hint
from companion.hw.display.screen import HEADER_HEIGHT, ScreenDisplay
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import example_fight_view, example_view
from tests.hw.screen_layout_helpers import texts_drawn


def test_the_hint_says_the_seconds_the_item_button_is_held() -> None:
    assert SYSTEM_HINT == "tap / hold I 3 s: System 設定"
    assert system_hint(2.5) == "tap / hold I 2.5 s: System 設定"
    assert system_hint(None) == "tap / s: System 設定"


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("seconds", [3.0, 10.0])  # the default, and the longest allowed
def test_the_screen_header_draws_the_seconds_clear_of_the_title_and_hp(
        size: str, seconds: float) -> None:
    screen = ScreenDisplay(size, system_seconds=seconds)
    try:
        for view in (example_view(), example_fight_view()):
            texts = texts_drawn(screen)
            screen.render(replace(view, system=True))
            assert f"tap / hold I {seconds:g} s: System 設定" in texts
            del screen.__dict__["_text"]
        header_h = screen.m(HEADER_HEIGHT)
        hinted = screen.render(replace(example_view(), system=True)).subsurface(
            pygame.Rect(0, 0, screen.width, header_h)).copy()
        plain = screen.render(example_view()).subsurface(
            pygame.Rect(0, 0, screen.width, header_h))
        changed = [x for x in range(screen.width) if any(
            hinted.get_at((x, y)) != plain.get_at((x, y)) for y in range(header_h))]
        title = screen._text(example_view().where, screen.m(20))
        hp_label = screen.width - screen.m(210) - screen.m(8)
        assert changed, "the hint was left out"
        assert min(changed) > screen.m(10) + title.get_width()
        assert max(changed) < hp_label - screen.m(40)
    finally:
        screen.close()


def _terminal_header(system_seconds: float | None) -> str:
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=80), system_seconds=system_seconds).show(
        replace(example_view(), system=True))
    return next(line for line in out.getvalue().splitlines() if "HP" in line).rstrip()


def test_the_terminal_header_says_the_hold_where_buttons_are_wired_on_one_line() -> None:
    assert _terminal_header(3.0).endswith("9/14  s/hold I 3s: System 設定")
    assert _terminal_header(None).endswith("9/14  s: System 設定")


@pytest.mark.parametrize("choices, said", [("gpio", "hold I 4.5s"), ("keyboard", None)])
def test_the_app_passes_the_configured_hold_to_the_display(
        tmp_path: Path, choices: str, said: str | None) -> None:
    config = load_config(tmp_path / "config.toml", env={}, overrides={
        "display.kind": "terminal", "choices.kind": choices,
        "buttons.system_press_seconds": 4.5})
    display, refused = configured_display(config)
    assert refused is None and isinstance(display, TerminalDisplay)
    if said is None:
        assert display.system_hint == "s: System 設定"
    else:
        assert said in display.system_hint


def test_open_display_hands_the_seconds_to_the_screen() -> None:
    screen = open_display("screen", "800x480", False, "", 5.0)
    try:
        assert isinstance(screen, ScreenDisplay)
        assert screen.system_hint == "tap / hold I 5 s: System 設定"
    finally:
        screen.close()


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("floor", [3, 10])  # example_view's, and a two-digit floor's title
@pytest.mark.needs_japanese_font
def test_with_text_a_quarter_larger_the_hp_bar_gives_way_to_the_hint(
        size: str, floor: int) -> None:
    """At ``display.text_scale`` 1.25 the title, the hint and the HP label left no room at
    either size, and the hint was dropped (display audit 54, item 2): the HP bar, shorter,
    makes room for it, in one row, clear of the title and the HP label."""
    screen = ScreenDisplay(size, text_scale=1.25)
    try:
        view = replace(example_view(), floor=floor, room=4)
        header = pygame.Rect(0, 0, screen.width, screen.m(HEADER_HEIGHT))
        hinted = screen.render(replace(view, system=True)).subsurface(header).copy()
        plain = screen.render(view).subsurface(header).copy()
        title_end = screen.m(10) + screen._text(view.where, screen.m(20)).get_width()
        changed = [x for x in range(title_end, screen.width) if any(
            hinted.get_at((x, y)) != plain.get_at((x, y)) for y in range(header.h))]
        assert changed, "the hint was left out"
        box, bar_w = screen._header_places(replace(view, system=True), header)
        assert box is not None and box.left > title_end
        hp_label = screen.width - screen.m(10) - bar_w - screen.m(8) \
            - screen._hp_label(view.sheet).get_width()
        assert box.right < hp_label
        assert screen.m(HP_BAR_MIN) <= bar_w < screen.m(HP_BAR_W)
    finally:
        screen.close()
