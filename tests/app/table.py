"""Stand-ins for the people at the table, shared by the fight modes' tests."""

from __future__ import annotations

from companion.app.session.mode import ChoiceAsk, RollAsk, Show, Throw
from companion.app.session.rolls import SimRolls
from companion.dice import SimulatedDice


class Player:
    """A player at the table who picks options by their keys and stops (a power cut) when the
    script runs out."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        if not self.script:
            raise KeyboardInterrupt
        return [o.choice for o in ask.options].index(self.script.pop(0))


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
