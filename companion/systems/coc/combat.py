"""The `coc` fight tracker (spec §3.1–§3.21): a pure state machine with push/pop.

A :class:`Fight` keeps one immutable :class:`FightState` per action and a journal of
every action with the dice it used, so it can be undone a step, saved as plain data and
replayed from its log with identical results. The running profile's table (§3.22,
CO-CORE-2) decides which rules fire: a rule that is off never runs.

Turn order: DEX order, highest first, ties by 1D100, lowest first (CO-TURN-1, CO-BASE-5).
Profile 003 spends 3 action points per turn (CO-TURN-3) and ends a turn with
:class:`EndTurn` or when its points run out; profile 004 takes one action per turn.
A turn may be put off to DEX/2 (:class:`Delay`, careful aim CO-AIM-1; the third shot of
CO-FIRE-2 goes there by itself). Defences (dodge, parry, counter) are declared with the
attack they answer. Out of turn: dodge concentration and first strikes before the round's
first action (CO-DODGE-1/8, CO-FIRE-7), and the Keeper's events at any time (placing on the
board CO-TURN-2, fire CO-BURN-1, falls CO-BASE-11, SAN losses CO-BASE-13). Where profile 003's
board is in play (everyone concerned placed), adjacency, range, the line of fire and
"behind" come from it; otherwise the Keeper's flags on the action say them. A saved fight
carries a format number (:data:`FORMAT`); a file without one replays as it was played,
and each entry the rules revision that played it (:data:`ENGINE`), so a fix changes only
what is played after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, fields, replace
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar

from companion.dice import DiceSource, ScriptedDice, roll
from companion.errors import CompanionError, DataError, IllegalAction
from companion.systems.coc import board
from companion.systems.coc.checks import (
    Check,
    Grade,
    Ranges,
    Rank,
    check,
    combination,
    ranges,
    resist,
)
from companion.systems.coc.rules import (
    LIMITS,
    CocRules,
    DamageBonus,
    Profile,
    WeaponKind,
    out_of_limits,
)
from companion.systems.coc.sheet import (
    Sheet,
    Weapon,
    carried_hp,
    double_dice,
    half_db,
    sheet_from_mapping,
    sheet_mapping,
    skill_value,
    with_characteristic,
)


class Side(Enum):
    INVESTIGATORS = "investigators"
    FOES = "foes"


class Defence(Enum):
    """The defender's declared reaction (CO-DODGE, CO-PARRY)."""

    NONE = "none"
    DODGE = "dodge"
    PARRY = "parry"
    COUNTER = "counter"  # CO-MA-5: an MA counter, the defender's parry of the round


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
    other_skill: bool = False  # CO-TURN-4
    acted: bool = False
    stun: int = 0             # CO-STUN-1 stacks
    grappling: str = ""       # whom it holds
    held_by: str = ""
    grapple_round: int = 0
    grapple_options: bool = False  # CO-MA-2: MA grapple success opens choke/throw
    dying_until: int = 0      # CO-BASE-8: dies at the end of this round
    treat_failed: bool = False
    first_aid_tries: int = 0  # CO-SKILL-2: First Aid attempts this round (the third at DEX/2)
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


# --- actions -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Attack:
    """Attack with a weapon (melee, firearm, thrown, unarmed); MA makes it a combination roll."""

    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: int = 0
    defence: Defence = Defence.NONE
    parry_weapon: int = 0
    ma: bool = False
    ma_option: str = ""  # 004: "forced" (CO-MA-3) or "follow_up" (CO-MA-4)
    shots: int = 1
    burst: bool = False
    from_behind: bool = False
    fumble: str = ""  # CO-MELEE-4: "fall" or "break"; empty = automatic
    distance_m: int = 0      # CO-RANGE-2: metres to the target (0: within base range)
    adjacent: bool = False   # CO-FIRE-5 (003: adjacent, +15%) / CO-RANGE-3 (004: touch, ×3)
    aim: bool = False        # CO-AIM-1: careful aim, only on a DEX/2 turn
    first_strike: bool = False  # CO-FIRE-7: before the DEX order, out of turn
    surprise: str = ""       # CO-SURP-1: "hide", "conceal" or "sneak" first
    dark: bool = False       # CO-SURP-3: half skill without special gear
    hidden: int = 0          # CO-SURP-3: the Keeper's −10…−50 (0: the Default)
    disarm: bool = False     # CO-DISARM-1
    disarm_weapon: int = 0
    penalty: int = 0         # the Keeper's pick for CO-DISARM-1 / CO-BODY-3 (0: Default)
    body: str = ""           # CO-BODY-2/3/4: "cut", "gouge" or "blow_off"
    part: str = ""           # CO-BODY-5: eye, tongue, arm, hand, finger, leg, torso, head
    staunched: bool = False  # CO-BODY-6: the wound is staunched at once
    iai: bool = False        # CO-IAI-2
    pommel: bool = False     # CO-IAI-4
    borrow: str = ""         # CO-IAI-1: draw the Iai weapon of this adjacent ally
    knockout: bool = False   # CO-BASE-10
    dodge_assist: str = ""   # CO-DODGE-6: "navigate" or "jump"
    parry_with: str = ""     # CO-PARRY-2: "" a weapon, "hands", "ma", "budo"; 003: "iai"
    cover: str = ""          # CO-DODGE-7: the target takes cover from gunfire, "hide"/"dodge"
    called: str = ""         # CO-CALL-1: "head", "arm" or "leg" at −30%
    stray: str = ""          # CO-THROW-2: whom a fumbled throw may hit (the Keeper's pick)
    behind: str = ""         # CO-MELEE-2: who stands behind the target
    luck_dodge: bool = False  # CO-DODGE-4: the Keeper allows a second dodge by Luck
    after_dodge: bool = False  # CO-DODGE-5: the Keeper allows an attack after dodging, −50%


@dataclass(frozen=True)
class Grapple:
    """CO-GRAP-1 (003) / CO-GRAP-6 (004); with ``ma`` a combination roll (CO-MA-2)."""

    kind: ClassVar[str] = "grapple"
    actor: str
    target: str
    defence: Defence = Defence.NONE
    parry_weapon: int = 0
    ma: bool = False
    after_dodge: bool = False  # CO-DODGE-5 (004): the Keeper allows it after dodging, −50%


@dataclass(frozen=True)
class Choke:
    """CO-MA-2 choke (003) / CO-GRAP-7 (004)."""

    kind: ClassVar[str] = "choke"
    actor: str


@dataclass(frozen=True)
class Throw:
    """CO-MA-2 throw (003) / CO-GRAP-8 (004); ``at`` is whoever the thrown one lands on;
    ``height_m`` a fall from a height, whose damage replaces the throw's (CO-BASE-11). On
    003's board the thrown one flies 2 squares ``toward`` a compass point (Default: the way
    the thrower faces), and whoever stands where it lands is ``at``."""

    kind: ClassVar[str] = "throw"
    actor: str
    at: str = ""
    at_dodges: bool = False
    height_m: int = 0
    toward: str = ""  # 003's board: the compass point it is thrown along (CO-MA-2)


@dataclass(frozen=True)
class BreakFree:
    """CO-GRAP-2 (003) / CO-GRAP-6 (004): opposed STR, the held side active (CO-CORE-3)."""

    kind: ClassVar[str] = "break_free"
    actor: str


@dataclass(frozen=True)
class Reload:
    """CO-FIRE-1 (003: 3 AP) / CO-BASE-12 (004: the whole action)."""

    kind: ClassVar[str] = "reload"
    actor: str
    weapon: int = 0


@dataclass(frozen=True)
class ClearJam:
    """CO-FIRE-4: a successful roll of the weapon's skill clears a jam (1 AP)."""

    kind: ClassVar[str] = "clear_jam"
    actor: str
    weapon: int = 0


@dataclass(frozen=True)
class Treat:
    """First Aid (CO-SKILL-2) or Medicine (CO-SKILL-3) in 003; CO-BASE-8 treatment in 004."""

    kind: ClassVar[str] = "treat"
    actor: str
    target: str
    skill: str = "first_aid"


@dataclass(frozen=True)
class Move:
    """CO-TURN-5 (003: 1 AP per square; ``to`` a square on the board, the cost the fewest
    king moves around occupied squares) / one action (004)."""

    kind: ClassVar[str] = "move"
    actor: str
    squares: int = 1
    to: str = ""


@dataclass(frozen=True)
class EndTurn:
    """End the current turn (003: unused AP are lost, CO-TURN-3 Default; 004: pass)."""

    kind: ClassVar[str] = "end_turn"
    actor: str


@dataclass(frozen=True)
class Place:
    """The Keeper puts a combatant on the 8×8 board (CO-TURN-2), e.g. ``e2`` facing N."""

    kind: ClassVar[str] = "place"
    actor: str
    square: str
    facing: str = "N"


@dataclass(frozen=True)
class Face:
    """CO-TURN-5: turning costs no AP."""

    kind: ClassVar[str] = "face"
    actor: str
    facing: str


@dataclass(frozen=True)
class Jump:
    """CO-SKILL-6: 2 AP to leap over the adjacent combatant ``over`` to the square beyond."""

    kind: ClassVar[str] = "jump"
    actor: str
    over: str


@dataclass(frozen=True)
class Delay:
    """Take this turn at DEX/2 instead (CO-TURN-1, CO-BASE-5), e.g. for careful aim (CO-AIM-1)."""

    kind: ClassVar[str] = "delay"
    actor: str


@dataclass(frozen=True)
class Concentrate:
    """Dodge concentration, declared before the round's first action: CO-DODGE-1 (003: +20%,
    may only move) / CO-DODGE-8 (004: +10%, any number of dodges, no attack)."""

    kind: ClassVar[str] = "concentrate"
    actor: str


@dataclass(frozen=True)
class Sheathe:
    """CO-IAI-3: sheathe the drawn blade (1 AP); no attack that round."""

    kind: ClassVar[str] = "sheathe"
    actor: str


@dataclass(frozen=True)
class PickUp:
    """Pick up a dropped weapon: 1 AP (CO-FIRE-4 Default) or one action (CO-DISARM-1 Default)."""

    kind: ClassVar[str] = "pick_up"
    actor: str
    weapon: int = 0


@dataclass(frozen=True)
class Spot:
    """CO-SKILL-5: Spot Hidden on a foe shows its weapons and condition; attacks stay allowed."""

    kind: ClassVar[str] = "spot"
    actor: str
    target: str


@dataclass(frozen=True)
class Cast:
    """CO-SPELL-1/2: start a spell; chanted or gestured ones are barred while held and a hit
    may interrupt them (POW×1); ``automatic`` spells go on whatever happens."""

    kind: ClassVar[str] = "cast"
    actor: str
    spell: str
    mp: int = 0
    verbal: bool = True
    automatic: bool = False


@dataclass(frozen=True)
class Tackle:
    """CO-TACKLE-1/2/3: ``option`` "" (1d6+db), "blow_back" or "knock_down"."""

    kind: ClassVar[str] = "tackle"
    actor: str
    target: str
    option: str = ""
    obstacle: bool = False
    defence: Defence = Defence.NONE
    after_dodge: bool = False  # CO-DODGE-5: the Keeper allows it after dodging, −50%


@dataclass(frozen=True)
class Burn:
    """The Keeper's fire damage (CO-BURN-1): totalled per incident; half the maximum HP or more
    costs 1D6 APP or CON (``lose``; empty: the Default)."""

    kind: ClassVar[str] = "burn"
    actor: str  # who burns
    damage: int
    incident: str = "fire"
    lose: str = ""


@dataclass(frozen=True)
class Fall:
    """The Keeper's fall (CO-BASE-11): 1D6 per full 3 m, armour does not help."""

    kind: ClassVar[str] = "fall"
    actor: str  # who falls
    metres: int


@dataclass(frozen=True)
class SanLoss:
    """The Keeper's SAN loss (CO-BASE-13): 5+ at once then INT×5 → temporary insanity; 1/5 of
    the hour's starting SAN → indefinite insanity."""

    kind: ClassVar[str] = "san_loss"
    actor: str  # who loses SAN
    amount: int


Action = (Attack | Grapple | Choke | Throw | BreakFree | Reload | ClearJam | Treat | Move
          | EndTurn | Delay | Concentrate | Sheathe | PickUp | Spot | Cast | Tackle | Burn | Fall
          | SanLoss | Place | Face | Jump)
ACTIONS: dict[str, type[Any]] = {a.kind: a for a in (
    Attack, Grapple, Choke, Throw, BreakFree, Reload, ClearJam, Treat, Move, EndTurn, Delay,
    Concentrate, Sheathe, PickUp, Spot, Cast, Tackle, Burn, Fall, SanLoss, Place, Face, Jump)}
KEEPER_ACTIONS = (Burn, Fall, SanLoss, Place)  # the Keeper's, at any moment; no turn is used
# A saved fight's format, and the rules revision that plays new actions. Files without one
# (format 1) were played before an audit's rule fixes, which change what a log may hold: their
# entries replay with ``legacy`` set, as they were played, so they still load. Each entry
# records the revision that played it (``engine``, written when it is not :data:`FORMAT`, as
# genso's journal does), so a fight begun under format 1 goes on under the fixed rules while
# its past replays exactly. Each place that differs says "format 1".
FORMAT = 2
# The rules revision new actions are played by. Format 2's entries without an ``engine`` were
# played by revision 2; a file written since says ``engine`` (3) at its top, the revision of
# each entry that does not say its own. Revision 3: a 003 grappler's turn is not held at 0 AP
# for an Iai with a two-handed blade that CO-GRAP-3 refuses (CO-IAI-2).
ENGINE = 3
UNREAD_BEFORE = {("CO-CORE-1", "all_checks_003"), ("CO-BASE-4", "roll_then_halve"),
                 ("CO-BASE-12", "full_refill"), ("CO-TURN-1", "tie_break_die"),
                 ("CO-ARMOR-2", "pool_across_bullets")}  # listed but not read by format 1


def _check_shape(data: Mapping[str, Any]) -> None:
    """A fight file's top level, field by field: what is wrong is said in words, not in
    Python's ('int' object is not iterable)."""
    def wrong(field: str, should: str) -> DataError:
        return DataError(f"not a saved coc fight: {field} should be {should}, "
                         f"found {data.get(field)!r}")

    if data.get("profile") not in {p.value for p in Profile}:
        raise wrong("profile", " or ".join(repr(p.value) for p in Profile))
    if not isinstance(data.get("settings", {}), Mapping):
        raise wrong("settings", "a table of rule IDs")
    entrants = data.get("entrants")
    sides = {s.value for s in Side}
    if not isinstance(entrants, list) or not entrants or not all(
            isinstance(e, Mapping) and isinstance(e.get("sheet"), Mapping)
            and e.get("side") in sides for e in entrants):
        raise wrong("entrants", f"a list of tables, each with a sheet and a side "
                                f"({', '.join(sorted(sides))})")
    opening = data.get("opening")
    if not isinstance(opening, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) for n in d) for d in opening):
        raise wrong("opening", "a list of [sides, value] dice")
    if not isinstance(data.get("journal"), list):
        raise wrong("journal", "a list of entries")


def file_format(data: Mapping[str, Any]) -> int:
    """The format of a saved fight: 1 without the key, else a whole number this code reads
    (a ``"2"`` written by hand must not replay silently as format 1)."""
    value = data.get("format", 1)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FORMAT:
        raise DataError(f"fight file format {value!r} is not one this companion reads "
                        f"(1 to {FORMAT})")
    return value


def format1_rules(rules: CocRules, settings: Mapping[str, Any]) -> CocRules:
    """The rules format 1 played under: the code that played it never read the
    :data:`UNREAD_BEFORE` settings, so they are left at their defaults."""
    unread = {rule: {k: v for k, v in keys.items() if (rule, k) not in UNREAD_BEFORE}
              for rule, keys in settings.items()}
    return rules.with_overrides(unread, "the fight's settings", limits=False)


def action_to_json(action: Action) -> dict[str, Any]:
    data = {k: (v.value if isinstance(v, Enum) else v) for k, v in asdict(action).items()}
    return {"kind": action.kind, **data}


