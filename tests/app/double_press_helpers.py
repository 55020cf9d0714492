"""Presses timed on a stepped clock through the controls' menu, for the double-press tests."""

from __future__ import annotations

from collections import deque

from companion.app.session.controls import Controls, MenuChoices, choose
from companion.app.session.mode import ChoiceAsk
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


POLL = 0.1


class Hands:
    """The player's presses, poll by poll, on a clock the polls move on."""

    def __init__(self) -> None:
        self.clock = StepClock()
        self.presses = ScriptedPresses([])
        self.controls = Controls([self.presses], clock=self.clock)
        self.choices = MenuChoices(self.controls, POLL, self.clock.sleep)
        self.shown: list[str] = []

    def show(self, prompt: str, **_: object) -> None:
        self.shown.append(prompt)

    def choose(self, ask: ChoiceAsk, presses: list[list[Press]]) -> tuple[str, float]:
        """The option ``presses`` take on ``ask`` (the first poll drains what came before the
        menu), and how long after it was shown."""
        self.presses.script = deque([[], *presses])
        start = self.clock.now
        chosen = self.choices.next_choice(ask, self.show)
        return ask.options[chosen].choice, round(self.clock.now - start, 3)
