"""The fighters and the fight's state between two actions: the sides, the conditions with a
duration, one :class:`Combatant` with its per-round bookkeeping, and :class:`FightState`.

Fields for CO-AIM-1, CO-BASE-1/8/13, CO-BODY-5/6, CO-BURN-1, CO-CALL-1, CO-DODGE-1/8,
CO-FIRE-2/4/5/7, CO-IAI-2/3, CO-MA-2, CO-MELEE-4, CO-SKILL-1/2/4, CO-SPELL-2, CO-STUN-1/3,
CO-SURP-1/2/3, CO-TACKLE-3, CO-TURN-2/4/6; the rules that use them are the engine's
(:mod:`~companion.systems.coc.combat.step` and the layers below it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from companion.errors import IllegalAction, did_you_mean
from companion.systems.coc.sheet import Sheet


class Side(Enum):
    INVESTIGATORS = "investigators"
    FOES = "foes"


class Condition(Enum):
    """Conditions with a duration; ``until`` is the last round they last (0: the fight)."""

    FALLEN = "転倒/fallen"            # CO-MELEE-4: no actions next round
    NO_ACTION = "行動不能/no action"   # CO-STUN-3 success: no action next round
    UNCONSCIOUS = "気絶/unconscious"
    DYING = "瀕死/dying"
    PRONE = "転倒/prone"                    # CO-TACKLE-3: knocked down
    TEMPORARY_INSANITY = "一時的狂気/temporary insanity"    # CO-BASE-13
    INDEFINITE_INSANITY = "不定の狂気/indefinite insanity"  # CO-BASE-13
    EASED = "一時的緩和/eased"              # CO-SKILL-4: indefinite insanity eased


@dataclass(frozen=True, slots=True)
class Timed:
    condition: Condition
    from_round: int
    until: int  # last round it lasts; 0 = until removed


@dataclass(frozen=True)
class Combatant:
    """One investigator or foe in the fight, with its per-round bookkeeping."""

    sheet: Sheet
    side: Side
    hp: int
    ap: int = 0
    dead: bool = False
    conditions: tuple[Timed, ...] = ()
    dodges: int = 0
    parries: int = 0
    attacks: int = 0          # attack AP spent / attack actions this round (CO-TURN-6)
    weapon_attacks: tuple[tuple[int, int], ...] = ()  # CO-TURN-6: (weapon, attack AP) a round
    other_skill: bool = False  # CO-TURN-4
    stun: int = 0             # CO-STUN-1 stacks
    stun_round: int = 0       # CO-STUN-1: the round whose turn began stunned: no attack in it
    grappling: str = ""       # whom it holds
    held_by: str = ""
    grapple_round: int = 0
    grapple_options: bool = False  # CO-MA-2: MA grapple success opens choke/throw
    option_round: int = 0     # CO-MA-2: the round of its last choke or throw (one a round)
    strain_round: int = 0     # CO-GRAP-2: the round of its last STR roll to break free
    dying_until: int = 0      # CO-BASE-8: dies at the end of this round
    treat_failed: bool = False
    first_aid_tries: int = 0  # CO-SKILL-2: First Aid attempts this round (the third at DEX/2)
    skills_used: tuple[str, ...] = ()  # CO-SKILL-1: Spot Hidden, Jump chosen this round
    mp: int = 0               # CO-BASE-1: MP (POW), paid for spells (CO-SPELL)
    san: int = 0              # CO-BASE-1: current SAN
    san_start: int = 0        # CO-BASE-13: SAN when this hour's losses began (0: none yet)
    bleeding: tuple[str, ...] = ()   # CO-BODY-6: dice lost each round until staunched
    lost: tuple[str, ...] = ()       # CO-BODY-5: body parts lost
    burns: tuple[tuple[str, int], ...] = ()  # CO-BURN-1: fire damage per incident
    scarred: tuple[str, ...] = ()    # CO-BURN-1: incidents that already cost APP or CON
    hidden: bool = False      # CO-SURP-1/2: surprising and not yet found
    found: bool = False       # CO-SURP-2: found once; may not hide again (but ≥91%)
    hide_penalty: int = 0     # CO-SURP-3: the Keeper's penalty against the hidden attacker
    concentrating: bool = False  # CO-DODGE-1 (003) / CO-DODGE-8 (004), this round
    first_strike: int = 0     # CO-FIRE-7: the weapon's attacks used before the DEX order
    first_strike_weapon: int = -1  # CO-FIRE-7: the number of the gun that struck first
    slot_pending: bool = False  # a DEX/2 turn waits in the order (CO-FIRE-2, CO-AIM-1)
    half_dex: bool = False    # this turn is taken at DEX/2
    delayed_ap: int = 0       # 003: AP kept for the DEX/2 turn (CO-FIRE-2)
    spent_other: bool = False  # 003: this turn's AP went to something besides attacks
    iai_used: bool = False    # CO-IAI-2: once a round
    drawn: bool = False       # CO-IAI-3: the blade is out after Iai
    sheathed: bool = False    # CO-IAI-3: sheathed this round, so no attacks
    no_more_shots: bool = False  # CO-FIRE-5: a shot was parried this round
    chanting: str = ""        # CO-SPELL-2: the spell being chanted
    chant_automatic: bool = False
    chant_verbal: bool = False  # CO-SPELL-1: the chant needs words or gestures, a free body
    chant_turns: int = 0      # CO-SPELL-2 Default: the caster's turns until it takes effect
    pinning: str = ""         # CO-TACKLE-3: whom the tackler pins next round
    arm_hits: int = 0         # CO-CALL-1: called shots to the arm (one attack fewer)
    leg_hits: int = 0         # CO-CALL-1: called shots to the leg (one move fewer each)
    moved: int = 0            # squares moved this round (CO-CALL-1)
    shots: int = 0            # shots fired this round (CO-FIRE-2: the third at DEX/2)
    jammed_now: tuple[int, ...] = ()  # weapons jammed this round, cleared from the next (CO-FIRE-4)
    square: str = ""          # CO-TURN-2: where it stands on the board ("" off the board)
    facing: str = "N"         # CO-TURN-2: one of the 8 compass points

    @property
    def name(self) -> str:
        return self.sheet.name

    def has(self, condition: Condition, round_: int) -> bool:
        return any(t.condition is condition and t.from_round <= round_ and
                   (t.until == 0 or round_ <= t.until) for t in self.conditions)

    @property
    def unconscious(self) -> bool:
        return any(t.condition is Condition.UNCONSCIOUS for t in self.conditions)

    @property
    def out(self) -> bool:
        return self.dead or self.unconscious


def nobody_called(name: str, names: Sequence[str]) -> IllegalAction:
    """The refusal of a name not in the fight: the near one offered, and who is in it."""
    return IllegalAction(f"nobody called {name!r} is in the fight{did_you_mean(name, names)}; "
                         f"in it: {', '.join(names)}")


@dataclass(frozen=True)
class FightState:
    round: int
    order: tuple[str, ...]
    turn: int
    combatants: tuple[Combatant, ...]
    opened: bool = False  # a DEX-order action was taken this round (CO-FIRE-7, CO-DODGE-1)

    def get(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.name == name:
                return c
        raise nobody_called(name, [c.name for c in self.combatants])

    @property
    def current(self) -> Combatant | None:
        return self.get(self.order[self.turn]) if self.turn < len(self.order) else None

    @property
    def over(self) -> bool:
        """Nobody acts any more: a side won (:meth:`outcome`), nobody stands, or the Keeper
        ended the fight (``fight end``)."""
        return not self.order

    def outcome(self) -> Side | None:
        """The side still standing once every member of the other is dead or unconscious."""
        for side in Side:
            others = [c for c in self.combatants if c.side is not side]
            if others and all(c.out for c in others) and any(
                    not c.out for c in self.combatants if c.side is side):
                return side
        return None
