"""The bottom layer of the JongRogue engine, :class:`_Core`: the game's state and what every
rule uses. Its attributes are declared here (``Game.__init__`` and ``Game._start`` set them);
then an in-line player's answer, the options switched on, the room and the monsters in it,
recording an event, ending the game (:class:`Outcome`), setting a PC state, and who fights
whom: the monsters at the front, the turn's attackers and the PC's targets.

Rules: JR-MULTI-1 (how many attack, each side its share when pincered), JR-FLEE-2
(pincered), JR-AB-INVISIBLE (no target until it has attacked).

An in-line player and wall (``Answer`` and ``Draw`` in game.py) are declared here as taking
any game: they are handed the :class:`~companion.systems.jongrogue.game.Game` at the top.

The engine is a chain of layers, each a subclass of the one below that calls only methods of
its own layer or below:
``_Core`` → ``_Drawing`` → ``_Rooms`` → ``_Items`` → ``_Combat`` → ``_Ranged`` →
``_Moving`` → ``_Decisions`` → ``Game``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.errors import IllegalAction
from companion.systems.jongrogue.actions import Choice, Input, Request
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.profile import Option, Profile
from companion.systems.jongrogue.state import PC, MonsterOnMap, PCState, Position, Room, Sleeping
from companion.systems.jongrogue.tables import Ability
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger


class Termination(Enum):
    VICTORY = "victory"  # 生還: left the last floor by its stairs
    DEATH = "death"  # HP 0 or frozen to death
    WALL_EXHAUSTED = "wall_exhausted"  # no tile left anywhere to draw


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    floor: int
    cause: str  # monster id, "frozen", or "" for a victory

    @property
    def won(self) -> bool:
        return self.termination is Termination.VICTORY


class _GameOver(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


_NO_MONSTERS: list[MonsterOnMap] = []  # the live monsters of no room (never changed)


class _Core:
    """The game's state and what every rule uses."""

    revision: int
    options: frozenset[Option]
    profile: Profile
    record: bool
    # The options never change during a game; the hot paths read these.
    _pc_states: bool
    _extended: bool
    _strength: bool
    _sleep_check: bool
    _caps: dict[Position, tuple[int, int]]  # JR-MULTI-1: (not pincered, pincered) by position
    ledger: TileLedger
    pc: PC
    floor: int
    rooms: dict[int, Room]
    monsters: list[MonsterOnMap]  # every monster met on this floor
    _by_uid: dict[int, MonsterOnMap]  # the same, by uid
    room_no: int
    position: Position
    path: list[int]  # rooms walked through on this floor, for fleeing back
    came_by: int  # the room behind the door the PC came in by (0: down the stairs)
    flees: dict[int, int]  # times the PC fled from each room of this floor
    pursuers: list[MonsterOnMap]  # JR-FLEE-2
    melee_started: bool  # JR-RANGED-1: ranged combat only before melee
    turn: int  # melee turns of the current fight (JR-MULTI-1)
    _attackers: list[MonsterOnMap]  # who may attack in the current turn
    # While an in-line player decides: the attackers the decision was offered with.
    _asked_attackers: list[MonsterOnMap] | None
    _rings_held: tuple[list[Tile], list[Tile]]  # for _ring_choices
    _ring_choices: list[Choice]
    inputs: list[Input]
    events: list[Event]
    _next_uid: int
    _answer_now: Callable[[Any, Request], Input] | None
    _draw_now: Callable[[Any], Tile] | None

    def _ask(self, request: Request) -> Input:
        """An in-line player's answer to ``request``, journalled."""
        assert self._answer_now is not None
        value = self._answer_now(self, request)
        self.inputs.append(value)
        return value

    def on(self, option: Option) -> bool:
        return option in self.options

    @property
    def room(self) -> Room:
        return self.rooms[self.room_no]

    def monster(self, uid: int) -> MonsterOnMap:
        m = self._by_uid.get(uid)
        if m is None:
            raise IllegalAction(f"there is no monster {uid}")
        return m

    def room_monsters(self) -> list[MonsterOnMap]:
        """The monsters alive in the PC's room, in the order they were met."""
        return list(self._here(self.room_no))

    def _here(self, number: int) -> list[MonsterOnMap]:
        """The room's own list of its live monsters: read it, never change it."""
        room = self.rooms.get(number)
        return room.monsters if room is not None else _NO_MONSTERS

    def _emit(self, kind: Kind, **data: Any) -> None:
        """Record an event. The frequent ones are also guarded at their call, so an
        unrecorded game does not even build their data."""
        if self.record:
            self.events.append(Event(kind, data))

    def _finish(self, outcome: Outcome) -> None:
        raise _GameOver(outcome)

    def _set_state(self, state: PCState, on: bool) -> None:
        if on:
            self.pc.states.add(state)
        else:
            self.pc.states.discard(state)
        self._emit(Kind.STATE, who="pc", state=state.value, on=on)

    def _holds_exits(self, m: MonsterOnMap) -> bool:
        """JR-STATE-2: an awake monster holds the room's other doors and its stairs
        (「別のドアから通路に出るには…起きているモンスターを、全て倒す必要」). JR-FLEE-1
        names one sitting on gold among those that let the PC 「自由に移動や行動が出来ます」,
        so from revision 3 it does not (revision 2 and before: it did)."""
        return m.sleep is Sleeping.AWAKE and (m.on_gold is None or self.revision < 3)

    def _front(self, woken: MonsterOnMap | None = None) -> list[MonsterOnMap]:
        """The room's own monsters that can attack: awake (or ``woken`` by the PC's
        attack) and not sitting on gold."""
        pursuers = self.pursuers
        return [
            m
            for m in self._here(self.room_no)
            if (m.sleep is Sleeping.AWAKE or m is woken)
            and m.on_gold is None
            and not (pursuers and m in pursuers)
        ]

    def attackers(self, woken: MonsterOnMap | None = None) -> list[MonsterOnMap]:
        """JR-MULTI-1: the monsters attacking the PC this turn, at most as many as fit;
        pincered, each side gets its share (JR-FLEE-2). ``woken``: the monster the PC
        attacks, counted awake (the attack wakes it). A new list each time, except
        while an in-line player decides (the state cannot change then)."""
        if woken is None and self._asked_attackers is not None:
            return self._asked_attackers
        return self._attackers_of(self._front(woken))

    def _attackers_of(self, front: list[MonsterOnMap]) -> list[MonsterOnMap]:
        back = self.pursuers
        pincered = bool(front and back)
        cap = self._caps[self.position][pincered]
        if pincered:
            # Each side keeps its share; a side with fewer leaves its places to the other
            # (in the room: 前後最大4体, up to 4 from front and back together).
            per_side = max(1, cap // 2)
            n_back = min(len(back), max(per_side, cap - len(front)))
            return front[: cap - n_back] + back[:n_back]
        return (front or back)[:cap]

    def pincered(self) -> bool:
        """JR-FLEE-2: followed by monsters and met by more: no fleeing until one side falls."""
        return bool(self.pursuers) and bool(self._front())

    def _targets(self) -> list[MonsterOnMap]:
        """Monsters the PC may attack: in the room or following it, but not an invisible
        one (透明) before it has attacked: JR-AB-INVISIBLE, EZ's rule, is also what Plus's
        透明状態 does, the page saying otherwise being lost from the seed."""
        here = self._here(self.room_no)
        if self.pursuers:
            here = list(dict.fromkeys([*here, *self.pursuers]))
        return [
            m for m in here
            if m.alive
            # JR-AB-INVISIBLE: only after it has attacked
            and (m.monster.ability is not Ability.INVISIBLE or m.has_attacked)
        ]
