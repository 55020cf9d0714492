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
from companion.systems.jongrogue.wall import Place, SimulatedWall

Strategy = Callable[[Game, ChoiceRequest], Choice]

FLEES_PER_ROOM = 1  # cautious: after this many flees from a room, fight it out


def hit_chance(rate: int) -> float:
    """P(1d9 >= rate) with a critical always hitting and a fumble always missing.

    Number tiles are 27 of the 29 deciding kinds; a critical and a fumble the other two.
    """
    numbers = max(0, 10 - rate)
    return (numbers * 3 + 1) / 29


def _rate(game: Game, m: MonsterOnMap) -> int:
    return game.melee_rate(m)


_NONE: list[Choice] = []


class Offer:
    """A request's options grouped by verb, sorted out once per decision."""

    __slots__ = ("_by_verb", "options")

    def __init__(self, request: ChoiceRequest) -> None:
        self.options = request.options
        self._by_verb: dict[Verb, list[Choice]] = {}
        for choice in request.options:
            found = self._by_verb.get(choice.verb)
            if found is None:
                self._by_verb[choice.verb] = [choice]
            else:
                found.append(choice)

    def get(self, verb: Verb) -> list[Choice]:
        return self._by_verb.get(verb, _NONE)


def _explore(game: Game, offer: Offer) -> Choice | None:
    """Stairs when offered, else one step towards the nearest unrevealed room."""
    stairs = offer.get(Verb.STAIRS)
    if stairs:
        return stairs[0]
    moves = {int(c.arg): c for c in offer.get(Verb.MOVE)}
    if not moves:
        return None
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
    return next(iter(moves.values()))


def _equip_choice(game: Game, offer: Offer) -> Choice | None:
    equip = offer.get(Verb.EQUIP)
    keep = offer.get(Verb.KEEP)
    if not keep:
        return None
    spec = game.profile.items[int(equip[0].arg[0])]
    current = game.pc.weapon if spec.kind is ItemKind.WEAPON else game.pc.armour
    return equip[0] if spec.power(game.floor) > current.value else keep[0]


def _best_target(game: Game, choices: list[Choice]) -> Choice:
    """The monster easiest to defeat, awake ones first."""
    def key(c: Choice) -> tuple[int, int]:
        m = game.monster(int(c.arg))
        return (m.sleep is not Sleeping.AWAKE, _rate(game, m))
    return min(choices, key=key)


def reckless(game: Game, request: ChoiceRequest) -> Choice:
    """Always fights: attacks whatever is there, never shoots, drinks or flees."""
    offer = Offer(request)
    equip = _equip_choice(game, offer)
    if equip:
        return equip
    for verb in (Verb.FIGHT, Verb.CLOSE, Verb.TAKE):
        found = offer.get(verb)
        if found:
            return _best_target(game, found) if verb is Verb.FIGHT else found[0]
    return _explore(game, offer) or request.options[0]


def _expected_damage(game: Game, attackers: list[MonsterOnMap]) -> int:
    total = 0
    for m in attackers:
        table = m.monster.damage or 5 * m.monster.damage_d9
        hits = 1 - hit_chance(_rate(game, m))
        total += round(hits * max(0, table - game.pc.armour.value) + 0.5)
    return total


def cautious(game: Game, request: ChoiceRequest) -> Choice:
    """Shoots before melee, drinks potions when low, flees from bad odds."""
    offer = Offer(request)
    equip = _equip_choice(game, offer)
    if equip:
        return equip
    pc = game.pc
    attackers = game.attackers()
    danger = _expected_damage(game, attackers)
    use = offer.get(Verb.USE)
    if use and (pc.hp <= max(danger * 2, pc.max_hp // 3)):
        return use[0]
    shoot = offer.get(Verb.SHOOT)
    fight = offer.get(Verb.FIGHT)
    flee = offer.get(Verb.FLEE)
    if attackers:
        if shoot:
            return _best_target(game, shoot)
        best = _best_target(game, fight) if fight else None
        odds = hit_chance(_rate(game, game.monster(int(best.arg)))) if best else 0.0
        if flee and game.flees.get(game.room_no, 0) < FLEES_PER_ROOM and (
            odds < 0.4 and pc.hp <= danger * 3
        ):
            return flee[0]
        if best:
            return best
        return request.options[0]
    close = offer.get(Verb.CLOSE)
    if close:  # ranged combat
        return _best_target(game, shoot) if shoot else close[0]
    take = offer.get(Verb.TAKE)
    if take:
        return take[0]
    if shoot:
        return _best_target(game, shoot)
    sure = [c for c in fight if hit_chance(_rate(game, game.monster(int(c.arg)))) >= 0.6]
    if sure and not game.room.stairs:
        return _best_target(game, sure)
    blocked = any(m.sleep is Sleeping.AWAKE for m in game.room_monsters())
    if fight and blocked:
        return _best_target(game, fight)  # an awake monster holds the far doors
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
        if not len(self.wall):
            self.wall.refill(game.ledger.tiles(Place.WALL))
        return self.wall.draw()

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
        game.play_out(player.respond)
        return game
    game = Game(preset, profile)
    while game.pending is not None:
        game.push(player.answer(game))
    return game
