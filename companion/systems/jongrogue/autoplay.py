"""Auto-player strategies and the headless driver on the simulated wall.

A strategy is a pure function of the game's state and the pending choice, so a
game resumed from its journal goes on exactly as it would have (no hidden
memory). ``cautious`` (the default) shoots first, drinks potions and flees from
bad odds; ``reckless`` always fights.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from companion.dice.randomizer import seeded
from companion.errors import DataError
from companion.systems.jongrogue.actions import (
    Choice,
    ChoiceRequest,
    Input,
    Request,
    TileRequest,
    Verb,
)
from companion.systems.jongrogue.game import RULES_REVISION, Game, neighbours
from companion.systems.jongrogue.profile import ItemKind, Profile
from companion.systems.jongrogue.state import MonsterOnMap, Position, Sleeping
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import SimulatedWall

Strategy = Callable[[Game, ChoiceRequest], Choice]

FLEES_PER_ROOM = 1  # cautious: after this many flees from a room, fight it out


def hit_chance(rate: int) -> float:
    """P(1d9 >= rate) with a critical always hitting and a fumble always missing.

    Number tiles are 27 of the 29 deciding kinds; a critical and a fumble the other two.
    """
    numbers = max(0, 10 - rate)
    return (numbers * 3 + 1) / 29


_HIT = tuple(hit_chance(rate) for rate in range(10))  # by rate 1..9 (a rate is clamped)
_FIGHT, _SHOOT, _MOVE, _USE, _FLEE = Verb.FIGHT, Verb.SHOOT, Verb.MOVE, Verb.USE, Verb.FLEE
_CLOSE, _TAKE, _STAIRS, _KEEP = Verb.CLOSE, Verb.TAKE, Verb.STAIRS, Verb.KEEP


class Offer:
    """A request's options sorted out in one pass: the fights, shots and moves, and the
    first of each other verb a strategy looks for."""

    __slots__ = ("close", "fight", "flee", "keep", "moves", "shoot", "stairs", "take", "use")

    def __init__(self, options: tuple[Choice, ...]) -> None:
        self.fight: list[Choice] = []
        self.shoot: list[Choice] = []
        self.moves: list[Choice] = []
        self.use: Choice | None = None
        self.flee: Choice | None = None
        self.close: Choice | None = None
        self.take: Choice | None = None
        self.stairs: Choice | None = None
        self.keep: Choice | None = None
        for c in options:
            verb = c.verb
            if verb is _MOVE:
                self.moves.append(c)
            elif verb is _FIGHT:
                self.fight.append(c)
            elif verb is _SHOOT:
                self.shoot.append(c)
            elif verb is _USE:
                if self.use is None:
                    self.use = c
            elif verb is _FLEE:
                self.flee = self.flee or c
            elif verb is _CLOSE:
                self.close = self.close or c
            elif verb is _TAKE:
                self.take = self.take or c
            elif verb is _STAIRS:
                self.stairs = self.stairs or c
            elif verb is _KEEP:
                self.keep = self.keep or c


def _explore(game: Game, offer: Offer) -> Choice | None:
    """Stairs when offered, else one step towards the nearest unrevealed room."""
    if offer.stairs:
        return offer.stairs
    offered = offer.moves
    if not offered:
        return None
    moves = {int(c.arg): c for c in offered}
    start = game.room_no
    seen = {start}
    queue: deque[tuple[int, int]] = deque((n, n) for n in neighbours(start))
    while queue:
        room, first = queue.popleft()
        if room in seen:
            continue
        seen.add(room)
        if room not in game.rooms or game.rooms[room].stairs:
            if first in moves:
                return moves[first]
            continue
        queue.extend((n, first) for n in neighbours(room))
    return offered[0]


def _equip_choice(game: Game, request: ChoiceRequest, keep: Choice) -> Choice:
    """A found weapon or armour: equip it if it is better than what the PC has."""
    equip = next(c for c in request.options if c.verb is Verb.EQUIP)
    spec = game.profile.items[int(equip.arg[0])]
    current = game.pc.weapon if spec.kind is ItemKind.WEAPON else game.pc.armour
    return equip if spec.power(game.floor) > current.value else keep


def _rated(game: Game, choices: list[Choice]) -> list[tuple[Choice, MonsterOnMap, int]]:
    """Each fight or shoot choice with its monster and the PC's melee rate against it."""
    rate = game.melee_rate
    out = []
    for c in choices:
        m = game.monster(int(c.arg))
        out.append((c, m, rate(m)))
    return out


def _best(rated: list[tuple[Choice, MonsterOnMap, int]]) -> tuple[Choice, MonsterOnMap, int]:
    """The monster easiest to defeat, awake ones first (the first of equals)."""
    best = rated[0]
    best_key = (best[1].sleep is not Sleeping.AWAKE, best[2])
    for entry in rated[1:]:
        key = (entry[1].sleep is not Sleeping.AWAKE, entry[2])
        if key < best_key:
            best, best_key = entry, key
    return best


