"""What the game tells the world: one :class:`Event` per thing that happened.

An event is a kind plus plain JSON-able data, so it can be logged as JSON
Lines, replayed and compared. :mod:`companion.systems.jongrogue.narration` turns events
into words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Kind(Enum):
    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    FLOOR = "floor"  # a new floor begins
    START_ROOM = "start_room"
    RESHUFFLE = "reshuffle"  # the discards went back into the wall
    ROOM = "room"  # a room's encounter map was revealed
    ENCOUNTER = "encounter"  # a monster and its sleep state
    MOVE = "move"  # the PC walked somewhere
    WAKE = "wake"
    TURN = "turn"  # a melee turn begins: who may attack in it (JR-MULTI-1)
    CHECK = "check"  # a 1d9 check with every term
    DAMAGE = "damage"  # the PC lost HP
    HEAL = "heal"
    DEFEAT = "defeat"  # a monster was defeated
    LEVEL = "level"  # level up or down
    ITEM = "item"  # an item or gold appeared, was taken, used, lost
    STATE = "state"  # a PC or monster state changed
    ABILITY = "ability"  # a monster ability took effect
    RANGED = "ranged"  # ranged combat began or ended
    STAIRS = "stairs"
    GAME_OVER = "game_over"


@dataclass(slots=True)
class Event:
    kind: Kind
    data: dict[str, Any]

    def describe(self) -> str:
        """The event in words (English with the Japanese names)."""
        from companion.systems.jongrogue.narration import describe  # narration reads the tables

        return describe(self)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, **self.data}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Event:
        data = dict(obj)
        return Event(Kind(data.pop("kind")), data)
