"""Dice at a coc table with ``--dice camera``: :class:`CocTableRolls`, the d6-based dice
from the camera (a D3 or D2 is a D6 halved) and every other die typed on a keypad menu or
thrown by the companion.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk, RollFeed, Show, Throw
from companion.app.session.rolls import TYPED_WHY
from companion.dice import DiceSource

#: The d6-based dice the camera reads (a D3 or D2 is a D6 halved, rounded up).
CAMERA_SIDES = (6, 3, 2)


class CocTableRolls:
    """``--dice camera`` at a coc table: the d6-based dice from the camera (a D3 or D2 is a D6
    halved, rounded up: 1-2 → 1, 3-4 → 2, 5-6 → 3 for a D3); every other die (a d100, a
    burst's d20, a D4 or D10 of damage) the camera cannot read: typed on a keypad menu by the
    player (``d100="typed"``), or thrown by the companion from ``sim``. The screen says which.
    """

    def __init__(self, camera: RollFeed, controls: Controls, poll_seconds: float,
                 sim: DiceSource | None = None, sleep: Callable[[float], None] = time.sleep
                 ) -> None:
        self.camera = camera
        self.controls = controls
        self.poll_seconds = poll_seconds
        self.sim = sim
        self.sleep = sleep

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        if ask.sides in CAMERA_SIDES:
            # The halving first: the player throws a D6 where the rules ask a D3.
            note = "" if ask.sides == 6 else f"1D{ask.sides} = 1D6 halved 1D6で代用 — "
            throw = self.camera.next_throw(RollAsk(note + ask.prompt, ask.count, 6), show)
            if not throw.values:
                return throw
            return Throw(tuple(-(-face * ask.sides // 6) for face in throw.values))
        if self.sim is not None:
            # Thrown at once and nothing shown, as SimRolls: a screen shown here only flashed
            # up before the next step (and it called a burst's d20 "d100").
            return Throw(tuple(self.sim.roll(ask.count, ask.sides)))
        return Keypad(self.controls, self.poll_seconds, TYPED_WHY, self.sleep).next_throw(
            ask, show)
