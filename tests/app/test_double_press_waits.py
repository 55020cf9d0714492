"""A double press on the System menu's Back does not answer a wait under the menu either
(input audit 63 D2, review63d DEFECT 1): a tile's picks or its read on offer, a throw of
dice awaited, a throw read and shown for the player's word. Back is the menu's first box
([B], the key 1, FLEE); the picks' first box, Accept, a throw's Back and B lie there too.

The player's presses come at times of their own (:class:`TimedPresses`), on a clock the
waits' sleeps move on, through the real :class:`Controls`, :class:`SystemMenu` and waits.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls
from companion.app.session.mode import RollAsk, TileAsk
from companion.app.session.reads import TableTiles, likeliest
from companion.app.session.rolls import WAIT_OPTIONS, CameraFrames, CameraRolls, RollCancelled
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.session_helpers import EMPTY_DRAW, ScriptedReader, StepClock, draw

POLL = 0.1
TAP = Pick(0, tap=True)  # Back's box, and the first box of the ask under the menu


class TimedPresses:
    """Each press comes ``after`` seconds after the one before it (the first after the
    start), at the first poll that late; :attr:`given` says when each came."""

    def __init__(self, clock: StepClock, script: list[tuple[float, Press]]) -> None:
        self.clock = clock
        self.script = deque(script)
        self.last = clock.now
        self.given: list[float] = []

    def poll(self) -> list[Press]:
        if self.script and self.clock.now - self.last >= self.script[0][0] - 1e-9:
            self.last = self.clock.now
            self.given.append(self.last)
            return [self.script.popleft()[1]]
        return []


class Hands:
    def __init__(self, back: Press, then: Press) -> None:
        """The header tapped (SYSTEM), ``back`` on the menu, its double 0.2 s later, then
        ``then``, the player's own press, 0.5 s after the double."""
        self.clock = StepClock()
        self.presses = TimedPresses(self.clock, [(0.25, Button.SYSTEM), (0.15, back),
                                                 (0.2, back), (0.5, then)])
        self.controls = Controls([self.presses], clock=self.clock)
        self.menu = SystemMenu(self.controls, "game", POLL, "", sleep=self.sleep,
                               clock=self.clock)
        self.shown: list[str] = []

    def sleep(self, seconds: float) -> None:
        if self.clock.now > 10:
            raise TimeoutError("still waiting, the player's own press used up")
        self.clock.sleep(seconds)

    def show(self, prompt: str, **_: object) -> None:
        self.shown.append(prompt)

    def taken_by_the_last_press(self) -> bool:
        """Every press came, and what answered came at the last, the player's own; the
        double came within the guard of Back."""
        back, double, last = self.presses.given[1:]
        assert double - back < DOUBLE_PRESS_SECONDS
        assert any(p.startswith("System") for p in self.shown)
        return not self.presses.script and self.clock.now == last


@pytest.mark.parametrize(("back", "then"), [(TAP, TAP), (Pick(0), Pick(0))],
                         ids=["double tap", "1 typed twice"])
def test_a_double_on_back_does_not_take_a_pick_of_the_tile_wait(back: Press,
                                                                 then: Press) -> None:
    """The picks' first box lies under Back's right part (800x480: Back x 12-130, the
    first pick x 82-220), and a pick counts at once, with no confirm: the likeliest tile was
    journaled without the player choosing it."""
    hands = Hands(back, then)
    doubted = draw(None, "5z", "1s", "7p")
    tiles = TableTiles(ScriptedReader([[EMPTY_DRAW], [doubted]]), hands.controls,
                       accept_seconds=10.0, poll_seconds=POLL, sleep=hands.sleep,
                       clock=hands.clock)

    def ask() -> Tile:
        return tiles.next_tile(TileAsk("Draw a tile", doubted.slot, TileLedger()), hands.show)

    tile = hands.menu.answering(ask, hands.show, lambda: "")
    assert tile == likeliest(doubted, TileLedger())[0]
    assert hands.taken_by_the_last_press()


@pytest.mark.parametrize(("back", "then"), [(TAP, TAP), (Button.FLEE, Button.ATTACK)],
                         ids=["double tap on Accept", "b twice, then a"])
