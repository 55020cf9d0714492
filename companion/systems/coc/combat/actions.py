"""The actions a fight is played with: one frozen dataclass per kind (its ``kind`` the word
``companion coc fight act`` takes), the defender's declared :class:`Defence`, the Keeper's
out-of-turn :data:`KEEPER_ACTIONS`, and their JSON (:func:`action_to_json`,
:func:`action_from_json`, which names a wrong field or value in words).

Each class's docstring names its rules: CO-AIM-1, CO-BASE-5/8/10/11/12/13, CO-BODY-2/3/4/5/6,
CO-BURN-1, CO-CALL-1, CO-CORE-3, CO-DISARM-1, CO-DODGE-1/4/5/6/7/8, CO-FIRE-1/4/5/7,
CO-GRAP-1/2/6/7/8 (and the Default "CO-GRAP-1 (let go)"), CO-IAI-1/2/3/4, CO-MA-2/3/4/5,
CO-MELEE-2/4, CO-PARRY-2, CO-RANGE-2/3, CO-SKILL-2/3/5/6, CO-SPELL-1/2, CO-SURP-1/3,
CO-TACKLE-1/2/3, CO-THROW-2, CO-TURN-1/2/3/5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, fields
from enum import Enum
from typing import Any, ClassVar

from companion.errors import DataError


class Defence(Enum):
    """The defender's declared reaction (CO-DODGE, CO-PARRY)."""

    NONE = "none"
    DODGE = "dodge"
    PARRY = "parry"
    COUNTER = "counter"  # CO-MA-5: an MA counter, the defender's parry of the round


#: CO-MA-3 / CO-MA-4 (004 l.158-160): an Attack's ``ma_option`` words and their rules.
MA_OPTIONS = {"forced": "CO-MA-3", "follow_up": "CO-MA-4"}
#: CO-MELEE-4 (003 l.29 「転んだ…もしくは、使用した武器が破損する」): an Attack's ``fumble`` words.
FUMBLES = ("fall", "break")
#: The Japanese terms of the words above, as the table's menus name them (reviewcoc67 NIT 2):
#: MA 必中 / MA 追撃 (CO-MA-3/4), 転倒 / 武器破損 (CO-MELEE-4).
WORDS_JA = {"forced": "必中", "follow_up": "追撃", "fall": "転倒", "break": "武器破損"}
#: CO-TACKLE-2 / CO-TACKLE-3: a Tackle's ``option`` words, their Japanese and rules (none
#: given: 1d6+db, CO-TACKLE-1).
TACKLE_OPTIONS = {"blow_back": ("吹き飛ばし", "CO-TACKLE-2"),
                  "knock_down": ("押し倒し", "CO-TACKLE-3")}


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
    distance_m: int = 0      # CO-RANGE-2: metres to the target, 0 or more (0: within base range)
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
    parry_with: str = ""     # CO-PARRY-2: "" a weapon, "hands", "ma", "budo"; 003: "iai";
    #                          CO-GRAP-5: "grapple" (two Grapple successes)
    cover: str = ""          # CO-DODGE-7: the target takes cover from gunfire, "hide"/"dodge"
    called: str = ""         # CO-CALL-1: "head", "arm" or "leg" at −30%
    stray: str = ""          # CO-THROW-2: whom a fumbled throw may hit (the Keeper's pick)
    behind: str = ""         # CO-MELEE-2: who stands behind the target
    luck_dodge: bool = False  # CO-DODGE-4: the Keeper allows a second dodge by Luck
    after_dodge: bool = False  # CO-DODGE-5: the Keeper allows an attack after dodging, −50%
    #: CO-DODGE-5.dodge_needs_fatal_blow: the Keeper rules this blow certainly fatal
    #: (命を確実に刈り取る一撃), so a target that has attacked may still dodge it at −60%
    fatal_blow: bool = False


