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

The engine is a chain of layers, each a subclass of the one below that calls only methods of
its own layer or below:

- ``core``: the game's state, the outcome, events, and who fights whom (attackers, targets);
- ``drawing``: tiles from the wall, the d9 and checks;
- ``rooms``: arriving, revealing a room, the encounters, waking and entering;
- ``items``: gold, items, rings, potions, readying, stealing;
- ``combat``: melee turns, defence, hits and abilities, defeat, XP, levels, drops, the gaze;
- ``ranged``: ranged combat;
- ``moving``: walking to a room and fleeing;
- ``decisions``: the options offered and acting on a choice;
- ``game`` (this module): :class:`Game`, the run and its floors, and driving it (``push``,
  ``pop``, ``play_out``, ``replay``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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
from companion.systems.jongrogue.core import Outcome, Termination, _GameOver
from companion.systems.jongrogue.decisions import _NEIGHBOURS, _Decisions
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    Option,
    Profile,
    preset_name,
    preset_options,
)
from companion.systems.jongrogue.state import PC, MonsterOnMap, Position, Room
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger

__all__ = ["RULES_REVISION", "SAME_HEADLESS_GAMES_SINCE", "SAME_HEADLESS_PROFILE_GAMES_SINCE",
           "Answer", "Draw", "Game", "Outcome", "Termination", "neighbours",
           "plays_its_seed_again"]


Answer = Callable[["Game", Request], Input]  # an in-line player (simulation mode)
Draw = Callable[["Game"], Tile]  # an in-line wall (simulation mode)

