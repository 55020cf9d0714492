"""Screens of other sizes than the 7" ones the layout is drawn for (screen64): one too small
to read is said so, on stderr and on the screen, and a portrait panel (the official Touch
Display 2, 720x1280) shows the landscape layout turned a quarter, its taps turned back."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.commands.play.session import configured_display
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.hw.buttons import Button, ButtonPanel, ButtonPins, Pick
from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import BAD
from companion.hw.display.screen import MIN_SIZE, ScreenDisplay
from companion.hw.display.view import example_view
from companion.hw.keyboard import KeyboardInput

SIZES = {"480x320": (480, 320), "640x384": (640, 384), "480x800": (480, 800),
         "720x1280": (720, 1280), "600x800": (600, 800)}


@pytest.fixture(autouse=True)
def _panel_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Windows of the panels' sizes (full screen takes the panel's own; a window is the
    dummy driver's nearest), and the stderr note said afresh in each test."""
    for name, size in SIZES.items():
        monkeypatch.setitem(screen_module.LAYOUTS, name, size)
    screen_module._say_small_screen.cache_clear()
    yield
    screen_module._say_small_screen.cache_clear()


def _open(size: str, **kwargs: object) -> ScreenDisplay:
    return ScreenDisplay(size, **kwargs)  # type: ignore[arg-type]


