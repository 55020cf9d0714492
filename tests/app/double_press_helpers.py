"""Presses timed on a stepped clock through the controls' menu, for the double-press tests."""

from __future__ import annotations

from collections import deque

from companion.app.session.controls import Controls, choose
from companion.hw.buttons import Press
from companion.hw.display.view import Option
from tests.app.session_helpers import ScriptedPresses, StepClock

MENU = (Option("fight:1", "Fight emu TL 大うずらと戦う"),
        Option("fight:2", "Fight bat TR 大こうもりと戦う"),
        Option("defend", "Defend 防御"))


def menu(controls: Controls, hands: ScriptedPresses, clock: StepClock,
         presses: list[list[Press]]) -> tuple[int, float]:
    """The menu after the read, the player's presses one poll (0.1 s) apart from its showing:
    the option chosen and how long after its showing."""
    hands.script = deque([[], *presses])  # the first poll drains presses made before it
    start = clock.now
    chosen = choose(controls, lambda *args, **kwargs: None, "bat attack! Act:", MENU, 1, 0.1,
                    clock.sleep)
    return chosen, round(clock.now - start, 3)