@dataclass(frozen=True)
class Grapple:
    """CO-GRAP-1 (003) / CO-GRAP-6 (004); with ``ma`` a combination roll (CO-MA-2);
    ``from_behind`` (the Keeper's off 003's board, where the board says, CO-TURN-2) takes no
    dodge or parry without dodge concentration, from revision 7 (CO-DODGE-3)."""

    kind: ClassVar[str] = "grapple"
    actor: str
    target: str
    defence: Defence = Defence.NONE
    parry_weapon: int = 0
    ma: bool = False
    after_dodge: bool = False  # CO-DODGE-5 (004): the Keeper allows it after dodging, −50%
    from_behind: bool = False  # CO-DODGE-3: off 003's board, the Keeper's
    #: CO-GRAP-5 / CO-PARRY-2, from revision 19: "" the weapon ``parry_weapon``; "hands",
    #: "ma", "budo" (003: "ma"), or "grapple" (two Grapple successes)
    parry_with: str = ""


@dataclass(frozen=True)
class Choke:
    """CO-MA-2 choke (003) / CO-GRAP-7 (004); 004 rolls ``skill``: "grapple" or
    "budo_grappling" (CO-GRAP-6 「もう一度武道（組技系）を使用」); "budo", its name before the
    two Budo skills (an older action or command), is read as "budo_grappling"."""

    kind: ClassVar[str] = "choke"
    actor: str
    skill: str = "grapple"


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
    skill: str = "grapple"  # 004: "grapple" or "budo_grappling" (CO-GRAP-6), as a choke's


@dataclass(frozen=True)
class BreakFree:
    """CO-GRAP-2 (003) / CO-GRAP-6 (004): opposed STR, the held side active (CO-CORE-3)."""

    kind: ClassVar[str] = "break_free"
    actor: str


@dataclass(frozen=True)
class LetGo:
    """The holder lets go of the one it holds 手を放す (the Default "CO-GRAP-1 (let go)",
    CO-GRAP-1 in 003, CO-GRAP-6 in 004; engine revision 21 on): a free action on its own
    turn, no AP and not its action, no roll."""

    kind: ClassVar[str] = "let_go"
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
class EndFight:
    """The Keeper ends the fight where it stands (the foes flee, the Keeper stops it):
    ``companion coc fight end``. No rule of seeds 003/004 says when a fight ends; genso's
    GM-COMBAT-1 end is the model. Taken back as any action (``fight undo``)."""

    kind: ClassVar[str] = "end"
    actor: str = ""  # the Keeper, who is no combatant


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
    """CO-TACKLE-1/2/3: ``option`` "" (1d6+db), "blow_back" or "knock_down";
    ``from_behind`` (the Keeper's off 003's board, where the board says, CO-TURN-2) takes no
    dodge without dodge concentration and finds no human shield, from revision 7 (CO-DODGE-3,
    CO-GRAP-4)."""

    kind: ClassVar[str] = "tackle"
    actor: str
    target: str
    option: str = ""
    obstacle: bool = False
    defence: Defence = Defence.NONE
    after_dodge: bool = False  # CO-DODGE-5: the Keeper allows it after dodging, −50%
    from_behind: bool = False  # CO-DODGE-3, CO-GRAP-4: off 003's board, the Keeper's


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


Action = (Attack | Grapple | Choke | Throw | BreakFree | LetGo | Reload | ClearJam | Treat | Move
          | EndTurn | Delay | Concentrate | Sheathe | PickUp | Spot | Cast | Tackle | Burn | Fall
          | SanLoss | Place | Face | Jump | EndFight)
ACTIONS: dict[str, type[Any]] = {a.kind: a for a in (
    Attack, Grapple, Choke, Throw, BreakFree, LetGo, Reload, ClearJam, Treat, Move, EndTurn,
    Delay, Concentrate, Sheathe, PickUp, Spot, Cast, Tackle, Burn, Fall, SanLoss, Place, Face,
    Jump, EndFight)}
KEEPER_ACTIONS = (Burn, Fall, SanLoss, Place)  # the Keeper's, at any moment; no turn is used


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
        # a78cocfight NIT 7: the example names the fields missing, not --with KEY=VALUE
        typed = ["TARGET"] * ("target" in missing) + [
            f"--with {name}=…" for name in missing if name not in ("actor", "target")]
        raise DataError(f"the {cls.kind} action needs its {' and '.join(missing)} "
                        f"(e.g. `act {cls.kind} {' '.join(['ACTOR', *typed])}`)")
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
