"""A game met at a start room of one's choosing, and rings given and worn, for the tests of
monsters' abilities (JR-AB-*)."""

from __future__ import annotations

from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Profile
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed


def meet(
    preset: str, floor: int, room: str, profile: Profile = DEFAULT_PROFILE, hp: int = 200
) -> Game:
    """A game whose start room 5 is ``room`` on ``floor``, the PC tough enough to watch."""
    game = Game(preset, profile)
    game.floor = floor
    game.pc.hp = game.pc.max_hp = hp
    feed(game, f"5m {room}")
    return game


def give(game: Game, tile: str) -> Tile:
    t = Tile.from_notation(tile)
    game.ledger.move(t, Place.WALL, Place.PC)
    return t


def wear(game: Game, tile: str) -> None:
    t = give(game, tile)
    game.pc.spare_rings.append(t)
    game._wear_ring(t)