# An action field's type, as its annotation names it, and how to write a value of it.
_FIELD_TYPES = {"bool": (bool, "true or false"), "int": (int, "a whole number"),
                "str": (str, "a word")}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The action ``data`` describes; a key the action does not have, or a value of another
    type, is an error naming it (a typed ``defense=dodge`` must not play the attack undodged)."""
    if not isinstance(data, Mapping):
        raise DataError(f"an action is a table of its fields, found {data!r}")
    cls = ACTIONS.get(str(data.get("kind")))
    if cls is None:
        raise DataError(f"unknown action {data.get('kind')!r}")
    known = {f.name: f.type for f in fields(cls)}
    unknown = sorted(set(data) - set(known) - {"kind"})
    if unknown:
        raise DataError(f"the {cls.kind} action has no {', '.join(map(repr, unknown))} "
                        f"(its fields: {', '.join(known)})")
    missing = [f.name for f in fields(cls) if f.default is MISSING and f.name not in data]
    if missing:
        raise DataError(f"the {cls.kind} action needs its {' and '.join(missing)} "
                        f"(e.g. `act {cls.kind} ACTOR " + ("TARGET" if "target" in missing
                                                           else "--with KEY=VALUE") + "`)")
    values: dict[str, Any] = {}
    for name, kind in known.items():
        if name not in data:
            continue
        value = data[name]
        if kind == "Defence":
            choices = [d.value for d in Defence]
            if value not in choices:
                raise DataError(f"{name} {value!r}: write one of {', '.join(choices)}")
            value = Defence(value)
        elif type(value) is not _FIELD_TYPES[str(kind)][0]:
            raise DataError(f"{name} {value!r}: write {_FIELD_TYPES[str(kind)][1]}")
        values[name] = value
    try:
        made: Action = cls(**values)
    except TypeError as exc:
        raise DataError(f"action {data!r}: {exc}") from exc
    return made


# --- state -------------------------------------------------------------------------------

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
        raise IllegalAction(f"nobody called {name!r} is in the fight")

    @property
    def current(self) -> Combatant | None:
        return self.get(self.order[self.turn]) if self.turn < len(self.order) else None

    def outcome(self) -> Side | None:
        """The side still standing once every member of the other is dead or unconscious."""
        for side in Side:
            others = [c for c in self.combatants if c.side is not side]
            if others and all(c.out for c in others) and any(
                    not c.out for c in self.combatants if c.side is side):
                return side
        return None


@dataclass(frozen=True)
class Entry:
    """One journal line: the action, what happened (each line with its rule ID), the dice."""

    action: Action
    lines: tuple[str, ...]
    dice: tuple[tuple[int, int], ...]
    engine: int = ENGINE  # the rules revision that played it (1: format 1's, see FORMAT)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": action_to_json(self.action), "lines": list(self.lines),
                                "dice": [list(d) for d in self.dice]}
        if self.engine != ENGINE:
            data["engine"] = self.engine
        return data


class _Recorder:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[tuple[int, int]] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        values = list(self.source.roll(count, sides, purpose=purpose))
        self.dice += [(sides, v) for v in values]
        return values


class Fight:
    """A fight: push an action to play it, pop to take it back (the python-chess pattern)."""

    def __init__(self, rules: CocRules, entrants: Sequence[tuple[Sheet, Side]],
                 source: DiceSource, legacy: bool = False,
                 played: CocRules | None = None) -> None:
        """``legacy`` opens the fight, and plays what is pushed, as format 1 did (see
        :data:`FORMAT`); ``played`` is the rules format 1 read (:func:`format1_rules`)."""
        if len({s.name for s, _ in entrants}) != len(entrants):
            raise DataError("every combatant needs a name of its own")
        if not entrants:
            raise DataError("a fight needs combatants")
        self.rules = rules
        self.format1 = played or rules  # the rules an entry played by format 1 reads
        self.entrants = tuple(entrants)
        self.engine = 1 if legacy else ENGINE  # the revision new actions are played by
        self.reworded: list[int] = []  # old-format journal entries that now read differently
        self.notes: list[str] = []  # what loading an old file should tell the player
        recorder = _Recorder(source)
        step = _Step(self.format1 if legacy else rules, FightState(0, (), 0, tuple(
            Combatant(s, side, s.max_hp, mp=s.stat("POW"), san=s.sanity)
            for s, side in entrants)), recorder)
        step.new_round()
        self.opening = Entry(EndTurn(""), tuple(step.lines), tuple(recorder.dice), self.engine)
        self.states: list[FightState] = [step.freeze()]
        self.journal: list[Entry] = []

    @property
    def legacy(self) -> bool:
        """New actions are played as format 1 played them (a test's old fight)."""
        return self.engine < FORMAT

    @property
    def state(self) -> FightState:
        return self.states[-1]

    def push(self, action: Action, source: DiceSource, engine: int | None = None) -> Entry:
        """Play ``action``; an illegal one raises IllegalAction and changes nothing.
        ``engine`` is the revision to play it by (only a replay asks for an older one)."""
        engine = self.engine if engine is None else engine
        recorder = _Recorder(source)
        old = engine < FORMAT
        step = _Step(self.format1 if old else self.rules, self.state, recorder, old, engine)
        step.play(action)
        entry = Entry(action, tuple(step.lines), tuple(recorder.dice), engine)
        self.states.append(step.freeze())
        self.journal.append(entry)
        return entry

    def pop(self) -> Entry:
        if not self.journal:
            raise IllegalAction("nothing to undo")
        self.states.pop()
        return self.journal.pop()

    def to_json(self) -> dict[str, Any]:
        data = {"format": FORMAT, "engine": ENGINE, "profile": self.rules.profile.value,
                "settings": self.rules.settings(),
                "entrants": [{"side": side.value, "sheet": sheet_mapping(s)}
                             for s, side in self.entrants],
                "opening": [list(d) for d in self.opening.dice],
                "journal": [e.to_json() for e in self.journal]}
        if self.opening.engine < FORMAT:  # begun under format 1: its settings as they were
            data["opening_engine"] = self.opening.engine
        return data

    @classmethod
    def from_json(cls, rules: CocRules, data: Mapping[str, Any]) -> Fight:
        """Replay a saved fight from its log; the recorded dice must give the same lines.

        Entries keep the revision that played them; new actions follow today's rules. A
        fight begun under format 1 keeps every setting it was begun with, even one outside
        the range checked since (it was played so); :attr:`notes` say what differs."""
        if not isinstance(data, Mapping):
            raise DataError("not a saved coc fight (its top level must be a table)")
        fmt = file_format(data)
        _check_shape(data)
        profile = Profile(data["profile"])
        settings = data.get("settings", {})
        entrants = [(sheet_from_mapping(rules, e["sheet"], f"entrant {n}"), Side(e["side"]))
                    for n, e in enumerate(data["entrants"], 1)]
        opening = [(int(s), int(v)) for s, v in data["opening"]]
        journal = list(data["journal"])
        first = 1 if fmt == 1 else _engine(data.get("opening_engine", FORMAT), "opening_engine")
        played = 1 if fmt == 1 else _engine(data.get("engine", FORMAT), "engine")
        rules = rules.with_profile(profile)
        try:  # the range check came with format 2: a fight begun before keeps what it had
            rules.with_overrides(settings, "the fight's settings")
        except DataError:
            if first >= FORMAT:
                raise
        mine = rules.with_overrides(settings, "the fight's settings", limits=False)
        fight = cls(mine, entrants, ScriptedDice(opening), legacy=first < FORMAT,
                    played=format1_rules(rules, settings) if first < FORMAT else None)
        fight.engine = ENGINE
        for n, raw in enumerate(journal, 1):
            fight.replay(n, raw, strict=fmt >= FORMAT, engine=played)
        if fmt == 1:
            fight.notes = _format1_notes(mine, len(journal))
        return fight

    def replay(self, n: int, raw: object, strict: bool = True, engine: int = ENGINE) -> None:
        """Replay journal entry ``n``; anything wrong with it is a DataError naming it.

        A file of this format must read as it was written. One of an older format was
        written before some rule or wording was fixed: its dice replay under the rules that
        played them (``engine``, or the entry's own) and the entries that now read
        differently are listed in :attr:`reworded`."""
        where = f"journal entry {n}"
        if not isinstance(raw, Mapping):
            raise DataError(f"{where}: not an action with its dice, found {raw!r}")
        try:
            action = action_from_json(raw["action"])
            dice = [(int(s), int(v)) for s, v in raw["dice"]]
            lines = raw.get("lines")
            engine = _engine(raw.get("engine", engine), "engine")
        except DataError as exc:
            raise DataError(f"{where}: {exc}") from exc
        except KeyError as exc:
            raise DataError(f"{where}: {exc} is missing") from exc
        except (TypeError, ValueError) as exc:
            raise DataError(f"{where}: its dice must be [sides, value] pairs ({exc})") from exc
        try:
            entry = self.push(action, ScriptedDice(dice), engine)
        except CompanionError as exc:
            raise DataError(f"{where} ({action.kind} by {action.actor!r}) does not replay: "
                            f"{exc}") from exc
        if lines is not None and list(entry.lines) != list(lines):
            if strict:
                raise DataError(f"{where} ({action.kind}) replays differently")
            self.reworded.append(n)


def _engine(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ENGINE:
        raise DataError(f"{key} {value!r}: write a whole number from 1 to {ENGINE}")
    return value


def _format1_notes(rules: CocRules, played: int) -> list[str]:
    """What a format-1 file's player is told once: its past replays as it was played, new
    actions follow the fixed rules, and the settings that now mean something new."""
    past = "its 1 action replays as it was" if played == 1 else \
        f"its {played} actions replay as they were"
    notes = [f"this fight was begun by an older version: {past} played; new actions follow "
             "the fixed rules"]
    for problem in out_of_limits(rules.defaults):
        notes.append(f"{problem}; kept, as the fight was begun with it (a new --set is "
                     "checked)")
    for rule, keys in rules.settings().items():
        for key, value in keys.items():
            if (rule, key) in UNREAD_BEFORE:
                notes.append(f"{rule}.{key} = {json.dumps(value)} was not read by the older "
                             "version; it holds for new actions")
    return notes


# --- the rules engine ---------------------------------------------------------------------

class _Step:
    """One action's worth of rules, on a working copy of the state."""

    def __init__(self, rules: CocRules, state: FightState, source: DiceSource,
                 legacy: bool = False, engine: int = ENGINE) -> None:
        self.rules = rules
        self.legacy = legacy
        self.engine = 1 if legacy else engine  # the revision playing it (see ENGINE)
        self.round = state.round
        self.order = state.order
        self.turn = state.turn
        self.opened = state.opened
        self.cs = {c.name: c for c in state.combatants}
        self.names = [c.name for c in state.combatants]
        self.source = source
        self.lines: list[str] = []
        self.r5: Ranges = ranges(rules, attack=False)  # every check but an attack roll
        self.r_attack: Ranges = ranges(rules)          # CO-CORE-1: an attack roll's ranges
        self.covered: dict[str, bool] = {}  # CO-DODGE-7: who took cover this action
        self.pool: dict[tuple[str, str], int] = {}  # CO-ARMOR-2 toggle: armour left over
        self.p003 = rules.profile is Profile.P003

    def freeze(self) -> FightState:
        return FightState(self.round, self.order, self.turn,
                          tuple(self.cs[n] for n in self.names), self.opened)

    def on(self, rule: str) -> bool:
        return self.rules.on(rule)

    def divisor(self, rule: str, key: str) -> int:
        """A Default that divides: a fight begun before the range check may hold a 0 (see
        Fight.from_json), which refuses the action that needs it instead of crashing."""
        value: int = self.rules.default(rule, key)
        if value < LIMITS[rule, key][0]:
            raise IllegalAction(f"{rule}.{key} is {value} in this fight's settings; it must be "
                                f"{LIMITS[rule, key][0]} or more to play this")
        return value

    def say(self, text: str) -> None:
        self.lines.append(text)

    def set(self, c: Combatant, **changes: Any) -> Combatant:
        new = replace(c, **changes)
        self.cs[c.name] = new
        return new

    def get(self, name: str) -> Combatant:
        if name not in self.cs:
            raise IllegalAction(f"nobody called {name!r} is in the fight")
        return self.cs[name]

    def roll_total(self, formula: str, purpose: str = "") -> tuple[int, str]:
        """``formula`` rolled, its dice asked for as ``purpose`` and the formula (``Ann
        キック/Kick damage ダメージ 1D6+1D4``): its total and its line."""
        if formula in ("", "0"):
            return 0, "0"
        result = roll(formula, self.source, purpose=f"{purpose} {formula}" if purpose else "")
        return result.total, result.text

    def check(self, c: Combatant, skill: str, modifier: int = 0, label: str = "",
              attack: bool = False) -> Check:
        value = max(0, skill_value(self.rules, c.sheet, skill) + modifier)
        label = label or f"{c.name} {self.rules.skill(skill).name}"
        made = check(self.source, value, self.r_attack if attack else self.r5, label)
        self.say(made.text)
        return made

    # -- turns (CO-TURN-1, CO-TURN-3, CO-BASE-5) --

    def can_act(self, c: Combatant) -> bool:
        return not (c.out or c.has(Condition.FALLEN, self.round)
                    or c.has(Condition.NO_ACTION, self.round))

    def new_round(self) -> None:
        """CO-TURN-1 / CO-BASE-5: a new round in DEX order; ties by 1D100, lowest first."""
        self.round += 1
        for name in self.names:
            c = self.cs[name]
            self.set(c, dodges=0, parries=0, attacks=0, other_skill=False, acted=False, ap=0,
                     treat_failed=False, first_aid_tries=0, concentrating=False, first_strike=0,
                     slot_pending=False, half_dex=False, delayed_ap=0, spent_other=False,
                     iai_used=False, sheathed=False, no_more_shots=False, moved=0, shots=0,
                     jammed_now=())
        self.opened = False
        self.dying_rolls()
        self.bleed()
        self.pins()
        rule = "CO-TURN-1" if self.on("CO-TURN-1") else "CO-BASE-5"
        ties: dict[str, int] = {}
        die = self.rules.default("CO-TURN-1", "tie_break_die")  # the tie's die (1D100)
        dexes = [self.cs[n].sheet.stat("DEX") for n in self.names]
        for name, dex in zip(self.names, dexes, strict=True):
            if dexes.count(dex) > die:
                raise DataError(f"CO-TURN-1.tie_break_die: a 1D{die} cannot order the "
                                f"{dexes.count(dex)} characters with DEX {dex}")
            if dexes.count(dex) > 1:
                while True:
                    value = roll(f"1D{die}", self.source, purpose=f"{name}'s DEX tie "
                                 f"同DEXの順番 1D{die} (lowest first)").total
                    same = [n for n in ties if ties[n] == value and
                            self.cs[n].sheet.stat("DEX") == dex]
                    if not same:
                        ties[name] = value
                        break
        self.order = tuple(sorted(self.names, key=lambda n: (-self.cs[n].sheet.stat("DEX"),
                                                             ties.get(n, 0))))
        self.turn = -1
        shown = ", ".join(f"{n}(DEX {self.cs[n].sheet.stat('DEX')}"
                          + (f", 1D{die}={ties[n]}" if n in ties else "") + ")" for n in self.order)
        self.say(f"round {self.round}: {shown} ({rule})")
        self.next_turn()

    def dying_rolls(self) -> None:
        """CO-DEATH-1 (003): each dying investigator rolls CON×5 at the round's start."""
        if not self.on("CO-DEATH-1"):
            return
        for name in self.names:
            c = self.cs[name]
            if c.dead or not c.has(Condition.DYING, self.round):
                continue
            made = check(self.source, c.sheet.stat("CON") * 5, self.r5, f"{name} CON×5")
            self.say(f"{made.text} (CO-DEATH-1)")
            if not made.success:
                self.die(c, "failed CON×5 while dying (CO-DEATH-1)")

    def next_turn(self) -> None:
        while True:
            self.turn += 1
            if self.turn >= len(self.order):
                self.end_round()
                return
            c = self.cs[self.order[self.turn]]
            if self.can_act(c):
                self.begin_turn(c)
                return
            why = "dead" if c.dead else "cannot act"
            self.say(f"{c.name} is skipped ({why})")

    def begin_turn(self, c: Combatant) -> None:
        c = self.set(c, spent_other=False)
        if c.slot_pending:
            c = self.set(c, slot_pending=False, half_dex=True, ap=c.delayed_ap, delayed_ap=0)
            rule = "CO-TURN-1" if self.p003 else "CO-BASE-5"
            self.say(f"{c.name} acts at DEX/2 ({c.sheet.stat('DEX') // 2})"
                     + (f": {c.ap} AP" if self.p003 else "") + f" ({rule})")
            return
        if c.chanting and c.chant_turns <= 1:
            self.say(f"{c.name}'s {c.chanting} takes effect (CO-SPELL-2)")
            c = self.set(c, chanting="", chant_automatic=False, chant_turns=0)
        elif c.chanting:
            c = self.set(c, chant_turns=c.chant_turns - 1)
            self.say(f"{c.name} chants on: {c.chanting} in {c.chant_turns} turn(s) (CO-SPELL-2)")
        if not self.p003:
            return
        ap = self.rules.num("CO-TURN-3", "action_points")
        if self.on("CO-STUN-1") and c.stun:
            made = check(self.source, c.sheet.stat("CON") * 5, self.r5, f"{c.name} CON×5")
            stun = c.stun - 1 if made.success else c.stun
            self.say(f"{made.text} (CO-STUN-1: stun {c.stun} → {stun})")
            c = self.set(c, stun=stun)
            ap -= c.stun
        if self.on("CO-GRAP-3") and (c.grappling or c.held_by):
            ap = min(ap, self.rules.num("CO-GRAP-3", "action_points"))
        self.set(c, ap=max(0, ap))
        self.say(f"{c.name}'s turn: {max(0, ap)} AP (CO-TURN-3)")

    def end_round(self) -> None:
        for name in self.names:
            c = self.cs[name]
            if self.on("CO-ARMOR-2") and any(a.breaking for a in c.sheet.armour):
                kept = tuple(a for a in c.sheet.armour if not a.breaking)
                self.say(f"{name}'s armour breaks at the end of the round (CO-ARMOR-2)")
                c = self.set(c, sheet=replace(c.sheet, armour=kept))
            if self.on("CO-BASE-8") and not c.dead and c.dying_until == self.round:
                self.die(c, "not treated by the end of the next round (CO-BASE-8)")
        if self.over():
            self.order, self.turn = (), 0
            return
        self.new_round()

    def over(self) -> bool:
        return self.freeze().outcome() is not None

    def finish(self, actor: Combatant) -> None:
        """After an action: 004 passes the turn (CO-BASE-5); 003 when the AP are spent."""
        if self.over():
            self.say(f"the fight is over: the {self.freeze().outcome().value} stand")  # type: ignore[union-attr]
            self.order, self.turn = (), 0
            return
        c = self.cs[actor.name]
        if self.p003 and c.ap <= 0 and self.can_act(c) and self.iai_pending(c):
            self.say(f"{c.name} may still strike with Iai, which costs no AP, or end the turn "
                     "(CO-IAI-2)")
            return
        if not self.p003 or c.ap <= 0 or not self.can_act(c):
            self.next_turn()

    def iai_pending(self, c: Combatant) -> bool:
        """CO-IAI-2: 「三回移動後に攻撃を行ってもよい」: at 0 AP the turn stays open while an
        Iai (no AP) is still possible: not yet used, the blade sheathed, no other skill, not
        stunned, an Iai weapon in hand (not a two-handed one while grappling, CO-GRAP-3)
        and, on the board, a foe next to it. Only for a sheet
        that lists Iai (Default): one at the 1% base would wait every turn for nothing."""
        if self.legacy or not self.on("CO-IAI-2") or "iai" not in c.sheet.skills \
                or c.iai_used or c.drawn \
                or c.sheathed or c.other_skill or c.concentrating or c.held_by:
            return False
        if self.on("CO-STUN-1") and c.stun:
            return False
        # CO-GRAP-3; revision 2 held the turn for a two-handed blade it then refused
        two_handed_barred = self.engine >= 3 and self.on("CO-GRAP-3") and bool(c.grappling)
        if not any(w.info.iai and not (w.broken or w.dropped)
                   and not (two_handed_barred and w.info.two_handed) for w in c.sheet.weapons):
            return False
        if not c.square or not self.on("CO-TURN-2"):
            return True
        here = board.parse(c.square)
        return any(o.side is not c.side and not o.out and o.square
                   and board.distance(here, board.parse(o.square)) <= 1
                   for o in self.cs.values())

    # -- legality --

    def legal(self, action: Action) -> Combatant:
        if not self.order:
            raise IllegalAction("the fight is over")
        actor = self.get(action.actor)
        if isinstance(action, KEEPER_ACTIONS):
            return actor
        if isinstance(action, Concentrate) or (isinstance(action, Attack) and
                                               action.first_strike):
            if self.opened:
                raise IllegalAction("declared before the round's first action "
                                    "(CO-DODGE-1, CO-DODGE-8, CO-FIRE-7)")
            if not self.can_act(actor):
                raise IllegalAction(f"{actor.name} cannot act")
            return actor
        current = self.order[self.turn]
        if actor.name != current:
            raise IllegalAction(f"it is {current}'s turn, not {actor.name}'s "
                                f"({'CO-TURN-1' if self.p003 else 'CO-BASE-5'})")
        if self.on("CO-GRAP-6") and actor.held_by and not isinstance(
                action, (BreakFree, EndTurn)):
            raise IllegalAction(f"{actor.name} is restrained: only breaking free (CO-GRAP-6)")
        if self.p003 and actor.concentrating and not isinstance(action, (Move, EndTurn)):
            raise IllegalAction(f"{actor.name} concentrates on dodging: only moving (CO-DODGE-1)")
        return actor

    def spend(self, c: Combatant, ap: int, rule: str) -> Combatant:
        """CO-TURN-3: pay action points (003 only)."""
        if not self.p003:
            return c
        if c.ap < ap:
            raise IllegalAction(f"{c.name} has {c.ap} AP, needs {ap} ({rule})")
        return self.set(c, ap=c.ap - ap)

    # -- play --

    def play(self, action: Action) -> None:
        actor = self.legal(action)
        if isinstance(action, KEEPER_ACTIONS):
            self.keeper(actor, action)
            self.settle()
            return
        if isinstance(action, Concentrate):
            self.concentrate(actor)
            return
        if isinstance(action, Attack) and action.first_strike:
            self.attack(actor, action)
            self.settle()
            return
        self.opened = True
        if isinstance(action, EndTurn):
            self.say(f"{actor.name} ends the turn")
            self.next_turn()
            return
        if isinstance(action, Attack):
            self.attack(actor, action)
        elif isinstance(action, Grapple):
            self.grapple(actor, action)
        elif isinstance(action, Choke):
            self.choke(actor, action)
        elif isinstance(action, Throw):
            self.throw(actor, action)
        elif isinstance(action, BreakFree):
            self.break_free(actor, action)
        elif isinstance(action, Reload):
            self.reload(actor, action)
        elif isinstance(action, ClearJam):
            self.clear_jam(actor, action)
        elif isinstance(action, Treat):
            self.treat(actor, action)
        elif isinstance(action, Delay):
            self.delay(actor)
        elif isinstance(action, Sheathe):
            self.sheathe(actor)
        elif isinstance(action, PickUp):
            self.pick_up(actor, action)
        elif isinstance(action, Spot):
            self.spot(actor, action)
        elif isinstance(action, Cast):
            self.cast(actor, action)
        elif isinstance(action, Tackle):
            self.tackle(actor, action)
        elif isinstance(action, Face):
            self.face(actor, action)
        elif isinstance(action, Jump):
            self.jump(actor, action)
        else:
            self.move(actor, action)
        self.finish(actor)

    def settle(self) -> None:
        """After an out-of-turn action: the fight may be over."""
        if self.over():
            self.say(f"the fight is over: the {self.freeze().outcome().value} stand")  # type: ignore[union-attr]
            self.order, self.turn = (), 0

    def one_action(self, c: Combatant, rule: str, ap: int = 1) -> Combatant:
        """Pay for an action: ``ap`` AP in 003 (CO-TURN-3), the turn's one action in 004."""
        if self.p003:
            c = self.spend(c, ap, rule)
            return self.set(c, spent_other=True)
        if c.attacks:
            raise IllegalAction("one action a turn (CO-BASE-5)")
        return self.set(c, attacks=1)

    def move(self, c: Combatant, a: Move) -> None:
        if a.to:
            a = replace(a, squares=self.walk(c, a.to))
        if a.squares < 1:
            raise IllegalAction("move at least one square")
        if self.on("CO-GRAP-6") and c.grappling:
            raise IllegalAction("a restraining grappler holds its place (CO-GRAP-6)")
        if self.on("CO-CALL-1") and c.leg_hits:
            most = self.rules.num("CO-TURN-3", "action_points") - c.leg_hits * self.rules.num(
                "CO-CALL-1", "leg")["moves_lost"]
            if c.moved + a.squares > most:
                raise IllegalAction(f"{c.name}'s leg allows {max(0, most)} square(s) a round "
                                    "(CO-CALL-1)")
        c = self.spend(c, a.squares, "CO-TURN-5")
        self.set(c, spent_other=True, moved=c.moved + a.squares)
        rule = "CO-TURN-5" if self.p003 else "CO-BASE-5"
        if a.to:
            self.relocate(c, a.to)
            self.say(f"{c.name} moves {a.squares} square(s) to {a.to} ({rule}, CO-TURN-2)")
        else:
            self.say(f"{c.name} moves {a.squares} square(s) ({rule})")

    def weapon(self, c: Combatant, index: int) -> Weapon:
        if not 0 <= index < len(c.sheet.weapons):
            raise IllegalAction(f"{c.name} has no weapon {index}")
        return c.sheet.weapons[index]

    def put_weapon(self, c: Combatant, index: int, w: Weapon) -> Combatant:
        weapons = list(c.sheet.weapons)
        weapons[index] = w
        return self.set(c, sheet=replace(c.sheet, weapons=tuple(weapons)))

    def may_strike(self, c: Combatant, after_dodge: bool = False, weapon: bool = True
                   ) -> None:
        """What bars any attack, a grapple and a tackle included: a stun (CO-STUN-1), another
        skill this round (CO-TURN-4), a dodge (CO-DODGE-4; the Keeper may allow an attack at
        −50%, CO-DODGE-5), dodge concentration (CO-DODGE-8), sheathing (CO-IAI-3)."""
        old_grapple = self.legacy and not weapon  # format 1 let the stunned grapple, tackle
        if self.on("CO-STUN-1") and c.stun and not old_grapple:
            raise IllegalAction(f"{c.name} is stunned and cannot attack (CO-STUN-1)")
        if self.on("CO-TURN-4") and c.other_skill:
            raise IllegalAction("no attack in a round with another skill (CO-TURN-4)")
        if after_dodge and not (self.on("CO-DODGE-4") and self.on("CO-DODGE-5")):
            raise IllegalAction("an attack after dodging is CO-DODGE-5 (004)")
        if after_dodge and not c.dodges:
            raise IllegalAction(f"{c.name} has not dodged this round: leave out after_dodge")
        if self.on("CO-DODGE-4") and c.dodges and not after_dodge:
            raise IllegalAction(f"{c.name} dodged this round and cannot attack (CO-DODGE-4); "
                                "the Keeper may allow it at −50% with after_dodge=true "
                                "(CO-DODGE-5)")
        if not self.p003 and c.concentrating:
            raise IllegalAction(f"{c.name} concentrates on dodging: no attack (CO-DODGE-8)")
        if c.sheathed and not old_grapple:
            raise IllegalAction(f"{c.name} sheathed this round: no attack (CO-IAI-3)")

    def may_attack(self, c: Combatant, w: Weapon, ap: int, after_dodge: bool = False
                   ) -> None:
        if w.broken or w.dropped:
            raise IllegalAction(f"{w.info.name} is {'broken' if w.broken else 'dropped'}")
        if w.jammed:
            raise IllegalAction(f"{w.info.name} is jammed until cleared (CO-FIRE-4)")
        self.may_strike(c, after_dodge)
        if self.on("CO-GRAP-3") and (c.grappling or c.held_by) and w.info.two_handed:
            raise IllegalAction("no two-handed weapon while grappling (CO-GRAP-3)")
        if self.on("CO-GRAP-6") and c.grappling and not self.legacy:
            # 004 line 164「次Rから拘束したまま片手で扱える武器が使用可能(拳銃など)」
            if c.grapple_round >= self.round:
                raise IllegalAction(f"{c.name} restrains {c.grappling}: a one-handed weapon "
                                    "from the next round (CO-GRAP-6)")
            if w.info.two_handed:
                raise IllegalAction(f"{c.name} restrains {c.grappling}: only a one-handed "
                                    f"weapon (拳銃など), not {w.info.name} (CO-GRAP-6)")
        attacks = w.info.attacks
        if attacks > 1 and c.arm_hits and self.on("CO-CALL-1"):
            attacks = max(1, attacks - c.arm_hits * self.rules.num("CO-CALL-1", "arm")[
                "attacks_lost"])
        if self.p003 and self.on("CO-TURN-6") and c.attacks + ap > attacks:
            raise IllegalAction(f"{w.info.name} allows {attacks} attack AP a round "
                                "(CO-TURN-6" + (", CO-CALL-1)" if attacks < w.info.attacks
                                                else ")"))
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")

    def attack(self, c: Combatant, a: Attack) -> None:
        target = self.get(a.target)
        if target.name == c.name:
            raise IllegalAction("attack someone else")
        if target.dead:
            raise IllegalAction(f"{target.name} is dead")
        if a.borrow:
            c, a = self.borrow(c, a)
        w = self.weapon(c, a.weapon)
        a = self.on_the_board(c, target, a, w.info.kind)
        firearm = w.info.kind is WeaponKind.FIREARM
        if a.first_strike:
            self.first_strike(c, target, a, w)
            return
        if a.burst:
            self.burst(c, target, a, w)
            return
        if a.iai:
            self.iai(c, target, a, w)
            return
        shots = a.shots if not self.p003 else 1
        allowed = w.info.attacks - c.first_strike
        if allowed < 1:
            raise IllegalAction(f"{w.info.name}'s attack went in the first strike (CO-FIRE-7)")
        if not 1 <= shots <= allowed:
            raise IllegalAction(f"{w.info.name} makes 1 to {allowed} attacks now")
        if a.ma and not (w.info.technique and (self.on("CO-MA-1") or self.on("CO-BASE-6"))):
            raise IllegalAction("MA goes with Fist, Kick or Head Butt (CO-MA-1, CO-BASE-6)")
        if a.ma_option and not self.on({"forced": "CO-MA-3", "follow_up": "CO-MA-4"}.get(
                a.ma_option, "CO-MA-3")):
            raise IllegalAction(f"the MA option {a.ma_option!r} is off in this profile")
        if firearm and w.loaded < shots:
            raise IllegalAction(f"{w.info.name} has {w.loaded} round(s) loaded")
        if firearm and c.no_more_shots:
            raise IllegalAction(f"{c.name}'s shot was parried: no more shots this round "
                                "(CO-FIRE-5)")
        self.may_attack(c, w, 1, a.after_dodge)
        self.attack_options(c, target, a, w)
        # CO-FIRE-2: every AP on attacks, and this is the third shot (「三回目の射撃」): a fist
        # and two shots are not three shots.
        if (self.p003 and firearm and self.on("CO-FIRE-2") and w.info.attacks >= 3
                and c.attacks == 2 and (c.shots == 2 or self.legacy) and c.ap == 1
                and not c.spent_other
                and not c.half_dex):
            c = self.set(c, ap=0, delayed_ap=1, slot_pending=True)
            self.slot(c)
            self.say(f"every AP on attacks: {c.name}'s third shot comes at DEX/2 "
                     f"({c.sheet.stat('DEX') // 2}) (CO-FIRE-2)")
            return
        c = self.spend(c, 1, "CO-TURN-6")
        c = self.set(c, attacks=c.attacks + 1)
        if a.surprise and not self.surprise(c, a):
            return
        for shot in range(shots):
            c = self.cs[c.name]
            target = self.cs[target.name]
            w = c.sheet.weapons[a.weapon]
            if firearm:
                c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - 1))
                c = self.set(c, shots=c.shots + 1)
            if w.info.improvised and self.on("CO-WEAP-1"):
                self.wear(c, a.weapon, "an attack")
            self.one_attack(self.cs[c.name], target, a, w, first=shot == 0)
            if self.cs[target.name].dead or self.cs[c.name].no_more_shots:
                break
        if a.surprise:
            self.spotting(self.cs[c.name], self.cs[target.name])

    def wear(self, c: Combatant, index: int, why: str) -> None:
        """CO-WEAP-1: an improvised weapon loses 1 durability a use; at 0 it breaks."""
        w = self.cs[c.name].sheet.weapons[index]
        left = max(0, (w.durability or 0) - self.rules.num("CO-WEAP-1", "wear"))
        self.say(f"{w.info.name} durability {w.durability} → {left} ({why}, CO-WEAP-1)"
                 + (": broken" if left == 0 else ""))
        self.put_weapon(self.cs[c.name], index, replace(w, durability=left, broken=left == 0))

    def attack_options(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """Refuse, before any die, an option that is off or does not fit the weapon."""
        info = w.info
        ranged = info.kind in (WeaponKind.FIREARM, WeaponKind.THROWN)
        if a.called and (not self.on("CO-CALL-1") or a.called not in ("head", "arm", "leg")):
            raise IllegalAction("a called shot is CO-CALL-1: head, arm or leg")
        if a.called and a.burst:
            raise IllegalAction("no called shot with a burst (CO-FIRE-6)")
        if (info.kind is WeaponKind.THROWN and self.on("CO-THROW-1") and a.distance_m >
                self.rules.num("CO-THROW-1", "range_squares")):
            raise IllegalAction("a throw reaches 3 squares (CO-THROW-1)")
        if a.pommel and not a.iai:
            raise IllegalAction("a pommel strike is declared with Iai (CO-IAI-4)")
        if a.aim and (not self.on("CO-AIM-1") or not ranged):
            raise IllegalAction("careful aim is CO-AIM-1, for a ranged weapon")
        if a.aim and not c.half_dex:
            raise IllegalAction("careful aim only on a turn taken at DEX/2: delay first "
                                "(CO-AIM-1)")
        if a.aim and c.first_strike:
            raise IllegalAction("no careful aim after a first strike (CO-AIM-1, CO-FIRE-7)")
        if a.adjacent and not (info.kind is WeaponKind.FIREARM and (
                self.on("CO-FIRE-5") or self.on("CO-RANGE-3"))):
            raise IllegalAction("point-blank shooting is CO-FIRE-5 (003) or CO-RANGE-3 (004), "
                                "with a firearm")
        if a.dark and not self.on("CO-SURP-3"):
            raise IllegalAction("fighting in the dark is CO-SURP-3, off in this profile")
        if a.dodge_assist and (not self.on("CO-DODGE-6") or
                               a.dodge_assist not in ("navigate", "jump")):
            raise IllegalAction("a dodge assist is CO-DODGE-6: navigate or jump")
        if a.knockout and not (self.on("CO-BASE-10") and (
                info.kind is WeaponKind.UNARMED or info.blunt)):
            raise IllegalAction("a knockout is CO-BASE-10 (optional), with a blunt or unarmed "
                                "attack")
        if a.disarm:
            if not self.on("CO-DISARM-1"):
                raise IllegalAction("disarming is CO-DISARM-1, off in this profile")
            if not 0 <= a.disarm_weapon < len(t.sheet.weapons):
                raise IllegalAction(f"{t.name} has no weapon {a.disarm_weapon}")
        if a.body:
            self.body_rule(a)
        if a.cover and not (self.on("CO-DODGE-7") and info.kind is WeaponKind.FIREARM
                            and a.cover in ("hide", "dodge")):
            raise IllegalAction("taking cover is CO-DODGE-7 (004), against gunfire: "
                                "cover=hide or cover=dodge")
        if a.cover and a.defence not in (Defence.NONE, Defence.DODGE):
            raise IllegalAction("cover is instead of a dodge, not of a parry (CO-DODGE-7)")

    def effective(self, c: Combatant, t: Combatant, a: Attack, w: Weapon, skill: str
                  ) -> tuple[int, int, str]:
        """CO-CORE-1: base × every multiplier, rounded down, then ± every modifier (floor 0).

        Returns the effective skill, the range band's damage divisor (CO-RANGE-2) and the
        damage dice of a printed band ("" for the weapon's own, CO-FIRE-9).
        """
        info = w.info
        base = skill_value(self.rules, c.sheet, skill)
        ranged = info.kind in (WeaponKind.FIREARM, WeaponKind.THROWN)
        mults: list[tuple[Fraction, str]] = []
        mods: list[tuple[int, str]] = []
        band = 1
        printed = self.printed_band(c, a, w) if ranged else ""
        if ranged and self.on("CO-RANGE-1"):
            siz, above = t.sheet.stat("SIZ"), self.rules.num("CO-RANGE-1", "above_siz")
            bonus = self.rules.num("CO-RANGE-1", "per_10_siz") * ((siz - above) // 10)
            if siz > above and bonus:
                mods.append((bonus, f"SIZ {siz}, CO-RANGE-1"))
        if (ranged and not printed and a.distance_m > info.range_m > 0
                and self.on("CO-RANGE-2")):
            band = -(-a.distance_m // info.range_m)
            last = self.rules.num("CO-RANGE-2", "last_band")
            if band > last and not self.rules.default("CO-RANGE-2", "beyond_last_band"):
                raise IllegalAction(f"{a.distance_m} m is beyond {last}× the base range "
                                    f"{info.range_m} m (CO-RANGE-2)")
            mults.append((Fraction(1, band), f"{a.distance_m} m, {band}× range, CO-RANGE-2"))
        if a.adjacent:
            if self.on("CO-RANGE-3"):
                mults.append((Fraction(self.rules.num("CO-RANGE-3", "touch_multiplier")),
                              "touch, CO-RANGE-3"))
            else:
                mods.append((self.rules.num("CO-FIRE-5", "adjacent_bonus"),
                             "adjacent, CO-FIRE-5"))
        if a.aim:
            mults.append((Fraction(self.rules.num("CO-AIM-1", "multiplier")),
                          "careful aim, CO-AIM-1"))
        if ranged and info.laser and self.on("CO-AIM-2"):
            mults.append((Fraction(self.rules.num("CO-AIM-2", "multiplier")),
                          "laser sight, CO-AIM-2"))
        if ranged and info.scope > 1 and self.on("CO-AIM-3"):
            mults.append((Fraction(info.scope), f"{info.scope}× scope, CO-AIM-3"))
        if a.dark:
            mults.append((Fraction(1, 2), "dark, CO-SURP-3"))
        if t.hidden and self.on("CO-SURP-3"):
            mods.append((t.hide_penalty, f"{t.name} is hidden, CO-SURP-3"))
        if a.disarm:
            mods.append(self.disarm_penalty(c, a))
        if a.body:
            mods.append(self.body_penalty(t, a, w))
        if not self.p003 and self.on("CO-DODGE-5") and c.dodges:
            mods.append((self.rules.num("CO-DODGE-5", "attack_after_dodge"),
                         "after dodging, CO-DODGE-5"))
        if a.called:
            mods.append((self.rules.num("CO-CALL-1", "penalty"),
                         f"called shot: {a.called}, CO-CALL-1"))
        product = Fraction(base)
        for m, _ in mults:
            product *= m
        value = max(0, int(product) + sum(m for m, _ in mods))
        if mults or mods:
            shown = " ".join([f"×{m}" + f" ({why})" for m, why in mults]
                             + [f"{m:+d} ({why})" for m, why in mods])
            self.say(f"{c.name} {self.rules.skill(skill).name}: base {base} {shown} = {value}"
                     + (" ＞ cannot succeed" if value <= 0 else ""))
        if a.body and value <= 0:
            raise IllegalAction(f"{c.name} is not yet skilled enough for that "
                                f"({self.body_rule(a)})")
        return value, band, printed

    def printed_band(self, c: Combatant, a: Attack, w: Weapon) -> str:
        """CO-FIRE-9 (with CO-RANGE-2's proviso): a weapon with printed range bands (a
        shotgun's 4D6/2D6/1D6 at 10/20/50 m) does the damage of the first band that reaches
        the target, at its full skill; beyond the last band it cannot hit. Returns the
        band's dice, "" for a weapon without bands or while CO-FIRE-9 is off."""
        bands, shown = self.rules.bands(w.info)
        if not bands or not self.on("CO-FIRE-9"):
            return ""
        reach = next((b for b in bands if a.distance_m <= b.up_to_m), None)
        if reach is None:
            raise IllegalAction(f"{a.distance_m} m is beyond {w.info.name}'s last band "
                                f"{bands[-1].up_to_m} m ({shown}, CO-FIRE-9)")
        at = f"{a.distance_m} m" if a.distance_m else "within range"
        self.say(f"{c.name} {w.info.name} {at}: damage {reach.damage} up to {reach.up_to_m} m "
                 f"(printed bands {shown}, CO-FIRE-9)")
        return reach.damage

    def declared_defence(self, t: Combatant, a: Attack, kind: WeaponKind, first: bool
                         ) -> Defence:
        """The declared defence, checked before any die is asked for (a typed d100 is not
        wasted on a defence that was never allowed). Later bullets of one attack cannot be
        dodged (CO-DODGE-7): the declared dodge covers the first only."""
        if a.cover:
            if a.cover == "dodge" and first and not self.defence_allowed(
                    t, Defence.DODGE, kind, a, True):
                raise IllegalAction(f"{t.name} cannot dodge now (CO-DODGE-7)")
            return Defence.NONE
        d = a.defence
        if d is Defence.NONE or a.surprise or self.legacy:  # format 1 checked after the dice
            return d
        if (d is Defence.DODGE and not first and kind is WeaponKind.FIREARM
                and self.on("CO-DODGE-7")):
            return Defence.NONE
        if not self.defence_allowed(t, d, kind, a, first):
            if not first:  # the first was checked before any die: this action used it up
                return Defence.NONE
            raise IllegalAction(f"{t.name} cannot {d.value} now")
        return d

    def one_attack(self, c: Combatant, target: Combatant, a: Attack, w: Weapon, first: bool,
                   skill_key: str = "") -> None:
        info = w.info
        defence = self.declared_defence(target, a, info.kind, first)
        skill, band, printed = self.effective(c, target, a, w, skill_key or info.skill)
        doubled = times_two = False
        grade: Grade
        if a.ma:
            ma = skill_value(self.rules, c.sheet, "martial_arts")
            combo = combination(self.source, skill, ma, self.r_attack,
                                f"{c.name} {info.name}+MA", hit=True)
            rule = "CO-MA-1" if self.on("CO-MA-1") else "CO-BASE-6"
            self.say(f"{combo.text} ({rule}, CO-BASE-3)")
            grade = combo.grades[0]
            must = self.rules.default("CO-MA-1" if self.p003 else "CO-BASE-6",
                                      "technique_must_succeed")
            hit = combo.rank is Rank.SUCCESS or (combo.rank is Rank.PARTIAL and (
                grade.success or not must))
            doubled = combo.rank is Rank.SUCCESS and a.ma_option != "forced"
            if combo.rank is Rank.SUCCESS and a.ma_option == "forced":
                defence = self.forced(target, defence)
        else:
            label = f"{c.name} {self.rules.skill(skill_key).name if skill_key else info.name}"
            made = check(self.source, skill, self.r_attack, label, hit=True)
            self.say(made.text)
            grade, hit = made.grade, made.success
        if info.skill == "shotgun" and self.on("CO-FIRE-9"):
            self.lines[-1] += " (a shotgun shoots as any firearm, CO-FIRE-9)"
        if not hit:
            if grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        melee = info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        if a.surprise and defence is not Defence.NONE:
            self.say(f"{target.name} cannot dodge or parry a surprise attack (CO-SURP-1)")
            defence = Defence.NONE
        if not first and a.defence is Defence.DODGE and defence is Defence.NONE \
                and not a.cover and info.kind is WeaponKind.FIREARM:
            self.say(f"a later bullet: {target.name}'s dodge stopped the first only "
                     "(CO-DODGE-7)")
        elif not first and a.defence is not Defence.NONE and defence is Defence.NONE \
                and not a.cover and not a.surprise:
            rule = "CO-DODGE-4" if a.defence is Defence.DODGE else "CO-BASE-7"
            self.say(f"{target.name} is out: no {a.defence.value}" if target.out else
                     f"{target.name}'s {a.defence.value} went on an earlier attack: once a "
                     f"round ({rule})")
        if grade.critical and melee and self.on("CO-MELEE-3"):
            any_defence = self.defence_possible(target, info.kind, a)
            self.say("critical: no dodge or parry (CO-MELEE-3)")
            if not any_defence or self.rules.default("CO-MELEE-3", "double_every_critical"):
                times_two = True
                doubled = doubled and not self.legacy  # format 1: ×2 replaced MA's doubling
            defence = Defence.NONE
        if self.legacy and defence is not Defence.NONE and not self.defence_allowed(
                target, defence, info.kind, a, first):
            raise IllegalAction(f"{target.name} cannot {defence.value} now")
        if a.cover and info.kind is WeaponKind.FIREARM and self.behind_cover(target, a):
            return
        if defence is Defence.DODGE:
            if self.dodge(target, info.kind, a, first):
                return
        if a.pommel:
            self.pommel(c, target, a)
            return
        if a.disarm:
            self.disarmed(target, a)
            if not self.rules.default("CO-DISARM-1", "deals_damage"):
                return
        damage, text = self.blow(c, a, w, grade, doubled, times_two, band, printed)
        follow_up = a.ma and a.ma_option == "follow_up" and doubled
        if follow_up and self.legacy:  # format 1 added the follow-up before armour
            more, more_text = self.damage(c, w, True, Grade.SUCCESS, melee)
            self.say(f"follow-up: {more_text} (CO-MA-4)")
            damage, follow_up = damage + more, False
        rolled = damage  # CO-BODY-4's threshold, before armour by Default
        if defence in (Defence.PARRY, Defence.COUNTER):
            way = self.parry if defence is Defence.PARRY else self.counter
            damage, held = way(self.cs[target.name], a, damage, text, info.kind)
            if held and follow_up:
                # 004 line 158: the follow-up is declared 「相手にヒットした時」; a blow the
                # target parried (受け流した, line 19) is not a hit, whatever gets past it.
                self.say(f"{target.name} parried: no follow-up (CO-MA-4, only after a hit)")
                follow_up = False
            if damage <= 0:
                return
            if held:  # stopped in part: the rest goes on to the armour
                text = f"{damage} damage gets past the {defence.value}"
        if a.knockout and self.knockout(self.cs[target.name], damage, text):
            return
        ignore = grade.critical and info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-3")
        if ignore:
            self.say("critical: the armour is ignored (CO-FIRE-3)")
        before = self.cs[target.name].hp
        self.hit(self.cs[target.name], damage, text, ignore_armour=ignore,
                 from_behind=a.from_behind, bullet=info.kind is WeaponKind.FIREARM)
        if follow_up and not self.cs[target.name].dead:
            # CO-MA-4 Default: a second doubled roll, armour (and a CO-ARMOR-2 use) apart.
            more, more_text = self.damage(c, w, True, Grade.SUCCESS, melee,
                                          times_two=times_two)
            self.hit(self.cs[target.name], more, f"follow-up: {more_text} (CO-MA-4)",
                     ignore_armour=ignore, from_behind=a.from_behind)
        if info.stun and self.on("CO-STUN-1"):
            self.stun(self.cs[target.name])
        if a.called:
            self.called_effect(self.cs[target.name], a)
        if melee:
            self.knockback(self.cs[target.name], a, before - self.cs[target.name].hp)
        if a.body:
            if not self.rules.default("CO-BODY-4", "threshold_before_armour"):
                rolled = before - self.cs[target.name].hp
            self.lose_part(self.cs[target.name], a, rolled)

    def forced(self, t: Combatant, defence: Defence) -> Defence:
        """CO-MA-3: a full success forces the declared dodge, and the blow lands; against a
        target that declared no dodge it means nothing (「回避を行わない相手には意味がない」)."""
        if defence is not Defence.DODGE and not self.legacy:  # format 1 always used it
            self.say(f"forced hit: {t.name} declared no dodge, so it changes nothing; normal "
                     "damage (CO-MA-3)")
            return defence
        self.say("forced hit: the dodge is used up, normal damage (CO-MA-3)")
        self.set(t, dodges=t.dodges + 1)
        return Defence.NONE

    def behind_cover(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-7: 「物陰に"隠れる"」: a Hide success, or Dodge at −50%, avoids every
        bullet of the attack. Rolled once, at the first bullet that hits; the rest follow."""
        if t.name in self.covered:
            if self.covered[t.name]:
                self.say(f"{t.name} stays behind cover: the bullet misses (CO-DODGE-7)")
            return self.covered[t.name]
        if a.cover == "hide":
            made = self.check(t, "hide", 0, f"{t.name} takes cover: 隠れる/Hide")
        else:
            penalty = self.rules.num("CO-DODGE-7", "cover_dodge") + self.dodge_bonus(t, a)
            t = self.set(self.cs[t.name], dodges=self.cs[t.name].dodges + 1)
            made = self.check(t, "dodge", penalty, f"{t.name} takes cover: 回避/Dodge")
        self.lines[-1] += " (against every bullet, CO-DODGE-7)"
        self.covered[t.name] = made.success
        return made.success

    def blow(self, c: Combatant, a: Attack, w: Weapon, grade: Grade, doubled: bool,
             times_two: bool, band: int, printed: str) -> tuple[int, str]:
        """A hit's damage with its extras: a thrown critical (CO-THROW-2), a called head shot
        (CO-CALL-1), a range band's divisor (CO-RANGE-2)."""
        info = w.info
        melee = info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        damage, text = self.damage(c, w, doubled, grade, melee, printed, times_two=times_two)
        if grade.critical and info.kind is WeaponKind.THROWN and self.on("CO-THROW-2"):
            more, more_text = self.roll_total(self.rules.num("CO-THROW-2", "critical_bonus"),
                                              f"{c.name} {info.name} critical extra damage "
                                              "クリティカル追加ダメージ")
            damage += more
            text += f" + critical {more_text} = {damage} (CO-THROW-2)"
        if a.called == "head":
            more, more_text = self.roll_total(self.rules.num("CO-CALL-1", "head")["damage"],
                                              f"{c.name} {info.name} head shot extra damage "
                                              "頭部追加ダメージ")
            damage += more
            text += f" + head {more_text} = {damage} (CO-CALL-1)"
        if band > 1:
            damage //= band
            text += f" ÷{band} = {damage} (CO-RANGE-2)"
        return damage, text

    def damage(self, c: Combatant, w: Weapon, doubled: bool, grade: Grade, melee: bool,
               dice: str = "", times_two: bool = False) -> tuple[int, str]:
        """The weapon's damage (or ``dice``, a printed band's, CO-FIRE-9) with its DB: MA
        doubles the dice (CO-MA-1, CO-BASE-6), a melee critical then doubles the total
        (CO-MELEE-3): a critical MA fist is (2D3+DB)×2."""
        info = w.info
        dice = dice or info.damage
        rule = ""
        if doubled:
            dice = double_dice(dice, self.rules.num("CO-MA-1", "dice_multiplier"))
            rule = " (doubled, " + ("CO-MA-1)" if self.p003 else "CO-BASE-6)")
        if grade.special and info.impaling and self.on("CO-BASE-2"):
            dice = f"{dice}+{dice}"
            rule += " (impale, CO-BASE-2)"
        elif grade.special and self.on("CO-CORE-4"):
            rule += " (special: no special table, a normal success, CO-CORE-4)"
        total, text = self.with_db(c, dice, info.db, f"{c.name} {info.name} damage ダメージ")
        total = max(0, total)
        if times_two:
            total *= 2
            rule += " ×2 (CO-MELEE-3)"
        return total, f"damage {text}{rule} = {total}"

    def with_db(self, c: Combatant, dice: str, how: DamageBonus, purpose: str
                ) -> tuple[int, str]:
        """``dice`` plus the DB: full, none, or ½DB (CO-BASE-4): the dice halved (1D4→1D2) by
        Default; with ``roll_then_halve`` the full DB is rolled and halved, rounding up and
        keeping the sign (+1D4 rolls 3 → +2; −1D6 rolls 5 → −3). ``purpose``: what the dice
        are for (``Ann キック/Kick damage ダメージ``)."""
        db = c.sheet.db
        if how is DamageBonus.NONE or db == "0":
            return self.roll_total(dice, purpose)
        if how is DamageBonus.HALF and self.rules.default("CO-BASE-4", "roll_then_halve"):
            total, text = self.roll_total(dice, purpose)
            rolled, db_text = self.roll_total(db.lstrip("+"), f"{c.name} damage bonus DB "
                                              "ダメージボーナス (halved ½)")
            half = -(-abs(rolled) // 2) * (1 if rolled >= 0 else -1)
            return total + half, f"{text} {'+' if half >= 0 else '−'} ½({db_text}) {abs(half)}"
        bonus = db if how is DamageBonus.FULL else half_db(db)
        return self.roll_total(f"{dice}{bonus}" if dice not in ("", "0") else bonus, purpose)

    def defence_possible(self, target: Combatant, kind: WeaponKind, a: Attack) -> bool:
        """CO-MELEE-3: could the target have dodged or parried at all, with any weapon it
        holds or barehanded, MA, Budo or Iai? (Not only the slot the attack named.)"""
        if self.defence_allowed(target, Defence.DODGE, kind, a, True):
            return True
        if self.legacy:  # format 1 looked at the named parry weapon only
            return self.defence_allowed(target, Defence.PARRY, kind, a, True)
        tries = [replace(a, parry_weapon=i, parry_with="")
                 for i in range(len(target.sheet.weapons))]
        # MA and Budo parry only for a sheet that has the skill (003's MA parry is no help to
        # someone who never learnt it); bare hands are anyone's.
        tries += [replace(a, parry_with=way) for way, skill in (
            ("hands", ""), ("ma", "martial_arts"), ("budo", "budo"))
            if not skill or skill in target.sheet.skills]
        tries += [replace(a, parry_weapon=i, parry_with="iai")
                  for i in range(len(target.sheet.weapons))]
        return any(self.defence_allowed(target, d, kind, t, True) for t in tries
                   for d in (Defence.PARRY, Defence.COUNTER))

    def defence_allowed(self, t: Combatant, d: Defence, kind: WeaponKind, a: Attack,
                        first: bool) -> bool:
        """CO-DODGE-2 (003) / CO-DODGE-4, CO-DODGE-7, CO-BASE-7 (004): reaction limits."""
        if t.out:
            return False
        if self.on("CO-DODGE-3") and a.from_behind and not t.concentrating:
            return False
        if d is Defence.DODGE:
            if not first and self.on("CO-DODGE-7") and kind is WeaponKind.FIREARM:
                return False
            if not self.p003 and t.concentrating and self.on("CO-DODGE-8"):
                return True
            limit = self.rules.default("CO-DODGE-2" if self.p003 else "CO-DODGE-4",
                                       "dodges_per_round")
            if t.dodges < int(limit):
                return True
            return self.luck_dodge(t, a) and t.dodges == int(limit)
        limit = self.rules.default("CO-DODGE-2", "other_defences_per_round") if self.p003 \
            else self.rules.default("CO-BASE-7", "parries_per_round")
        if t.parries >= int(limit):
            return False
        if kind is WeaponKind.THROWN:
            return False
        if kind is WeaponKind.FIREARM and not (self.on("CO-FIRE-5") and a.adjacent
                                               and not a.from_behind):
            return False
        if d is Defence.COUNTER:
            if not self.on("CO-MA-5") or not self.bare_parry_allowed(a, kind, "ma"):
                return False
            return 0 <= a.parry_weapon < len(t.sheet.weapons) and \
                t.sheet.weapons[a.parry_weapon].info.technique
        if a.parry_with == "iai":
            return self.iai_parry_allowed(t, a)
        if a.parry_with:
            return self.bare_parry_allowed(a, kind, a.parry_with)
        if not 0 <= a.parry_weapon < len(t.sheet.weapons):
            return False
        pw = t.sheet.weapons[a.parry_weapon]
        if pw.broken or pw.dropped or pw.durability is None:
            return False
        return not (self.on("CO-PARRY-2") and not (pw.info.kind is WeaponKind.MELEE
                                                   or pw.info.long_gun))

    def iai_parry_allowed(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-2 (003): 「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回」:
        an Iai is one of the round's parries, with the Iai weapon ``parry_weapon`` still
        sheathed (CO-IAI-3) and the round's Iai unused (CO-IAI-2)."""
        if not (self.p003 and self.on("CO-DODGE-2") and self.on("CO-IAI-2")):
            return False
        if t.iai_used or t.drawn or not 0 <= a.parry_weapon < len(t.sheet.weapons):
            return False
        pw = t.sheet.weapons[a.parry_weapon]
        return pw.info.iai and not (pw.broken or pw.dropped) and pw.durability is not None

    def bare_parry_allowed(self, a: Attack, kind: WeaponKind, way: str) -> bool:
        """CO-PARRY-2: bare hands only against an unarmed humanoid; MA or Budo against a
        humanoid unarmed or with a melee weapon. In 003, MA parries (CO-DODGE-2)."""
        attacker = self.cs[a.actor]
        if way not in ("hands", "ma", "budo"):
            return False
        if self.on("CO-PARRY-2"):
            if not attacker.sheet.humanoid:
                return False
            if way == "hands":
                return kind is WeaponKind.UNARMED
            return kind in (WeaponKind.UNARMED, WeaponKind.MELEE)
        return self.p003 and way == "ma"

    def dodge_bonus(self, t: Combatant, a: Attack) -> int:
        """CO-DODGE-1 (+20) / CO-DODGE-8 (+10) while concentrating; CO-DODGE-6's assist."""
        bonus = 0
        if t.concentrating:
            rule = "CO-DODGE-1" if self.p003 else "CO-DODGE-8"
            bonus += self.rules.num(rule, "bonus")
            self.say(f"{t.name} concentrates on dodging: +{bonus} ({rule})")
        if a.dodge_assist:
            made = self.check(t, a.dodge_assist)
            extra = self.rules.num("CO-DODGE-6", a.dodge_assist)
            self.lines[-1] += f" (assist +{extra} on a success, CO-DODGE-6)"
            if made.success:
                bonus += extra
        return bonus

    def luck_dodge(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-4: once the round's dodge is used, a second one by Luck, only when the
        Keeper allows it (``luck_dodge``); never in 003."""
        return not self.p003 and self.on("CO-DODGE-4") and bool(getattr(a, "luck_dodge", False))

    def dodge(self, t: Combatant, kind: WeaponKind, a: Attack, first: bool) -> bool:
        limit = int(self.rules.default("CO-DODGE-2" if self.p003 else "CO-DODGE-4",
                                       "dodges_per_round"))
        if t.dodges >= limit and self.luck_dodge(t, a):
            t = self.set(self.cs[t.name], dodges=t.dodges + 1)
            made = self.check(t, "luck", 0, f"{t.name} dodges again: 幸運/Luck")
            self.lines[-1] += " (a second dodge by Luck, the Keeper allowing, CO-DODGE-4)"
            return made.success
        modifier = 0
        if not self.p003 and self.on("CO-DODGE-5") and t.attacks:
            modifier = self.rules.num("CO-DODGE-5", "dodge_after_attack")
        modifier += self.dodge_bonus(t, a)
        t = self.set(self.cs[t.name], dodges=self.cs[t.name].dodges + 1)
        rule = "CO-DODGE-2" if self.p003 else "CO-DODGE-4"
        made = self.check(t, "dodge", modifier)
        after = not self.p003 and self.on("CO-DODGE-5") and t.attacks
        self.lines[-1] += f" ({rule}" + (", −60 after attacking, CO-DODGE-5)" if after
                                        else ")")
        return made.success

    def parry(self, t: Combatant, a: Attack, damage: int, text: str, kind: WeaponKind
              ) -> tuple[int, bool]:
        """CO-PARRY-1 (003) / CO-PARRY-4 (004): the weapon takes the damage; bare hands, MA
        or Budo (CO-PARRY-2) stop it; an MA-boosted blow still lets half through (CO-PARRY-3).
        In 003 an Iai parries too (CO-DODGE-2), drawing the blade (CO-IAI-2/3); its weapon
        takes the damage as any weapon's. A parried shot ends the shooter's shots this round
        (CO-FIRE-5). Returns the damage left and whether the parry held."""
        concentrating = self.p003 and t.concentrating and self.on("CO-DODGE-1")
        bonus = self.rules.num("CO-DODGE-1", "bonus") if concentrating else 0
        t = self.set(t, parries=t.parries + 1)
        bare = a.parry_with in ("hands", "ma", "budo")
        if bare:
            skill = {"hands": "fist", "ma": "martial_arts", "budo": "budo"}[a.parry_with]
            if a.parry_with == "hands":
                bonus = 0
            made = self.check(t, skill, bonus, label=f"{t.name} parry "
                              f"{self.rules.skill(skill).name}")
        elif a.parry_with == "iai":
            pw = t.sheet.weapons[a.parry_weapon]
            t = self.set(t, iai_used=True, drawn=True)
            made = self.check(t, "iai", bonus, label=f"{t.name} parry 居合/Iai {pw.info.name}")
            self.lines[-1] += " (CO-DODGE-2; the blade is out, CO-IAI-3)"
        else:
            pw = t.sheet.weapons[a.parry_weapon]
            made = self.check(t, pw.info.skill, bonus, label=f"{t.name} parry {pw.info.name}")
        if not made.success:
            return damage, False
        if kind is WeaponKind.FIREARM:
            self.set(self.cs[a.actor], no_more_shots=True)
            self.say(f"the shot is parried: {a.actor} shoots no more this round (CO-FIRE-5)")
        self.say(text)
        forced = 0
        if a.ma and self.on("CO-PARRY-3"):
            forced = damage // 2
            self.say(f"an MA-boosted blow: half, {forced}, gets through any parry (CO-PARRY-3)")
            damage -= forced
        if bare:
            if kind is WeaponKind.UNARMED and self.on("CO-PARRY-3") and not forced:
                self.say("unarmed against unarmed: nobody is hurt (CO-PARRY-3)")
            else:
                rule = "CO-PARRY-2" if self.on("CO-PARRY-2") else "CO-DODGE-2"
                self.say(f"parried barehanded: {forced} damage to {t.name} ({rule})")
            return forced, True
        index = a.parry_weapon
        pw = self.cs[t.name].sheet.weapons[index]
        left = pw.durability or 0
        if self.on("CO-PARRY-1"):
            if damage < left:
                self.put_weapon(self.cs[t.name], index, replace(pw, durability=left - damage))
                self.say(f"parried: {damage} damage vs durability {left} ＞ weapon "
                         f"{left - damage} left, 0 damage (CO-PARRY-1)")
                return forced, True
            self.put_weapon(self.cs[t.name], index, replace(pw, durability=0, broken=True))
            self.say(f"parried: {damage} damage vs durability {left} ＞ the weapon breaks, "
                     f"{damage - left} damage to {t.name} (CO-PARRY-1)")
            return forced + damage - left, True
        through = max(0, damage - left)
        breaks = through > 0 and self.rules.default("CO-PARRY-4", "break_when_overwhelmed")
        wears = pw.info.improvised and self.on("CO-WEAP-1")
        self.say(f"parried: {damage} damage vs durability {left} ＞ {through} damage to "
                 f"{t.name}; " + ("the weapon breaks" if breaks else "the weapon wears"
                                  if wears else "weapon unchanged") + " (CO-PARRY-4)")
        if breaks:
            self.put_weapon(self.cs[t.name], index, replace(pw, broken=True))
        elif pw.info.improvised and self.on("CO-WEAP-1"):
            self.wear(self.cs[t.name], index, "a parry")
        return forced + through, True

    def counter(self, t: Combatant, a: Attack, damage: int, text: str, kind: WeaponKind
                ) -> tuple[int, bool]:
        """CO-MA-5: the defender's technique+MA combination roll parries (CO-PARRY-3) and, on a
        success or a partial one, deals the technique's normal damage to the attacker."""
        tw = t.sheet.weapons[a.parry_weapon]
        t = self.set(t, parries=t.parries + 1)
        combo = combination(self.source, skill_value(self.rules, t.sheet, tw.info.skill),
                            skill_value(self.rules, t.sheet, "martial_arts"), self.r5,
                            f"{t.name} counter {tw.info.name}+MA")
        self.say(f"{combo.text} (CO-MA-5, CO-BASE-3)")
        if combo.rank is Rank.FAILURE:
            return damage, False
        self.say(text)
        through = damage // 2 if a.ma and self.on("CO-PARRY-3") else 0
        self.say(f"the counter parries: {through} damage to {t.name}"
                 + (" (half of an MA-boosted blow, CO-PARRY-3)" if through else " (CO-PARRY-3)"))
        if combo.rank is Rank.SUCCESS or not self.rules.default("CO-MA-5", "both_required"):
            hurt, hurt_text = self.damage(t, tw, False, Grade.SUCCESS, True)
            self.hit(self.cs[a.actor], hurt, f"counter: {hurt_text} (CO-MA-5)")
        return through, True

    def fumble(self, c: Combatant, a: Attack, w: Weapon) -> None:
        info = w.info
        if info.kind is WeaponKind.THROWN and self.on("CO-THROW-2"):
            self.stray_throw(c, a, w)
            return
        if info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-4"):
            if info.jams:
                c = self.put_weapon(c, a.weapon, replace(w, jammed=True))
                self.set(c, jammed_now=(*c.jammed_now, a.weapon))
                self.say(f"fumble: {info.name} jams until cleared from next round (CO-FIRE-4)")
            else:
                self.put_weapon(c, a.weapon, replace(w, dropped=True))
                self.say(f"fumble: {info.name} is dropped (CO-FIRE-4)")
        elif info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED) and self.on("CO-MELEE-4"):
            choice = a.fumble
            if not choice:
                if info.kind is WeaponKind.UNARMED:
                    choice = "fall"
                else:
                    face = roll("1D2", self.source, purpose=f"{c.name} {info.name} fumble "
                                "ファンブル: the weapon breaks or its user falls").total
                    choice = "break" if face == self.rules.default(
                        "CO-MELEE-4", "weapon_break_face") else "fall"
            if choice == "break" and info.kind is not WeaponKind.UNARMED:
                self.put_weapon(c, a.weapon, replace(w, broken=True))
                self.say(f"fumble: {info.name} breaks (CO-MELEE-4)")
            else:
                cond = Timed(Condition.FALLEN, self.round + 1, self.round + 1)
                self.set(self.cs[c.name], conditions=(*self.cs[c.name].conditions, cond))
                self.say(f"fumble: {c.name} falls and loses next round's actions (CO-MELEE-4)")

    def armour(self, t: Combatant, damage: int, bullet: bool = False) -> int:
        """CO-ARMOR-1 (003: durability pool) / CO-ARMOR-2 (004: uses, per hit)."""
        kept = []
        for arm in t.sheet.armour:
            if damage <= 0:
                kept.append(arm)
                continue
            if self.on("CO-ARMOR-1"):
                pool = arm.durability if arm.durability is not None else damage
                absorbed = min(arm.value, damage, pool)
                damage -= absorbed
                if arm.durability is not None:
                    left = arm.durability - absorbed
                    arm = replace(arm, durability=left)
                    self.say(f"{arm.name} stops {absorbed}, durability {left} left (CO-ARMOR-1)")
                    if left <= 0:
                        self.say(f"{arm.name} is destroyed (CO-ARMOR-1)")
                        continue
                else:
                    self.say(f"{arm.name} stops {absorbed} (CO-ARMOR-1)")
            elif self.on("CO-ARMOR-2"):
                # The Default stops up to the value per bullet; the toggle pools value × bullets
                # over one attack's bullets, so what a weak bullet left stops a later one.
                pooled = bullet and self.rules.default("CO-ARMOR-2", "pool_across_bullets")
                spare = self.pool.get((t.name, arm.name), 0) if pooled else 0
                absorbed = min(arm.value + spare, damage)
                if pooled:
                    self.pool[t.name, arm.name] = arm.value + spare - absorbed
                damage -= absorbed
                wears = not arm.natural or self.rules.default("CO-ARMOR-2", "natural_has_uses")
                if wears:
                    uses = max(0, (arm.uses or 0) - 1)
                    arm = replace(arm, uses=uses, breaking=arm.breaking or uses == 0)
                    self.say(f"{arm.name} stops {absorbed}: uses {uses}/{arm.value} left"
                             + (", breaks at end of round" if arm.breaking else "")
                             + " (CO-ARMOR-2)")
                else:
                    self.say(f"{arm.name} stops {absorbed} (natural, CO-ARMOR-2)")
            kept.append(arm)
        self.set(t, sheet=replace(t.sheet, armour=tuple(kept)))
        return damage

    def hit(self, t: Combatant, damage: int, text: str, ignore_armour: bool = False,
            from_behind: bool = False, armour: bool = True, bullet: bool = False) -> None:
        self.say(text)
        if armour and not ignore_armour:
            damage = self.armour(self.cs[t.name], damage, bullet)
        t = self.cs[t.name]
        shield_rule = "CO-GRAP-4" if self.on("CO-GRAP-4") else "CO-GRAP-6"
        if t.grappling and self.on(shield_rule) and damage > 0 and not (
                from_behind and shield_rule == "CO-GRAP-4"):
            held = self.cs[t.grappling]
            taken = min(damage, max(0, held.hp))
            if self.rules.default("CO-GRAP-4", "shield_as_armour"):
                self.say(f"{held.name}'s HP {held.hp} shields {t.name} ({shield_rule})")
                damage -= taken
            elif taken:
                self.say(f"{held.name} is a human shield and takes {taken} ({shield_rule})")
                self.harm(held, taken)
                damage -= taken
        self.harm(self.cs[t.name], damage)

    def harm(self, t: Combatant, damage: int) -> None:
        """HP loss, then the profile's dying rule: CO-DEATH-1 (003) or CO-BASE-8 (004)."""
        if damage <= 0 or t.dead:
            if not t.dead:
                self.say(f"{t.name} takes no damage (HP {t.hp})")
            return
        hp = t.hp - damage
        general = self.rules.default("CO-BASE-9", "general_trigger") and damage * 2 >= t.hp > 0
        t = self.set(t, hp=hp)
        self.say(f"{t.name} takes {damage}: HP {hp}/{t.sheet.max_hp}")
        if self.on("CO-DEATH-1"):
            if hp < self.rules.default("CO-DEATH-1", "dead_below"):
                self.die(t, "HP below −2 (CO-DEATH-1)")
            elif hp <= 0 and not t.has(Condition.DYING, self.round):
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                self.say(f"{t.name} is unconscious and dying: CON×5 each round (CO-DEATH-1)")
        elif self.on("CO-BASE-8"):
            if hp <= 0 and not t.dying_until:
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                self.set(self.cs[t.name], dying_until=self.round + 1)
                self.say(f"{t.name} is dying: dies at end of round {self.round + 1} (CO-BASE-8)")
            elif 0 < hp <= self.rules.num("CO-BASE-8", "unconscious_max") and not t.unconscious:
                self.add(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} falls unconscious (CO-BASE-8)")
        self.release_if_out(self.cs[t.name])
        if general:
            self.shock(self.cs[t.name], "a blow of half the HP or more")
        self.chant_hit(self.cs[t.name])

    def add(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        have = {c.condition for c in t.conditions}
        new = tuple(Timed(c, self.round, 0) for c in conditions if c not in have)
        self.set(t, conditions=(*t.conditions, *new))

    def drop(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        self.set(t, conditions=tuple(c for c in t.conditions if c.condition not in conditions))

    def die(self, t: Combatant, why: str) -> None:
        t = self.set(self.cs[t.name], dead=True, dying_until=0)
        self.drop(t, Condition.DYING)
        self.say(f"{t.name} dies: {why}")
        self.release_if_out(self.cs[t.name])

    def release_if_out(self, t: Combatant) -> None:
        """Whoever is out lets go; a dead body is no longer held (Default)."""
        if t.out and t.grappling:
            self.set(self.cs[t.grappling], held_by="")
            self.set(self.cs[t.name], grappling="", grapple_options=False)
            self.say(f"{t.name} lets go of {t.grappling}")
            self.step_aside(self.cs[t.grappling], self.cs[t.name])
        if t.dead and t.held_by:
            holder = self.cs[t.held_by]
            self.set(holder, grappling="", grapple_options=False)
            self.set(self.cs[t.name], held_by="")
            self.say(f"{holder.name} lets go of the dead {t.name}")

    def stun(self, t: Combatant) -> None:
        """CO-STUN-1/2: one more stack, one AP less; at 0 AP unconscious."""
        full = self.rules.num("CO-TURN-3", "action_points")
        t = self.set(t, stun=t.stun + 1, ap=max(0, t.ap - 1))
        self.say(f"{t.name} is stunned ({t.stun}): no attacks, −1 AP (CO-STUN-1)")
        if t.stun >= full and self.on("CO-STUN-2"):
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} has no AP left and falls unconscious (CO-STUN-2)")

    def burst(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-FIRE-6 (003) / CO-FIRE-8 (004): one roll, then the number of hits."""
        info = w.info
        rule = "CO-FIRE-6" if self.on("CO-FIRE-6") else "CO-FIRE-8"
        if not self.on(rule) or info.kind is not WeaponKind.FIREARM or info.burst < 1:
            raise IllegalAction(f"{info.name} cannot fire a burst here")
        if w.loaded < 1:
            raise IllegalAction(f"{info.name} is empty")
        self.may_attack(c, w, 0 if not self.p003 else min(info.attacks, 1), a.after_dodge)
        self.attack_options(c, t, a, w)
        self.declared_defence(t, a, info.kind, True)
        if self.p003:
            need = self.rules.num("CO-FIRE-6", "burst_ap")
            c = self.spend(c, need, "CO-FIRE-6")
            fired = w.loaded
        else:
            fired = min(info.burst, w.loaded, self.rules.num("CO-FIRE-8", "max_rounds"))
        c = self.set(c, attacks=c.attacks + 1)
        c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - fired))
        self.say(f"{c.name} fires a burst of {fired} ({rule})")
        made = check(self.source, skill_value(self.rules, c.sheet, info.skill), self.r_attack,
                     f"{c.name} {info.name}", hit=True)
        self.say(made.text)
        if not made.success:
            if made.grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        d20 = rule == "CO-FIRE-8" or self.rules.default("CO-FIRE-6", "hits_d20")
        sides = self.rules.num("CO-FIRE-8", "hits_die") if d20 else fired
        face = roll(f"1D{sides}", self.source, purpose=f"hits of the burst 連射の命中数 "
                    f"1D{sides} (of {fired})").total
        hits = min(face, fired)
        self.say(f"1D{sides}={face} ＞ {hits} hit(s) ({rule})")
        if a.cover and self.behind_cover(t, a):
            return
        if a.defence is Defence.DODGE and not a.cover:
            if self.legacy and not self.defence_allowed(t, Defence.DODGE, info.kind, a, True):
                raise IllegalAction(f"{t.name} cannot dodge now")  # format 1: after the dice
            modifier = (-hits if rule == "CO-FIRE-6" else 0) + self.dodge_bonus(t, a)
            self.set(t, dodges=t.dodges + 1)
            dodged = self.check(t, "dodge", modifier)
            if rule == "CO-FIRE-6":
                self.lines[-1] += f" (Dodge − {hits} hits, CO-FIRE-6)"
                if dodged.success:
                    return
            elif dodged.success:
                hits -= 1
                self.lines[-1] += " (the first bullet only, CO-DODGE-7)"
        for n in range(hits):
            if self.cs[t.name].dead:
                break
            damage, text = self.damage(c, w, False, Grade.SUCCESS, False)
            self.hit(self.cs[t.name], damage, f"bullet {n + 1}: {text}",
                     from_behind=a.from_behind, bullet=True)

    def reload(self, c: Combatant, a: Reload) -> None:
        w = self.weapon(c, a.weapon)
        if w.info.kind is not WeaponKind.FIREARM:
            raise IllegalAction(f"{w.info.name} is not a firearm")
        if w.loaded == w.info.magazine:
            raise IllegalAction(f"{w.info.name} is full")
        if self.p003:
            c = self.spend(c, self.rules.num("CO-FIRE-1", "reload_ap"), "CO-FIRE-1")
            rule = "CO-FIRE-1"
        else:
            if c.attacks:
                raise IllegalAction("a reload takes the whole turn (CO-BASE-12)")
            c = self.set(c, attacks=1)
            rule = "CO-BASE-12, CO-FIRE-10" if self.on("CO-FIRE-10") else "CO-BASE-12"
            if w.info.cartridges and not self.rules.default("CO-BASE-12", "full_refill"):
                # CO-BASE-12 option: a cartridge at a time, so a few rounds per action
                loaded = min(w.info.magazine, w.loaded + self.rules.default(
                    "CO-BASE-12", "cartridges_per_action"))
                self.put_weapon(c, a.weapon, replace(w, loaded=loaded))
                self.say(f"{c.name} loads {loaded - w.loaded} cartridge(s) into {w.info.name}: "
                         f"{loaded}/{w.info.magazine} ({rule}, a cartridge at a time)")
                return
        self.put_weapon(c, a.weapon, replace(w, loaded=w.info.magazine))
        self.say(f"{c.name} reloads {w.info.name}: {w.info.magazine} rounds ({rule})")

    def clear_jam(self, c: Combatant, a: ClearJam) -> None:
        w = self.weapon(c, a.weapon)
        if not w.jammed:
            raise IllegalAction(f"{w.info.name} is not jammed")
        if a.weapon in c.jammed_now and not self.legacy:  # format 1 cleared at once
            # 003「次回戦闘ラウンドで使用技能を成功させて弾を取り除かない限り使用できない」
            raise IllegalAction(f"{w.info.name} jammed this round: clear it from the next "
                                "round (CO-FIRE-4)")
        c = self.spend(c, self.rules.default("CO-FIRE-4", "clear_ap"), "CO-FIRE-4")
        made = self.check(c, w.info.skill, label=f"{c.name} clear {w.info.name}")
        if made.success:
            self.put_weapon(c, a.weapon, replace(w, jammed=False))
            self.say(f"{w.info.name} is cleared (CO-FIRE-4)")

    def grapple(self, c: Combatant, a: Grapple) -> None:
        t = self.get(a.target)
        rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
        if c.grappling or c.held_by or t.held_by or t.name == c.name or t.dead:
            raise IllegalAction("that grapple is not possible")
        if a.defence is Defence.COUNTER:
            raise IllegalAction("a grapple is dodged or parried, not countered (CO-GRAP-5)")
        self.on_the_board(c, t, Attack(c.name, t.name), WeaponKind.UNARMED)
        if a.ma and not self.on("CO-MA-2"):
            if not self.on("CO-GRAP-9"):
                raise IllegalAction("MA with Grapple is CO-MA-2, off in this profile")
            self.say("MA with Grapple skips step 2 of the options (knockout step 3); the steps "
                     "are not in the seed, so an ordinary grapple is rolled (note for the "
                     "Keeper, CO-GRAP-9)")
            a = replace(a, ma=False)
        self.may_strike(c, a.after_dodge, weapon=False)
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")
        fake = Attack(c.name, t.name, defence=a.defence, parry_weapon=a.parry_weapon)
        if not self.legacy:  # the declared defence before any die (format 1: after the roll)
            self.grapple_defence(t, a, fake)
        c = self.spend(c, 1, rule)
        c = self.set(c, attacks=c.attacks + 1)
        grapple, why = skill_value(self.rules, c.sheet, "grapple"), ""
        if a.after_dodge:  # CO-DODGE-5: −50%, as an attack after dodging
            grapple, why = self.after_dodge(grapple)
        options = False
        if a.ma:
            combo = combination(self.source, grapple, skill_value(self.rules, c.sheet,
                                                                  "martial_arts"),
                                self.r_attack, f"{c.name} 組み付き/Grapple+MA")
            self.say(f"{combo.text}{why} (CO-MA-2, CO-BASE-3)")
            held, options = combo.rank is not Rank.FAILURE, combo.rank is Rank.SUCCESS
        elif a.after_dodge:
            made = check(self.source, grapple, self.r_attack, f"{c.name} 組み付き/Grapple")
            self.say(made.text + why)
            held = made.success
        else:
            held = self.check(c, "grapple", attack=True).success
        if not held:
            return
        if a.defence is not Defence.NONE:
            if self.legacy:  # format 1 checked the defence after the roll
                self.grapple_defence(t, a, fake)
            if a.defence is Defence.DODGE:
                if self.dodge(t, WeaponKind.UNARMED, fake, True):
                    return
            else:
                pw = t.sheet.weapons[a.parry_weapon]
                self.set(t, parries=t.parries + 1)
                if self.check(t, pw.info.skill, label=f"{t.name} parry {pw.info.name}").success:
                    rule5 = "CO-GRAP-5" if self.on("CO-GRAP-5") else "CO-PARRY-1"
                    self.say(f"the grapple is parried ({rule5})")
                    return
        self.set(self.cs[c.name], grappling=t.name, grapple_round=self.round,
                 grapple_options=options)
        self.set(self.cs[t.name], held_by=c.name)
        if self.board(c, t) and rule == "CO-GRAP-1":
            self.set(self.cs[t.name], square=c.square)
            self.say(f"{t.name} is pulled into {c.square} (CO-GRAP-1)")
        if rule == "CO-GRAP-1":
            self.say(f"{c.name} holds {t.name}; they are one unit (CO-GRAP-1)"
                     + ("; choke or throw each round (CO-MA-2)" if options else ""))
        else:
            self.say(f"{c.name} restrains {t.name}: it cannot act, no damage (CO-GRAP-6)")

    def grapple_defence(self, t: Combatant, a: Grapple, fake: Attack) -> None:
        if a.defence is not Defence.NONE and not self.defence_allowed(
                t, a.defence, WeaponKind.UNARMED, fake, True):
            raise IllegalAction(f"{t.name} cannot {a.defence.value} now")

    def after_dodge(self, value: int) -> tuple[int, str]:
        """CO-DODGE-5: a grapple or tackle after dodging, −50% as an attack after dodging."""
        penalty = self.rules.num("CO-DODGE-5", "attack_after_dodge")
        return max(0, value + penalty), f" ({penalty:+}%, after dodging, CO-DODGE-5)"

    def holding(self, c: Combatant) -> Combatant:
        if not c.grappling:
            raise IllegalAction(f"{c.name} holds nobody")
        if self.on("CO-MA-2"):
            if not c.grapple_options:
                raise IllegalAction("choke and throw need a successful MA grapple (CO-MA-2)")
        elif self.on("CO-GRAP-6"):
            if c.grapple_round >= self.round:
                raise IllegalAction("choke or throw from the next round (CO-GRAP-6)")
        else:
            raise IllegalAction("no choke or throw in this profile")
        return self.cs[c.grappling]

    def choke(self, c: Combatant, a: Choke) -> None:
        held = self.holding(c)
        if self.p003:
            self.spend(c, 1, "CO-MA-2")
            dice, rule = self.rules.num("CO-MA-2", "choke"), "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one choke a round (CO-GRAP-7)")
            self.set(c, attacks=1)
            if not self.check(c, "grapple", attack=True).success:
                return
            dice, rule = self.rules.num("CO-GRAP-7", "choke"), "CO-GRAP-7"
        db = c.sheet.db
        total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                      f"{c.name} choke damage 絞めダメージ")
        self.hit(held, max(0, total), f"choke: {text} ({rule})")

    def throw(self, c: Combatant, a: Throw) -> None:
        held = self.holding(c)
        other = self.get(a.at) if a.at else None
        if other is not None and other.name in (c.name, held.name):
            raise IllegalAction("throw the held one at somebody else")
        land: board.Square | None = None
        if self.board(c, held):
            land, other = self.throw_landing(c, held, a, other)
        if self.p003:
            self.spend(c, 1, "CO-MA-2")
            dice, how, rule = self.rules.num("CO-MA-2", "throw"), DamageBonus.HALF, "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one throw a round (CO-GRAP-8)")
            self.set(c, attacks=1)
            if not self.check(c, "grapple", attack=True).success:
                return
            dice, how, rule = self.rules.num("CO-GRAP-8", "throw"), DamageBonus.FULL, "CO-GRAP-8"
        self.set(self.cs[c.name], grappling="", grapple_options=False)
        self.set(self.cs[held.name], held_by="")
        if a.height_m and rule == "CO-GRAP-8":
            total, text = self.falling(a.height_m, held.name)
            self.say(f"thrown from a height: the fall replaces the damage ({rule})")
            self.hit(held, total, f"throw: {text}; the grapple ends", armour=False)
        else:
            total, text = self.with_db(c, dice, how, f"{c.name} throw damage 投げダメージ")
            self.hit(held, max(0, total), f"throw: {text} ({rule}); the grapple ends")
        if land is not None:
            self.set(self.cs[held.name], square=board.name(land))
            self.say(f"{held.name} lands on {board.name(land)} ({rule}, CO-TURN-2)")
        if rule == "CO-GRAP-8":
            self.stun_throw(self.cs[held.name])
        if other is None:
            return
        if rule == "CO-MA-2":
            if a.at_dodges and self.check(other, "dodge").success:
                return
            hurt, text = self.roll_total(self.rules.num("CO-MA-2", "landing"),
                                         f"damage to {other.name} landed on "
                                         "投げ落とされた者へのダメージ")
            self.hit(other, hurt, f"{other.name} is landed on: {text} (CO-MA-2)")
        else:
            hurt, text = self.roll_total(self.rules.num("CO-GRAP-8", "thrown_into"),
                                         f"damage to {other.name} hit by the body "
                                         "投げつけられた者へのダメージ")
            self.hit(other, hurt, f"{other.name} is hit by the thrown body: {text} (CO-GRAP-8)")
            self.stun_throw(self.cs[other.name])

    def throw_landing(self, c: Combatant, held: Combatant, a: Throw,
                      other: Combatant | None) -> tuple[board.Square, Combatant | None]:
        """CO-MA-2 on 003's board: 2 squares along ``toward`` (Default: the thrower's
        facing); a wall stops it on the last free square of that line; if someone stands
        where it lands, that one is landed on and the thrown one takes the nearest free
        square (Defaults)."""
        way = a.toward or str(self.rules.default("CO-MA-2", "throw_toward"))
        way = c.facing if way.lower() == "facing" else board.facing(way)
        start = board.parse(c.square)
        end, _ = board.slide(start, board.FACINGS[way], self.rules.num("CO-MA-2", "squares"),
                             [])
        if end == start:
            raise IllegalAction(f"a wall: {held.name} cannot be thrown {way} (CO-MA-2)")
        there = self.standing_at(board.name(end), held.name)
        if there is None:
            if other is not None:
                raise IllegalAction(f"nobody stands on {board.name(end)}, where {held.name} "
                                    "lands (CO-MA-2)")
            return end, None
        if other is not None and other.name != there.name:
            raise IllegalAction(f"{there.name} stands on {board.name(end)}, where {held.name} "
                                "lands (CO-MA-2)")
        land = board.nearest_free(end, self.occupied(held.name), way)
        if land is None:
            raise IllegalAction("no free square to land on (CO-MA-2)")
        return land, there

    def occupied(self, *but: str) -> list[board.Square]:
        """The squares of the living on the board, but these combatants'."""
        return [board.parse(o.square) for o in self.cs.values()
                if o.square and not o.dead and o.name not in but]

    def step_aside(self, freed: Combatant, holder: Combatant) -> None:
        """CO-GRAP-1/2 Default: on 003's board a freed character does not share the
        grappler's square; it takes the free adjacent square nearest the grappler's front
        (clockwise from its facing), or stays if none is free."""
        if freed.dead or not self.board(freed, holder) or freed.square != holder.square:
            return
        here = board.parse(holder.square)
        square = board.nearest_free(here, self.occupied(freed.name), holder.facing)
        if square is None or board.distance(here, square) > 1:
            self.say(f"no free square next to {holder.name}: {freed.name} stays (CO-GRAP-1)")
            return
        self.set(freed, square=board.name(square))
        self.say(f"{freed.name} steps free to {board.name(square)} (CO-GRAP-1, CO-TURN-2)")

    def stun_throw(self, t: Combatant) -> None:
        """CO-STUN-3: CON×4; failure unconscious for the fight, success no action next round."""
        if t.out or not self.on("CO-STUN-3"):
            return
        made = check(self.source, t.sheet.stat("CON") * self.rules.num("CO-STUN-3",
                                                                        "con_multiplier"),
                     self.r5, f"{t.name} CON×4")
        self.say(f"{made.text} (CO-STUN-3)")
        if made.success:
            cond = Timed(Condition.NO_ACTION, self.round + 1, self.round + 1)
            self.set(t, conditions=(*t.conditions, cond))
            self.say(f"{t.name} cannot act next round (CO-STUN-3)")
        else:
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} is knocked out for the rest of the fight (CO-STUN-3)")

    def break_free(self, c: Combatant, a: BreakFree) -> None:
        if not c.held_by:
            raise IllegalAction(f"{c.name} is not held")
        holder = self.cs[c.held_by]
        rule = "CO-GRAP-2" if self.on("CO-GRAP-2") else "CO-GRAP-6"
        if self.p003:
            self.spend(c, 1, rule)
        elif c.attacks:
            raise IllegalAction("one try a round (CO-GRAP-6)")
        self.set(self.cs[c.name], attacks=1 if not self.p003 else c.attacks)
        made = resist(self.source, c.sheet.stat("STR"), holder.sheet.stat("STR"), self.r5,
                      f"{c.name} STR {c.sheet.stat('STR')} vs {holder.sheet.stat('STR')}",
                      self.rules)
        self.say(f"{made.text} (CO-CORE-3, {rule})")
        if made.success:
            self.set(self.cs[c.name], held_by="")
            self.set(holder, grappling="", grapple_options=False)
            self.say(f"{c.name} breaks free ({rule})")
            self.step_aside(self.cs[c.name], self.cs[holder.name])

    def psychoanalysis(self, c: Combatant, t: Combatant) -> None:
        """CO-SKILL-4: cures temporary insanity; indefinite insanity is only eased a while."""
        if not self.on("CO-SKILL-4"):
            raise IllegalAction("Psychoanalysis in a fight is CO-SKILL-4, off in this profile")
        if not (t.has(Condition.TEMPORARY_INSANITY, self.round)
                or t.has(Condition.INDEFINITE_INSANITY, self.round)):
            raise IllegalAction(f"{t.name} is not insane (CO-SKILL-4)")
        if self.on("CO-TURN-4") and c.attacks:
            raise IllegalAction("no other skill in a round with an attack (CO-TURN-4)")
        if c.other_skill or c.iai_used:
            raise IllegalAction("one other skill a round (CO-SKILL-1)")
        c = self.spend(c, 1, "CO-SKILL-4")
        c = self.set(c, other_skill=True, spent_other=True)
        if not self.check(c, "psychoanalysis").success:
            return
        t = self.cs[t.name]
        if t.has(Condition.TEMPORARY_INSANITY, self.round):
            self.drop(t, Condition.TEMPORARY_INSANITY)
            self.say(f"{t.name} recovers from temporary insanity (CO-SKILL-4)")
        elif not t.has(Condition.EASED, self.round):
            self.add(t, Condition.EASED)
            self.say(f"{t.name}'s indefinite insanity is eased for a while (CO-SKILL-4)")

    def within_reach(self, c: Combatant, t: Combatant, rule: str) -> None:
        """CO-SKILL-2/3/4: 「自分・隣接した者」: oneself or someone adjacent (or held in the
        same square). Off the board the Keeper judges it, so nothing is refused."""
        if t.name == c.name or not self.board(c, t) or self.legacy:  # format 1: no reach
            return
        if board.distance(board.parse(c.square), board.parse(t.square)) > 1:
            raise IllegalAction(f"{t.name} is not next to {c.name}: treat oneself or someone "
                                f"adjacent ({rule})")

    def treat(self, c: Combatant, a: Treat) -> None:
        t = self.get(a.target)
        if a.skill == "psychoanalysis":
            self.within_reach(c, t, "CO-SKILL-4")
            self.psychoanalysis(c, t)
            return
        if a.skill not in ("first_aid", "medicine"):
            raise IllegalAction("treat with first_aid, medicine or psychoanalysis")
        self.within_reach(c, t, "CO-SKILL-2" if a.skill == "first_aid" else "CO-SKILL-3")
        if c.iai_used:
            raise IllegalAction("no other skill in a round with Iai (CO-IAI-2)")
        if t.dead:
            raise IllegalAction(f"{t.name} is dead")
        if self.p003:
            rule = "CO-SKILL-2" if a.skill == "first_aid" else "CO-SKILL-3"
            if not self.on(rule):
                raise IllegalAction(f"{rule} is off")
            if self.on("CO-TURN-4") and c.attacks:
                raise IllegalAction("no other skill in a round with an attack (CO-TURN-4)")
            if a.skill == "medicine" and t.name == c.name:
                raise IllegalAction("Medicine cannot treat oneself (CO-SKILL-3)")
            if c.other_skill and not c.treat_failed:
                raise IllegalAction("First Aid again only after a failure (CO-SKILL-1/2)")
            ap = 1 if a.skill == "first_aid" else self.rules.num("CO-SKILL-3", "ap")
            if a.skill == "first_aid":
                third = self.rules.num("CO-SKILL-2", "dex_half_try")
                if c.first_aid_tries + 1 >= third and not c.half_dex and c.ap >= ap:
                    if c.slot_pending:
                        raise IllegalAction(f"{c.name} already acts at DEX/2")
                    c = self.set(c, delayed_ap=c.ap, ap=0, slot_pending=True)
                    self.slot(c)
                    self.say(f"{c.name}'s third First Aid comes at DEX/2 "
                             f"({c.sheet.stat('DEX') // 2}) (CO-SKILL-2)")
                    return
                c = self.set(c, first_aid_tries=c.first_aid_tries + 1)
            c = self.spend(c, ap, rule)
            heal = self.rules.num(rule, "heal")
        else:
            rule = "CO-BASE-8"
            if c.attacks:
                raise IllegalAction("one action a turn (CO-BASE-5)")
            heal = self.rules.num("CO-BASE-8", "heal")
        c = self.set(c, other_skill=True, attacks=c.attacks if self.p003 else 1,
                     spent_other=True)
        made = self.check(c, a.skill)
        self.set(self.cs[c.name], treat_failed=not made.success)
        if not made.success:
            return
        t = self.cs[t.name]
        amount, text = self.roll_total(heal, f"{t.name}'s healing 回復")
        hp = min(t.sheet.max_hp, t.hp + amount)
        t = self.set(t, hp=hp)
        self.say(f"{t.name} heals {text}: HP {hp}/{t.sheet.max_hp} ({rule})")
        if t.bleeding and self.on("CO-BODY-6"):
            t = self.set(t, bleeding=())
            self.say(f"{t.name}'s bleeding is staunched (CO-BODY-6)")
        dying = t.has(Condition.DYING, self.round) or t.dying_until
        if self.on("CO-DEATH-2") and dying:
            if hp >= 1:
                self.drop(t, Condition.DYING, Condition.UNCONSCIOUS)
                self.say(f"{t.name} is saved (CO-DEATH-2)")
            elif not self.rules.default("CO-DEATH-2", "lenient"):
                self.die(t, "the treatment left HP below 1 (CO-DEATH-2)")
            return
        if self.p003:
            if t.unconscious:
                self.drop(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} wakes up ({rule})")
            return
        if hp >= 1 and t.dying_until:
            self.set(t, dying_until=0)
            self.drop(t, Condition.DYING)
            self.say(f"{t.name} is no longer dying (CO-BASE-8)")
        if self.cs[t.name].unconscious and hp >= self.rules.default("CO-BASE-8", "wake_hp"):
            self.drop(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} wakes up (CO-BASE-8)")

    # -- turns at DEX/2, declarations (CO-TURN-1, CO-BASE-5, CO-AIM-1, CO-DODGE-1/8) --

    def slot(self, c: Combatant) -> None:
        """Put a second turn of ``c`` into this round's order where its DEX/2 falls."""
        half = c.sheet.stat("DEX") // 2
        rest = list(self.order[self.turn + 1:])
        pos = 0
        while pos < len(rest) and self.cs[rest[pos]].sheet.stat("DEX") >= half:
            pos += 1
        self.order = (*self.order[:self.turn + 1], *rest[:pos], c.name, *rest[pos:])

    def delay(self, c: Combatant) -> None:
        """Take the turn at DEX/2 (CO-TURN-1 in 003, keeping the AP; CO-BASE-5 in 004)."""
        if c.half_dex or c.slot_pending:
            raise IllegalAction(f"{c.name} already acts at DEX/2")
        if self.p003:
            if c.ap < self.rules.num("CO-TURN-3", "action_points") - c.stun or c.attacks:
                raise IllegalAction("delay before spending any AP (CO-TURN-1)")
            c = self.set(c, delayed_ap=c.ap, ap=0)
        elif c.attacks:
            raise IllegalAction("delay instead of acting (CO-BASE-5)")
        c = self.set(c, slot_pending=True)
        self.slot(c)
        rule = "CO-TURN-1" if self.p003 else "CO-BASE-5"
        self.say(f"{c.name} will act at DEX/2 ({c.sheet.stat('DEX') // 2}) ({rule})")

    def concentrate(self, c: Combatant) -> None:
        rule = "CO-DODGE-1" if self.p003 else "CO-DODGE-8"
        if not self.on(rule):
            raise IllegalAction(f"dodge concentration ({rule}) is off in this profile")
        if c.concentrating:
            raise IllegalAction(f"{c.name} already concentrates on dodging")
        self.set(c, concentrating=True)
        if self.p003:
            self.say(f"{c.name} concentrates on dodging: +20% to Dodge, MA, Iai and weapon "
                     "parries, may only move, may dodge from behind (CO-DODGE-1, CO-DODGE-3)")
        else:
            self.say(f"{c.name} concentrates on dodging: +10% and any number of dodges, "
                     "no attack this round (CO-DODGE-8)")

    # -- firearms: first strike (CO-FIRE-7) --

    def first_strike(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-FIRE-7: one of the weapon's attacks before the DEX order; the rest on its turn."""
        if not self.on("CO-FIRE-7"):
            raise IllegalAction("first strike is CO-FIRE-7, off in this profile")
        if w.info.kind is not WeaponKind.FIREARM:
            raise IllegalAction("only a firearm strikes first (CO-FIRE-7)")
        if a.burst or a.aim:
            raise IllegalAction("no first strike with a burst or careful aim (CO-FIRE-7)")
        if c.first_strike:
            raise IllegalAction(f"{c.name} struck first already (CO-FIRE-7)")
        if any(o.first_strike and o.sheet.stat("DEX") < c.sheet.stat("DEX")
               for o in self.cs.values()):
            raise IllegalAction("first strikes go in DEX order, highest first (CO-FIRE-7)")
        if w.loaded < 1:
            raise IllegalAction(f"{w.info.name} is empty")
        self.may_attack(c, w, 0, a.after_dodge)
        self.attack_options(c, t, a, w)
        c = self.set(c, first_strike=1)
        c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - 1))
        self.say(f"{c.name} shoots first, before the DEX order: 1 of {w.info.attacks} "
                 "attack(s) (CO-FIRE-7)")
        self.one_attack(c, t, a, w, first=True)

    # -- Iai (CO-IAI-1..4) --

    def borrow(self, c: Combatant, a: Attack) -> tuple[Combatant, Attack]:
        """CO-IAI-1: draw an adjacent ally's Iai weapon and attack with it at once."""
        ally = self.get(a.borrow)
        if not a.iai or not self.on("CO-IAI-1"):
            raise IllegalAction("drawing an ally's blade is for Iai (CO-IAI-1)")
        if ally.side is not c.side or ally.name == c.name:
            raise IllegalAction("draw the blade of an ally next to you (CO-IAI-1)")
        w = self.weapon(ally, a.weapon)
        if not w.info.iai or w.broken or w.dropped:
            raise IllegalAction(f"{ally.name}'s {w.info.name} is no Iai weapon (CO-IAI-1)")
        kept = tuple(x for i, x in enumerate(ally.sheet.weapons) if i != a.weapon)
        self.set(ally, sheet=replace(ally.sheet, weapons=kept))
        c = self.set(c, sheet=replace(c.sheet, weapons=(*c.sheet.weapons, w)))
        self.say(f"{c.name} draws {ally.name}'s {w.info.name} (CO-IAI-1)")
        return c, replace(a, weapon=len(c.sheet.weapons) - 1, borrow="")

    def iai(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-IAI-2: once a round, no AP, a normal attack may follow; CO-IAI-3: drawn after."""
        if not self.on("CO-IAI-2"):
            raise IllegalAction("Iai is CO-IAI-2, off in this profile")
        if not w.info.iai:
            raise IllegalAction(f"Iai needs a Japanese sword or a bokuto, not {w.info.name} "
                                "(CO-IAI-1)")
        if c.iai_used:
            raise IllegalAction("Iai once a round (CO-IAI-2)")
        if c.drawn:
            raise IllegalAction("the blade is drawn: sheathe it first (CO-IAI-3)")
        if c.other_skill:
            raise IllegalAction("no Iai in a round with another skill (CO-IAI-2)")
        if a.pommel and not self.on("CO-IAI-4"):
            raise IllegalAction("the pommel strike is CO-IAI-4, off in this profile")
        self.may_attack(c, w, 0, a.after_dodge)
        c = self.set(c, iai_used=True, drawn=True)
        self.say(f"{c.name} draws and strikes: Iai, no AP (CO-IAI-2); the blade is out "
                 "(CO-IAI-3)")
        self.one_attack(c, t, a, w, first=True, skill_key="iai")

    def pommel(self, c: Combatant, t: Combatant, a: Attack) -> None:
        """CO-IAI-4 Default: the pommel strike stuns (CO-STUN-1) and deals no damage."""
        self.say(f"pommel strike: {t.name} is stunned, no damage (CO-IAI-4)")
        if self.on("CO-STUN-1"):
            self.stun(self.cs[t.name])

    def sheathe(self, c: Combatant) -> None:
        if not self.on("CO-IAI-3"):
            raise IllegalAction("sheathing is CO-IAI-3, off in this profile")
        if not c.drawn:
            raise IllegalAction(f"{c.name}'s blade is not drawn")
        if c.attacks or c.iai_used:
            raise IllegalAction("a round of sheathing has no attacks: sheathe before attacking "
                                "(CO-IAI-3)")
        c = self.spend(c, self.rules.num("CO-IAI-3", "sheathe_ap"), "CO-IAI-3")
        self.set(c, drawn=False, sheathed=True, spent_other=True)
        self.say(f"{c.name} sheathes the blade: no attack this round (CO-IAI-3)")

    def pick_up(self, c: Combatant, a: PickUp) -> None:
        w = self.weapon(c, a.weapon)
        if not w.dropped:
            raise IllegalAction(f"{w.info.name} is not on the ground")
        c = self.one_action(c, "CO-FIRE-4")
        self.put_weapon(c, a.weapon, replace(w, dropped=False))
        self.say(f"{c.name} picks up {w.info.name} ("
                 + ("1 AP, CO-FIRE-4" if self.p003 else "one action, CO-DISARM-1") + ")")

    # -- surprise (CO-SURP-1..3), disarming (CO-DISARM-1) --

    def surprise(self, c: Combatant, a: Attack) -> bool:
        """CO-SURP-1: a Hide, Conceal or Sneak success first; CO-SURP-2: once found, only a
        91%+ hider tries again, at −80%."""
        if not self.on("CO-SURP-1"):
            raise IllegalAction("surprise attacks are CO-SURP-1, off in this profile")
        if a.surprise not in ("hide", "conceal", "sneak"):
            raise IllegalAction("surprise with hide, conceal or sneak (CO-SURP-1)")
        modifier = 0
        if c.found:
            value = skill_value(self.rules, c.sheet, a.surprise)
            if not self.on("CO-SURP-2") or value <= self.rules.num("CO-SURP-2", "rehide_over"):
                raise IllegalAction(f"{c.name} was found: no more surprise (CO-SURP-2)")
            modifier = self.rules.num("CO-SURP-2", "rehide_modifier")
        made = self.check(c, a.surprise, modifier)
        self.lines[-1] += " (CO-SURP-1" + (", again at −80%, CO-SURP-2)" if modifier else ")")
        if not made.success:
            self.say(f"{c.name} is not hidden: no surprise, the action is spent (CO-SURP-1)")
            return False
        penalty = 0
        if self.on("CO-SURP-3"):
            penalty = a.hidden or self.rules.default("CO-SURP-3", "hidden_penalty")
            if not -50 <= penalty <= -10:
                raise IllegalAction("the Keeper's hiding penalty is −10 to −50 (CO-SURP-3)")
        self.set(c, hidden=True, found=False, hide_penalty=penalty)
        return True

    def spotting(self, c: Combatant, t: Combatant) -> None:
        """CO-SURP-1: the target spots the attacker with Luck −10% (and CO-SURP-3's penalty)."""
        if t.out:
            return
        modifier = self.rules.num("CO-SURP-1", "luck_modifier") + c.hide_penalty
        made = self.check(t, "luck", modifier, f"{t.name} looks for {c.name}: 幸運/Luck")
        self.lines[-1] += " (CO-SURP-1" + (", CO-SURP-3)" if c.hide_penalty else ")")
        if made.success:
            self.set(c, hidden=False, found=True, hide_penalty=0)
            self.say(f"{t.name} spots {c.name}: an ordinary fight from now (CO-SURP-1)")
        else:
            self.say(f"{c.name} stays hidden and may surprise again (CO-SURP-2)")

    def disarm_penalty(self, c: Combatant, a: Attack) -> tuple[int, str]:
        """CO-DISARM-1: −20…−60 (Default −40); none with Budo, MA or Grapple on the sheet."""
        trained = [k for k in ("budo", "martial_arts", "grapple") if c.sheet.skills.get(k, 0)]
        if trained:
            return 0, f"disarm with {self.rules.skill(trained[0]).en}: no penalty, CO-DISARM-1"
        penalty = a.penalty or self.rules.default("CO-DISARM-1", "penalty")
        low = self.rules.num("CO-DISARM-1", "most_penalty")
        high = self.rules.num("CO-DISARM-1", "least_penalty")
        if not low <= penalty <= high:
            raise IllegalAction(f"the disarm penalty is {high} to {low} (CO-DISARM-1)")
        return penalty, "disarm, CO-DISARM-1"

    def disarmed(self, t: Combatant, a: Attack) -> None:
        w = self.cs[t.name].sheet.weapons[a.disarm_weapon]
        if w.dropped or w.broken:
            self.say(f"{t.name}'s {w.info.name} is already out of its hands (CO-DISARM-1)")
            return
        self.put_weapon(self.cs[t.name], a.disarm_weapon, replace(w, dropped=True))
        self.say(f"{t.name}'s {w.info.name} falls beside it; picking it up takes an action "
                 "(CO-DISARM-1)")

    # -- body parts (CO-BODY-1..6) --

    def body_rule(self, a: Attack) -> str:
        rule = {"cut": "CO-BODY-2", "gouge": "CO-BODY-3", "blow_off": "CO-BODY-4"}.get(a.body)
        if rule is None:
            raise IllegalAction("a body part is lost by cut, gouge or blow_off (CO-BODY-1)")
        for needed in ("CO-BODY-1", rule, "CO-BODY-5"):
            if not self.on(needed):
                raise IllegalAction(f"losing body parts is {needed}, off in this profile")
        parts = self.rules.source["CO-BODY-5"]
        if a.part not in parts:
            raise IllegalAction(f"no body part {a.part!r} ({', '.join(parts)}) (CO-BODY-5)")
        return rule

    def body_penalty(self, t: Combatant, a: Attack, w: Weapon) -> tuple[int, str]:
        """CO-BODY-2 cut: −SIZ×factor (or the part's fixed penalty); CO-BODY-3 gouge: the fixed
        penalty, else the Keeper's −60…−80 (Default −70); CO-BODY-4 blow off: eyes and head
        take their fixed penalty, other parts a damage threshold instead."""
        rule = self.body_rule(a)
        part: Mapping[str, Any] = self.rules.source["CO-BODY-5"][a.part]
        info = w.info
        siz = t.sheet.stat("SIZ")
        if rule == "CO-BODY-2":
            if not info.slashing:
                raise IllegalAction(f"cutting needs a slashing weapon, not {info.name} "
                                    "(CO-BODY-2)")
            if "factor" in part:
                if siz * part["factor"] > 100:
                    raise IllegalAction(f"SIZ {siz}×{part['factor']} is over 100% (CO-BODY-2)")
                return -siz * part["factor"], f"cut the {a.part}: SIZ {siz}×{part['factor']}, " \
                    "CO-BODY-2"
            return part.get("penalty", 0), f"cut the {a.part}, CO-BODY-2, CO-BODY-5"
        if rule == "CO-BODY-3":
            if info.kind not in (WeaponKind.MELEE, WeaponKind.UNARMED):
                raise IllegalAction("gouging needs a close weapon or bare hands (CO-BODY-3)")
            if "penalty" in part:
                return part["penalty"], f"gouge the {a.part}, CO-BODY-3, CO-BODY-5"
            penalty = a.penalty or self.rules.default("CO-BODY-3", "penalty")
            if not -80 <= penalty <= -60:
                raise IllegalAction("the gouging penalty is −60 to −80 (CO-BODY-3)")
            return penalty, f"gouge the {a.part}, CO-BODY-3"
        if not info.heavy:
            raise IllegalAction(f"blowing a part off needs a heavy weapon, not {info.name} "
                                "(CO-BODY-4)")
        return part.get("penalty", 0), f"blow off the {a.part}, CO-BODY-4"

    def lose_part(self, t: Combatant, a: Attack, rolled: int) -> None:
        """CO-BODY-5: the part's consequences (characteristics with HP and DB recomputed,
        CO-BASE-1; skills; extra damage; death at HP ≤ 0 for torso or head) and CO-BODY-6's
        bleeding unless staunched at once."""
        if t.dead:
            return
        rule = self.body_rule(a)
        part: Mapping[str, Any] = self.rules.source["CO-BODY-5"][a.part]
        if rule == "CO-BODY-4" and "penalty" not in part:
            need = t.sheet.stat("SIZ") * part.get("factor", 0)
            if rolled < need:
                self.say(f"{rolled} damage < SIZ×{part.get('factor', 0)} = {need}: the "
                         f"{a.part} holds (CO-BODY-4)")
                return
        lost = (*t.lost, a.part)
        self.say(f"{t.name} loses the {a.part} ({rule}, CO-BODY-5)")
        sheet = t.sheet
        for stat, dice in part.get("stats", {}).items():
            amount, text = (self.roll_total(dice, f"{t.name}'s {stat} lost with the {a.part} "
                                            "部位破壊") if "D" in dice else (int(dice), dice))
            sheet = with_characteristic(sheet, stat, -amount)
            self.say(f"{stat} −{text} = {sheet.stat(stat)} (CO-BODY-5)")
        skills = dict(sheet.skills)
        if "skill" in part:
            key = part["skill"]
            before = skill_value(self.rules, sheet, key)
            skills[key] = before // 2 if lost.count(a.part) == 1 else 0
            self.say(f"{self.rules.skill(key).name} {before} → {skills[key]} (CO-BODY-5)")
        if "listen" in part:
            before = skill_value(self.rules, sheet, "listen")
            skills["listen"] = max(0, before + part["listen"])
            self.say(f"聞き耳/Listen {before} → {skills['listen']} (CO-BODY-5)")
        sheet = replace(sheet, skills=skills)
        hp = carried_hp(t.sheet.max_hp, t.hp, sheet.max_hp)
        t = self.set(t, sheet=sheet, lost=lost)
        if hp < t.hp:
            self.say(f"maximum HP {sheet.max_hp}, DB {sheet.db} (CO-BASE-1)")
            self.harm(t, t.hp - hp)
        bleeds = "bleed" in part and (part.get("always_bleeds", False) or not a.staunched)
        if bleeds and self.on("CO-BODY-6") and not self.cs[t.name].dead:
            t = self.cs[t.name]
            self.set(t, bleeding=(*t.bleeding, part["bleed"]))
            self.say(f"{t.name} bleeds {part['bleed']} HP a round until staunched (CO-BODY-6)")
        if part.get("extra", 0) and not self.cs[t.name].dead:
            self.say(f"extra damage {part['extra']} (CO-BODY-5)")
            self.harm(self.cs[t.name], part["extra"])
        t = self.cs[t.name]
        if part.get("kills_at_zero") and t.hp <= 0 and not t.dead:
            self.die(t, f"the {a.part} is severed at HP {t.hp} (CO-BODY-5)")

    def bleed(self) -> None:
        """CO-BODY-6: each bleeding wound takes its HP at the start of every round."""
        if not self.on("CO-BODY-6"):
            return
        for name in self.names:
            c = self.cs[name]
            if c.dead or not c.bleeding:
                continue
            total, texts = 0, list[str]()
            for dice in c.bleeding:
                amount, text = self.roll_total(dice, f"{name}'s bleeding 出血")
                total, texts = total + amount, [*texts, text]
            self.say(f"{name} bleeds {' + '.join(texts)} = {total} (CO-BODY-6)")
            self.harm(c, total)

    # -- knockout, shock, falls (CO-BASE-9/10/11) --

    def knockout(self, t: Combatant, damage: int, text: str) -> bool:
        """CO-BASE-10: damage against current HP on the resistance table; a success knocks the
        target out and it loses 1/3 of the damage (Default)."""
        self.say(text)
        made = resist(self.source, damage, max(0, t.hp), self.r5,
                      f"knockout: damage {damage} vs HP {t.hp}", self.rules)
        self.say(f"{made.text} (CO-BASE-10, CO-CORE-3)")
        if not made.success:
            return False
        loss = damage // self.divisor("CO-BASE-10", "damage_divisor")
        self.add(t, Condition.UNCONSCIOUS)
        self.say(f"{t.name} is knocked out and loses {loss} (CO-BASE-10)")
        self.harm(self.cs[t.name], loss)
        self.release_if_out(self.cs[t.name])
        return True

    def shock(self, t: Combatant, why: str) -> None:
        """CO-BASE-9: CON×5; a failure leaves the character unconscious."""
        t = self.cs[t.name]
        if t.out or not self.on("CO-BASE-9"):
            return
        made = check(self.source, t.sheet.stat("CON") * 5, self.r5, f"{t.name} CON×5")
        self.say(f"{made.text} (shock, CO-BASE-9, {why})")
        if not made.success:
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} goes into shock: unconscious until the fight ends or it is "
                     "treated (CO-BASE-9)")
            self.release_if_out(self.cs[t.name])

    def falling(self, metres: int, who: str) -> tuple[int, str]:
        """CO-BASE-11: 1D6 per full 3 m (Default); a shorter fall from a height 1D6."""
        dice = max(1, metres // self.divisor("CO-BASE-11", "metres_per_d6"))
        total, text = self.roll_total(f"{dice}D6", f"{who}'s fall damage 落下ダメージ "
                                      f"({metres} m)")
        return total, f"fall {metres} m ＞ {text} (CO-BASE-11)"

    # -- the Keeper's events: fire, falls, SAN (CO-BURN-1, CO-BASE-11, CO-BASE-13) --

    def keeper(self, t: Combatant, a: Burn | Fall | SanLoss | Place) -> None:
        if isinstance(a, Place):
            self.place(t, a)
        elif isinstance(a, Burn):
            self.burn(t, a)
        elif isinstance(a, Fall):
            if not self.on("CO-BASE-11") or a.metres < 1:
                raise IllegalAction("a fall of 1 m or more (CO-BASE-11)")
            total, text = self.falling(a.metres, t.name)
            self.say(f"{t.name}: {text}; armour does not help")
            self.harm(t, total)
        else:
            self.san_loss(t, a)

    def burn(self, t: Combatant, a: Burn) -> None:
        """CO-BURN-1: fire damage from one incident totalling half the maximum HP or more
        costs 1D6 APP or CON once (the player's choice; CON recomputes HP, CO-BASE-1)."""
        if not self.on("CO-BURN-1"):
            raise IllegalAction("burns are CO-BURN-1, off in this profile")
        if a.damage < 0:
            raise IllegalAction("fire damage is 0 or more")
        lose = a.lose or self.rules.default("CO-BURN-1", "choice")
        if lose not in ("APP", "CON"):
            raise IllegalAction("a burn costs APP or CON (CO-BURN-1)")
        self.say(f"{t.name} is burned ({a.incident}): {a.damage} (CO-BURN-1)")
        self.harm(t, a.damage)
        t = self.cs[t.name]
        totals = dict(t.burns)
        totals[a.incident] = totals.get(a.incident, 0) + a.damage
        t = self.set(t, burns=tuple(totals.items()))
        if a.incident in t.scarred or totals[a.incident] * 2 < t.sheet.max_hp or t.dead:
            return
        amount, text = self.roll_total(self.rules.num("CO-BURN-1", "loss"),
                                       f"{t.name}'s {lose} lost to fire 火傷")
        sheet = with_characteristic(t.sheet, lose, -amount)
        hp = carried_hp(t.sheet.max_hp, t.hp, sheet.max_hp)
        what = "the face is scarred" if lose == "APP" else "the cells are carbonised"
        self.say(f"{totals[a.incident]} fire damage ≥ half of HP {t.sheet.max_hp}: "
                 f"{lose} −{text} = {sheet.stat(lose)}, {what} (CO-BURN-1)")
        t = self.set(t, sheet=sheet, scarred=(*t.scarred, a.incident))
        if hp < t.hp:
            self.say(f"maximum HP {sheet.max_hp} (CO-BASE-1)")
            self.harm(t, t.hp - hp)

    def san_loss(self, t: Combatant, a: SanLoss) -> None:
        """CO-BASE-13: 5+ SAN at once, then INT×5 → temporary insanity; SAN lost within the
        hour ×5 ≥ the hour's starting SAN → indefinite insanity (the fight is one hour)."""
        if not self.on("CO-BASE-13") or a.amount < 0:
            raise IllegalAction("a SAN loss of 0 or more (CO-BASE-13)")
        start, before = t.san_start or t.san, t.san
        san = max(0, t.san - a.amount)
        t = self.set(t, san=san, san_start=start)
        self.say(f"{t.name} loses {a.amount} SAN: SAN {before} → {san} (CO-BASE-13)")
        if a.amount >= self.rules.num("CO-BASE-13", "temporary_loss"):
            made = check(self.source, t.sheet.stat("INT") * self.rules.num(
                "CO-BASE-13", "int_multiplier"), self.r5, f"{t.name} INT×5")
            self.say(f"{made.text} (CO-BASE-13)")
            if made.success:
                self.add(t, Condition.TEMPORARY_INSANITY)
                self.say(f"{t.name} understands what it saw: temporary insanity (CO-BASE-13)")
        lost = start - san
        if lost * self.rules.num("CO-BASE-13", "indefinite_fraction") >= start and not \
                self.cs[t.name].has(Condition.INDEFINITE_INSANITY, self.round):
            self.add(self.cs[t.name], Condition.INDEFINITE_INSANITY)
            self.say(f"{lost} of {start} SAN within the hour: indefinite insanity (CO-BASE-13)")

    # -- other skills (CO-SKILL-4/5), spells (CO-SPELL-1/2), tackle (CO-TACKLE-1..3) --

    def spot(self, c: Combatant, a: Spot) -> None:
        """CO-SKILL-5: Spot Hidden shows the foe's weapons and condition; attacks stay open."""
        t = self.get(a.target)
        if self.p003:
            if not self.on("CO-SKILL-5"):
                raise IllegalAction("Spot Hidden in a fight is CO-SKILL-5, off")
            c = self.spend(c, 1, "CO-SKILL-5")
            self.set(c, spent_other=True)
        else:
            c = self.one_action(c, "CO-BASE-5")
        made = self.check(c, "spot_hidden")
        self.lines[-1] += " (CO-SKILL-5)" if self.p003 else " (CO-BASE-5)"
        if not made.success:
            return
        weapons = ", ".join(
            w.info.name + (f" {w.loaded}/{w.info.magazine}" if w.info.magazine else "")
            + (" broken" if w.broken else " jammed" if w.jammed else " dropped" if w.dropped
               else "") for w in t.sheet.weapons) or "none"
        states = ", ".join(x.condition.value for x in t.conditions) or "no condition"
        self.say(f"{c.name} sees {t.name}: weapons {weapons}; HP {t.hp}/{t.sheet.max_hp}, "
                 f"{states}" + (" (an attack is still allowed this round, CO-SKILL-5)"
                                if self.p003 else ""))

    def cast(self, c: Combatant, a: Cast) -> None:
        """CO-SPELL-1: a chanted or gestured spell needs a free body; it takes effect at the
        caster's next turn (Default), unless a hit interrupts it first (CO-SPELL-2)."""
        if not self.on("CO-SPELL-1"):
            raise IllegalAction("spellcasting in a fight is CO-SPELL-1, off in this profile")
        if a.verbal and not a.automatic and c.held_by:
            raise IllegalAction(f"{c.name} is held and cannot chant or gesture (CO-SPELL-1)")
        if c.chanting:
            raise IllegalAction(f"{c.name} is already chanting {c.chanting}")
        if not 0 <= a.mp <= c.mp:
            raise IllegalAction(f"{c.name} has {c.mp} MP")
        c = self.one_action(c, "CO-SPELL-1")
        self.set(c, mp=c.mp - a.mp, chanting=a.spell, chant_automatic=a.automatic,
                 chant_turns=max(1, int(self.rules.default("CO-SPELL-2", "chant_turns"))))
        self.say(f"{c.name} begins {a.spell} (MP −{a.mp} = {c.mp - a.mp}): it takes effect at "
                 f"the start of {c.name}'s turn (CO-SPELL-1)")

    def chant_hit(self, t: Combatant) -> None:
        """CO-SPELL-2: damage stops the chant unless POW×1 succeeds; automatic spells go on."""
        if not t.chanting or not self.on("CO-SPELL-2"):
            return
        if t.out:
            self.set(t, chanting="", chant_automatic=False)
            self.say(f"{t.name}'s {t.chanting} stops: the caster is out (CO-SPELL-2)")
            return
        if t.chant_automatic:
            self.say(f"{t.name}'s {t.chanting} goes on by itself (CO-SPELL-2)")
            return
        made = check(self.source, t.sheet.stat("POW") * self.rules.num(
            "CO-SPELL-2", "pow_multiplier"), self.r5, f"{t.name} POW×1")
        self.say(f"{made.text} (CO-SPELL-2)")
        if made.success:
            self.say(f"{t.name} chants on through the pain (CO-SPELL-2)")
        else:
            self.set(t, chanting="", chant_automatic=False)
            self.say(f"{t.name}'s {t.chanting} is interrupted (CO-SPELL-2)")

    def tackle(self, c: Combatant, a: Tackle) -> None:
        """CO-TACKLE-1: a Tackle success deals 1d6+db, or instead blows the target back
        (CO-TACKLE-2) or knocks it down (CO-TACKLE-3); it may be dodged."""
        if not self.on("CO-TACKLE-1"):
            raise IllegalAction("tackling is CO-TACKLE-1, off in this profile")
        t = self.get(a.target)
        option_rule = {"": "CO-TACKLE-1", "blow_back": "CO-TACKLE-2",
                       "knock_down": "CO-TACKLE-3"}.get(a.option)
        if option_rule is None or not self.on(option_rule):
            raise IllegalAction(f"no tackle option {a.option!r} here")
        if t.name == c.name or t.dead or c.grappling or c.held_by:
            raise IllegalAction("that tackle is not possible")
        if a.defence not in (Defence.NONE, Defence.DODGE):
            raise IllegalAction("a tackle can only be dodged")
        self.on_the_board(c, t, Attack(c.name, t.name), WeaponKind.UNARMED)
        self.may_strike(c, a.after_dodge, weapon=False)
        if self.p003:
            c = self.spend(c, 1, "CO-TACKLE-1")
        elif c.attacks:
            raise IllegalAction("one action a turn (CO-BASE-5)")
        fake = Attack(c.name, t.name, defence=a.defence)
        dodge_ok = a.defence is not Defence.DODGE or self.defence_allowed(
            t, Defence.DODGE, WeaponKind.UNARMED, fake, True)
        if not dodge_ok and not self.legacy:  # before any die (format 1: after the roll)
            raise IllegalAction(f"{t.name} cannot dodge now")
        c = self.set(c, attacks=c.attacks + 1)
        if a.after_dodge:
            value, why = self.after_dodge(skill_value(self.rules, c.sheet, "tackle"))
            made = check(self.source, value, self.r_attack, f"{c.name} "
                         f"{self.rules.skill('tackle').name}")
            self.say(made.text + why)
        else:
            made = self.check(c, "tackle", attack=True)
        self.lines[-1] += " (CO-TACKLE-1)"
        if not made.success:
            return
        if a.defence is Defence.DODGE:
            if not dodge_ok:
                raise IllegalAction(f"{t.name} cannot dodge now")
            if self.dodge(t, WeaponKind.UNARMED, fake, True):
                return
        db = c.sheet.db
        if not a.option:
            dice = self.rules.num("CO-TACKLE-1", "damage")
            total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                          f"{c.name} tackle damage タックルダメージ")
            self.hit(t, max(0, total), f"tackle: {text} (CO-TACKLE-1)")
        elif a.option == "blow_back":
            dice = self.rules.num("CO-TACKLE-2", "damage")
            total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                          f"{c.name} tackle damage タックルダメージ")
            total = max(0, total)
            metres = self.rules.num("CO-TACKLE-2", "knockback_m")
            obstacle = a.obstacle
            if self.board(c, t):
                here, there = board.parse(c.square), board.parse(t.square)
                way = (board.away(here, there)[0] - there[0], board.away(here, there)[1]
                       - there[1])
                end, stopped = board.slide(there, way, metres, self.occupied(t.name))
                obstacle = obstacle or stopped
                self.set(t, square=board.name(end))
                t = self.cs[t.name]
                self.say(f"{t.name} is blown back to {board.name(end)}"
                         + (", into an obstacle" if stopped else "")
                         + " (CO-TACKLE-2, 1 m = 1 square, CO-TURN-2)")
            if obstacle:
                more, more_text = self.roll_total(self.rules.num("CO-TACKLE-2", "obstacle"),
                                                  f"{t.name}'s damage from the obstacle "
                                                  "障害物ダメージ")
                total += more
                text += f" + obstacle {more_text}"
            self.hit(t, total, f"blown back {metres} m: {text} = {total} (CO-TACKLE-2)")
            self.shock(self.cs[t.name], "CO-TACKLE-2")
        else:
            self.add(t, Condition.PRONE)
            self.set(self.cs[c.name], pinning=t.name)
            self.say(f"{t.name} is knocked down, no damage; {c.name} pins it from the next round "
                     "(CO-TACKLE-3)")

    def pins(self) -> None:
        """CO-TACKLE-3: at the next round the knock-down becomes a grapple (CO-GRAP-1/6)."""
        for name in self.names:
            c = self.cs[name]
            if not c.pinning:
                continue
            t = self.cs[c.pinning]
            self.set(c, pinning="")
            if c.out or t.dead or t.held_by or c.grappling or c.held_by:
                continue
            rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
            self.set(self.cs[name], grappling=t.name, grapple_round=self.round)
            self.set(t, held_by=name)
            self.drop(self.cs[t.name], Condition.PRONE)
            self.say(f"{name} pins {t.name}: the grapple rules take over (CO-TACKLE-3, {rule})")

    # -- thrown weapons, called shots, knockback (CO-THROW-2, CO-CALL-1, CO-MELEE-2) --

    def stray_throw(self, c: Combatant, a: Attack, w: Weapon) -> None:
        """CO-THROW-2: a fumbled throw flies off; a hit roll (the thrower's Throw) against
        another target in range, allies too: the Keeper names it (no board: Default)."""
        if not a.stray and self.on("CO-TURN-2") and c.square:
            here = board.parse(c.square)
            near = [o for o in self.names if o not in (c.name, a.target)
                    and not self.cs[o].dead and self.cs[o].square
                    and board.distance(here, board.parse(self.cs[o].square)) <= 3
                    and self.clear(c, self.cs[o])]
            if near:
                pick = roll(f"1D{len(near)}", self.source,
                            purpose=f"whom the throw strays to 逸れた先 ({', '.join(near)})"
                            ).total if len(near) > 1 else 1
                a = replace(a, stray=near[pick - 1])
                self.say(f"the stray throw's target: 1D{len(near)} ＞ {a.stray} (CO-THROW-2)")
        if not a.stray or a.stray in (c.name, a.target):
            self.say("fumble: the throw flies off and lands harmlessly (CO-THROW-2)")
            return
        other = self.get(a.stray)
        if other.dead:
            self.say("fumble: the throw flies off and lands harmlessly (CO-THROW-2)")
            return
        self.say(f"fumble: the throw flies off towards {other.name} (CO-THROW-2)")
        made = check(self.source, skill_value(self.rules, c.sheet, w.info.skill), self.r_attack,
                     f"{c.name} {w.info.name} → {other.name}", hit=True)
        self.say(made.text)
        if made.success:
            damage, text = self.damage(c, w, False, Grade.SUCCESS, False)
            self.hit(other, damage, f"{text} (CO-THROW-2)")

    def called_effect(self, t: Combatant, a: Attack) -> None:
        """CO-CALL-1: an arm hit costs a multi-attacker one attack, and a failed STR×5 drops
        the weapon held; a leg hit costs a square of movement a round (for the fight)."""
        if t.dead:
            return
        if a.called == "leg":
            t = self.set(t, leg_hits=t.leg_hits + 1)
            most = self.rules.num("CO-TURN-3", "action_points") - t.leg_hits
            self.say(f"{t.name}'s leg is hit: at most {max(0, most)} square(s) a round "
                     "(CO-CALL-1)")
            return
        if a.called != "arm":
            return
        t = self.set(t, arm_hits=t.arm_hits + 1)
        self.say(f"{t.name}'s arm is hit: a weapon of several attacks makes one fewer "
                 "(CO-CALL-1)")
        held = next((i for i, w in enumerate(t.sheet.weapons) if not (w.dropped or w.broken)
                     and w.info.kind is not WeaponKind.UNARMED), None)
        if held is None or t.out:
            return
        times = self.rules.num("CO-CALL-1", "arm")["str_multiplier"]
        made = check(self.source, t.sheet.stat("STR") * times, self.r5, f"{t.name} STR×{times}")
        self.say(f"{made.text} (CO-CALL-1)")
        if not made.success:
            w = t.sheet.weapons[held]
            self.put_weapon(t, held, replace(w, dropped=True))
            self.say(f"{t.name} drops {w.info.name} (CO-CALL-1)")

    def knockback(self, t: Combatant, a: Attack, taken: int) -> None:
        """CO-MELEE-2: 10+ damage in one melee hit (after armour) pushes the target back a
        square; whoever stands behind (the Keeper names them) dodges or takes 1D3."""
        if not self.on("CO-MELEE-2") or t.dead or taken < self.rules.num(
                "CO-MELEE-2", "knockback_damage"):
            return
        attacker = self.cs[a.actor]
        if self.board(attacker, t):
            dest = board.away(board.parse(attacker.square), board.parse(t.square))
            if not board.on_board(dest):
                self.say(f"knockback! {t.name} is against the edge and stays (CO-MELEE-2)")
                return
            there = self.standing_at(board.name(dest), t.name)
            if there is None:
                self.set(t, square=board.name(dest))
                self.say(f"knockback! {t.name} is pushed to {board.name(dest)} ({taken} damage, "
                         "CO-MELEE-2)")
                return
            self.say(f"knockback! {t.name} is pushed into {there.name} and stays ({taken} "
                     "damage, CO-MELEE-2)")
            a = replace(a, behind=there.name)
        else:
            self.say(f"knockback! {t.name} is pushed back a square ({taken} damage, "
                     "CO-MELEE-2)")
        if not a.behind or a.behind in (t.name, a.actor):
            return
        other = self.get(a.behind)
        if other.dead:
            return
        if not other.out and self.check(other, "dodge").success:
            self.lines[-1] += " (CO-MELEE-2)"
            return
        hurt, text = self.roll_total(self.rules.num("CO-MELEE-2", "bystander"),
                                     f"damage to {other.name} behind 背後の者へのダメージ")
        self.hit(other, hurt, f"{other.name} is struck by {t.name}: {text} (CO-MELEE-2)")

    # -- the board (CO-TURN-2, CO-TURN-5, CO-TURN-7, CO-MELEE-1, CO-SKILL-6) --

    def board(self, *who: Combatant) -> bool:
        """The board is in play for these combatants: CO-TURN-2 is on and all are placed."""
        return self.on("CO-TURN-2") and all(c.square for c in who)

    def standing_at(self, square: str, but: str = "") -> Combatant | None:
        for name in self.names:
            c = self.cs[name]
            if c.square == square and not c.dead and name != but:
                return c
        return None

    def clear(self, c: Combatant, t: Combatant) -> bool:
        """CO-TURN-7: nobody stands on the line between the two squares."""
        occupied = {board.parse(o.square) for o in self.cs.values()
                    if o.square and not o.dead and o.name not in (c.name, t.name)}
        return not occupied & set(board.line(board.parse(c.square), board.parse(t.square)))

    def place(self, t: Combatant, a: Place) -> None:
        """CO-TURN-2: the Keeper sets a square and a facing."""
        if not self.on("CO-TURN-2"):
            raise IllegalAction("the board is CO-TURN-2, off in this profile")
        square = board.name(board.parse(a.square))
        other = self.standing_at(square, t.name)
        if other is not None and other.name not in (t.grappling, t.held_by):
            raise IllegalAction(f"{other.name} stands on {square} (CO-TURN-2)")
        self.set(t, square=square, facing=board.facing(a.facing))
        self.say(f"{t.name} stands on {square} facing {board.facing(a.facing)} (CO-TURN-2)")

    def face(self, c: Combatant, a: Face) -> None:
        if not self.on("CO-TURN-5"):
            raise IllegalAction("facing is the board's (CO-TURN-5)")
        self.set(c, facing=board.facing(a.facing))
        self.say(f"{c.name} turns to face {board.facing(a.facing)}: no AP (CO-TURN-5)")

    def walk(self, c: Combatant, to: str) -> int:
        """CO-TURN-5 Default: the fewest king moves to ``to`` around occupied squares."""
        if not self.board(c):
            raise IllegalAction(f"{c.name} is not on the board (CO-TURN-2)")
        if c.held_by:
            raise IllegalAction(f"{c.name} is held and moves with its grappler (CO-GRAP-1)")
        goal = board.parse(to)
        blocked = [board.parse(o.square) for o in self.cs.values() if o.square and not o.dead
                   and o.name not in (c.name, c.grappling)]
        steps = board.path_length(board.parse(c.square), goal, blocked)
        if steps is None or steps == 0:
            raise IllegalAction(f"{c.name} cannot move to {to} (CO-TURN-5)")
        return steps

    def relocate(self, c: Combatant, to: str) -> None:
        square = board.name(board.parse(to))
        self.set(self.cs[c.name], square=square)
        if c.grappling:
            self.set(self.cs[c.grappling], square=square)

    def on_the_board(self, c: Combatant, t: Combatant, a: Attack, kind: WeaponKind) -> Attack:
        """CO-MELEE-1: melee only when adjacent; CO-TURN-7: a throw reaches 3 squares, a
        firearm the whole board, and nobody may stand in between; "behind" and "adjacent"
        come from the board (CO-TURN-2, CO-DODGE-3, CO-FIRE-5)."""
        if not self.board(c, t):
            return a
        here, there = board.parse(c.square), board.parse(t.square)
        apart = board.distance(here, there)
        melee = kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        if melee and apart > 1:
            raise IllegalAction(f"{t.name} is {apart} squares away: melee needs an adjacent "
                                "target (CO-MELEE-1)")
        if kind is WeaponKind.THROWN and apart > self.rules.num("CO-THROW-1", "range_squares"):
            raise IllegalAction(f"{t.name} is {apart} squares away: a throw reaches 3 "
                                "(CO-TURN-7)")
        if not melee and not self.clear(c, t):
            raise IllegalAction(f"somebody stands between {c.name} and {t.name} (CO-TURN-7)")
        from_behind = apart > 0 and board.behind(there, t.facing, here, melee)
        return replace(a, from_behind=from_behind,
                       adjacent=a.adjacent or (kind is WeaponKind.FIREARM and apart == 1),
                       distance_m=apart if kind is WeaponKind.THROWN else a.distance_m)

    def jump(self, c: Combatant, a: Jump) -> None:
        """CO-SKILL-6: 2 AP; over the adjacent combatant to the square beyond; a failure stays
        put with the AP spent (Default); an attack stays allowed this round."""
        if not self.on("CO-SKILL-6"):
            raise IllegalAction("jumping over is CO-SKILL-6, off in this profile")
        over = self.get(a.over)
        if not self.board(c, over) or not board.adjacent(board.parse(c.square),
                                                         board.parse(over.square)):
            raise IllegalAction(f"{c.name} must stand next to {over.name} (CO-SKILL-6)")
        if c.held_by or c.grappling:
            raise IllegalAction("no jumping while grappling (CO-GRAP-1)")
        land = board.away(board.parse(c.square), board.parse(over.square))
        if not board.on_board(land) or self.standing_at(board.name(land)) is not None:
            raise IllegalAction(f"no free square beyond {over.name} (CO-SKILL-6)")
        c = self.spend(c, 2, "CO-SKILL-6")
        c = self.set(c, spent_other=True)
        made = self.check(c, "jump")
        self.lines[-1] += " (CO-SKILL-6)"
        if made.success:
            self.set(c, square=board.name(land))
            self.say(f"{c.name} leaps over {over.name} to {board.name(land)} (CO-SKILL-6)")
        else:
            self.say(f"{c.name} stays on {c.square}; the AP are spent (CO-SKILL-6)")
