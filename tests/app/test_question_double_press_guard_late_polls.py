"""A question's guard against a double press holds however late the screen or the polls come
(flaky64 P2).

A question before a drastic step (New game, Quit to console, Undo, End fight, Close table) drops
a repeat of the press that opened it for DOUBLE_PRESS_SECONDS (input audit 63 D1). The guard
was thrown away when the question took 0.4 s or more to draw (a starved Pi), and presses were
judged by when a poll read them: a first poll coming late took the double's second press for
the player's answer. Now the window runs from when the question is shown, and a press is
judged by when it came: the buttons' own edge times, and a key or tap read by the first poll
after the question was drawn taken to have come in the window (it may have come while the
screen was drawn).

The clock is the test's; the buttons are gpiozero's mock pins under the real ButtonPanel.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls, choose
from companion.hw.buttons import Button, ButtonPanel, ButtonPins, Pick, Press
from companion.hw.display.view import Option
from tests.app.session_helpers import StepClock

POLL = 0.05
TAP = Pick(1, tap=True)  # New game's box in the System menu, then the question's Yes
QUESTION = (Option("no", "No, back いいえ", Button.FLEE), Option("yes", "Yes はい"))


class Player:
    """What happens while the session is busy: each action at its time on the clock, done as
    the session's sleeps (and draws) move the clock past it."""

    def __init__(self, clock: StepClock) -> None:
        self.clock = clock
        self.actions: list[tuple[float, Callable[[], None]]] = []

    def at(self, when: float, action: Callable[[], None]) -> None:
        self.actions.append((when, action))
        self.actions.sort(key=lambda pair: pair[0])

    def wait(self, seconds: float) -> None:
        end = self.clock.now + seconds
        while self.actions and self.actions[0][0] <= end:
            when, action = self.actions.pop(0)
            self.clock.now = max(self.clock.now, when)
            action()
        self.clock.now = end
        if end > 10:
            raise TimeoutError("nothing was chosen")


class Typed:
    """Keys or taps, read when polled: each poll's presses in turn. ``late``: the seconds the
    session is starved before the poll reads them, poll by poll."""

    def __init__(self, script: list[list[Press]], clock: StepClock,
                 late: tuple[float, ...] = ()) -> None:
        self.script = deque(script)
        self.clock = clock
        self.late = deque(late)

    def poll(self) -> list[Press]:
        self.clock.now += self.late.popleft() if self.late else 0.0
        if self.clock.now > 10:
            raise TimeoutError("nothing was chosen")
        return self.script.popleft() if self.script else []


def ask(controls: Controls, opened_with: Press, draw: Callable[[], None],
        sleep: Callable[[float], None]) -> int:
    """The question, asked after ``opened_with`` chose its entry (SystemMenu.sure)."""
    controls.chose_with = opened_with
    controls.guard_repeat()

    def show(prompt: str, **_: Any) -> None:
        draw()

    return choose(controls, show, "Leave this game? ゲームをやめる？", QUESTION, 0, POLL, sleep)


@pytest.mark.parametrize("draw", [0.2, 0.45, 1.0])
def test_a_question_drawn_slowly_keeps_its_guard(draw: float) -> None:
    """The repro of flaky64 P2: the double tap's second lands on Yes in the first poll after
    the question is drawn. Drawn in 0.4 s or more, it chose Yes: a new game. It is dropped;
    No, pressed later, is taken."""
    clock = StepClock()
    # The first poll drains; No is tapped 0.5 s after the question shows.
    taps = Typed([[], [TAP], *[[]] * 9, [Pick(0, tap=True)]], clock)
    controls = Controls([taps], clock=clock)

    def drawn() -> None:
        clock.now += draw

    assert ask(controls, TAP, drawn, clock.sleep) == 0


def test_a_key_read_by_a_first_poll_that_comes_late_is_in_the_guard() -> None:
    """The question drawn at once, then the loop starved for 0.5 s before its first poll: the
    2 typed twice, read then, may have come at once. (It chose Yes.) A 2 typed later counts."""
    clock = StepClock()
    keys = Typed([[], [Pick(1)], [], [Pick(1)]], clock, late=(0.0, 0.5))
    controls = Controls([keys], clock=clock)
    assert ask(controls, Pick(1), lambda: None, clock.sleep) == 1
    assert clock.now == pytest.approx(0.5 + 2 * POLL)  # taken by the second 2, not the first


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def pressed(factory: MockFactory, pin: int) -> Callable[[], None]:
    def press() -> None:
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    return press