# The engine's rules revision. A save and a log say which one played their game, so a
# game begun before a rules fix replays as it was played (its journal would not fit the
# new rules). 1: a fleeing PC was followed only by the monsters striking it that turn,
# and a pursuer's drop fell in the room where it was met. 2: every monster fighting the
# PC follows it (JR-FLEE-2), and a pursuer drops where it falls (JR-DROP-1). 3: a monster
# sitting on gold holds neither the far doors nor the stairs (JR-FLEE-1), a pursuing
# mimic's item lies where it falls (JR-AB-MIMIC), a pursuer is never shot: its melee
# has begun (JR-RANGED-1), a bound PC does not step in from the door (JR-PC-3), a confused
# PC's shot may be lost as its blow may (JR-PC-3), and the gaze is checked at the start of
# each ranged turn (JR-AB-GAZE). 4: the medusa gazes only at a PC in its room, not on its
# door (JR-AB-GAZE: 「PCがモンスターと同じ部屋にいる時」). 5: melee on a monster not awake
# steps from the door into the room first, waking every 睡眠 monster there (JR-STATE-1), a
# fumbled defence against a wraith drains a level as a fumbled blow does (JR-AB-DRAIN:
# 「近接攻撃でのファンブル」), and gold is not an item: unless the profile's
# map.gold_needs_clear_room says so, it may be taken while the room's monsters sleep or sit
# on gold, but not the gold one sits on (JR-STATE-2, JR-AB-GOLDLOVER). 6: each gold-lover
# sits on a gold pile no other monster sits on, while there is one, so two orcs guard two
# piles (JR-AB-GOLDLOVER: one monster tile 「金塊の牌の上に」 one gold tile); before, every
# one sat on the room's first pile. 7: a PC that fled with monsters following it opens no
# ranged combat where the flight ends, their melee having begun (JR-RANGED-1:
# 「近接戦闘を始める前に」, JR-FLEE-2), nor readies its bow or shuriken there, readying being
# offered only outside melee (JR-RANGED-2); before, it could shoot a monster met there while
# the pursuers held their blows, and ready a ranged weapon. 8: a PC on the door is not
# offered, in ranged combat, to move onto the door (JR-RANGED-2: 「ドアの上に移動する」), only
# in the room, where taking it records the PC's move onto the door; before, it was offered
# there too, a second "close in" (no auto-player strategy chose it, so their games are
# revision 7's), and taken from the room it recorded no move. 9: the route walked is kept
# whole, a walk back to the room the PC came from adding the room it leaves as any walk
# does, so a flight retraces the way the PC really came (JR-FLEE-1: 「来た道を引き返します」)
# and a walk from the door toward another room crosses the room (JR-STATE-2); before, a walk
# back undid the last step of the route, so a flight after it left by the room's far door,
# past its awake monsters, or from a start room walked back into was not offered. 10: the
# game keeps the room behind the door the PC came in by (``came_by``): a flight with no
# monster following leaves by that door (JR-FLEE-1: 「ドアから通路に出て」), so after a flight
# into a room a second one does not leave by the far door past a monster woken there
# (JR-STATE-2), and a walk to that room is the walk back (JR-STATE-1: 「ドアの上から通路に
# 引き返せば」), a walk to the route's older room crossing the room; a pursued flight goes on
# back along the route but never to the room just fled from, the pursuers standing between
# (JR-FLEE-2: 「その方向へ動かします」), the PC cornered if there is no other way; the route
# is never cut, so a followed flight only crosses a room the PC really crossed, whose 睡眠
# monsters woke then (JR-STATE-1, review65j DEFECT 1 and RISK 1). Before, a flight took
# the route's last room: a pursued PC that had walked back and forth ran back through its
# pursuers once for every walk back (review64j DEFECTs 2 and 3, RISK 1). 11: a bound PC
# (拘束) no monster attacks (its binder dead, say) is not asked what to do: its break-free
# checks run on their own until it is free, as a frozen PC's thaw checks do (JR-PC-3 stops
# moving and fleeing, nothing else); before, it was asked while bound, and with a potion or
# a ring it had to drink the potion or take the ring off to reach its next check (rules70
# DEFECT 1). 12: items are told apart by kind (JR-ITEM-1: the profile's item of a tile's
# rank): one ``use:<tile>`` is offered for each kind of potion held, and the potion drunk
# is the one chosen; shuriken are kept by kind, each thrown at its own attack, the first
# kind found readied and another readied by ``ready:<tile>``, a thief taking the kind
# readied first. Before, the first potion held was offered and the last one drunk, and every
# shuriken was thrown at the attack of the kind found last (rules72 DEFECT 1). The packaged
# profile has one kind of each, so its games are revision 11's. 13: a loss of gold the PC
# cannot pay whole (below the profile's gold_min) keeps the loss asked for beside what was
# lost (``asked``, a76jrcore NIT 2), and a fire-breather that is both the room's and a
# pursuer breathes once on a flight (JR-AB-BREATH, a76jrcore RISK 3); before, the event had
# no ``asked`` and such a monster breathed twice, and a log of revision 12 or before replays
# so (r76jr DEFECT 1, RISK 3). No auto-player game meets the double breath, so its games are
# revision 12's, event for event but a clamped loss's ``asked``.
RULES_REVISION = 13

# The oldest rules revision whose headless games RULES_REVISION plays identically. A
# seeded auto-player game (``play --headless --seed``) is the same game, input for input
# and event for event, under every revision from this one on. Revision 8 changed an option
# no strategy chooses (the door on the door), but revision 9 (the route kept whole) changes
# a few auto-player games: a cautious player that walks back, then flees, as in EZ seeds
# 1824, 4047 and 4692 and Plus seeds 628, 3574 and 4103 (6 of the 18,400 games review64j
# compared), so a revision-8 or revision-7 seed may now play another game. Revision 10
# (the door came in by, no flight back through the pursuers) changes 29 of those 18,400
# games, all cautious: Plus seeds 628, 3574 and 4103, which flee pursued after a walk back,
# back into the dead end they walked out of, where they are cornered and fight (the same 29
# games with the route's loop no longer cut where a flight ends, review65j), and 26 EZ
# ones, such as 114, whose walk after a flight steps into the room or not the other way
# round, and 1733, which flees again from a start room it fled back into; so a revision-9
# seed may play another game too. Revision 11 (a bound PC no monster attacks is not asked)
# changes 6 of the 104 golden games (Plus seeds 0, 6, 14 and 893 cautious, 11 and 21
# reckless), whose PC, bound with its binder dead, was asked what to do by revision 10;
# so a revision-10 seed may play another game too. A game saved or logged by this revision
# or a later one is offered again by its seed; an older one is not. Raise it to
# RULES_REVISION when a new revision changes what the auto-player meets; test_golden_games
# pins it (each revision past it has the same golden games as the one before it).
SAME_HEADLESS_GAMES_SINCE = 11