def _bad_pixels(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """How many pixels of ``rect`` are the trouble colour (the status's mark and text)."""
    pixels = pygame.surfarray.pixels3d(surface.subsurface(rect))
    return int(((pixels[:, :, 0] == BAD[0]) & (pixels[:, :, 1] == BAD[1])
                & (pixels[:, :, 2] == BAD[2])).sum())


def _footer(display: ScreenDisplay) -> pygame.Rect:
    """The screen's lower third, where the footer and its status are."""
    return pygame.Rect(0, display.height * 2 // 3, display.width, display.height // 3)


# ---- too small to read ---------------------------------------------------------------------


def test_a_screen_too_small_is_said_on_stderr_naming_its_size_and_what_to_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    display = _open("480x320")
    display.close()
    again = _open("480x320")  # a mode switched to opens it again: said once
    again.close()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    line = lines[0]
    assert line.startswith("companion: note: ")
    for said in ("480x320", f"{MIN_SIZE[0]}x{MIN_SIZE[1]}", '7" 800x480', "--display terminal"):
        assert said in line


@pytest.mark.parametrize("size", ["640x384", "800x480", "1024x600"])
def test_a_screen_large_enough_says_nothing(size: str, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    display = _open(size)
    view = example_view()  # no status of its own
    surface = display.render(view)
    assert _bad_pixels(surface, _footer(display)) == 0
    display.close()
    assert capsys.readouterr().err == ""


def test_a_screen_too_small_says_so_in_the_status_until_a_press() -> None:
    """The boot service's player sees no stderr: the screen's status says it (in the trouble
    colour, after the warning mark) on the views that have no status of their own, until
    the player presses on; the game plays on meanwhile."""
    display = _open("480x320")
    view = example_view()
    surface = display.render(view)
    assert _bad_pixels(surface, _footer(display)) > 20
    # The same ask drawn again (not pressed yet): said again.
    surface = display.render(replace(view, log=(*view.log[1:], "a step 一歩")))
    assert _bad_pixels(surface, _footer(display)) > 20
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a", mod=0))
    assert display.poll() == [Button.ATTACK]  # the press is the game's, not eaten
    surface = display.render(view)
    assert _bad_pixels(surface, _footer(display)) == 0
    display.close()


class _KeysOverSsh:
    """The terminal keyboard (an SSH session's keys) on a pty: a test types into it."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.keyboard = KeyboardInput(slave)
        self.slave = slave

    def press(self) -> None:
        os.write(self.master, b"a")  # A: attack / take the lit option

    def close(self) -> None:
        self.keyboard.close()
        os.close(self.master)
        os.close(self.slave)


class _GpioButtons:
    """The button box on gpiozero's mock pins: a test presses A."""

    def __init__(self) -> None:
        self.factory = MockFactory()
        self.pins = ButtonPins()
        self.keyboard = ButtonPanel(self.pins, bounce_time=None, pin_factory=self.factory)

    def press(self) -> None:
        pin = self.factory.pin(self.pins.attack)
        pin.drive_low()
        pin.drive_high()

    def close(self) -> None:
        self.keyboard.close()
        self.factory.reset()


@pytest.mark.parametrize("source", [_GpioButtons, _KeysOverSsh], ids=["gpio", "ssh"])
def test_a_press_on_the_buttons_or_an_ssh_keyboard_ends_the_size_note(
        source: type[_GpioButtons | _KeysOverSsh]) -> None:
    """The presses of the GPIO buttons and of the terminal keyboard come to the session
    through Controls, never through the screen's own poll: the note stayed on every view
    without a status, all the run (review64s DEFECT 2). The next ask, after the press,
    is drawn without it."""
    hands = source()
    display = _open("480x320")
    controls = Controls([hands.keyboard, display])
    try:
        view = example_view()
        display.show(view)
        assert _bad_pixels(display.surface, _footer(display)) > 20
        hands.press()
        got: list[object] = []
        deadline = time.monotonic() + 2
        while not got and time.monotonic() < deadline:
            got = list(controls.poll())
        assert got == [Button.ATTACK]  # the press is the game's
        # The game's next ask, drawn after that press.
        display.show(replace(view, prompt="オーク orc attack! 攻撃！", options=view.options[:2],
                             log=(*view.log[1:], "fight 戦闘")))
        assert _bad_pixels(display.surface, _footer(display)) == 0
        display.show(view)  # and it is not said again
        assert _bad_pixels(display.surface, _footer(display)) == 0
    finally:
        display.close()
        hands.close()


def test_a_views_own_status_is_not_covered_by_the_size_note() -> None:
    """A reader's trouble in the status is drawn as it is, the note waiting for a view
    without one."""
    view = replace(example_view(), status="the reader is not answering 読み取り機が無応答")
    pending, said = _open("480x320"), _open("480x320")
    said.render(example_view())
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a", mod=0))
    said.poll()
    first = pygame.surfarray.array3d(pending.render(view))
    assert (first == pygame.surfarray.array3d(said.render(view))).all()
    pending.close()
    said.close()


# ---- a portrait panel, turned ----------------------------------------------------------------


def test_a_portrait_panel_shows_the_landscape_layout_turned(tmp_path: Path) -> None:
    """At 480x800 the saved picture is the panel's size, and it is the 800x480 layout turned
    a quarter clockwise, pixel for pixel, not the layout shrunk to the panel's width."""
    view = replace(example_view(), system=True)
    # (pygame has one window: the landscape one is drawn first, and set aside.)
    turned = pygame.transform.rotate(_open("800x480").render(view), -90)
    portrait = _open("480x800")
    assert (portrait.width, portrait.height) == (800, 480)
    portrait.show(view)
    path = tmp_path / "portrait.png"
    portrait.save_png(path)
    saved = pygame.image.load(str(path))
    assert saved.get_size() == (480, 800)
    assert (pygame.surfarray.array3d(saved) == pygame.surfarray.array3d(turned)).all()
    # What the panel shows is that picture too (the window, after show).
    shown = pygame.display.get_surface()
    assert (pygame.surfarray.array3d(shown) == pygame.surfarray.array3d(turned)).all()
    portrait.close()


def _panel_point(degrees: int, panel: tuple[int, int], x: int, y: int) -> tuple[int, int]:
    """Where a point of the layout is on a ``panel`` (its width and height) that shows the
    layout turned ``degrees`` clockwise."""
    w, h = panel[::-1] if degrees in (90, 270) else panel  # the layout's size
    return {0: (x, y), 90: (h - 1 - y, x), 180: (w - 1 - x, h - 1 - y),
            270: (y, w - 1 - x)}[degrees]


@pytest.mark.parametrize(("size", "rotate", "degrees"), [
    ("480x800", "auto", 90), ("720x1280", "auto", 90), ("480x800", "270", 270),
    ("800x480", "180", 180)])
def test_a_tap_on_a_turned_panel_picks_the_option_under_the_finger(
        size: str, rotate: str, degrees: int) -> None:
    display = _open(size, rotate=rotate) if rotate != "auto" else _open(size)
    display.show(example_view())
    # The third and fourth options' boxes on the layout, and where the panel shows them.
    third = next(rect for rect, index in display._targets if index == 2)
    fourth = next(rect for rect, index in display._targets if index == 3)
    panel = pygame.display.get_surface().get_size()
    at = _panel_point(degrees, panel, *third.center)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=at, button=1))
    x, y = _panel_point(degrees, panel, *fourth.center)
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(kind, x=x / panel[0], y=y / panel[1], touch_id=0,
                                             finger_id=0, dx=0, dy=0, pressure=1))
    assert display.poll() == [Pick(2), Pick(3)]
    assert display.rotation == degrees
    display.close()


