"""Tap targets a fingertip can hit (accessibility audit H2): every option box, the page box,
at least 44 px tall at 800x480 and 8 px apart on every screen that has them; a tap picks
when the finger lifts inside the box it went down on, and the pressed box is lit meanwhile.

Real views are drawn through :class:`ScreenDisplay` on SDL's dummy driver, the views of the
layout suites (``test_screen_layout``, ``test_screen_cuts``) among them.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.screen import HEADER_HEIGHT, ScreenDisplay
from companion.hw.display.view import (
    Option,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import spy_text
from tests.hw.screen_view_helpers import ORCS, VIEWS

# The audit's figures (at 800x480): about 8 mm tall on a 7-inch panel, 1.4 mm apart.
TAP_MIN = 44
TAP_GAP = 8


def _boxes(screen: ScreenDisplay) -> list[pygame.Rect]:
    return [rect for rect, _ in screen._targets] + ([screen._more[0]] if screen._more else [])


@pytest.mark.parametrize("name", VIEWS)
def test_every_box_is_a_fingertip_tall_and_apart_from_the_next(screen: ScreenDisplay,
                                                                name: str) -> None:
    m = screen.m
    screen.render(VIEWS[name])
    boxes = _boxes(screen)
    assert boxes, name
    assert all(box.h >= m(TAP_MIN) for box in boxes), [box.h for box in boxes]
    for n, a in enumerate(boxes):
        for b in boxes[n + 1:]:
            apart = max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom)
            assert apart >= m(TAP_GAP), (a, b)
    # Inside the screen, under the header (the body gave up the rows they need).
    assert all(box.top >= m(HEADER_HEIGHT) and box.bottom <= screen.height for box in boxes)


def _post(kind: int, screen: ScreenDisplay, pos: tuple[int, int]) -> None:
    if kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(
            kind, x=pos[0] / screen.width, y=pos[1] / screen.height, touch_id=0, finger_id=0,
            dx=0, dy=0, pressure=1))
    else:
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))


@pytest.mark.parametrize(("down", "up"), [(pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP),
                                          (pygame.FINGERDOWN, pygame.FINGERUP)])
def test_a_tap_picks_on_lifting_in_the_box_it_went_down_on(screen: ScreenDisplay, down: int,
                                                           up: int) -> None:
    screen.render(replace(example_fight_view(), options=ORCS, highlight=1))
    first, second = screen._targets[0][0], screen._targets[1][0]
    _post(down, screen, first.center)
    assert screen.poll() == []  # down: nothing yet
    _post(up, screen, (first.right - 2, first.bottom - 2))
    assert screen.poll() == [Pick(0)]
    _post(down, screen, first.center)  # slid off onto the next box: nothing
    _post(up, screen, second.center)
    assert screen.poll() == []
    _post(down, screen, first.center)  # slid off anywhere: nothing
    _post(up, screen, (first.centerx, first.top - screen.m(TAP_GAP) // 2))
    assert screen.poll() == []
    _post(up, screen, second.center)  # a lift with no press before it: nothing
    assert screen.poll() == []
    assert screen._more is not None  # the page box, as its MENU presses
    _post(down, screen, screen._more[0].center)
    _post(up, screen, screen._more[0].center)
    assert screen.poll() == [Button.MENU] * screen._more[1]


def test_a_touch_screen_mouse_click_is_not_a_second_tap(screen: ScreenDisplay) -> None:
    screen.render(example_view())
    box = screen._targets[1][0]
    _post(pygame.FINGERDOWN, screen, box.center)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=box.center, button=1,
                                         touch=True))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=box.center, button=1,
                                         touch=True))
    _post(pygame.FINGERUP, screen, box.center)
    assert screen.poll() == [Pick(1)]


@pytest.mark.parametrize("button", [2, 3, 4, 5])
def test_only_the_primary_mouse_button_taps(screen: ScreenDisplay, button: int) -> None:
    """A mouse wheel over a box picked it (pygame sends the wheel as buttons 4 and 5; sweep
    53 item 3): scrolling over the window took a Flee or a Fight. A middle or right click is
    no tap either, and lights nothing."""
    screen.render(example_view())
    box = screen._targets[1][0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=box.center, button=button))
    assert screen.poll() == []
    assert screen._lit is None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=box.center, button=button))
    assert screen.poll() == []
    _post(pygame.MOUSEBUTTONDOWN, screen, box.center)  # the primary button: a tap
    _post(pygame.MOUSEBUTTONUP, screen, box.center)
    assert screen.poll() == [Pick(1)]


def test_the_header_opens_system_on_lifting_in_it(screen: ScreenDisplay) -> None:
    screen.render(replace(example_view(), system=True))
    _post(pygame.FINGERDOWN, screen, (10, 5))
    assert screen.poll() == []
    _post(pygame.FINGERUP, screen, (screen.width - 10, 5))
    assert screen.poll() == [Button.SYSTEM]
    _post(pygame.FINGERDOWN, screen, (10, 5))  # from the header onto the body: nothing
    _post(pygame.FINGERUP, screen, (10, screen.m(HEADER_HEIGHT) + screen.m(60)))
    assert screen.poll() == []


def test_the_header_is_no_target_where_system_is_not_offered(screen: ScreenDisplay) -> None:
    """On a screen that offers no System menu (the corrupt-save question, the Settings
    notices, the menu itself) the header lit under a finger, and its tap was a SYSTEM the
    controls dropped: a button that did nothing (sweep 53 item 14)."""
    view = message_view("The save could not be read. Start a new game?",
                        (Option("new", "New game 新しいゲーム", Button.ATTACK),
                         Option("quit", "Quit 終了", Button.FLEE)))
    screen.render(replace(view, system=False))
    _post(pygame.FINGERDOWN, screen, (10, 5))
    assert screen.poll() == []
    assert screen._lit is None  # not lit
    _post(pygame.FINGERUP, screen, (10, 5))
    assert screen.poll() == []
    screen.render(replace(view, system=True))  # offered: the header is its button
    _post(pygame.FINGERDOWN, screen, (10, 5))
    assert screen.poll() == []
    assert screen._lit is not None
    _post(pygame.FINGERUP, screen, (10, 5))
    assert screen.poll() == [Button.SYSTEM]


def test_the_pressed_box_is_lit_until_the_finger_lifts(screen: ScreenDisplay) -> None:
    surface = screen.render(example_view())
    box = screen._targets[1][0]
    inside = (box.x + screen.m(10), box.centery)
    before = surface.get_at(inside)
    _post(pygame.FINGERDOWN, screen, box.center)
    screen.poll()
    lit = surface.get_at(inside)
    assert sum(lit[:3]) > sum(before[:3])  # lighter while pressed
    _post(pygame.FINGERUP, screen, (5, screen.height // 2))  # slid off: put back as it was
    screen.poll()
    assert surface.get_at(inside) == before


@pytest.mark.parametrize("name", ["board", "board long menu", "board long menu status"])
def test_the_log_beside_the_board_keeps_rows_under_a_taller_footer(screen: ScreenDisplay,
                                                                   name: str) -> None:
    """The body is shorter by what the boxes need: beside a board the squares give way
    before the log's rows do (under a status over a grid it had none left)."""
    view = VIEWS[name]
    assert view.fight is not None
    drawn = spy_text(screen)
    screen.render(view)
    newest = view.fight.log[-1]
    rows = [d for d in drawn if d.text.lstrip("…") and d.text.lstrip("…") in newest]
    assert rows, "the log beside the board is blank"


