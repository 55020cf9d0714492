"""One snapshot of a `genso` fight (:class:`FightState`), how a fight ended, and the swap
of changed combatants into a snapshot that every rule uses.

Rules: GM-COMBAT-1 (turn order: the PC party first, then the other side; the outcome).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from companion.errors import IllegalAction
from companion.systems.genso.combat.combatants import Combatant, Side, Status


class Outcome(Enum):
    """How a fight ended (GM-COMBAT-1)."""

    PARTY_WON = "party_won"  # every enemy down, fled or vanished
    PARTY_DOWN = "party_down"  # no PC-side combatant can act
    DECLARED = "declared"  # the GM declared the end

    @property
    def text(self) -> str:
        """The outcome as the log and the screen say it."""
        return _OUTCOME_TEXT[self]


_OUTCOME_TEXT = {Outcome.PARTY_WON: "勝利 the party won",
                 Outcome.PARTY_DOWN: "全滅 the party is down",
                 Outcome.DECLARED: "終了 the GM ended the fight"}


@dataclass(frozen=True)
class FightState:
    """One snapshot: combatants, round, whose turn, and whether the GM ended the fight.

    ``moved`` is the move (``combat``) the combatant whose turn it is has made before its
    action (GM-COMBAT-1 Default: one movement mode and one action a round).
    """

    combatants: tuple[Combatant, ...]
    round: int = 1
    turn: int = 0
    spells_cast: int = 0
    ended: bool = False
    moved: str = ""

    def get(self, name: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.name == name:
                return combatant
        raise IllegalAction(f"no combatant {name!r} in this fight "
                            f"({', '.join(c.name for c in self.combatants)})")

    @property
    def order(self) -> tuple[Combatant, ...]:
        """GM-COMBAT-1: the PC party first, then the other side, each in entry order."""
        return (tuple(c for c in self.combatants if c.side is Side.PARTY)
                + tuple(c for c in self.combatants if c.side is Side.ENEMY))

    @property
    def current(self) -> Combatant | None:
        """Whose turn it is, or None once the fight is over."""
        if self.outcome is not None:
            return None
        return self.order[self.turn]

    @property
    def outcome(self) -> Outcome | None:
        if self.ended:
            return Outcome.DECLARED
        if not any(c.status is Status.ACTIVE for c in self.combatants if c.side is Side.ENEMY):
            return Outcome.PARTY_WON
        if not any(c.status is Status.ACTIVE for c in self.combatants if c.side is Side.PARTY):
            return Outcome.PARTY_DOWN
        return None


def _swap(state: FightState, *changed: Combatant) -> FightState:
    by_name = {c.name: c for c in changed}
    return replace(state, combatants=tuple(by_name.get(c.name, c) for c in state.combatants))