def test_a_double_on_back_does_not_judge_the_tile_on_offer(back: Press, then: Press) -> None:
    """A double tap's second tap was the offer's Accept; B pressed twice rejected the read,
    and the player had to lay the tile again."""
    hands = Hands(back, then)
    tiles = TableTiles(ScriptedReader([[EMPTY_DRAW], [draw("5p")]]), hands.controls,
                       accept_seconds=10.0, poll_seconds=POLL, sleep=hands.sleep,
                       clock=hands.clock)
    tile = hands.menu.answering(
        lambda: tiles.next_tile(TileAsk("Draw a tile", EMPTY_DRAW.slot, TileLedger()),
                                hands.show), hands.show, lambda: "")
    assert str(tile) == "5p" and hands.taken_by_the_last_press()


@pytest.mark.parametrize("back", [TAP, Button.FLEE], ids=["double tap", "b twice"])
def test_a_double_on_back_does_not_give_up_the_throw_awaited(back: Press) -> None:
    """The dice wait's only option is its own Back (WAIT_OPTIONS), drawn where the menu's
    Back was: the double's second press gave up the throw."""
    hands = Hands(back, back)
    frames = CameraFrames(itertools.repeat(np.zeros((4, 4, 3), np.uint8)), hands.controls,
                          lambda frame: False, sleep=hands.sleep, clock=hands.clock)
    frames.rethrow = True  # dice that lie unmoved: the wait goes on until they are thrown

    def ask() -> None:
        hands.show("Throw 1D6 to hit", options=WAIT_OPTIONS)
        next(frames)

    with pytest.raises(RollCancelled):
        hands.menu.answering(ask, hands.show, lambda: "")
    assert hands.taken_by_the_last_press()


@pytest.mark.parametrize(("back", "then"), [(TAP, TAP), (Button.FLEE, Button.ATTACK)],
                         ids=["double tap on Accept", "b twice, then a"])
def test_a_double_on_back_does_not_judge_the_throw_read(back: Press, then: Press) -> None:
    hands = Hands(back, then)
    frames = CameraFrames((), hands.controls, Motion().moving, sleep=hands.sleep,
                          clock=hands.clock)
    source = CameraDiceSource(frames=frames, timeout_s=600.0, clock=hands.clock,
                              sleep=hands.sleep)
    rolls = CameraRolls(source, frames, hands.controls, accept_seconds=10.0,
                        poll_seconds=POLL, sleep=hands.sleep, clock=hands.clock)
    taken = hands.menu.answering(lambda: rolls.judge(RollAsk("to hit", 2, 6), (3, 5),
                                                     hands.show), hands.show, lambda: "")
    assert taken is True and hands.taken_by_the_last_press()


def test_the_guard_lifts_at_another_press_or_after_its_time() -> None:
    """Another press comes through, and the repeat after it too (ITEM, then A, is no double
    A); a repeat after :data:`DOUBLE_PRESS_SECONDS` is the player's own. A poll whose
    presses are thrown away (``guarded=False``, a menu's first) leaves the guard be. A key
    or tap may have come at any time since the poll before: one read past the window by a
    poll whose poll before came as the guard began may be the double (review64f RISK 1)."""
    clock = StepClock()
    script: deque[list[Press]] = deque()

    class Script:
        def poll(self) -> list[Press]:
            return script.popleft() if script else []

    controls = Controls([Script()], clock=clock)
    controls.chose_with = Button.ATTACK
    controls.guard_repeat()
    script.extend([[Button.ATTACK], [Button.ITEM], [Button.ATTACK, Button.ATTACK]])
    assert [controls.poll() for _ in range(3)] == [
        [], [Button.ITEM], [Button.ATTACK, Button.ATTACK]]
    controls.guard_repeat()
    script.extend([[Button.ITEM], [Button.ATTACK, Button.ITEM, Button.ATTACK]])
    assert controls.poll(guarded=False) == [Button.ITEM]
    assert controls.poll() == [Button.ITEM, Button.ATTACK]
    controls.guard_repeat()
    clock.sleep(DOUBLE_PRESS_SECONDS)
    script.extend([[Button.ATTACK], [Button.ATTACK]])
    assert controls.poll() == []  # it may have come as the guard began
    clock.sleep(POLL)
    assert controls.poll() == [Button.ATTACK]  # came after the poll past the window
