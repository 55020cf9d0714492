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
from companion.systems.jongrogue.game import Game, neighbours
from companion.systems.jongrogue.profile import ItemKind, Profile
from companion.systems.jongrogue.state import MonsterOnMap, Sleeping
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
_NONE: list[Choice] = []


def _group(options: tuple[Choice, ...]) -> dict[Verb, list[Choice]]:
    """A request's options by verb, sorted out once per decision."""
    by: dict[Verb, list[Choice]] = {}
    for choice in options:
        found = by.get(choice.verb)
        if found is None:
            by[choice.verb] = [choice]
        else:
            found.append(choice)
    return by


def _explore(game: Game, by: dict[Verb, list[Choice]]) -> Choice | None:
    """Stairs when offered, else one step towards the nearest unrevealed room."""
    stairs = by.get(Verb.STAIRS)
    if stairs:
        return stairs[0]
    offered = by.get(Verb.MOVE)
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


def _equip_choice(game: Game, by: dict[Verb, list[Choice]]) -> Choice | None:
    keep = by.get(Verb.KEEP)
    if not keep:
        return None
    equip = by[Verb.EQUIP]
    spec = game.profile.items[int(equip[0].arg[0])]
    current = game.pc.weapon if spec.kind is ItemKind.WEAPON else game.pc.armour
    return equip[0] if spec.power(game.floor) > current.value else keep[0]


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
    by = _group(request.options)
    equip = _equip_choice(game, by)
    if equip:
        return equip
    for verb in (Verb.FIGHT, Verb.CLOSE, Verb.TAKE):
        found = by.get(verb)
        if found:
            return _best_target(game, found) if verb is Verb.FIGHT else found[0]
    return _explore(game, by) or request.options[0]


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
    by = _group(request.options)
    equip = _equip_choice(game, by)
    if equip:
        return equip
    pc = game.pc
    attackers = game.attackers()
    danger = _expected_damage(game, attackers) if attackers else 0
    use = by.get(Verb.USE)
    if use and (pc.hp <= max(danger * 2, pc.max_hp // 3)):
        return use[0]
    shoot = by.get(Verb.SHOOT, _NONE)
    fight = by.get(Verb.FIGHT, _NONE)
    if attackers:
        if shoot:
            return _best_target(game, shoot)
        best, odds = None, 0.0
        if fight:
            best, _, rate = _best(_rated(game, fight))
            odds = _HIT[rate]
        flee = by.get(Verb.FLEE)
        if flee and game.flees.get(game.room_no, 0) < FLEES_PER_ROOM and (
            odds < 0.4 and pc.hp <= danger * 3
        ):
            return flee[0]
        return best or request.options[0]
    close = by.get(Verb.CLOSE)
    if close:  # ranged combat
        return _best_target(game, shoot) if shoot else close[0]
    take = by.get(Verb.TAKE)
    if take:
        return take[0]
    if shoot:
        return _best_target(game, shoot)
    if fight:
        rated = _rated(game, fight)
        sure = [entry for entry in rated if _HIT[entry[2]] >= 0.6]
        if sure and not game.room.stairs:
            return _best(sure)[0]
        if any(m.sleep is Sleeping.AWAKE for m in game.room_monsters()):
            return _best(rated)[0]  # an awake monster holds the far doors
    return _explore(game, by) or request.options[0]


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
) -> Game:
    """Play one whole game headless; same arguments, same game.

    ``simulation`` plays it in simulation mode (:meth:`Game.play_out`: no events, no
    prompts, each request answered in-line); the journal and the outcome are the same.
    """
    player = HeadlessPlayer(seed, strategy)
    if simulation:
        game = Game(preset, profile, record=False)
        game.play_out(player.respond, player.wall.draw_for)
        return game
    game = Game(preset, profile)
    while game.pending is not None:
        game.push(player.answer(game))
    return game
