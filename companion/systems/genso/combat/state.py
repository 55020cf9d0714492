"""One snapshot of a `genso` fight (:class:`FightState`), how a fight ended, and the swap
of changed combatants into a snapshot that every rule uses.

Rules: GM-COMBAT-1 (turn order: the PC party first, then the other side; the outcome; the
Default ``party_down_ends_fight``: a party down, 全滅, or some fled and the rest down,
leaves the fight going).
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
    # Some fled and the rest are down: the fallen are left to the enemy, the fight going on
    # until the GM ends it (GM-COMBAT-1 party_down_ends_fight off); neither 全滅 (some got
    # away) nor a clean escape (some did not).
    PARTY_FLED_SOME_DOWN = "party_fled_some_down"
    DECLARED = "declared"  # the GM declared the end

    @property
    def text(self) -> str:
        """The outcome as the log and the screen say it."""
        return _OUTCOME_TEXT[self]


#: GM-COMBAT-1: the party out with its fallen on the field, which leaves the fight going under
#: the Default ``party_down_ends_fight`` off (engine revision 5 on).
GOES_ON = frozenset({Outcome.PARTY_DOWN, Outcome.PARTY_FLED_SOME_DOWN})

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

    ``down_goes_on``: a party down (全滅, :attr:`party_out`) leaves the fight going
    (GM-COMBAT-1, PG 4-1 「敵が全て戦闘不能、逃亡、降伏した時に戦闘は終了する。ＧＭは戦闘終了を
    宣言する。」: only the enemy's side ends it, and the GM's word). The action that reached
    the state sets it (:func:`.turns._apply`): engine revision 5 on, with the Default
    ``party_down_ends_fight`` off. A fight's first state, before any action, has it off: a
    fight whose party is down before it begins is over (`fight new` refuses it). The
    fallen left when some of the party fled (:attr:`Outcome.PARTY_FLED_SOME_DOWN`) are on
    the field as a party down is, and go on alike; a party all fled ends it.

    ``left_fallen``: the party's state (:attr:`party_out`) when the enemy's side went out of
    the fight (fled or fell) while the party was out and the fight went on: the fight ends
    (PG 4-1 「敵が全て…逃亡」) with the party's state, not 勝利. The action that reached the
    state sets it (:func:`.turns._left_fallen`), so the outcome holds as the fight ended it
    whatever follows the end (a Sleep that raises one of the fallen).
    """

    combatants: tuple[Combatant, ...]
    round: int = 1
    turn: int = 0
    spells_cast: int = 0
    ended: bool = False
    moved: str = ""
    down_goes_on: bool = False
    left_fallen: Outcome | None = None

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
        if not self.enemy_stands:
            # PG 4-1: the enemy all down or fled ends the fight; it left a fallen party
            # (:attr:`left_fallen`), it is no win (fixg64b: "勝利" over a party wiped out).
            return self.left_fallen or Outcome.PARTY_WON
        gone = self.party_out
        if gone in GOES_ON and self.down_goes_on:
            return None  # GM-COMBAT-1 party_down_ends_fight off: the GM ends it
        return gone

    @property
    def enemy_stands(self) -> bool:
        """Whether one of the enemy's side can act (GM-COMBAT-1: none, the fight is over)."""
        return any(c.status is Status.ACTIVE for c in self.combatants if c.side is Side.ENEMY)

    @property
    def party_out(self) -> Outcome | None:
        """How the PC party is out of the fight when none of it can act (:func:`_party_gone`),
        whether or not that ends the fight (GM-COMBAT-1 ``party_down_ends_fight``); None
        while one of it can act."""
        party = [c.status for c in self.combatants if c.side is Side.PARTY]
        if Status.ACTIVE in party:
            return None
        return _party_gone(party)

    @property
    def party_down_going_on(self) -> bool:
        """GM-COMBAT-1: the party is out with its fallen on the field, down (全滅) or some
        fled and the rest down, and the fight goes on until the GM declares its end, or until
        no enemy can act (Default ``party_down_ends_fight`` off)."""
        return self.outcome is None and self.party_out in GOES_ON

    @property
    def outcome_text(self) -> str:
        """The outcome as the screen and `fight show` say it (empty while the fight goes
        on): the GM's end of a fight whose party was out names the party's state beside it,
        終了 the GM ended the fight — 全滅 the party is down (fixg64b). Display only: the
        journal's lines say the outcome alone."""
        outcome = self.outcome
        if outcome is None:
            return ""
        out = self.party_out
        if outcome is Outcome.DECLARED and out is not None:
            return f"{outcome.text} — {out.text}"
        return outcome.text


def _party_gone(party: list[Status]) -> Outcome:
    """GM-COMBAT-1: how the fight ended when no PC-side combatant can act. Fleeing is not
    being wiped out (全滅): only a party none of whom fled is down; the outcome is judged
    from the states alone (with :attr:`FightState.down_goes_on`, which the action that
    reached the state set), so a saved fight replays to it without storing it."""
    fled = party.count(Status.FLED)
    if not fled:
        return Outcome.PARTY_DOWN
    return Outcome.PARTY_FLED if fled == len(party) else Outcome.PARTY_FLED_SOME_DOWN


def _swap(state: FightState, *changed: Combatant) -> FightState:
    by_name = {c.name: c for c in changed}
    return replace(state, combatants=tuple(by_name.get(c.name, c) for c in state.combatants))
