"""The doubted die's question takes no accept habit for a value (review62f DEFECT 1).

The question comes up where a read's Accept/Reject screen would. It opens on Re-roll, so a
habitual A types nothing; but the keyboard's "1" (Accept on a read) is face 1 there, and a
tap at Accept's place lands on face 5. A throw with a value typed is therefore never taken
by the countdown, only by an Accept on the screen showing the value, and not by the second
press of a double tap whose first typed it. Driven through the real session and reader on a
real photo (one smoke-black die of four unclear), only the presses stood in.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import TYPED_CHECK, CameraFrames, CameraRolls
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.source import CameraDiceSource
from companion.hw.display.view import TO_TYPE
from tests.hw.dice_photo_helpers import DARK_DIE, PHOTOS

pytestmark = pytest.mark.skipif(not PHOTOS.exists(),
                                reason="the shared real dice photos are not here")
QUESTION = "Type the die at the"
READ = "Read 読み取り 4D6"
ACCEPT_TAP = Pick(4, tap=True)  # a tap at Accept's centre on the question: face 5 (review62f)
ACCEPT_KEY = Pick(0)  # the keyboard's "1": Accept on a read, face 1 on the question


class Undecided(Exception):
    """The read was still shown, undecided, long after any countdown would have ended."""


class Stuck(Exception):
    """Another screen waited on for ever (none of this test's)."""


class Clock:
    """Time that passes 50 ms from one poll of the presses to the next."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Player:
    """Presses ``script``'s keys, each once the prompt shown starts with its words and
    ``after`` seconds of the clock have passed since that screen first came up; gives up
    (:class:`Undecided`) once a read has been shown ``give_up_s`` with nothing left to press."""

    def __init__(self, clock: Clock, script: list[tuple[str, float, Press]],
                 give_up_s: float = 60.0) -> None:
        self.clock = clock
        self.script = script
        self.give_up_s = give_up_s
        self.shown: list[tuple[str, str]] = []
        self.since = 0.0

    def show(self, prompt: str, **kwargs: object) -> None:
        if not self.shown or self.shown[-1][0] != prompt:
            self.since = self.clock.now
        self.shown.append((prompt, str(kwargs.get("status", ""))))

    def poll(self) -> list[Press]:
        self.clock.now += 0.05
        if not self.shown:
            return []
        prompt, waited = self.shown[-1][0], self.clock.now - self.since
        if self.script:
            words, after, press = self.script[0]
            if prompt.startswith(words) and waited >= after:
                self.script.pop(0)
                return [press]
        elif prompt.startswith(READ) and waited > self.give_up_s:
            raise Undecided
        if waited > 10 * self.give_up_s:
            raise Stuck(prompt)
        return []


@cache
def photo() -> np.ndarray:
    image = cv2.imread(str(PHOTOS / DARK_DIE), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def throw(player: Player, clock: Clock) -> Throw:
    controls = Controls([player], clock=clock)
    stream = CameraFrames(iter([photo()] * 6), controls, moving=lambda frame: False)
    source = CameraDiceSource(frames=stream, timeout_s=600.0, clock=clock,
                              sleep=lambda s: None)
    rolls = CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                        sleep=lambda s: None, clock=clock)
    rolls.reads = 1  # not the session's first read (that one has no countdown anyway)
    return rolls.next_throw(RollAsk("damage ダメージ", 4, 6), player.show)


@pytest.mark.parametrize("habit", [ACCEPT_TAP, ACCEPT_KEY], ids=["tap", "key 1"])
def test_a_value_typed_by_an_accept_habit_is_not_taken_by_the_countdown(habit: Press) -> None:
    clock = Clock()
    player = Player(clock, [(QUESTION, 0.5, habit)])
    with pytest.raises(Undecided):  # 60 s on, still shown: no 3 s countdown took it
        throw(player, clock)
    assert not player.script
    statuses = {status for prompt, status in player.shown if prompt.startswith(READ)}
    assert statuses == {f"B rejects Bでやり直し; {TYPED_CHECK}"}


def test_a_double_tap_on_accepts_place_types_a_value_and_does_not_accept_it() -> None:
    """The second tap of a double tap lands on the read's Accept, 0.1-0.3 s after the first."""
    clock = Clock()
    player = Player(clock, [(QUESTION, 0.5, ACCEPT_TAP), (READ, 0.2, Pick(0, tap=True))])
    with pytest.raises(Undecided):
        throw(player, clock)
    assert not player.script


@pytest.mark.parametrize("accept", [Button.ATTACK, Pick(0, tap=True), ACCEPT_KEY],
                         ids=["A", "tap", "key 1"])
def test_an_accept_on_the_value_typed_takes_it_in_its_place(accept: Press) -> None:
    clock = Clock()
    player = Player(clock, [(QUESTION, 2.0, Pick(4, tap=True)), (READ, 1.0, accept)])
    taken = throw(player, clock)
    assert sorted(taken.values) == [3, 4, 5, 5] and not player.script
    shown = ", ".join(map(str, taken.values))
    # the typed 5 starred in its place (a77dice NIT 8)
    assert any(prompt.replace("*", "").startswith(f"{READ}: {shown}") and "5*" in prompt
               for prompt, _ in player.shown)


def test_a_typed_value_may_still_be_rejected_at_once() -> None:
    """B is no accept habit's: it rejects the typed value however soon it comes."""
    clock = Clock()
    player = Player(clock, [(QUESTION, 0.5, ACCEPT_KEY), (READ, 0.0, Button.FLEE)])
    with pytest.raises(Stuck, match="gives no picture"):  # rejected, then the photos ran out
        throw(player, clock)
    assert not player.script


def test_the_faces_beside_a_second_doubted_die_are_in_the_order_they_lie() -> None:
    """NIT 2: the value typed for the left die was shown last beside the middle one's."""
    from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus

    def die(value: int | None, x: float, place: str = "") -> DieReading:
        why = "" if value else "a die's value is unclear"
        return DieReading(value, 0.99 if value else 0.4, (x, 100.0), 40.0, why, place)

    read = DiceRead((die(None, 100, "at the left"), die(None, 300, "in the middle"),
                     die(2, 500)), ReadStatus.UNSURE, "unsure")
    faces: list[object] = []
    clock = Clock()
    player = Player(clock, [("Type the die at the left", 1.0, Pick(5)),
                            ("Type the die in the middle", 1.0, Pick(3))])

    def show(prompt: str, **kwargs: object) -> None:
        player.show(prompt, **kwargs)
        faces.append(kwargs.get("prompt_faces"))

    controls = Controls([player], clock=clock)
    stream = CameraFrames(iter(()), controls, moving=lambda frame: False)
    rolls = CameraRolls(CameraDiceSource(frames=stream), stream, controls, 3.0, 0.0,
                        sleep=lambda s: None, clock=clock)
    assert rolls.typed(read, 3, show) == (6, 4, 2)
    # the left die's 6, the middle one still to type ("?", as the question says it:
    # f78panels item 3), then the right die's 2
    assert faces[-1] == (6, TO_TYPE, 2)
    assert faces[0] == (TO_TYPE, TO_TYPE, 2)
