"""A double press is dropped however far apart a wait's polls come (review64f RISK 1).

A key or a tap is read when polled, and may have come at any time since the poll before; it
was judged as if it came when read. So in a wait whose polls are far apart (the camera's dice
wait reads a frame, and draws what it sees, between two: more than 0.4 s on a Pi), a double
tap's second tap, or B typed twice, on the System menu's Back was read past the guard and gave
up the throw awaited (input audit 63 D2). The camera's read of a throw judged the double of
the press that typed a value so too, and from before the read was drawn. Now such a press is
dated at the earliest time it could have come (:func:`came_at`).

Read by polls close together (a menu's, at most :data:`CLOSE_POLL_SECONDS` apart), a key or
a tap is judged as come when read: a player's own repeat made just past the window counts at
once, as before (review65g RISK 1; dated at the poll before, it was dropped once).

The clock is the test's; the presses come at times of their own, read by the next poll.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from companion.app.session.controls import (
    CLOSE_POLL_SECONDS,
    DOUBLE_PRESS_SECONDS,
    Controls,
    MenuChoices,
    Question,
)
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import WAIT_OPTIONS, CameraFrames, CameraRolls, RollCancelled
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.view import Option
from tests.app.session_helpers import StepClock

POLL = 0.05
TAP = Pick(0, tap=True)  # Back's box on the System menu, and the dice wait's own Back


class Made:
    """Keys or taps, each made at its time on the clock and read by the first poll after."""

    def __init__(self, clock: StepClock, script: list[tuple[float, Press]]) -> None:
        self.clock = clock
        self.script = sorted(script, key=lambda pair: pair[0])
        self.read_at: list[float] = []

    def poll(self) -> list[Press]:
        if self.clock.now > 30:
            raise TimeoutError("still waiting, every press used up")
        made = [press for at, press in self.script if at <= self.clock.now]
        self.script = self.script[len(made):]
        self.read_at.extend(self.clock.now for _ in made)
        return made


@pytest.mark.parametrize("press", [TAP, Pick(0), Button.FLEE],
                         ids=["double tap", "1 typed twice", "b typed twice"])
def test_a_double_read_after_a_poll_gap_of_045_s_is_dropped_and_a_later_press_counts(
        press: Press) -> None:
    """Back left the System menu at 0; the wait polls at 0.05 s, then not until 0.5 s: the
    double, made at 0.2 s, is dropped there. (It was taken: read 0.5 s after the guard.)
    The same press made at 0.7 s, read at 0.95 s, is the player's own."""
    clock = StepClock()
    hands = Made(clock, [(0.2, press), (0.7, press)])
    controls = Controls([hands], clock=clock)
    assert controls.poll() == []  # the menu's last poll, which read Back
    controls.chose_with = press
    controls.guard_repeat()
    clock.sleep(POLL)
    assert controls.poll() == []
    clock.sleep(0.45)
    assert controls.poll() == []  # the double: read late, it came in the guard
    assert hands.read_at == [pytest.approx(0.5)]
    clock.sleep(0.45)
    assert controls.poll() == [press]


def test_a_press_read_by_the_poll_after_the_window_whose_poll_before_was_in_it_is_dropped(
        ) -> None:
    """The safe side of the trade: read at 0.6 s after a poll at 0.3 s, the press may be the
    double (made at 0.31 s); it is dropped, the guard is over, and the next counts."""
    clock = StepClock()
    hands = Made(clock, [(0.45, Button.FLEE), (0.65, Button.FLEE)])
    controls = Controls([hands], clock=clock)
    controls.chose_with = Button.FLEE
    controls.guard_repeat()
    clock.sleep(0.3)
    assert controls.poll() == []
    clock.sleep(0.3)
    assert controls.poll() == []
    clock.sleep(0.1)
    assert controls.poll() == [Button.FLEE]


class SlowFrames:
    """A camera whose every frame takes ``each`` seconds to read and draw (a Pi)."""

    def __init__(self, clock: StepClock, each: float) -> None:
        self.clock = clock
        self.each = each

    def __iter__(self) -> Iterator[np.ndarray]:
        return self

    def __next__(self) -> np.ndarray:
        self.clock.sleep(self.each)
        return np.zeros((4, 4, 3), np.uint8)


@pytest.mark.parametrize("back", [TAP, Button.FLEE], ids=["double tap", "b typed twice"])
def test_a_double_on_back_does_not_give_up_a_throw_awaited_by_a_slow_camera(
        back: Press) -> None:
    """The System menu opened over the dice wait, Back at 1 s, and its double 0.2 s later;
    the camera's frames take 0.45 s each, so the wait's second poll reads the double 0.45 s
    after Back. (It gave up the throw.) The player's own Back, at 2.5 s, gives it up."""
    clock = StepClock()
    hands = Made(clock, [(0.1, Button.SYSTEM), (1.0, back), (1.2, back), (2.5, back)])
    controls = Controls([hands], clock=clock)
    menu = SystemMenu(controls, "dice", POLL, "", sleep=clock.sleep, clock=clock)
    frames = CameraFrames(SlowFrames(clock, 0.45), controls, lambda frame: False,
                          sleep=clock.sleep, clock=clock)
    frames.rethrow = True  # dice that lie unmoved: the wait goes on until they are thrown
    shown: list[str] = []

    def show(prompt: str, **_: object) -> None:
        shown.append(prompt)

    def ask() -> None:
        show("Throw 1D6 to hit", options=WAIT_OPTIONS)
        next(frames)

    with pytest.raises(RollCancelled):
        menu.answering(ask, show, lambda: "")
    assert any(p.startswith("System") for p in shown)
    assert len(hands.read_at) == 4, (  # SYSTEM, Back, its double, the player's own
        f"the throw was given up before the player's own Back (reads at {hands.read_at})")
    back_read, double_read, own_read = hands.read_at[1:]
    assert double_read - back_read >= DOUBLE_PRESS_SECONDS  # read past the guard
    assert not hands.script and clock.now == own_read  # given up by the player's own