def _best_target(game: Game, choices: list[Choice]) -> Choice:
    """The monster easiest to defeat, awake ones first."""
    return _best(_rated(game, choices))[0]


def reckless(game: Game, request: ChoiceRequest) -> Choice:
    """Always fights: attacks whatever is there, never shoots, drinks or flees."""
    offer = Offer(request.options)
    if offer.keep:
        return _equip_choice(game, request, offer.keep)
    if offer.fight:
        return _best_target(game, offer.fight)
    return offer.close or offer.take or _explore(game, offer) or request.options[0]


def _expected_damage(game: Game, attackers: list[MonsterOnMap]) -> int:
    total = 0
    armour = game.pc.armour.value
    rate = game.melee_rate
    for m in attackers:
        table = m.monster.damage or 5 * m.monster.damage_d9
        hits = 1 - _HIT[rate(m)]
        total += round(hits * max(0, table - armour) + 0.5)
    return total


def cautious(game: Game, request: ChoiceRequest) -> Choice:
    """Shoots before melee, drinks potions when low, flees from bad odds."""
    offer = Offer(request.options)
    if offer.keep:
        return _equip_choice(game, request, offer.keep)
    pc = game.pc
    attackers = game.attackers()
    danger = _expected_damage(game, attackers) if attackers else 0
    if offer.use and (pc.hp <= max(danger * 2, pc.max_hp // 3)):
        return offer.use
    shoot, fight = offer.shoot, offer.fight
    if attackers:
        if shoot:
            return _best_target(game, shoot)
        best, odds = None, 0.0
        if fight:
            best, _, rate = _best(_rated(game, fight))
            odds = _HIT[rate]
        if offer.flee and game.flees.get(game.room_no, 0) < FLEES_PER_ROOM and (
            odds < 0.4 and pc.hp <= danger * 3
        ):
            return offer.flee
        return best or request.options[0]
    if offer.close:  # ranged combat
        return _best_target(game, shoot) if shoot else offer.close
    if offer.take and not (game.position is Position.DOOR and any(
            m.sleep is Sleeping.ASLEEP for m in game.room_monsters())):
        return offer.take  # but not gold that would wake the room's sleepers (JR-STATE-1)
    if shoot:
        return _best_target(game, shoot)
    if fight:
        rated = _rated(game, fight)
        sure = [entry for entry in rated if _HIT[entry[2]] >= 0.6]
        if sure and not game.room.stairs:
            return _best(sure)[0]
        if any(m.sleep is Sleeping.AWAKE for m in game.room_monsters()):
            return _best(rated)[0]  # an awake monster holds the far doors
    return _explore(game, offer) or request.options[0]


STRATEGIES: dict[str, Strategy] = {"cautious": cautious, "reckless": reckless}


def find_strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise DataError(
            f"unknown strategy {name!r}: choose one of {', '.join(STRATEGIES)}"
        ) from None


class HeadlessPlayer:
    """Answers every request of a game: tiles from a seeded simulated wall, choices from
    a strategy. The wall's contents always equal the ledger's idea of the wall."""

    def __init__(self, seed: int, strategy: str = "cautious") -> None:
        self.seed = seed
        self.wall = SimulatedWall(seeded(seed))
        self.strategy = find_strategy(strategy)

    def draw(self, game: Game) -> Tile:
        """The wall's next tile; after the game reshuffled, the wall is the discards again."""
        return self.wall.draw_for(game)

    def answer(self, game: Game) -> Input:
        """The answer to the game's pending request."""
        assert game.pending is not None, "the game is over"
        return self.respond(game, game.pending)

    def respond(self, game: Game, request: Request) -> Input:
        """The answer to ``request``; in simulation mode the game calls this in-line."""
        if isinstance(request, TileRequest):
            return self.draw(game)
        if len(game.inputs) > MAX_INPUTS:
            raise RuntimeError(f"seed {self.seed}: the strategy made no progress")
        return self.strategy(game, request)


MAX_INPUTS = 200_000  # far beyond any real game; a strategy stuck in a loop is a bug


def play(
    seed: int,
    preset: str = "plus",
    strategy: str = "cautious",
    profile: Profile | None = None,
    simulation: bool = False,
    revision: int = RULES_REVISION,
) -> Game:
    """Play one whole game headless; same arguments, same game.

    ``simulation`` plays it in simulation mode (:meth:`Game.play_out`: no events, no
    prompts, each request answered in-line); the journal and the outcome are the same.
    ``revision``: the rules revision to play by (a game saved before a rules fix).
    """
    player = HeadlessPlayer(seed, strategy)
    if simulation:
        game = Game(preset, profile, record=False, revision=revision)
        game.play_out(player.respond, player.wall.draw_for)
        return game
    game = Game(preset, profile, revision=revision)
    while game.pending is not None:
        game.push(player.answer(game))
    return game