def _window() -> np.ndarray:
    return pygame.surfarray.array3d(pygame.display.get_surface())


def _layout_turned(display: ScreenDisplay) -> np.ndarray:
    """The layout as drawn, turned as the panel shows it (pygame turns counterclockwise)."""
    return pygame.surfarray.array3d(pygame.transform.rotate(display.surface,
                                                            -display.rotation))


def _finger(display: ScreenDisplay, kind: int, degrees: int, x: int, y: int,
            finger: int = 0) -> None:
    panel = pygame.display.get_surface().get_size()
    px, py = _panel_point(degrees, panel, x, y)
    pygame.event.post(pygame.event.Event(kind, x=(px + 0.5) / panel[0],
                                         y=(py + 0.5) / panel[1], touch_id=0,
                                         finger_id=finger, dx=0, dy=0, pressure=1))
    display.poll()


@pytest.mark.parametrize(("size", "rotate", "degrees"), [
    ("480x800", "auto", 90), ("720x1280", "auto", 90), ("480x800", "270", 270),
    ("800x480", "180", 180)])
def test_a_turned_panel_shows_the_layout_turned_through_a_tap_lit_and_put_back(
        size: str, rotate: str, degrees: int) -> None:
    """The layout is turned onto the panel straight into the window's pixels, and a tap's
    light turns only its box again: the panel shows the layout turned, pixel for pixel,
    after a frame, a finger down (its box lit), a second finger (the light moved) and the
    lifts (put back)."""
    display = _open(size, rotate=rotate) if rotate != "auto" else _open(size)
    display.show(example_view())
    assert (_window() == _layout_turned(display)).all()
    shown = _window()
    first = next(rect for rect, index in display._targets if index == 0)
    third = next(rect for rect, index in display._targets if index == 2)
    _finger(display, pygame.FINGERDOWN, degrees, *first.center)
    lit = _window()
    assert (lit == _layout_turned(display)).all()
    assert (lit != shown).any(axis=2).sum() > first.w * first.h // 2  # the box is lit
    _finger(display, pygame.FINGERDOWN, degrees, *third.center, finger=1)
    assert (_window() == _layout_turned(display)).all()
    _finger(display, pygame.FINGERUP, degrees, 1, 1, finger=1)  # lifted off: picks nothing
    _finger(display, pygame.FINGERUP, degrees, 1, 1)
    assert (_window() == shown).all()
    display.close()


def test_a_panel_with_no_2d_view_of_its_pixels_is_turned_all_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A 24-bit window has no 2-D array of its pixels (pygame raises ValueError): the layout
    is turned onto a surface of its own and put on the panel."""
    def no_view(surface: pygame.Surface) -> None:
        raise ValueError("unsupported bit depth for 2D reference array")

    display = _open("480x800")
    monkeypatch.setattr(pygame.surfarray, "pixels2d", no_view)
    display.show(example_view())
    assert (_window() == _layout_turned(display)).all()
    display.close()


def test_the_header_of_a_turned_panel_opens_the_system_menu() -> None:
    display = _open("480x800")
    display.show(replace(example_view(), system=True))
    # The header runs down the panel's right edge.
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(475, 400), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(475, 400), button=1))
    assert display.poll() == [Button.SYSTEM]
    display.close()


def test_rotate_0_keeps_a_portrait_panel_as_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    """``display.rotate = "0"``: the layout at the panel's width (800x480 scaled to 480 wide:
    too small, and said so)."""
    display = _open("480x800", rotate="0")
    assert (display.rotation, display.width, display.height) == (0, 480, 800)
    display.close()
    assert "480x800" in capsys.readouterr().err


def test_a_turned_portrait_panel_too_small_is_said_by_its_layout_size(
        capsys: pytest.CaptureFixture[str]) -> None:
    """600x800 turned is an 800x600 layout: large enough. 480x320 turned would be 320x480."""
    _open("600x800").close()
    assert capsys.readouterr().err == ""


def test_the_screen_refuses_a_rotation_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="rotate '45'"):
        _open("800x480", rotate="45")


def test_the_app_opens_the_screen_with_the_configured_rotation(tmp_path: Path) -> None:
    config = load_config(tmp_path / "config.toml", env={}, overrides={
        "display.kind": "screen", "display.size": "800x480", "display.fullscreen": False,
        "display.rotate": "180"})
    assert load_config(tmp_path / "none.toml", env={}).text("display.rotate") == "auto"
    display, _ = configured_display(config)
    try:
        assert isinstance(display, ScreenDisplay) and display.rotation == 180
    finally:
        display.close()
