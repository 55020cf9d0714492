"""Stand-ins for the people at the table, shared by the fight modes' tests."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from companion.app.modes.fight import FightMode
from companion.app.session.controls import Controls, MenuChoices, PressSource
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, RollAsk, Show, Throw
from companion.app.session.rolls import SimRolls
from companion.dice import DiceSource, SimulatedDice
from companion.hw.buttons import ButtonPanel, ButtonPins, Pick, Press
from companion.hw.display.view import View


class Player:
    """A player at the table who picks options by their keys and stops (a power cut) when the
    script runs out."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        if not self.script:
            raise KeyboardInterrupt
        return [o.choice for o in ask.options].index(self.script.pop(0))


class Buttons:
    """The button panel on gpiozero's mock pins: a test presses buttons by name while the
    session waits for a choice, and :meth:`run` plays a session to its end on them."""

    def __init__(self) -> None:
        self.factory = MockFactory()
        self.pins = ButtonPins()
        self.panel = ButtonPanel(self.pins, bounce_time=None, pin_factory=self.factory)

    def press(self, *names: str) -> None:
        for name in names:
            pin = self.factory.pin(getattr(self.pins, name))
            pin.drive_low()
            pin.drive_high()

    def choices(self, display: PressSource, sleep: Callable[[float], None]) -> MenuChoices:
        """Choices from these buttons and ``display``'s keys; ``sleep`` is where the test
        presses. Each sleep is half a second on the controls' clock: a press a screen is a
        player's pace, not a double press (a question is guarded against one)."""
        now = [0.0]

        def slept(seconds: float) -> None:
            now[0] += 0.5
            sleep(seconds)

        return MenuChoices(Controls([self.panel, display], clock=lambda: now[0]), 0.0, slept)

    def run(self, session: Session) -> None:
        try:
            session.show_next()
            session.run()
        finally:
            self.panel.close()
            self.factory.reset()


class CutRolls:
    """The companion's dice, until the power goes before throw number ``cut``."""

    def __init__(self, seed: int, cut: int) -> None:
        self.inner = SimRolls(SimulatedDice.seeded(seed))
        self.left = cut

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return self.inner.next_throw(ask, show)


def killed_while_typing(argv: list[str], env: dict[str, str], cwd: Path) -> bytes:
    """Run a command that asks for typed dice and SIGKILL it once it asks (a power cut while
    the player reads the dice); return what it had said on stderr."""
    victim = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=cwd)
    assert victim.stderr is not None and victim.stdin is not None and victim.stdout is not None
    prompt = b""
    deadline = time.monotonic() + 60
    while b"type" not in prompt and time.monotonic() < deadline:
        prompt += os.read(victim.stderr.fileno(), 100)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    victim.stdin.close()
    victim.stdout.close()
    victim.stderr.close()
    return prompt


class PlayerAtTheScreen:
    """A screen with a player before it who, at each screen whose prompt starts as the
    script says, presses a button or picks the option the script names; the script run out,
    the power goes (or, ``idle_after``, the power stays on and they press nothing more).
    The player presses once the screen has been up a poll; on :meth:`time_at_the_table`, each
    poll is a glance of ``GLANCE_SECONDS``, so that a question is read before it is
    answered."""

    GLANCE_SECONDS = 0.5

    def __init__(self, script: list[tuple[str, str | Press]], *,
                 idle_after: bool = False) -> None:
        self.script = list(script)
        self.idle_after = idle_after
        self.views: list[View] = []
        self.polls = 0
        self.glances = 0  # every poll: the time at the table

    def time_at_the_table(self) -> float:
        """The time at the table, for the controls' ``clock``: a press is never the double of
        the one before it (:data:`companion.app.session.controls.DOUBLE_PRESS_SECONDS`)."""
        return self.glances * self.GLANCE_SECONDS

    def show(self, view: View) -> None:
        self.views.append(view)
        self.polls = 0

    def poll(self) -> list[Press]:
        self.glances += 1
        if not self.script:
            if self.idle_after:
                return []
            raise KeyboardInterrupt
        self.polls += 1
        if not self.views:
            return []
        view = self.views[-1]
        assert self.polls < 1000, f"waits at {view.prompt!r} for {self.script[0]}"
        if self.polls < 2 or not view.prompt.startswith(self.script[0][0]):
            return []
        press = self.script.pop(0)[1]
        if isinstance(press, str):
            return [Pick([o.choice for o in view.options].index(press))]
        return [press]

    def close(self) -> None:
        return None

    def prompts(self) -> list[str]:
        return [v.prompt for v in self.views]


def played_keys(mode: FightMode, keys: tuple[str, ...], dice: DiceSource) -> None:
    """Pick ``keys`` in turn, every throw asked for on the way (and after) thrown from
    ``dice``."""
    for key in keys:
        _throw_all(mode, dice)
        mode.restore(key)
    _throw_all(mode, dice)


def _throw_all(mode: FightMode, dice: DiceSource) -> None:
    while isinstance(ask := mode.ask(), RollAsk):
        mode.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))


def asked(mode: FightMode) -> ChoiceAsk:
    """The menu ``mode`` asks now."""
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return ask


def choices(mode: FightMode) -> list[str]:
    """The keys of the menu ``mode`` asks now."""
    return [o.choice for o in asked(mode).options]