def judge_typed(clock: StepClock, hands: Made, draw_s: float = 0.0,
                poll_s: float = POLL) -> bool:
    """A 2D6 read with a value typed by a tap (Pick 4: the face 5 under Accept's place),
    judged; drawing it takes ``draw_s``, and the polls come ``poll_s`` apart."""
    controls = Controls([hands], clock=clock)
    controls.chose_with = Pick(4, tap=True)
    rolls = CameraRolls(None, None, controls, accept_seconds=3.0,  # type: ignore[arg-type]
                        poll_seconds=poll_s, sleep=clock.sleep, clock=clock)

    def show(prompt: str, **_: object) -> None:
        clock.sleep(draw_s)

    return rolls.judge(RollAsk("to hit", 2, 6), (3, 5), show, timed=False,
                       typed_with=controls.chose_with)


def test_a_typed_values_double_read_by_a_late_poll_does_not_accept_it() -> None:
    """The second tap of the double that typed the value lands on the read's Accept 0.2 s
    after it is shown; the next poll comes 0.45 s after the first (a starved Pi). (It
    accepted the value unseen.) Only the player's own Accept, at 1.0 s, takes it."""
    clock = StepClock()
    hands = Made(clock, [(0.2, Pick(0, tap=True)), (1.0, Pick(0, tap=True))])
    assert judge_typed(clock, hands, poll_s=0.45) is True
    assert not hands.script and clock.now == hands.read_at[-1] >= 1.0


def test_a_typed_values_double_made_while_the_read_is_drawn_does_not_accept_it() -> None:
    """Drawn in 0.45 s, the read's Accept was tapped by the double during the draw; the
    guard ran from before the draw, so the first poll took it. Then A, at 1.0 s, takes it."""
    clock = StepClock()
    hands = Made(clock, [(0.2, Pick(0, tap=True)), (1.0, Button.ATTACK)])
    assert judge_typed(clock, hands, draw_s=0.45) is True
    assert not hands.script and clock.now == hands.read_at[-1] >= 1.0


def test_a_typed_values_reject_and_an_accept_after_the_guard_count_at_once() -> None:
    """Not slowed: B rejects in the guard, and an accept read by a poll whose poll before was
    past the guard counts at the poll that reads it."""
    clock = StepClock()
    assert judge_typed(clock, Made(clock, [(0.1, Button.FLEE)])) is False
    assert clock.now == pytest.approx(0.1)
    clock = StepClock()
    hands = Made(clock, [(0.48, Pick(0, tap=True))])
    assert judge_typed(clock, hands) is True
    assert clock.now == pytest.approx(0.5)


#: A menu's polls on a Pi: input.poll_seconds (0.05 s), each sleep overshooting a little.
CLOSE = 0.051
CLOSE_TABLE = Question("Close the table?", (Option("back", "Back"), Option("close", "Close")))


@pytest.mark.parametrize("press", [Pick(1), Pick(1, tap=True)], ids=["2 typed again", "tap again"])
def test_a_questions_own_repeat_just_past_the_window_counts_when_read(press: Press) -> None:
    """Close table (the key 2, or a tap on its box) opened the question at 0; its menu polls
    every 0.051 s. The player's own press on Close made 0.405 s after the question is shown
    is read at 0.408 s and counts there. (Dated at the poll before, 0.357 s, it was dropped,
    and only a press again took the question.) The double, made at 0.25 s, is still
    dropped: only the press again, 0.3 s later, takes it."""
    assert CLOSE <= CLOSE_POLL_SECONDS < DOUBLE_PRESS_SECONDS
    for made, taken_by in ((0.405, 0), (0.25, 1)):  # the player's own repeat, a double
        clock = StepClock()
        hands = Made(clock, [(made, press), (made + 0.3, press)])  # pressed again if dropped
        controls = Controls([hands], clock=clock)
        controls.chose_with = press
        assert MenuChoices(controls, CLOSE, clock.sleep).next_choice(
            CLOSE_TABLE, lambda *_, **__: None) == 1
        assert clock.now == hands.read_at[taken_by]
        if made > DOUBLE_PRESS_SECONDS:
            assert clock.now == pytest.approx(0.408)  # the first poll after it: 8 x 0.051


def test_a_waits_own_repeat_after_the_system_menus_back_counts_when_read() -> None:
    """Back left the System menu at 0 for a wait polled every 0.051 s (a tile awaited): the
    player's own B made at 0.405 s counts at the poll that reads it, 0.408 s."""
    clock = StepClock()
    hands = Made(clock, [(0.405, Button.FLEE), (2.0, Button.FLEE)])  # again, if dropped
    controls = Controls([hands], clock=clock)
    controls.chose_with = Button.FLEE
    controls.guard_repeat()
    while not (got := controls.poll()):
        clock.sleep(CLOSE)
    assert got == [Button.FLEE] and clock.now == hands.read_at[0] == pytest.approx(0.408)


def test_a_typed_values_own_accept_just_past_the_window_counts_when_read() -> None:
    """The value typed by a tap; the read polled every 0.051 s: the player's tap on Accept
    made at 0.405 s after the read is shown counts at the poll that reads it, 0.408 s."""
    clock = StepClock()
    hands = Made(clock, [(0.405, Pick(0, tap=True)), (2.0, Pick(0, tap=True))])
    assert judge_typed(clock, hands, poll_s=CLOSE) is True
    assert clock.now == hands.read_at[0] == pytest.approx(0.408)
