"""What the JongRogue bound PC's tests (拘束, JR-PC-3) share: a game whose PC a flytrap binds,
with a potion and no monster left, and the tiles that play it there (tidy72: no test module
imports another)."""

from __future__ import annotations

from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import PCState
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed

# Plus, floor 12: start room 5 holds a venus flytrap (虫取り草, 熟睡); the PC misses, the
# flytrap's hit (2d9: 3m 3m) binds it; a failed break-free check (1m), a critical (7z) kills
# the flytrap, and the next break-free check fails too (1m): bound, no monster left.
MEET = "5m 8m 1z 1z 1z"
BOUND_ALONE = "fight:1 1m 3m 3m | 1m fight:1 7z | 1m"


def flytrap(revision: int = RULES_REVISION) -> Game:
    game = Game("plus", revision=revision)
    game.floor = 12
    game.pc.hp = game.pc.max_hp = 200
    feed(game, MEET)
    return game


def give(game: Game, tile: str) -> Tile:
    t = Tile.from_notation(tile)
    game.ledger.move(t, Place.WALL, Place.PC)
    return t


def bound_with_a_potion(revision: int = RULES_REVISION) -> Game:
    game = flytrap(revision)
    game.pc.potions.append(give(game, "1p"))
    feed(game, BOUND_ALONE)
    assert PCState.BOUND in game.pc.states and not game.room_monsters()
    assert game.pc.hp < game.pc.max_hp  # so the potion is offered when the PC is asked
    return game
