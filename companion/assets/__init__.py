"""Files shipped inside the package: tile art (CC0) and fonts found at run time."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from companion.systems.jongrogue.tiles import Suit, Tile

_SUIT_FILE = {Suit.MAN: "Man", Suit.PIN: "Pin", Suit.SOU: "Sou"}
_HONOR_FILE = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def tile_image_name(tile: Tile | str, red: bool = False) -> str:
    """The art file for a tile kind, ``back`` or ``empty`` (a blank tile body)."""
    if tile == "back":
        return "Back.png"
    if tile == "empty":
        return "Front.png"
    kind = tile if isinstance(tile, Tile) else Tile.from_notation(tile)
    if kind.suit is Suit.HONOR:
        return f"{_HONOR_FILE[kind.rank - 1]}.png"
    dora = "-Dora" if red and kind.rank == 5 else ""
    return f"{_SUIT_FILE[kind.suit]}{kind.rank}{dora}.png"


def tile_image_path(tile: Tile | str, red: bool = False) -> Traversable:
    """Where the PNG of ``tile`` lives inside the installed package."""
    return files("companion.assets") / "tiles" / tile_image_name(tile, red)
