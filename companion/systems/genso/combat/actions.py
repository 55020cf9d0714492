"""The actions of a `genso` fight, their journal (JSON) form and the line that tells them.

A combatant's turn is one of :data:`ACTIONS`; :data:`GM_ACTIONS` are the GM's own steps,
which need no turn. Rules: GM-COMBAT-1 (flee, the end of the fight), GM-COMBAT-5 (full
attack), GM-COMBAT-6 (full dodge), GM-MOVE-1 (moves), GM-MAGIC-1, GM-ITEM-1 and GM-ITEM-3
(casting and paying for it), GM-ITEM-2 (stones), GM-CORE-2 (sunrise), GM-MON-5 (sunset),
GM-HEAL-2 (sleep).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, ClassVar

from companion.errors import DataError


@dataclass(frozen=True)
class Attack:
    """An attack with a weapon (index into the attacker's weapons; monsters have one).

    ``full``: 全力攻撃 (GM-COMBAT-5), +4 to hit and no dodging until the next action.
    """

    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: int = 0
    full: bool = False


@dataclass(frozen=True)
class Dodge:
    """全力回避 (GM-COMBAT-6): no attack, +6 to defence until the next action."""

    kind: ClassVar[str] = "dodge"
    actor: str


@dataclass(frozen=True)
class Move:
    """GM-MOVE-1: ``combat`` 3 m, ``normal`` 12 m (then only dodging), ``full`` 48 m."""

    kind: ClassVar[str] = "move"
    actor: str
    mode: str = "normal"


@dataclass(frozen=True)
class Cast:
    """GM-MAGIC-1: cast a known spell on targets; ``weapon`` enchants a target's weapon with
    Exorcism; ``stone`` pays from the mana stone of that index first (GM-ITEM-1); ``ring``
    pays from the MP stored in a worn Ring of Storage before that (GM-ITEM-3 Default)."""

    kind: ClassVar[str] = "cast"
    actor: str
    spell: str
    targets: tuple[str, ...] = ()
    weapon: int | None = None
    stone: int | None = None
    ring: bool = False


@dataclass(frozen=True)
class UseStone:
    """GM-ITEM-2: use a Healing Stone (2D HP) or an Enchant Stone (2D to an immune monster)."""

    kind: ClassVar[str] = "stone"
    actor: str
    stone: str
    target: str


@dataclass(frozen=True)
class Flee:
    """The combatant runs away (GM-COMBAT-1: the GM rules that the flight succeeds)."""

    kind: ClassVar[str] = "flee"
    actor: str


@dataclass(frozen=True)
class Wait:
    """The combatant does nothing this turn."""

    kind: ClassVar[str] = "wait"
    actor: str


@dataclass(frozen=True)
class EndFight:
    """GM-COMBAT-1: the GM declares the end of the fight."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Sunrise:
    """GM-CORE-2: the next sunrise ends every 1-day spell and Exorcism on weapons."""

    kind: ClassVar[str] = "sunrise"


@dataclass(frozen=True)
class Sunset:
    """GM-MON-5: at sunset those a Wight or Wraith killed rise as one, unless exorcised."""

    kind: ClassVar[str] = "sunset"


@dataclass(frozen=True)
class Sleep:
    """GM-HEAL-2: a night's sleep (``sleep_hours`` in the rules data) restores the MP of
    every living combatant not dead."""

    kind: ClassVar[str] = "sleep"


Action = Attack | Dodge | Move | Cast | UseStone | Flee | Wait | EndFight | Sunrise | Sunset | Sleep
ACTIONS: dict[str, type[Action]] = {cls.kind: cls for cls in (
    Attack, Dodge, Move, Cast, UseStone, Flee, Wait, EndFight, Sunrise, Sunset, Sleep)}
GM_ACTIONS = (EndFight, Sunrise, Sunset, Sleep)


def action_to_json(action: Action) -> dict[str, Any]:
    data = asdict(action)
    if isinstance(action, Cast):
        data["targets"] = list(action.targets)
    return {"kind": action.kind, **data}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """An action from its journal form; a bad one is a DataError naming it."""
    if not isinstance(data, Mapping) or data.get("kind") not in ACTIONS:
        raise DataError(f"not a fight action: {data!r} (kinds: {', '.join(ACTIONS)})")
    cls = ACTIONS[data["kind"]]
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"kind"}
    if extra:
        raise DataError(f"fight action {data['kind']}: unknown field {sorted(extra)[0]!r}")
    args = {k: v for k, v in data.items() if k != "kind"}
    for field in fields(cls):
        # Each field present and of its type, named if not (genso74 NIT 6: a missing actor
        # was said in Python's words, "Attack.__init__() missing 1 required positional
        # argument", and a full attack of "yes" was taken as true).
        if field.name not in args:
            if field.default is MISSING and field.default_factory is MISSING:
                raise DataError(f"fight action {data['kind']}: its {field.name} is missing")
            continue
        value = args[field.name]
        should = _FIELD_TYPES.get(str(field.type))
        if should is not None and not should[0](value):
            raise DataError(f"fight action {data['kind']}: {field.name} must be {should[1]}, "
                            f"found {value!r}")
    if "targets" in args:
        args["targets"] = tuple(args["targets"])
    try:
        return cls(**args)
    except TypeError as exc:
        raise DataError(f"fight action {data['kind']}: {exc}") from exc


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: What each field type of an action takes in a fight file, and how a refusal says it.
_FIELD_TYPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "text"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (_whole, "a whole number"),
    "int | None": (lambda v: v is None or _whole(v), "a whole number or null"),
    "tuple[str, ...]": (lambda v: isinstance(v, list | tuple)
                        and all(isinstance(x, str) for x in v), "a list of names"),
}


