"""Players who stop the session, for the tests of a game set aside: a hand that plays its
presses then stops (Stop), and choices that stop at once."""

from __future__ import annotations

from companion.app.session.mode import ChoiceAsk, Show, TileAsk
from companion.systems.jongrogue.tiles import Tile


class Stop(Exception):
    pass


class Hand:
    """Lays the given tiles one per prompt, showing the prompt as a table reader does while
    it waits (no read yet: an empty status); stops when it has none left."""

    def __init__(self, tiles: list[str]) -> None:
        self.tiles = list(tiles)

    def next_tile(self, ask: TileAsk, show: Show) -> Tile:
        show(ask.prompt, status="", prompt_tile="back")
        if not self.tiles:
            raise Stop
        return Tile.from_notation(self.tiles.pop(0))

    def ready(self) -> bool:
        return True

    def close(self) -> None:
        return None


class NoChoices:
    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        raise Stop