def _press_then(screen: ScreenDisplay, after: View) -> list[Press]:
    """A finger down on the second box of a menu, ``after`` shown, the finger lifted."""
    view = replace(example_view(), status="3m 三萬 lifted: it still counts in 2 s")
    screen.show(view)
    box = screen._targets[1][0]
    _post(pygame.FINGERDOWN, screen, box.center)
    screen.poll()
    screen.show(after)
    assert screen._targets[1][0] == box  # the same place
    _post(pygame.FINGERUP, screen, box.center)
    return screen.poll()


def test_a_press_outlives_its_menu_drawn_again_lit(screen: ScreenDisplay) -> None:
    """The same menu drawn again while the finger is down (a status counting down) keeps
    the press, and its box lit."""
    view = replace(example_view(), status="3m 三萬 lifted: it still counts in 1 s")
    screen.show(view)
    box = screen._targets[1][0]
    inside = (box.x + screen.m(10), box.centery)
    unlit = screen.surface.get_at(inside)
    lit: list[int] = []
    show = screen.show

    def spy(shown: View) -> None:
        show(shown)
        lit.append(sum(screen.surface.get_at(inside)[:3]))

    screen.__dict__["show"] = spy
    assert _press_then(screen, view) == [Pick(1)]
    assert lit[-1] > sum(unlit[:3])


def test_a_finger_down_on_one_menu_picks_nothing_from_the_next(screen: ScreenDisplay) -> None:
    """A step resolved under the finger: the next menu's boxes may lie where the last
    menu's did, and a lift there is no tap on it."""
    after = replace(example_view(), prompt="Next room 次の部屋",
                    status="3m 三萬 lifted: it still counts in 2 s")
    assert _press_then(screen, after) == []


def test_with_two_fingers_down_the_last_pressed_is_lit_then_the_one_still_down(
        screen: ScreenDisplay) -> None:
    """One box is lit, the last pressed of the fingers down: the first to lift takes its
    option, so two lit would read as two chosen. The second finger sliding off lit nothing,
    though the first still held its box, and its lift there still picked (display audit 54,
    item 6)."""
    surface = screen.render(example_view())
    first, second = screen._targets[0][0], screen._targets[1][0]

    def lit(box: pygame.Rect) -> bool:
        return surface.get_at((box.x + screen.m(10), box.centery)) != unlit[box.x]

    unlit = {box.x: surface.get_at((box.x + screen.m(10), box.centery))
             for box in (first, second)}

    def finger(kind: int, finger_id: int, pos: tuple[int, int]) -> None:
        pygame.event.post(pygame.event.Event(
            kind, x=pos[0] / screen.width, y=pos[1] / screen.height, touch_id=0,
            finger_id=finger_id, dx=0, dy=0, pressure=1))

    finger(pygame.FINGERDOWN, 0, first.center)
    finger(pygame.FINGERDOWN, 1, second.center)
    assert screen.poll() == []
    assert lit(second) and not lit(first)
    finger(pygame.FINGERUP, 1, (5, screen.height // 2))  # the second slid off: no pick
    assert screen.poll() == []
    assert lit(first) and not lit(second)
    finger(pygame.FINGERUP, 0, first.center)
    assert screen.poll() == [Pick(0)]
    assert not lit(first) and not lit(second)
