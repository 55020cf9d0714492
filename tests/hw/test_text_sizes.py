"""Needed text a player reads at arm's length (accessibility audit M2): the fight log, a
result, the board's coordinates, the legends, a status that runs long, every word the
screen draws that play needs, never below 14 px at 800x480 (they were 11-13 px); and
``display.text_scale``, which sets every font larger (not the layout), what then does not
fit giving way as it did before: a step closer, then cut, never over its panel's edge.

Real views (the layout suites') are drawn through :class:`ScreenDisplay` on SDL's dummy
driver; what was drawn is read back from the blits of rendered text onto the screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion.app.commands.play.session import configured_display
from companion.app.config import load_config
from companion.errors import DataError
from companion.hw.display.fonts import without_cjk
from companion.hw.display.screen import HEADER_HEIGHT, ScreenDisplay
from companion.hw.display.view import View, example_view
from tests.hw.screen_layout_helpers import Blit, spy_blits
from tests.hw.screen_view_helpers import VIEWS

TEXT_MIN = 14  # (at 800x480) the audit's floor: a 10 px capital


# Secondary references, smaller by design: a panel's title, a rule's ID beside its text
# (the text says the same), a tile's code under its name, a piece's mark on its disc (as
# big as the disc, and the rows name it), an empty slot's word (dashed, it shows itself).
_RULE = re.compile(r"^[A-Z]{2,}(-[A-Z0-9]+)+$")
_CODE = re.compile(r"^[1-9][mpsz]$")
_MARK = re.compile(r"^[A-Z][0-9]{0,2}$")


def _secondary(blit: Blit, screen: ScreenDisplay) -> bool:
    titles: set[str] = screen.__dict__["titles"]
    if not screen.has_cjk:  # a title is drawn as its English half, as every text
        titles = titles | {without_cjk(title) for title in titles}
    return blit.text in titles or any(pattern.match(blit.text) for pattern in
                                      (_RULE, _CODE, _MARK)) or blit.text in ("空き", "empty")


@pytest.fixture(params=[("800x480", 1.0), ("1024x600", 1.0), ("800x480", 1.25),
                        ("1024x600", 1.25)], ids=["800x480", "1024x600", "800x480-x1.25",
                                                   "1024x600-x1.25"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale) if scale != 1.0 else ScreenDisplay(size)
    yield display
    display.close()


@pytest.mark.parametrize("name", VIEWS)
def test_every_needed_text_is_drawn_at_14_px_or_more(screen: ScreenDisplay, name: str) -> None:
    blits = spy_blits(screen)
    screen.render(VIEWS[name])
    assert blits, name
    small = sorted({(b.text, b.size) for b in blits
                    if b.size < screen.m(TEXT_MIN) and not _secondary(b, screen)})
    assert not small, small


# ---- display.text_scale: larger fonts, the layout as it is ---------------------------------

def test_a_larger_text_scale_draws_every_text_larger() -> None:
    plain, larger = ScreenDisplay("800x480"), ScreenDisplay("800x480", text_scale=1.25)
    try:
        sizes = []
        for display in (plain, larger):
            blits = spy_blits(display)
            display.render(example_view())
            sizes.append({b.text: b.rect.h for b in blits})
        shared = sizes[0].keys() & sizes[1].keys()
        assert len(shared) > 10
        assert all(sizes[1][text] > sizes[0][text] for text in shared), \
            [text for text in shared if sizes[1][text] <= sizes[0][text]]
        # The layout stays: the same option boxes, where the same taps pick them.
        assert plain._targets == larger._targets
    finally:
        plain.close()
        larger.close()


def _overlaps(blits: list[Blit]) -> list[tuple[str, str]]:
    """Texts whose glyphs run into another's (a piece's mark on its disc is no text)."""
    inked = [b for b in blits if b.ink.w and b.ink.h and not _MARK.match(b.text)]
    return [(a.text, b.text) for n, a in enumerate(inked) for b in inked[n + 1:]
            if a.ink.colliderect(b.ink) and a.mask.overlap(
                b.mask, (b.rect.x - a.rect.x, b.rect.y - a.rect.y)) is not None]


def _off_its_panel(screen: ScreenDisplay, view: View, blits: list[Blit]) -> list[str]:
    """Texts off the screen; in the body, outside every panel; on an option box's edge."""
    panels: list[pygame.Rect] = screen.__dict__["panels"]
    header = screen.m(HEADER_HEIGHT)
    footer = screen.height - screen._footer_height(view)
    boxes = [rect for rect, _ in screen._targets] + ([screen._more[0]] if screen._more else [])
    off = []
    for b in blits:
        if not b.ink.w or not screen.surface.get_rect().contains(b.ink):
            off += [b.text] if b.ink.w else []
            continue
        in_body = b.ink.top >= header and b.ink.bottom <= footer
        if in_body and not view.message and not any(p.contains(b.ink) for p in panels):
            off.append(b.text)
        if any(box.colliderect(b.ink) and not box.contains(b.ink) for box in boxes):
            off.append(b.text)
    return off


@pytest.mark.parametrize("name", VIEWS)
def test_with_larger_text_nothing_runs_off_its_panel_or_into_another(
        screen: ScreenDisplay, name: str) -> None:
    """At every scale (the fixture's 1.25, the largest, among them): each text inside the screen,
    a body's text inside its panel, a label inside its box, and no text over another."""
    blits = spy_blits(screen)
    screen.render(VIEWS[name])
    assert not _off_its_panel(screen, VIEWS[name], blits)
    assert not _overlaps(blits)


# ---- display.text_scale: the setting -----------------------------------------------------------

@pytest.mark.parametrize("value, said", [(1.5, "at most 1.25"), (0.8, "at least 1"),
                                         ("big", "must be a number")])
def test_a_text_scale_out_of_range_is_refused_naming_the_setting(
        tmp_path: Path, value: object, said: str) -> None:
    with pytest.raises(DataError, match=rf"display\.text_scale.*{said}"):
        load_config(tmp_path / "config.toml", env={}, overrides={"display.text_scale": value})
    (tmp_path / "config.toml").write_text(f"[display]\ntext_scale = {value!r}\n".replace(
        "'", '"'), encoding="utf-8")
    config = load_config(tmp_path / "config.toml", env={})
    assert config.number("display.text_scale") == 1.0
    assert any("display.text_scale" in notice and said in notice for notice in config.notices)


def test_the_screen_refuses_a_scale_outside_its_range() -> None:
    with pytest.raises(ValueError, match=r"text_scale 1\.5"):
        ScreenDisplay("800x480", text_scale=1.5)


def test_the_app_opens_the_screen_with_the_configured_text_scale(tmp_path: Path) -> None:
    config = load_config(tmp_path / "config.toml", env={}, overrides={
        "display.kind": "screen", "display.size": "800x480", "display.fullscreen": False,
        "display.text_scale": 1.25})
    display, _ = configured_display(config)
    try:
        assert isinstance(display, ScreenDisplay) and display.text_scale == 1.25
    finally:
        display.close()
