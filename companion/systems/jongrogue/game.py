"""The JongRogue EZ Plus engine: a deterministic state machine driven by inputs.

The game never draws or decides anything itself. It asks (``pending``) for a
tile from the wall or for a choice, and :meth:`Game.push` answers it; every
answer is journalled in ``inputs``, so the same inputs always give the same
events, and a game is saved, resumed, undone (:meth:`Game.pop`) or replayed by
feeding its journal to a new game. A simulated wall, a camera, an RFID tray,
buttons or an auto-player are all just sources of inputs.

The rules are written as generator procedures that ``yield`` a request and
receive the answer, so each reads like the book's procedure it implements.

Simulation mode (:meth:`Game.play_out`) runs the same procedures for a player that
answers at once: each request is answered where it is made instead of through a
``yield`` up to :meth:`Game.push`, and with ``record=False`` no events, prompts or
input checks are made (nothing reads them; the journal and outcome are the same).
An in-line wall answers its tiles without even a request, and an in-line player is
handed the attackers the decision was worked out with. The rules stay one copy: a
procedure only chooses between yielding and asking in-line where it takes an input.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.errors import IllegalAction
from companion.systems.jongrogue.actions import (
    Choice,
    ChoiceRequest,
    Input,
    Purpose,
    Request,
    TileRequest,
    Verb,
)
from companion.systems.jongrogue.checks import D9, damage, passes, rate_terms
from companion.systems.jongrogue.encounter import sleep_on_encounter
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    Gear,
    ItemKind,
    Loot,
    Option,
    Profile,
    RateWeapon,
    Ring,
    Role,
    preset_options,
)
from companion.systems.jongrogue.state import PC, MonsterOnMap, PCState, Position, Room, Sleeping
from companion.systems.jongrogue.tables import TABLES, Ability
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile
from companion.systems.jongrogue.wall import Place, TileLedger

Proc = Generator[Request, Any, Any]
Answer = Callable[["Game", Request], Input]  # an in-line player (simulation mode)
Draw = Callable[["Game"], Tile]  # an in-line wall (simulation mode)


def _both(text: str, m: MonsterOnMap | None) -> str:
    """A prompt's text with the English name beside the monster's Japanese one (a check's
    ``what`` names it in Japanese only, and is logged as it is)."""
    if m is None:
        return text
    return text.replace(m.monster.name_ja, f"{m.monster.name_ja} {m.monster.name_en}", 1)

SPOT_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
# JR-AB-POISON, JR-AB-DRAINSTR [SEED]: 「PCの強さが-3以下だったら、無効果」; a profile's
# strength_min (JR-PC-2) may stop the loss sooner, never later.
NO_STRENGTH_LOSS_AT = -3
# The engine's rules revision. A save and a log say which one played their game, so a
# game begun before a rules fix replays as it was played (its journal would not fit the
# new rules). 1: a fleeing PC was followed only by the monsters striking it that turn,
# and a pursuer's drop fell in the room where it was met. 2: every monster fighting the
# PC follows it (JR-FLEE-2), and a pursuer drops where it falls (JR-DROP-1).
RULES_REVISION = 2


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


def _grid_neighbours(room: int) -> tuple[int, ...]:
    row, col = divmod(room - 1, 3)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = row + dr, col + dc
        if 0 <= r < 3 and 0 <= c < 3:
            out.append(r * 3 + c + 1)
    return tuple(out)


# Worked out once: every decision outside a fight offers the moves.
_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_grid_neighbours(r) for r in range(10))
_MOVES: tuple[tuple[Choice, ...], ...] = tuple(
    tuple(Choice.of(Verb.MOVE, str(n)) for n in rooms) for rooms in _NEIGHBOURS
)
_MOVES_TO: tuple[Choice, ...] = tuple(Choice.of(Verb.MOVE, str(n)) for n in range(10))
_DEFEND, _FLEE, _ENTER, _TAKE, _STAIRS = (
    Choice.of(v) for v in (Verb.DEFEND, Verb.FLEE, Verb.ENTER, Verb.TAKE, Verb.STAIRS)
)
_CLOSE_OR_DOOR = (Choice.of(Verb.CLOSE), Choice.of(Verb.DOOR))
_KEEP = Choice.of(Verb.KEEP)
# use:<t>, equip:<t>, unequip:<t> by the tile's index
_USES, _EQUIPS, _UNEQUIPS = (
    tuple(Choice.of(verb, str(t)) for t in ALL_KINDS)
    for verb in (Verb.USE, Verb.EQUIP, Verb.UNEQUIP)
)
_READY_BOW, _READY_SHURIKEN = Choice.of(Verb.READY, "bow"), Choice.of(Verb.READY, "shuriken")
_FIGHTS: list[Choice] = []  # fight:<uid> and shoot:<uid> by uid, grown as monsters are met
_SHOTS: list[Choice] = []


def _kinds(tiles: list[Tile]) -> list[int]:
    """The tiles' kinds (indexes), each once, in the order first held."""
    out: list[int] = []
    for t in tiles:
        if t.index not in out:
            out.append(t.index)
    return out


def _choices_up_to(uid: int) -> None:
    """Make the fight and shoot choices of every uid up to ``uid``."""
    while len(_FIGHTS) <= uid:
        _FIGHTS.append(Choice.of(Verb.FIGHT, str(len(_FIGHTS))))
        _SHOTS.append(Choice.of(Verb.SHOOT, str(len(_SHOTS))))


_NO_MONSTERS: list[MonsterOnMap] = []  # the live monsters of no room (never changed)
# Requests of a game that is not recorded: nobody reads their prompts.
_SILENT_TILE = {purpose: TileRequest(purpose, "") for purpose in Purpose}


def neighbours(room: int) -> tuple[int, ...]:
    """JR-MAP-1: rooms 1-9 in a 3x3 grid, joined to their orthogonal neighbours."""
    return _NEIGHBOURS[room]


