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
    PARTY_DOWN = "party_down"  # no PC-side combatant can act, and none of them fled
    PARTY_FLED = "party_fled"  # every PC-side combatant fled
    # Some fled and the rest are down: the fallen are left to the enemy, which the GM
    # resolves; neither 全滅 (some got away) nor a clean escape (some did not).
    PARTY_FLED_SOME_DOWN = "party_fled_some_down"
    DECLARED = "declared"  # the GM declared the end

    @property
    def text(self) -> str:
        """The outcome as the log and the screen say it."""
        return _OUTCOME_TEXT[self]


_OUTCOME_TEXT = {Outcome.PARTY_WON: "勝利 the party won",
                 Outcome.PARTY_DOWN: "全滅 the party is down",
                 Outcome.PARTY_FLED: "逃走 the party escaped",
                 Outcome.PARTY_FLED_SOME_DOWN: "逃走 some escaped, the rest are down "
                                               "一部が逃走、残りは戦闘不能",
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
        party = [c.status for c in self.combatants if c.side is Side.PARTY]
        if Status.ACTIVE in party:
            return None
        return _party_gone(party)


def _party_gone(party: list[Status]) -> Outcome:
    """GM-COMBAT-1: how the fight ended when no PC-side combatant can act. Fleeing is not
    being wiped out (全滅): only a party none of whom fled is down; the outcome is judged
    from the states alone, so a saved fight replays to it without storing it."""
    fled = party.count(Status.FLED)
    if not fled:
        return Outcome.PARTY_DOWN
    return Outcome.PARTY_FLED if fled == len(party) else Outcome.PARTY_FLED_SOME_DOWN


def _swap(state: FightState, *changed: Combatant) -> FightState:
    by_name = {c.name: c for c in changed}
    return replace(state, combatants=tuple(by_name.get(c.name, c) for c in state.combatants))