def test_a_button_press_is_judged_by_when_it_was_made(factory: MockFactory) -> None:
    """On the buttons, the second poll starved for 0.5 s: A pressed twice (its double 0.1 s
    after the question showed) is dropped, though read 0.5 s after; ITEM then A, made after
    the guard, take Yes. (The double's A was read past the guard, and chose No.)"""
    clock = StepClock()
    panel = ButtonPanel(ButtonPins(), bounce_time=None, pin_factory=factory, clock=clock)
    controls = Controls([panel], clock=clock)
    player = Player(clock)
    pins = ButtonPins()
    player.at(0.1, pressed(factory, pins.attack))  # the double's second A
    player.at(0.7, pressed(factory, pins.item))  # onto Yes
    player.at(0.8, pressed(factory, pins.attack))
    sleeps = iter([0.5])  # the loop starved after its first poll

    def sleep(seconds: float) -> None:
        player.wait(next(sleeps, seconds))

    try:
        assert ask(controls, Button.ATTACK, lambda: None, sleep) == 1
    finally:
        panel.close()


def test_a_button_press_after_the_guard_counts_though_read_with_the_double(
        factory: MockFactory) -> None:
    """Not slowed either: FLEE (No) made 0.45 s after the question showed counts when the poll
    that reads it comes, even one that also reads the double's A."""
    clock = StepClock()
    panel = ButtonPanel(ButtonPins(), bounce_time=None, pin_factory=factory, clock=clock)
    controls = Controls([panel], clock=clock)
    player = Player(clock)
    pins = ButtonPins()
    player.at(0.1, pressed(factory, pins.attack))
    player.at(0.45, pressed(factory, pins.flee))
    sleeps = iter([0.6])

    def sleep(seconds: float) -> None:
        player.wait(next(sleeps, seconds))

    try:
        assert ask(controls, Button.ATTACK, lambda: None, sleep) == 0
        assert clock.now == pytest.approx(0.6)  # at the first poll that read it
    finally:
        panel.close()


def test_a_wait_under_the_system_menu_keeps_its_guard_when_its_first_poll_is_late(
        factory: MockFactory) -> None:
    """Back on the System menu (B), then a wait (a tile awaited) whose first poll comes 0.5 s
    later: B's double, made 0.1 s after, is dropped there though read late. (It was taken: a
    read's Reject, a throw given up.) Pressed again after the guard, B counts."""
    clock = StepClock()
    panel = ButtonPanel(ButtonPins(), bounce_time=None, pin_factory=factory, clock=clock)
    controls = Controls([panel], clock=clock)
    try:
        assert controls.poll() == []  # the System menu's last poll: Back was pressed
        controls.chose_with = Button.FLEE
        controls.guard_repeat()
        player = Player(clock)
        player.at(0.1, pressed(factory, ButtonPins().flee))
        player.wait(0.5)
        assert controls.poll() == []
        player.at(0.55, pressed(factory, ButtonPins().flee))
        player.wait(0.1)
        assert controls.poll() == [Button.FLEE]
    finally:
        panel.close()


def test_a_key_read_by_a_waits_late_first_poll_is_in_its_guard() -> None:
    """The same with keys (Back is the key 1): the wait's first poll, 0.5 s late, reads the 1
    typed twice, which may have come at once. (It was taken.) Typed again, it counts."""
    clock = StepClock()
    controls = Controls([Typed([[], [Pick(0)], [Pick(0)]], clock)], clock=clock)
    assert controls.poll() == []  # the System menu's last poll
    clock.now += 0.01  # it closes, and the wait begins
    controls.chose_with = Pick(0)
    controls.guard_repeat()
    clock.now += 0.5
    assert controls.poll() == []
    clock.now += POLL
    assert controls.poll() == [Pick(0)]


def test_an_old_guard_for_a_wait_does_not_guard_a_menu_long_after() -> None:
    """A guard set for a wait that ended without a press, the next menu entered 0.5 s after
    it: the menu is not guarded, however quick its draw."""
    clock = StepClock()
    controls = Controls([Typed([[], [TAP]], clock)], clock=clock)
    controls.chose_with = TAP
    controls.guard_repeat()
    clock.now += DOUBLE_PRESS_SECONDS + 0.1
    assert choose(controls, lambda prompt, **_: None, "Next? 次は？", QUESTION, 0, POLL,
                  clock.sleep) == 1
    assert clock.now == pytest.approx(DOUBLE_PRESS_SECONDS + 0.1)


def test_an_ordinary_menu_drawn_slowly_takes_a_press_at_once() -> None:
    """No guard, no wait: the same tap on the next ordinary menu counts in its first poll,
    however long it took to draw."""
    clock = StepClock()
    controls = Controls([Typed([[], [TAP]], clock)], clock=clock)
    controls.chose_with = TAP  # chose in the menu before; no question asked

    def show(prompt: str, **_: Any) -> None:
        clock.now += 0.5

    assert choose(controls, show, "Next? 次は？", QUESTION, 0, POLL, clock.sleep) == 1
