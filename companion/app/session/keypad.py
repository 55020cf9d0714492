"""Dice the player throws and types on a keypad menu: the dice a camera cannot read (a D4,
a D20, a d100), or every die with ``--dice typed`` (real dice and no dice camera).

A die of up to ten faces is one menu of its faces; a larger one is typed as its tens,
then its units, and 00 is its highest face (a d100's 100, a d20's 20), as the keys say.
Back goes back, from the first menu; from the units menu it goes back to the tens.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.session.controls import BACK, Controls, choose
from companion.app.session.mode import RollAsk, Show, Throw
from companion.hw.display.view import Option

#: The most faces typed in one menu: its keys 1–9 and 0 (a D10's 10).
ONE_MENU_SIDES = 10


def typed_prompt(ask: RollAsk, n: int = 1) -> str:
    """The prompt for die ``n`` of a throw the player types: it says so first, and not "in
    the dice area", where nothing reads it."""
    what = f": {ask.prompt}" if ask.prompt else ""
    return f"{_head(ask, n)} 1D{ask.sides}の出目を入力{what}"


def _head(ask: RollAsk, n: int) -> str:
    which = f" ({n} of {ask.count})" if ask.count > 1 else ""
    return f"Type the D{ask.sides} you threw{which}"


class Keypad:
    """A throw typed die by die; ``why`` is said under each menu (why the die is typed)."""

    def __init__(self, controls: Controls, poll_seconds: float, why: str,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.controls = controls
        self.poll_seconds = poll_seconds
        self.why = why
        self.sleep = sleep

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        values = []
        for n in range(1, ask.count + 1):
            value = self.die(ask, n, show)
            if value is None:
                return Throw(back=True)
            values.append(value)
        return Throw(tuple(values))

    def die(self, ask: RollAsk, n: int, show: Show) -> int | None:
        """Die ``n`` of the throw keyed in; None: the player went back."""
        status = self.why
        guidance = True

        def with_status(prompt: str, **kwargs: object) -> None:
            show(prompt, **kwargs, status=status, guidance=guidance)

        if ask.sides <= ONE_MENU_SIDES:
            faces = [*range(1, ask.sides + 1)]
            options = (*(Option(f"{v}", str(v)) for v in faces), BACK)
            picked = self._choose(with_status, typed_prompt(ask, n), options)
            return None if picked == len(faces) else faces[picked]
        what = f": {ask.prompt}" if ask.prompt else ""
        while True:
            digits = [*range(1, 10), 0]
            tens = [d for d in digits if d * 10 <= ask.sides]
            # 00 is read as the die's highest face: say so on the keys, or nobody knows it.
            options = (*(Option(f"{d}", f"{d}_ (00={ask.sides})" if d == 0 else f"{d}_ (×10)")
                         for d in tens), BACK)
            picked = self._choose(with_status, f"{_head(ask, n)}, tens 十の位{what}", options)
            if picked == len(tens):
                return None
            ten = tens[picked]
            options = (*(Option(f"{d}", f"00 (={ask.sides})" if ten == d == 0 else f"{ten}{d}")
                         for d in digits), BACK)
            picked = self._choose(with_status, f"{_head(ask, n)}, units 一の位{what}", options)
            if picked == len(digits):
                continue
            value = ten * 10 + digits[picked]
            value = ask.sides if value == 0 else value
            if 1 <= value <= ask.sides:
                return value
            status = f"{value} is not on a 1D{ask.sides}: type again その目はありません"
            guidance = False

    def _choose(self, show: Show, prompt: str, options: tuple[Option, ...]) -> int:
        return choose(self.controls, show, prompt, options, 0, self.poll_seconds, self.sleep)