# The same for a game played with a profile of the user's (``--profile``). Revision 12
# (items told apart by kind) plays the packaged profile's games as revision 11 did, but not
# those of a profile with two kinds of potion or of shuriken, so a revision-11 game with a
# profile is not offered again by its seed.
SAME_HEADLESS_PROFILE_GAMES_SINCE = 12


def plays_its_seed_again(rules: int, profile: bool) -> bool:
    """Whether RULES_REVISION plays the game a headless game of revision ``rules`` played
    from its seed, with a profile of the user's (``profile``) or the packaged one."""
    return rules >= (SAME_HEADLESS_PROFILE_GAMES_SINCE if profile else SAME_HEADLESS_GAMES_SINCE)


def neighbours(room: int) -> tuple[int, ...]:
    """JR-MAP-1: rooms 1-9 in a 3x3 grid, joined to their orthogonal neighbours."""
    return _NEIGHBOURS[room]


class Game(_Decisions):
    """One run of JongRogue EZ Plus.

    >>> game = Game(preset="ez")
    >>> game.pending.prompt
    'Draw a tile for the start room 開始部屋 (1d9)'

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
        self.revision = revision
        if options is None:
            self.options = preset_options(preset)
            # The preset's one name (ez+pincer for EZ+Pincer, plus for all six options):
            # a save or log keeping it then names one set of options one way, whoever built
            # the game, not only when the app named it first (reviewr70 NIT 5).
            self.preset = preset_name(self.options)
        else:
            self.options = frozenset(options)
            self.preset = preset
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
        self.came_by = 0  # the room behind the door the PC came in by (0: down the stairs)
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

    @staticmethod
    def replay(
        inputs: Iterable[Input],
        preset: str = "plus",
        profile: Profile | None = None,
        revision: int = RULES_REVISION,
    ) -> Game:
        """The game ``inputs`` play, from the start, with the preset's options (a save keeps
        its preset, and every game is begun with its preset's options)."""
        game = Game(preset, profile, revision=revision)
        for value in inputs:
            game.push(value)
        return game

    def legal_actions(self) -> tuple[Choice, ...]:
        """The choices the pending request offers, the only ones :meth:`push` takes; ``()``
        while a tile is awaited and once the game is over."""
        return self.pending.options if isinstance(self.pending, ChoiceRequest) else ()

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _run(self) -> Proc:
        try:
            while True:
                yield from self._play_floor()
                if self.floor >= self.profile.last_floor:  # JR-MAP-4: out by its stairs, 生還
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

    def _play_floor(self) -> Proc:
        """One floor: JR-MAP-1 start room, then explore until the stairs are taken."""
        self._emit(Kind.FLOOR, floor=self.floor)
        self._reset_floor()
        start = yield from self._d9(Purpose.START_ROOM,
                                    "Draw a tile for the start room 開始部屋 (1d9)")
        self._emit(Kind.START_ROOM, room=start.value, tiles=[str(t) for t in start.tiles])
        yield from self._arrive(start.value)
        while True:
            choice = yield from self._decide()
            if choice.verb is Verb.STAIRS:
                if self.position is Position.DOOR and self.room_monsters():
                    self._enter()
                if not any(self._holds_exits(m) for m in self.room_monsters()):
                    self._leave_floor()
                    return
                # JR-STATE-2 (stairs): the step in woke monsters that hold the way out, and
                # the PC stays; the table's screen says so (no event: a seed's game is the
                # same event for event by every revision since SAME_HEADLESS_GAMES_SINCE)
            else:
                yield from self._act(choice)

    def _reset_floor(self) -> None:
        """Forget everything that belongs to the floor just left. The PC came down by the
        stairs, so there is no way back (JR-FLEE-1: 来た道を引き返します) until it has left
        the start room, and no room it stands in until the start room is drawn (JR-MAP-1)."""
        self.rooms.clear()
        self.monsters = []
        self._by_uid = {}
        self.room_no = 0
        self.position = Position.DOOR
        self.path.clear()
        self.came_by = 0
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
