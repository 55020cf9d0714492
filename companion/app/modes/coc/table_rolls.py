"""Dice at a coc table with ``--dice camera``: :class:`CocTableRolls`, the d6-based dice
from the camera (a D3 or D2 is a D6 halved) and every other die typed on a keypad menu or
thrown by the companion.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.modes.coc.words import BACK
from companion.app.session.controls import Controls, choose
from companion.app.session.mode import RollAsk, RollFeed, Show, Throw
from companion.dice import DiceSource
from companion.hw.display.view import Option

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
            show(f"{ask.count}D{ask.sides} thrown by the companion 仮想ダイス: {ask.prompt}",
                 options=(), status="the camera reads d6 only カメラはd6のみ: d100 simulated",
                 guidance=True)
            return Throw(tuple(self.sim.roll(ask.count, ask.sides)))
        values = []
        for n in range(ask.count):
            value = self.typed(ask, n, show)
            if value is None:
                return Throw(back=True)
            values.append(value)
        return Throw(tuple(values))

    def typed(self, ask: RollAsk, n: int, show: Show) -> int | None:
        """One die keyed in: its face (up to 10 sides), or its tens then its units (a d100's
        00 is 100, a 0 on a d10 or d20 is 10 or 20); None: the player went back."""
        # What the die is for comes first after the digit asked for (the screen's prompt is
        # one line over the keypad; the status says why the die is typed).
        which = f" die {n + 1}/{ask.count}" if ask.count > 1 else ""
        head = f"Type the 1D{ask.sides}{which}"
        status = "the camera reads d6 only カメラはd6のみ: type the die"
        status_show = _with_status(show, status)
        if ask.sides <= 10:
            faces = [*range(1, ask.sides + 1)]
            options = (*(Option(f"{v}", str(v)) for v in faces), BACK)
            picked = choose(self.controls, status_show, f"{head} 出目を入力: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            return None if picked == len(faces) else faces[picked]
        while True:
            digits = [*range(1, 10), 0]
            tens = [d for d in digits if d * 10 <= ask.sides]
            # 00 is read as the die's highest face: say so on the keys, or nobody knows it.
            options = (*(Option(f"{d}", f"{d}_ (00={ask.sides})" if d == 0 else f"{d}_ (×10)")
                         for d in tens), BACK)
            picked = choose(self.controls, status_show, f"{head} tens 十の位: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            if picked == len(tens):
                return None
            ten = tens[picked]
            options = (*(Option(f"{d}", f"00 (={ask.sides})" if ten == d == 0 else f"{ten}{d}")
                         for d in digits), BACK)
            picked = choose(self.controls, status_show, f"{head} units 一の位: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            if picked == len(digits):
                continue
            value = ten * 10 + digits[picked]
            value = ask.sides if value == 0 else value
            if 1 <= value <= ask.sides:
                return value
            status_show = _with_status(show, f"{value} is not on a 1D{ask.sides}: type again "
                                             "その目はありません", guidance=False)


def _with_status(show: Show, status: str, guidance: bool = True) -> Show:
    """``show`` with ``status`` under the keypad: why the die is typed (the next step,
    ``guidance``), or a value refused (trouble)."""
    def shown(prompt: str, **kwargs: object) -> None:
        show(prompt, **{**kwargs, "status": kwargs.get("status") or status,
                        "guidance": guidance})
    return shown