class Game:
    """One run of JongRogue EZ Plus.

    >>> game = Game(preset="ez")
    >>> game.pending.prompt
    'Draw a tile for the start room (1d9)'

    ``record=False`` (simulation mode) builds no events and no prompts.
    """

    def __init__(
        self,
        preset: str = "plus",
        profile: Profile | None = None,
        options: Iterable[Option] | None = None,
        record: bool = True,
        revision: int = RULES_REVISION,
    ) -> None:
        if not 1 <= revision <= RULES_REVISION:
            raise ValueError(f"rules revision {revision} is not one this companion plays "
                             f"(1 to {RULES_REVISION})")
        self.preset = preset
        self.revision = revision
        self.options = frozenset(options) if options is not None else preset_options(preset)
        self.profile = profile or DEFAULT_PROFILE
        self.record = record
        # The options never change during a game; the hot paths read these.
        self._pc_states = Option.PC_STATES in self.options
        self._extended = Option.EXTENDED_STATES in self.options
        self._strength = Option.STRENGTH in self.options
        self._sleep_check = Option.SLEEP_CHECK in self.options
        caps = self.profile.attackers  # JR-MULTI-1: (not pincered, pincered) by position
        self._caps = {p: (caps[(p.value, False)], caps[(p.value, True)]) for p in Position}
        self._start()

    def _start(self) -> None:
        """The state of a game no input has reached yet."""
        self.ledger = TileLedger()
        self.pc = PC.new(self.profile)
        self.floor = 1
        self.rooms: dict[int, Room] = {}
        self.monsters: list[MonsterOnMap] = []  # every monster met on this floor
        self._by_uid: dict[int, MonsterOnMap] = {}  # the same, by uid
        self.room_no = 0
        self.position = Position.DOOR
        self.path: list[int] = []  # rooms walked through on this floor, for fleeing back
        self.flees: dict[int, int] = {}  # times the PC fled from each room of this floor
        self.pursuers: list[MonsterOnMap] = []  # JR-FLEE-2
        self.melee_started = False  # JR-RANGED-1: ranged combat only before melee
        self.turn = 0  # melee turns of the current fight (JR-MULTI-1)
        self._attackers: list[MonsterOnMap] = []  # who may attack in the current turn
        # While an in-line player decides: the attackers the decision was offered with.
        self._asked_attackers: list[MonsterOnMap] | None = None
        self._rings_held: tuple[list[Tile], list[Tile]] = ([], [])  # for _ring_choices
        self._ring_choices: list[Choice] = []
        self.inputs: list[Input] = []
        self.events: list[Event] = []
        self.pending: Request | None = None
        self._outcome: Outcome | None = None
        self._next_uid = 1
        self._answer_now: Answer | None = None
        self._draw_now: Draw | None = None
        self._proc: Proc = self._run()
        self.pending = next(self._proc)

    # ------------------------------------------------------------------ driving

    def push(self, value: object) -> list[Event]:
        """Answer the pending request; return the events it caused.

        A tile that cannot come out of the wall raises ImpossibleRead; anything but
        a tile or an offered choice raises IllegalAction; either way nothing changes.
        """
        request = self.pending
        if request is None:
            raise IllegalAction("the game is over; start a new one")
        if not isinstance(value, (Tile, Choice)):
            raise IllegalAction(f"{value!r} is neither a tile nor a choice")
        if isinstance(request, TileRequest):
            if not isinstance(value, Tile):
                raise IllegalAction(
                    f"the game is waiting for a tile ({request.prompt}), not {value}"
                )
            self.ledger.check_draw(value)
        else:
            if value not in request.options:
                offered = ", ".join(str(o) for o in request.options)
                raise IllegalAction(f"{value} is not a choice now; choose one of: {offered}")
        start = len(self.events)
        self.inputs.append(value)
        try:
            self.pending = self._proc.send(value)
        except StopIteration:
            self.pending = None
        return self.events[start:]

    def pop(self) -> Input:
        """Undo the last input (by replaying the journal without it, in place: a compiled
        Game has no ``__dict__`` to swap)."""
        if not self.inputs:
            raise IllegalAction("nothing to undo")
        *earlier, last = self.inputs
        self._start()
        for value in earlier:
            self.push(value)
        return last

    def play_out(self, answer: Answer, draw: Draw | None = None) -> None:
        """Simulation mode: play to the end, ``answer`` answering every request where it
        is made, and ``draw``, if given, every tile request but the pending one (it is
        told nothing but the game). The answers are trusted (a simulated wall, a strategy
        choosing among the options) and journalled in ``inputs`` as :meth:`push` would."""
        if self.pending is None:
            return
        self._answer_now = answer
        self._draw_now = draw
        first = answer(self, self.pending)
        self.inputs.append(first)
        try:
            self._proc.send(first)
        except StopIteration:
            pass
        self.pending = None

    def _ask(self, request: Request) -> Input:
        """An in-line player's answer to ``request``, journalled."""
        assert self._answer_now is not None
        value = self._answer_now(self, request)
        self.inputs.append(value)
        return value

    @staticmethod
    def replay(
        inputs: Iterable[Input],
        preset: str = "plus",
        profile: Profile | None = None,
        options: Iterable[Option] | None = None,
        revision: int = RULES_REVISION,
    ) -> Game:
        game = Game(preset, profile, options, revision=revision)
        for value in inputs:
            game.push(value)
        return game

    def legal_actions(self) -> tuple[Choice, ...]:
        return self.pending.options if isinstance(self.pending, ChoiceRequest) else ()

    def outcome(self) -> Outcome | None:
        return self._outcome

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

    def room_monsters(self, room: int | None = None) -> list[MonsterOnMap]:
        """The monsters alive in a room (the PC's by default), in the order they were met."""
        return list(self._here(self.room_no if room is None else room))

    def _here(self, number: int) -> list[MonsterOnMap]:
        """The room's own list of its live monsters: read it, never change it."""
        room = self.rooms.get(number)
        return room.monsters if room is not None else _NO_MONSTERS

    # ------------------------------------------------------------------ events

    def _emit(self, kind: Kind, **data: Any) -> None:
        """Record an event. The frequent ones are also guarded at their call, so an
        unrecorded game does not even build their data."""
        if self.record:
            self.events.append(Event(kind, data))

    # ------------------------------------------------------------------ the run

    def _run(self) -> Proc:
        try:
            while True:
                yield from self._play_floor()
                if self.floor >= self.profile.last_floor:
                    self._finish(Outcome(Termination.VICTORY, self.floor, ""))
                self.floor += 1
        except _GameOver as over:
            self._outcome = over.outcome
            self._emit(
                Kind.GAME_OVER,
                result=over.outcome.termination.value,
                floor=over.outcome.floor,
                cause=over.outcome.cause,
                level=self.pc.level,
                xp=self.pc.xp,
                gold=self.pc.gold,
            )

    def _finish(self, outcome: Outcome) -> None:
        raise _GameOver(outcome)

    def _play_floor(self) -> Proc:
        """One floor: JR-MAP-1 start room, then explore until the stairs are taken."""
        self._emit(Kind.FLOOR, floor=self.floor)
        self._reset_floor()
        start = yield from self._d9(Purpose.START_ROOM, "Draw a tile for the start room (1d9)")
        self._emit(Kind.START_ROOM, room=start.value, tiles=[str(t) for t in start.tiles])
        yield from self._arrive(start.value)
        while True:
            choice = yield from self._decide()
            if choice.verb is Verb.STAIRS:
                if self.position is Position.DOOR and self.room_monsters():
                    self._enter()
                if not any(m.sleep is Sleeping.AWAKE for m in self.room_monsters()):
                    self._leave_floor()
                    return
            else:
                yield from self._act(choice)

    def _reset_floor(self) -> None:
        """Forget everything that belongs to the floor just left. The PC came down by the
        stairs, so there is no way back (JR-FLEE-1: 来た道を引き返します) and no room it
        stands in until the start room is drawn (JR-MAP-1)."""
        self.rooms.clear()
        self.monsters = []
        self._by_uid = {}
        self.room_no = 0
        self.position = Position.DOOR
        self.path.clear()
        self.flees.clear()
        self.pursuers.clear()
        self.melee_started = False
        self.turn = 0

    def _leave_floor(self) -> None:
        """Take the stairs: every tile of this floor goes to the discards."""
        self._emit(Kind.STAIRS, floor=self.floor)
        for room in self.rooms.values():
            for spot, tile in enumerate(room.tiles):
                if tile is not None:
                    self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                    room.tiles[spot] = None
            for tile in room.drops:
                self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
            room.drops.clear()

    # ------------------------------------------------------------------ tiles

    def _draw(self, purpose: Purpose, prompt: str, place: Place) -> Proc:
        """Ask for the next tile of the wall and move it to ``place``."""
        if self._draw_now is not None:
            return self._drawn(place)
        self._wall_ready()
        request = TileRequest(purpose, prompt) if self.record else _SILENT_TILE[purpose]
        if self._answer_now is None:
            tile: Tile = yield request
        else:
            answer = self._ask(request)
            assert isinstance(answer, Tile)
            tile = answer
        self.ledger.move(tile, Place.WALL, place)
        return tile

    def _drawn(self, place: Place) -> Tile:
        """:meth:`_draw` for an in-line wall, with no generator: callers drawing many tiles
        call it themselves when ``_draw_now`` is set."""
        draw = self._draw_now
        assert draw is not None
        if self.ledger.wall_total == 0:
            self._wall_ready()
        tile = draw(self)
        self.inputs.append(tile)
        self.ledger.draw(tile, place)
        return tile

    def _wall_ready(self) -> None:
        """JR-WALL-1: an empty wall is made again of the discards; with none, the game ends."""
        if self.ledger.wall_total == 0:
            moved = self.ledger.reshuffle()
            self._emit(Kind.RESHUFFLE, tiles=moved)
            if moved == 0:
                self._finish(Outcome(Termination.WALL_EXHAUSTED, self.floor, ""))

    def _d9(self, purpose: Purpose, prompt: str) -> Proc:
        """JR-DICE-1: draw until a number, a critical or a fumble; other honours are set aside."""
        drawn: tuple[Tile, ...] = ()
        critical, fumble = self.profile.critical, self.profile.fumble
        while True:
            if self._draw_now is None:
                tile = yield from self._draw(purpose, prompt, Place.DISCARDS)
            else:
                tile = self._drawn(Place.DISCARDS)
            drawn += (tile,)
            if tile.is_number:
                return D9(drawn, tile.rank)
            if tile is critical:
                return D9(drawn, self.profile.critical_value, critical=True)
            if tile is fumble:
                return D9(drawn, self.profile.fumble_value, fumble=True)

    def _check(
        self,
        what: str,
        target: int,
        *,
        automatic: bool = False,
        terms: list[tuple[str, int]] | None = None,
        raw: int | None = None,
        against: MonsterOnMap | None = None,
    ) -> Proc:
        """JR-DICE-2: a ``1d9 >= target`` check, emitted with every term of its target."""
        prompt = f"Draw a tile for the check: {_both(what, against)} (1d9 >= {target})" \
            if self.record else ""
        d9: D9 = yield from self._d9(Purpose.CHECK, prompt)
        success = passes(d9, target, automatic)
        if self.record:
            self._emit(
                Kind.CHECK,
                what=what,
                target=target,
                raw=raw if raw is not None else target,
                terms=[[name, value] for name, value in terms or ()],  # JSON-shaped
                tiles=[str(t) for t in d9.tiles],
                value=d9.value,
                critical=d9.critical,
                fumble=d9.fumble,
                success=success,
                monster=against.monster.id if against else "",
                uid=against.uid if against else 0,
            )
        return success, d9

    # ------------------------------------------------------------------ rooms

    def _arrive(self, number: int) -> Proc:
        """The PC reaches a room's door; a room entered for the first time is revealed."""
        if self.room_no and self.room_no != number:
            self.path.append(self.room_no)
        self.room_no = number
        self.position = Position.DOOR
        self.melee_started = False
        if PCState.CONFUSED in self.pc.states and self.profile.confusion_ends_next_room:
            self._set_state(PCState.CONFUSED, False)
        if self.record:
            self._emit(Kind.MOVE, room=number, position=Position.DOOR.value)
        if number not in self.rooms:
            yield from self._reveal(number)

    def _reveal(self, number: int) -> Proc:
        """JR-MAP-2: 4 tiles from the wall, laid 2x2; then each monster is encountered."""
        tiles: list[Tile | None] = []
        for spot in range(4):
            if self._draw_now is not None:
                tiles.append(self._drawn(Place.TABLE))
                continue
            prompt = f"Lay the {SPOT_NAMES[spot]} tile of room {number}" if self.record else ""
            tile = yield from self._draw(Purpose.ROOM, prompt, Place.TABLE)
            tiles.append(tile)
        role_of = self.profile.roles
        roles = [role_of[t.index] for t in tiles if t is not None]
        room = Room(number, tiles, roles)
        room.stairs = Role.STAIRS in roles
        self.rooms[number] = room
        if len(self.rooms) == 9 and not any(r.stairs for r in self.rooms.values()):
            room.stairs = True  # JR-MAP-3
        if self.record:
            self._emit(
                Kind.ROOM,
                room=number,
                tiles=[str(t) for t in tiles],
                roles=[r.value for r in roles],
                stairs=room.stairs,
            )
        regen = min(self.profile.regen_per_room, self.pc.max_hp - self.pc.hp)
        if regen > 0:
            self.pc.hp += regen
            if self.record:
                self._emit(Kind.HEAL, amount=regen, hp=self.pc.hp, why="room")
        for spot, role in enumerate(roles):
            if role is Role.MONSTER:
                self._encounter(room, spot)

    def _encounter(self, room: Room, spot: int) -> None:
        """JR-ENC-1 and JR-SLEEP-1..3: which monster, and is it asleep."""
        tile = room.tiles[spot]
        assert tile is not None
        monster = TABLES.monster_for(self.floor, tile.rank)
        sleep, check = sleep_on_encounter(
            monster, tile, room.tiles[0], self.pc.wears(Ring.STEALTH),
            self._sleep_check, self.profile.non_number_corner_sleeps,
        )
        m = MonsterOnMap(self._next_uid, monster, tile, room.number, spot, sleep)
        self._next_uid += 1
        if m.uid >= len(_FIGHTS):
            _choices_up_to(m.uid)
        if self._extended:
            m.hasted = monster.ability is Ability.HASTE  # JR-AB-HASTE (Plus)
            m.invisible = monster.ability is Ability.INVISIBLE  # JR-AB-INVISIBLE (Plus)
        if monster.ability is Ability.GOLD_LOVER:  # JR-AB-GOLDLOVER
            gold = [s for s, r in enumerate(room.roles) if r is Role.GOLD and room.tiles[s]]
            if gold:
                m.on_gold = gold[0]
        self.monsters.append(m)
        self._by_uid[m.uid] = m
        room.monsters.append(m)
        if self.record:
            self._emit(
                Kind.ENCOUNTER,
                uid=m.uid,
                monster=monster.id,
                name_ja=monster.name_ja,
                name_en=monster.name_en,
                spot=spot,
                sleep=sleep.value,
                sleep_check=check,
                on_gold=m.on_gold is not None,
                hasted=m.hasted,
                invisible=m.invisible,
            )

    # ------------------------------------------------------------------ decisions

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
        """Monsters the PC may attack: in the room or following it (not invisible in EZ)."""
        here = self._here(self.room_no)
        if self.pursuers:
            here = list(dict.fromkeys([*here, *self.pursuers]))
        return [
            m for m in here
            if m.alive
            # JR-AB-INVISIBLE: only after it has attacked
            and (m.monster.ability is not Ability.INVISIBLE or m.has_attacked)
        ]

    def _ranged_targets(self, targets: list[MonsterOnMap] | None = None) -> list[MonsterOnMap]:
        """Who the PC may shoot (JR-RANGED-1: before melee only); ``targets`` if known."""
        if self.melee_started or not self._has_ammo():
            return []
        if self._extended:
            return self._targets() if targets is None else targets
        return [
            m for m in (self._targets() if targets is None else targets)
            if m.monster.ability is not Ability.HASTE  # JR-AB-HASTE (EZ)
        ]

    def _has_ammo(self) -> bool:
        return self.pc.shuriken > 0 or self.pc.arrows > 0

    def _options(self) -> tuple[str, tuple[Choice, ...], list[MonsterOnMap]]:
        """The decision's prompt and options, and the attackers they were offered with."""
        pc, room = self.pc, self.room
        alive = room.monsters
        options: list[Choice] = []
        front = attackers = _NO_MONSTERS
        if alive or self.pursuers:
            front = self._front()
            attackers = self._attackers_of(front)
            targets = self._targets()
            options = [_FIGHTS[m.uid] for m in targets]
            if not self.melee_started and (pc.shuriken > 0 or pc.arrows > 0):
                options += [_SHOTS[m.uid] for m in self._ranged_targets(targets)]
        if pc.potions and pc.hp < pc.max_hp:
            options.append(_USES[pc.potions[0].index])
        bound = PCState.BOUND in pc.states
        if attackers:
            options.append(_DEFEND)
            pincered = bool(front) and bool(self.pursuers)
            if self.path and not pincered and not bound:
                options.append(_FLEE)
            if pc.rings or pc.spare_rings:
                options += self._ring_options()  # JR-MELEE-1: equip / unequip, then defend
            if not self.melee_started:
                options += self._ready_option()  # as a ring: readying, then defending
            if not self.record:
                return "", tuple(options), attackers
            names = ", ".join(f"{m.monster.name_ja} {m.monster.name_en}" for m in attackers)
            prompt = f"Floor {self.floor}, room {room.number}: {names} attack! Act:"
            return prompt, tuple(options), attackers
        self.turn = 0  # no monster attacks: the fight, if there was one, is over
        if self.position is Position.DOOR and alive:
            options.append(_ENTER)
        awake_here = False
        for m in alive:
            if m.sleep is Sleeping.AWAKE:
                awake_here = True
                break
        if not alive and self._has_loot():
            options.append(_TAKE)
        if not bound and not awake_here:  # JR-PC-3: a bound PC cannot move
            if room.stairs:
                options.append(_STAIRS)
            options += _MOVES[room.number]
        elif not bound and self.path:
            options.append(_MOVES_TO[self.path[-1]])
        if pc.rings or pc.spare_rings:
            options += self._ring_options()
        options += self._ready_option()
        if not self.record:
            return "", tuple(options), attackers
        return f"Floor {self.floor}, room {room.number}: what next?", tuple(options), attackers

    def _ready_option(self) -> list[Choice]:
        """JR-RANGED-2 (装備する: 弓や手裏剣): holding shuriken and arrows, the player readies
        the other of the two; the shuriken are thrown first until the bow is readied."""
        pc = self.pc
        if pc.shuriken > 0 and pc.arrows > 0:
            return [_READY_SHURIKEN if pc.bow_ready else _READY_BOW]
        return []

    def _ready(self, choice: Choice) -> None:
        self.pc.bow_ready = choice is _READY_BOW
        if self.record:
            self._emit(Kind.ITEM, action="ready", what=choice.arg)

    def _ring_options(self) -> list[Choice]:
        """Rings to put on (JR-PC-4: while a hand is free) or take off, each kind once.
        Kept while the rings held stay the same (the caller must not change the list)."""
        pc = self.pc
        held = self._rings_held
        if pc.spare_rings == held[0] and pc.rings == held[1]:  # C compares: same tiles
            return self._ring_choices
        self._rings_held = (list(pc.spare_rings), list(pc.rings))
        options: list[Choice] = []
        if pc.spare_rings and len(pc.rings) < self.profile.ring_slots:
            options += [_EQUIPS[i] for i in _kinds(pc.spare_rings)]
        if pc.rings:
            options += [_UNEQUIPS[i] for i in _kinds(pc.rings)]
        self._ring_choices = options
        return options

    def _decide(self) -> Proc:
        """Ask the player what to do, or act for a PC that cannot (JR-AB-FREEZE)."""
        while True:
            gazers = self._gazers() if self._pc_states else _NO_MONSTERS
            if gazers:
                yield from self._gaze_checks(gazers)
            if PCState.FROZEN in self.pc.states:
                thawed, _ = yield from self._check("thaw (凍結)", self.profile.thaw)
                if thawed:
                    self._set_state(PCState.FROZEN, False)
                else:
                    attackers = self.attackers()
                    if attackers:
                        self._turn("frozen", attackers=attackers)
                        yield from self._monsters_attack(None)
                    continue
            if PCState.BOUND in self.pc.states:
                free, _ = yield from self._check("break free (拘束)", self.profile.bound_escape)
                if free:
                    self._set_state(PCState.BOUND, False)
            prompt, options, attackers = self._options()
            request = ChoiceRequest(prompt, options)
            if self._answer_now is None:
                choice = yield request
            else:
                self._asked_attackers = attackers  # the player asks for them again
                try:
                    choice = self._answer_now(self, request)
                finally:
                    self._asked_attackers = None
                self.inputs.append(choice)
            assert isinstance(choice, Choice)
            return choice

    def _act(self, choice: Choice) -> Proc:
        verb = choice.verb  # the most frequent first
        if verb is Verb.SHOOT:
            yield from self._ranged_combat(self.monster(int(choice.arg)))
        elif verb is Verb.TAKE:
            yield from self._take()
        elif verb is Verb.MOVE:
            yield from self._move(int(choice.arg))
        elif verb is Verb.FIGHT:
            yield from self._melee_turn(self.monster(int(choice.arg)))
        elif verb is Verb.USE:
            self._drink()
            yield from self._defend_turn(choice)
        elif verb is Verb.DEFEND:
            yield from self._defend_turn(choice)
        elif verb is Verb.FLEE:
            yield from self._flee()
        elif verb is Verb.ENTER:
            self._enter()
        elif verb is Verb.EQUIP:
            self._wear_ring(Tile.from_notation(choice.arg))
            yield from self._defend_turn(choice)  # JR-MELEE-1: in melee, equipping is defending
        elif verb is Verb.UNEQUIP:
            self._remove_ring(Tile.from_notation(choice.arg))
            yield from self._defend_turn(choice)
        elif verb is Verb.READY:
            self._ready(choice)
            yield from self._defend_turn(choice)

    # ------------------------------------------------------------------ moving

    def _enter(self) -> None:
        """JR-STATE-1: stepping from the door into the room wakes every 睡眠 monster."""
        self.position = Position.ROOM
        if self.record:
            self._emit(Kind.MOVE, room=self.room_no, position=Position.ROOM.value)
        for m in self.room_monsters():
            if m.sleep is Sleeping.ASLEEP:
                self._wake(m, "the PC stepped into the room")

    def _move(self, number: int) -> Proc:
        """Walk to a neighbouring room (JR-STATE-2: through another door only with no
        awake monster left; back through the door the PC came in by at any time)."""
        back = bool(self.path) and number == self.path[-1]
        if not back and self.position is Position.DOOR and self._here(self.room_no):
            self._enter()
            if any(m.sleep is Sleeping.AWAKE for m in self._here(self.room_no)):
                return  # woken monsters block the far doors
        if back:
            self.path.pop()
            self.room_no = 0
        yield from self._arrive(number)

    def _flee(self) -> Proc:
        """JR-FLEE-1/2: out through the door, back the way the PC came.

        Fleeing is not an attack, so that turn the PC defends against the room's attackers
        (JR-MELEE-1: 攻撃以外を実行したら...防御); monsters already following a fleeing PC
        do not melee it (JR-FLEE-2: 逃げている間...近接攻撃を受けません).
        """
        followers = []
        if self.on(Option.PINCER):
            # モンスターはPCの後を追いかけて来ます: every monster fighting the PC, not only
            # those whose places let them strike this turn (revision 1 took only those).
            chasers = self._front() if self.revision >= 2 else self.attackers()
            followers = [m for m in chasers if m.sleep is Sleeping.AWAKE]
        if not self.pursuers:
            yield from self._defend_turn(Choice.of(Verb.FLEE))
        elif self.attackers():
            self._turn("flee", attackers=[])  # JR-FLEE-2: the pursuers hold their blows
        for m in [*self.room_monsters(), *self.pursuers]:
            if m.monster.ability is Ability.FIRE_BREATH and m.sleep is Sleeping.AWAKE:
                self._emit(Kind.ABILITY, ability="fire_breath", uid=m.uid, why="flee")
                yield from self._hit(m, breath=True)  # JR-AB-BREATH: unopposed
        self.flees[self.room_no] = self.flees.get(self.room_no, 0) + 1
        if self.record:
            self._emit(Kind.MOVE, room=self.room_no, position=Position.CORRIDOR.value, flee=True)
        target = self.path.pop()
        self.room_no = 0
        yield from self._arrive(target)
        # A thief that struck during the flight has vanished (JR-AB-STEALGOLD/STEALITEM):
        # it follows no one.
        followers = [m for m in followers if m.alive]
        for m in followers:
            if m not in self.pursuers:
                self.pursuers.append(m)
        if followers:
            self._emit(Kind.STATE, who="monsters", state="pursuing",
                       uids=[m.uid for m in self.pursuers], pincer=self.pincered())

    # ------------------------------------------------------------------ combat

    def rate(self, m: MonsterOnMap, weapon: int) -> tuple[int, list[tuple[str, int]], int]:
        """JR-RATE-1 for this PC: (raw sum, terms, clamped rate) against ``m``."""
        strength = self.pc.strength if self._strength else None
        return rate_terms(m.monster.attack, self.pc.level, weapon, strength)

    def melee_rate(self, m: MonsterOnMap) -> int:
        """JR-RATE-1: the clamped melee rate against ``m`` alone (what a strategy weighs,
        many times a decision, so without the terms)."""
        pc = self.pc
        raw = m.monster.attack - pc.level - pc.weapon.value
        if self._strength:
            raw -= pc.strength
        return min(9, max(1, raw))

    def _wake(self, m: MonsterOnMap, why: str) -> None:
        if m.sleep is not Sleeping.AWAKE:
            m.sleep = Sleeping.AWAKE
            if self.record:
                self._emit(Kind.WAKE, uid=m.uid, monster=m.monster.id, why=why)

    def _melee_turn(self, target: MonsterOnMap) -> Proc:
        """JR-MELEE-1/2: attack one monster; every other attacker is defended against."""
        self.melee_started = True
        self._turn("fight", target, self._fight_attackers(target))
        if PCState.CONFUSED in self.pc.states:
            acts, _ = yield from self._check("act while confused (混乱)", self.profile.confused_act)
            if not acts:
                yield from self._monsters_attack(None)
                return
        self._wake(target, "attacked")
        raw, terms, rate = self.rate(target, self.pc.weapon.value)
        hit, d9 = yield from self._check(
            f"melee vs {target.monster.name_ja}" if self.record else "", rate,
            automatic=True, terms=terms, raw=raw, against=target,
        )
        if hit:
            yield from self._pc_hits(target)
        else:
            if d9.fumble and target.monster.ability is Ability.DRAIN_LEVEL:
                self._drain_level(target)
            if target.on_gold is None and target.alive:
                yield from self._hit(target)
                yield from self._hasted_extra(target)
        yield from self._monsters_attack(target)

    def _defend_turn(self, choice: Choice) -> Proc:
        """A turn in which the PC did something other than attack (JR-MELEE-1)."""
        attackers = self.attackers()
        if attackers:
            self.melee_started = True
            self._turn(choice.verb.value, attackers=attackers)
            yield from self._monsters_attack(None)

    def _fight_attackers(self, target: MonsterOnMap) -> list[MonsterOnMap]:
        """JR-MULTI-1: who may attack in a turn the PC attacks ``target``. The target
        answers a miss (JR-MELEE-2) unless it sits on gold, so it holds one of the places
        the position allows; if it does not fit among them, it takes the last one."""
        if target.on_gold is not None:
            return self.attackers()
        may = self.attackers(woken=target)
        if target not in may:
            may = [*may[:-1], target]
        return may

    def _turn(
        self,
        action: str,
        target: MonsterOnMap | None = None,
        attackers: list[MonsterOnMap] | None = None,
    ) -> None:
        """JR-MULTI-1: a melee turn begins, and who may attack in it is fixed now: the
        attacks are simultaneous (同時に), so a monster that steps into the place of one
        that falls attacks from the next turn. The event names them and how many may
        (``cap``), so a log shows each turn's attacks: the monsters of its defend checks
        and of its non-breath damage are among ``attackers``."""
        self.turn += 1
        self._attackers = self.attackers() if attackers is None else attackers
        if not self.record:
            return
        pincered = self.pincered()
        self._emit(
            Kind.TURN, floor=self.floor, room=self.room_no, position=self.position.value,
            turn=self.turn, action=action, target=target.uid if target else 0,
            attackers=[m.uid for m in self._attackers], pincer=pincered,
            cap=self.profile.attackers[(self.position.value, pincered)],
        )

    def _monsters_attack(self, attacked: MonsterOnMap | None) -> Proc:
        """JR-MULTI-1 [DEFAULT]: each of the turn's attackers other than the monster the
        PC attacked gets its own defend check; one that fell, vanished or still sleeps
        (the PC, confused, never reached it) leaves its place empty this turn."""
        for m in self._attackers:
            if m is attacked or m.sleep is not Sleeping.AWAKE:
                continue
            for _ in range(self.profile.hasted_attacks if m.hasted else 1):
                if not m.alive:
                    break
                yield from self._defend(m)

    def _hasted_extra(self, m: MonsterOnMap) -> Proc:
        """A hasted (倍速) monster that just answered an attack gets its other attacks."""
        if m.hasted:
            for _ in range(self.profile.hasted_attacks - 1):
                if m.alive:
                    yield from self._defend(m)

    def _defend(self, m: MonsterOnMap) -> Proc:
        m.has_attacked = True  # JR-AB-INVISIBLE: attacked, whether or not it hits
        raw, terms, rate = self.rate(m, self.pc.weapon.value)
        safe, _ = yield from self._check(
            f"defend vs {m.monster.name_ja}" if self.record else "", rate,
            automatic=True, terms=terms, raw=raw, against=m,
        )
        if not safe:
            yield from self._hit(m)

    def _pc_hits(self, m: MonsterOnMap) -> Proc:
        """A successful attack: usually the monster is defeated (JR-MELEE-2)."""
        ability = m.monster.ability
        if ability is Ability.GOLD_LOVER and m.on_gold is not None and not m.sealed:
            m.on_gold = None  # JR-AB-GOLDLOVER: off the gold, sealed
            m.sealed = True
            self._emit(Kind.ABILITY, ability="gold_lover", uid=m.uid, effect="off the gold, sealed")
            return
        if ability is Ability.MIMIC and not m.sealed:
            tile = yield from self._draw(
                Purpose.MIMIC, "The mimic (擬態): draw a tile", Place.TABLE
            )
            if self.profile.role(tile) is Role.ITEM:  # JR-AB-MIMIC
                self._remove_monster(m)
                room = self.rooms[m.room]
                room.tiles[m.spot] = tile
                room.roles[m.spot] = Role.ITEM
                self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile), effect="item")
                return
            self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
            if self.on(Option.EXTENDED_STATES):  # Plus: sealed, and the fight goes on
                m.sealed = True
                self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile),
                           effect="sealed")
                return
            # EZ names no other outcome: the hit stands and defeats it.
            self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile), effect="no item")
        yield from self._defeat(m)

    def _defeat(self, m: MonsterOnMap) -> Proc:
        """JR-XP-1, JR-AB-STEALGOLD, JR-DROP-1.

        Drops follow the seed's procedure: draw until an item comes up or n tiles have
        been drawn; the item is placed where the monster was, and drawing stops (the spec
        reads "each item tile drawn"; the seed's step 5 does not return to step 1).
        """
        # A pursuer's tile lies beside the PC (PCに隣接する様に...動かします), so that is
        # where the monster was (モンスターのいた場所に置く); revision 1 used its first room.
        fell_in = self.room_no if m in self.pursuers and self.revision >= 2 else m.room
        self._remove_monster(m)
        self.pc.xp += m.monster.xp
        if self.record:
            self._emit(Kind.DEFEAT, uid=m.uid, monster=m.monster.id, xp=m.monster.xp,
                       total=self.pc.xp)
        if m.monster.ability is Ability.STEAL_GOLD:
            self._gold(self.floor * 20, "leprechaun's gold")
        self._level_up()
        if self.on(Option.DROPS) and m.monster.drops > 0:
            room = self.rooms[fell_in]
            for n in range(m.monster.drops):
                prompt = f"Drop check {n + 1}/{m.monster.drops}: draw a tile" if self.record else ""
                tile = yield from self._draw(Purpose.DROP, prompt, Place.TABLE)
                if self.profile.role(tile) is Role.ITEM:
                    room.drops.append(tile)
                    if self.record:
                        self._emit(Kind.ITEM, action="dropped", tile=str(tile), room=fell_in)
                    break
                else:
                    self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                    if self.record:
                        self._emit(Kind.ITEM, action="no drop", tile=str(tile))

    def _remove_monster(self, m: MonsterOnMap) -> None:
        m.alive = False
        if m in self.pursuers:
            self.pursuers.remove(m)
        room = self.rooms.get(m.room)
        if room is not None and m in room.monsters:
            room.monsters.remove(m)
        if room is not None and room.tiles[m.spot] is m.tile:
            self.ledger.move(m.tile, Place.TABLE, Place.DISCARDS)
            room.tiles[m.spot] = None
            room.roles[m.spot] = Role.EMPTY

    def _level_up(self) -> None:
        """JR-LVL-1: the level follows the XP table (a drained PC regains it by XP)."""
        level = TABLES.level_for_xp(self.pc.xp)
        if level > self.pc.level:
            old = self.pc.max_hp
            self.pc.level = level
            self.pc.max_hp = self.profile.max_hp(level)
            if self.profile.heal_on_level_up:
                self.pc.hp += self.pc.max_hp - old
            self.pc.drained = False
            self._emit(Kind.LEVEL, level=level, max_hp=self.pc.max_hp, hp=self.pc.hp)

    def _drain_level(self, m: MonsterOnMap) -> None:
        """JR-AB-DRAIN: a melee fumble against it costs a level (not at level 5 or below)."""
        pc = self.pc
        if pc.level <= 5:
            self._emit(Kind.ABILITY, ability="drain_level", uid=m.uid, effect="none (level ≤ 5)")
            return
        lost = pc.level
        pc.level -= 1
        pc.xp = TABLES.level_xp[lost - 1] - 1
        pc.max_hp = self.profile.max_hp(pc.level)
        pc.hp = min(pc.hp, pc.max_hp)
        pc.drained = True
        self._emit(Kind.ABILITY, ability="drain_level", uid=m.uid, effect="level down")
        self._emit(Kind.LEVEL, level=pc.level, xp=pc.xp, max_hp=pc.max_hp, hp=pc.hp, drained=True)

    def _hit(self, m: MonsterOnMap, breath: bool = False) -> Proc:
        """The monster's attack hits the PC: JR-DMG-1, then its ability (JR-AB-*)."""
        m.has_attacked = True
        table = m.monster.damage
        rolls: list[str] = []
        if m.monster.damage_d9:
            table = 0
            for _ in range(m.monster.damage_d9):
                d9 = yield from self._d9(
                    Purpose.NUMBER, f"Damage of {m.monster.name_ja} {m.monster.name_en}: "
                    "draw a tile"
                )
                table += d9.value
                rolls += [str(t) for t in d9.tiles]
        lost = damage(table, self.pc.armour.value)
        self.pc.hp -= lost
        if self.record:
            self._emit(
                Kind.DAMAGE, uid=m.uid, monster=m.monster.id, table=table, rolls=rolls,
                defence=self.pc.armour.value, amount=lost, hp=self.pc.hp, breath=breath,
            )
        if self.pc.hp <= 0:
            self._finish(Outcome(Termination.DEATH, self.floor, m.monster.id))
        if not breath:
            yield from self._on_hit(m)

    def _on_hit(self, m: MonsterOnMap) -> Proc:
        ability, pc = m.monster.ability, self.pc
        if m.sealed:
            return
        if ability is Ability.FREEZE and PCState.FROZEN not in pc.states:
            target = 9 - pc.level
            ok, _ = yield from self._check("resist freezing (凍結判定)", target, against=m)
            if not ok:
                self._set_state(PCState.FROZEN, True)
                alive, _ = yield from self._check("survive the cold (凍死)", target, against=m)
                if not alive:
                    self._finish(Outcome(Termination.DEATH, self.floor, "frozen"))
        elif ability is Ability.POISON:
            if self.on(Option.STRENGTH):
                yield from self._lose_strength(m, "poison (毒判定)", 7 - pc.level)
            else:
                self._gold(-10, "poison")
        elif ability is Ability.HOLD:
            if not self.on(Option.PC_STATES):
                self._gold(-10, "held")
            elif PCState.FLOATING not in pc.states:
                self._set_state(PCState.BOUND, True)
        elif ability is Ability.STEAL_GOLD:
            self._gold(-self.floor * 10, "stolen")
            self._vanish(m)
        elif ability is Ability.RUST:
            if not pc.wears(Ring.ARMOUR_PROTECTION) and not pc.armour_protected:
                if pc.armour.value > 0:
                    pc.armour = Gear(pc.armour.name_ja, pc.armour.name_en, pc.armour.value - 1)
                    self._emit(Kind.ABILITY, ability="rust", uid=m.uid, armour=pc.armour.value)
        elif ability is Ability.STEAL_ITEM:
            self._steal_item(m)
            self._vanish(m)
        elif ability is Ability.GAZE and not self.on(Option.PC_STATES):
            self._gold(-100, "gaze")
            m.sealed = True
        elif ability is Ability.DRAIN_STRENGTH:
            if self.on(Option.PC_STATES):
                yield from self._lose_strength(m, "strength drain (強さドレイン判定)", 4)
            elif not pc.wears(Ring.STRENGTH):
                self._gold(-100, "strength drain")
                m.sealed = True

    def _lose_strength(self, m: MonsterOnMap, what: str, target: int) -> Proc:
        """JR-AB-POISON / JR-AB-DRAINSTR (Plus): a resisted loss of 1 strength."""
        pc = self.pc
        floor = max(NO_STRENGTH_LOSS_AT, self.profile.strength_min)
        if pc.strength <= floor or pc.wears(Ring.STRENGTH):
            self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid, effect="none")
            return
        ok, _ = yield from self._check(what, target, against=m)
        if not ok:
            pc.strength -= 1
            self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid,
                       effect="strength -1", strength=pc.strength)

    def _vanish(self, m: MonsterOnMap) -> None:
        self._remove_monster(m)
        self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid, effect="vanished")

    def _gazers(self) -> list[MonsterOnMap]:
        """JR-AB-GAZE (Plus: pc_states): an awake medusa in the PC's room (on its door or
        inside) gazes once, checked at the start of every turn; not at a blind PC."""
        here = self._here(self.room_no)
        if not here or PCState.BLIND in self.pc.states:
            return _NO_MONSTERS
        return [
            m for m in here
            if m.monster.ability is Ability.GAZE and not m.sealed and m.sleep is Sleeping.AWAKE
        ]

    def _gaze_checks(self, gazers: list[MonsterOnMap]) -> Proc:
        for m in gazers:
            ok, _ = yield from self._check("resist the gaze (睨み判定)", 4, against=m)
            if not ok:
                self._set_state(PCState.CONFUSED, True)
            m.sealed = True

    def _ranged_combat(self, first: MonsterOnMap) -> Proc:
        """JR-RANGED-1..3: one-sided shots while ``1d9 >= ranged_continue`` (the profile's;
        the seed's 3) keeps succeeding, checked on the first turn too as the profile's
        ``ranged_check_first_turn`` [DEFAULT] says."""
        if self.record:
            self._emit(Kind.RANGED, action="begin", uid=first.uid)
        target: MonsterOnMap | None = first
        opening = True
        while True:
            if not opening or self.profile.ranged_check_first_turn:
                keep, _ = yield from self._check(
                    "ranged combat goes on", self.profile.ranged_continue
                )
                if not keep:
                    break
            if target is None:
                targets = self._ranged_targets()
                if not targets:
                    break
                options = [_SHOTS[m.uid] for m in targets]
                if self.pc.potions and self.pc.hp < self.pc.max_hp:
                    options.append(_USES[self.pc.potions[0].index])
                options += self._ring_options()  # JR-RANGED-2: equip / unequip
                options += self._ready_option()
                options += _CLOSE_OR_DOOR
                request = ChoiceRequest("Ranged combat: act", tuple(options))
                choice = (yield request) if self._answer_now is None else self._ask(request)
                assert isinstance(choice, Choice)
                if choice.verb in (Verb.CLOSE, Verb.DOOR):
                    if choice.verb is Verb.DOOR:
                        self.position = Position.DOOR
                    break
                if choice.verb is Verb.USE:
                    self._drink()
                    opening = False
                    continue
                if choice.verb is Verb.READY:
                    self._ready(choice)
                    opening = False
                    continue
                if choice.verb in (Verb.EQUIP, Verb.UNEQUIP):
                    ring = Tile.from_notation(choice.arg)
                    if choice.verb is Verb.EQUIP:
                        self._wear_ring(ring)
                    else:
                        self._remove_ring(ring)
                    opening = False
                    continue
                target = self.monster(int(choice.arg))
            yield from self._shoot(target)
            target = None
            opening = False
            if not self._ranged_targets():
                break
        self.melee_started = True
        if self.record:
            self._emit(Kind.RANGED, action="end")

    def _shoot(self, m: MonsterOnMap) -> Proc:
        """JR-RANGED-3 [DEFAULT]: a one-sided shot, ``1d9 >= rate`` with the attack the
        profile's ``ranged_rate_weapon`` names (that of what is shot, or the melee weapon's),
        decided by a critical or fumble as the profile's ``ranged_automatic`` says."""
        pc = self.pc
        if pc.shuriken > 0 and not (pc.bow_ready and pc.arrows > 0):
            pc.shuriken -= 1
            weapon, attack = "shuriken", pc.shuriken_attack
        else:
            pc.arrows -= 1
            weapon, attack = "arrows", pc.ranged.value
        if self.profile.ranged_rate_weapon is RateWeapon.MELEE:
            attack = pc.weapon.value
        self._wake(m, "shot at")
        raw, terms, rate = self.rate(m, attack)
        hit, _ = yield from self._check(
            f"ranged ({weapon}) vs {m.monster.name_ja}" if self.record else "", rate,
            automatic=self.profile.ranged_automatic, terms=terms, raw=raw, against=m,
        )
        if hit:
            yield from self._pc_hits(m)
        elif m.monster.ability is Ability.FIRE_BREATH:
            self._emit(Kind.ABILITY, ability="fire_breath", uid=m.uid, why="ranged")
            yield from self._hit(m, breath=True)

    # ------------------------------------------------------------------ items

    def _gold(self, amount: int, why: str) -> None:
        before = self.pc.gold
        self.pc.gold = max(0, before + amount)
        if self.record:
            self._emit(
                Kind.ITEM, action="gold", amount=self.pc.gold - before, gold=self.pc.gold, why=why
            )

    def _has_loot(self) -> bool:
        """Is there an item or gold in the room (what :meth:`_room_loot` lists)?"""
        room = self.room
        if room.drops:
            return True
        tiles, roles = room.tiles, room.roles
        if Role.ITEM not in roles and Role.GOLD not in roles:
            return False
        for spot, role in enumerate(roles):
            if (role is Role.ITEM or role is Role.GOLD) and tiles[spot] is not None:
                return True
        return False

    def _room_loot(self) -> list[int]:
        """Spots holding an item or gold; -1 stands for the pile of dropped items."""
        room = self.room
        return [
            s for s, r in enumerate(room.roles)
            if r in (Role.ITEM, Role.GOLD) and room.tiles[s] is not None
        ] + ([-1] if room.drops else [])

    def _take(self) -> Proc:
        """JR-STATE-2: with every monster defeated, pick up the room's items and gold."""
        if self.position is Position.DOOR:
            self._enter()
        room = self.room
        for spot in self._room_loot():
            if spot < 0:
                while room.drops:
                    yield from self._pick_item(room.drops.pop(0))
                continue
            tile = room.tiles[spot]
            assert tile is not None
            room.tiles[spot] = None
            if room.roles[spot] is Role.GOLD:
                self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                why = f"gold pile {tile}" if self.record else ""
                self._gold(self.profile.gold_per_rank * tile.rank, why)
            else:
                yield from self._pick_item(tile)
            room.roles[spot] = Role.EMPTY

    def _pick_item(self, tile: Tile) -> Proc:
        """JR-ITEM-1: what each item tile gives. A ring is put on while a hand is free if the
        profile's ``wear_found_rings`` [DEFAULT] says so (JR-PC-4)."""
        spec = self.profile.items[tile.rank]
        pc = self.pc
        if self.record:
            self._emit(Kind.ITEM, action="found", tile=str(tile), name_ja=spec.name_ja,
                       name_en=spec.name_en)
        kind = spec.kind
        if kind is ItemKind.POTION:
            self.ledger.move(tile, Place.TABLE, Place.PC)
            pc.potions.append(tile)
        elif kind in (ItemKind.SHURIKEN, ItemKind.ARROWS):
            self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
            if kind is ItemKind.SHURIKEN:
                pc.shuriken += spec.amount
                pc.shuriken_attack = spec.attack
            else:
                pc.arrows += spec.amount
        elif kind is ItemKind.RING:
            self.ledger.move(tile, Place.TABLE, Place.PC)
            pc.spare_rings.append(tile)
            if self.profile.wear_found_rings and len(pc.rings) < self.profile.ring_slots:
                self._wear_ring(tile)
        else:
            power = spec.power(self.floor)
            current = pc.weapon if kind is ItemKind.WEAPON else pc.armour
            prompt = (
                f"Found {spec.name_ja} {spec.name_en} ({power}): equip it instead of "
                f"{current.name_ja} {current.name_en} ({current.value})?"
            ) if self.record else ""
            request = ChoiceRequest(prompt, (_EQUIPS[tile.index], _KEEP))
            choice = (yield request) if self._answer_now is None else self._ask(request)
            assert isinstance(choice, Choice)
            if choice.verb is Verb.KEEP:
                self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                return
            self.ledger.move(tile, Place.TABLE, Place.PC)
            gear = Gear(spec.name_ja, spec.name_en, power)
            if kind is ItemKind.WEAPON:
                old, pc.weapon, pc.weapon_tile = pc.weapon_tile, gear, tile
            else:
                old, pc.armour, pc.armour_tile = pc.armour_tile, gear, tile
            if old is not None:
                self.ledger.move(old, Place.PC, Place.DISCARDS)
            self._emit(Kind.ITEM, action="equipped", tile=str(tile), value=power)

    def _wear_ring(self, tile: Tile) -> None:
        """JR-PC-4: up to the profile's ``ring_slots`` [DEFAULT] (2) rings at once."""
        pc = self.pc
        if tile not in pc.spare_rings or len(pc.rings) >= self.profile.ring_slots:
            raise IllegalAction(f"cannot put on {tile}")
        pc.spare_rings.remove(tile)
        pc.rings.append(tile)
        ring = self.profile.items[tile.rank].ring
        assert ring is not None
        pc.ring_kinds.append(ring)
        self._emit(Kind.ITEM, action="ring on", tile=str(tile), ring=ring.value)

    def _remove_ring(self, tile: Tile) -> None:
        pc = self.pc
        i = pc.rings.index(tile)
        pc.rings.pop(i)
        ring = pc.ring_kinds.pop(i)
        pc.spare_rings.append(tile)
        self._emit(Kind.ITEM, action="ring off", tile=str(tile), ring=ring.value)

    def _drink(self) -> None:
        """JR-ITEM-1: a healing potion gives HP +10 up to max HP."""
        pc = self.pc
        tile = pc.potions.pop()
        self.ledger.move(tile, Place.PC, Place.DISCARDS)
        healed = min(self.profile.items[tile.rank].amount, pc.max_hp - pc.hp)
        pc.hp += healed
        if self.record:
            self._emit(Kind.HEAL, amount=healed, hp=pc.hp, why="potion")

    def _steal_item(self, m: MonsterOnMap) -> None:
        """JR-AB-STEALITEM: one of what the PC holds most of (一番個数の多い物; gold is no
        item); an uncursed ring of adornment worn goes first. What a thief may take, and
        which goes first in a tie, is the profile's ``steal_item`` [DEFAULT], and how many
        arrows or shuriken one theft takes its ``steal_ammo`` [DEFAULT]. Rings count by kind,
        worn or not; a spare one goes before a worn one."""
        pc = self.pc
        adornment = [t for t, k in zip(pc.rings, pc.ring_kinds, strict=True)
                     if k is Ring.ADORNMENT]
        if adornment:
            self._remove_ring(adornment[0])
            self._lose_ring_tile(adornment[0])
            return
        held: dict[str, int] = {}
        for loot in self.profile.steal_item:
            if loot is Loot.ARROWS:
                held["arrows"] = pc.arrows
            elif loot is Loot.SHURIKEN:
                held["shuriken"] = pc.shuriken
            elif loot is Loot.POTIONS:
                held["potions"] = len(pc.potions)
            else:
                for tile in [*pc.spare_rings, *pc.rings]:
                    ring = self.profile.items[tile.rank].ring
                    assert ring is not None
                    held[ring.value] = held.get(ring.value, 0) + 1
        what, count = max(held.items(), key=lambda kv: kv[1], default=("", 0))
        if count == 0:
            self._emit(Kind.ITEM, action="nothing to steal")
            return
        if what == "arrows":
            pc.arrows -= min(self.profile.steal_ammo, pc.arrows)
        elif what == "shuriken":
            pc.shuriken -= min(self.profile.steal_ammo, pc.shuriken)
        elif what == "potions":
            self.ledger.move(pc.potions.pop(), Place.PC, Place.DISCARDS)
        else:
            spare = [t for t in pc.spare_rings if self.profile.items[t.rank].ring is Ring(what)]
            tile = spare[0] if spare else next(
                t for t, k in zip(pc.rings, pc.ring_kinds, strict=True) if k is Ring(what)
            )
            if not spare:
                self._remove_ring(tile)
            self._lose_ring_tile(tile)
            return
        self._emit(Kind.ITEM, action="stolen", what=what)

    def _lose_ring_tile(self, tile: Tile) -> None:
        self.pc.spare_rings.remove(tile)
        self.ledger.move(tile, Place.PC, Place.DISCARDS)
        self._emit(Kind.ITEM, action="stolen", what=str(tile))

    def _set_state(self, state: PCState, on: bool) -> None:
        if on:
            self.pc.states.add(state)
        else:
            self.pc.states.discard(state)
        self._emit(Kind.STATE, who="pc", state=state.value, on=on)