#: A movement mode's name (GM-MOVE-1), for the line that says how far a move went.
MOVE_NAMES = {"combat": "戦闘移動/combat", "normal": "通常移動/normal", "full": "全力移動/full"}
#: Movement modes and magic stones as the player reads them (GM-MOVE-1, GM-ITEM-2); a move's
#: metres are the mover's own (:func:`.combatants.move_metres`), added where it is known.
MOVE_LABELS = {"combat": "戦闘移動 combat", "normal": "通常移動 normal", "full": "全力移動 full"}
STONES = {"healing_stone": "治癒石 Healing Stone", "enchant_stone": "付与石 Enchant Stone"}


def move_label(mode: str, metres: Mapping[str, int] | None = None) -> str:
    """A movement mode as the player reads it, with the metres the mover goes by it when
    they are known: ``通常移動 normal 16 m`` for an Orc (GM-MOVE-1, GM-MON-7)."""
    label = MOVE_LABELS.get(mode, mode)
    return f"{label} {metres[mode]} m" if metres and mode in metres else label


def action_text(action: Action, metres: Mapping[str, int] | None = None,
                spell: str = "") -> str:
    """An action in a line, for the log, an undo and an error: ``X → オーク 攻撃 attack``;
    ``metres`` are how far its mover goes by each movement mode, for a move; ``spell`` the
    cast's spell as the player reads it (``治癒呪 Healing``, as the table's menus name it;
    its key when not given). Text only: no journal line is made of it."""
    if isinstance(action, Attack):
        return (f"{action.actor} → {action.target}"
                + (" 全力攻撃 full attack" if action.full else " 攻撃 attack"))
    if isinstance(action, Cast):
        return f"{action.actor} casts 呪文 {spell or action.spell}" + (
            f" → {', '.join(action.targets)}" if action.targets else "")
    if isinstance(action, UseStone):
        return f"{action.actor}: {STONES.get(action.stone, action.stone)} → {action.target}"
    if isinstance(action, Dodge):
        return f"{action.actor} 全力回避 dodges"
    if isinstance(action, Move):
        return f"{action.actor} {move_label(action.mode, metres)}"
    if isinstance(action, Flee):
        return f"{action.actor} 逃亡 flees"
    if isinstance(action, Wait):
        return f"{action.actor} 待機 waits"
    return {EndFight: "GM: 戦闘終了 end of the fight", Sunrise: "GM: 日の出 sunrise",
            Sunset: "GM: 日没 sunset", Sleep: "GM: 睡眠 sleep"}[type(action)]
