"""What the game asks for (requests) and what a player or reader answers (inputs).

The engine asks for one of two things: a tile from the wall
(:class:`TileRequest`), answered with a :class:`~companion.systems.jongrogue.tiles.Tile`,
or a decision (:class:`ChoiceRequest`), answered with one of its
:class:`Choice` options. Choices round-trip through short notation:

>>> Choice.from_notation("fight:3")
Choice.from_notation('fight:3')
>>> str(Choice(Verb.STAIRS))
'stairs'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.errors import InvalidNotation
from companion.systems.jongrogue.tiles import Tile


class Verb(Enum):
    """Everything the PC can choose to do (JR-MELEE-1, JR-RANGED-2, JR-FLEE-1, moves)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    ENTER = "enter"  # step from the door into the room (wakes 睡眠 monsters, JR-STATE-1)
    FIGHT = "fight"  # melee attack on monster <id>
    SHOOT = "shoot"  # ranged attack on monster <id> (starts ranged combat)
    CLOSE = "close"  # close to melee, ending ranged combat (JR-RANGED-2)
    DOOR = "door"  # move onto the door, ending ranged combat (JR-RANGED-2)
    FLEE = "flee"  # out through the door, back the way the PC came (JR-FLEE-1/2)
    MOVE = "move"  # walk to the neighbouring room <n>
    TAKE = "take"  # pick up the room's items and gold
    STAIRS = "stairs"  # take the stairs down (階段)
    USE = "use"  # use an item: use:1p drinks a healing potion
    EQUIP = "equip"  # equip the item held as tile <t>
    UNEQUIP = "unequip"  # take off the ring held as tile <t>
    READY = "ready"  # ready:bow or ready:shuriken, the ranged weapon shot (JR-RANGED-2 equip)
    KEEP = "keep"  # keep the equipped weapon/armour instead of a found one
    DEFEND = "defend"  # 防御: spend the turn defending (JR-MELEE-1)


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing the PC may do; build them with :meth:`of` or :meth:`from_notation`."""

    verb: Verb
    arg: str = ""

    @staticmethod
    def of(verb: Verb, arg: str = "") -> Choice:
        """The one shared instance of this choice (cheap to build, compared by identity)."""
        key = (verb, arg)
        choice = _CHOICES.get(key)
        if choice is None:
            choice = _CHOICES[key] = Choice(verb, arg)
        return choice

    @staticmethod
    def from_notation(text: str) -> Choice:
        verb, _, arg = text.strip().lower().partition(":")
        try:
            return Choice.of(Verb(verb), arg)
        except ValueError:
            verbs = ", ".join(v.value for v in Verb)
            raise InvalidNotation(f"{text!r} is not a choice: start with one of {verbs}") from None

    def __str__(self) -> str:
        return f"{self.verb.value}:{self.arg}" if self.arg else self.verb.value

    def __repr__(self) -> str:
        return f"Choice.from_notation('{self}')"


_CHOICES: dict[tuple[Verb, str], Choice] = {}


class Purpose(Enum):
    """Why the game wants a tile: tells the player where it goes."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    START_ROOM = "start_room"  # 1d9 for the start room (JR-MAP-1)
    ROOM = "room"  # one of the 4 tiles of a room's encounter map (JR-MAP-2)
    CHECK = "check"  # a 1d9 check, read and discarded (JR-DICE-1)
    NUMBER = "number"  # a 1d9 number that is not a check (2d9 damage)
    DROP = "drop"  # a drop draw (JR-DROP-1)
    MIMIC = "mimic"  # the mimic's draw (JR-AB-MIMIC)


# Requests are made for every input, so they are plain (not frozen) slotted classes.
@dataclass(slots=True)
class TileRequest:
    purpose: Purpose
    prompt: str


@dataclass(slots=True)
class ChoiceRequest:
    prompt: str
    options: tuple[Choice, ...]


Request = TileRequest | ChoiceRequest
Input = Tile | Choice


def input_to_notation(value: Input) -> str:
    """Journal form of an input: tiles as MPSZ, choices as their notation."""
    return str(value)


def input_from_notation(text: str) -> Input:
    """Inverse of :func:`input_to_notation`.

    >>> input_from_notation("5p"), input_from_notation("flee")
    (Tile.from_notation('5p'), Choice.from_notation('flee'))
    """
    if text[:1].isdigit():
        return Tile.from_notation(text)
    return Choice.from_notation(text)
