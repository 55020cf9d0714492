"""Where a simulated ``companion play`` gets its tiles and choices: the seeded wall the
companion draws from (``--input sim``) and the auto-player (``--choices auto``), beside the
presses (press_sources.py) and the table's reader (readers.py)."""

from __future__ import annotations

from companion.app.session.mode import ChoiceAsk, Show, TileAsk
from companion.systems.jongrogue.actions import ChoiceRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer, Strategy
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile


class SimTiles:
    """The companion draws for the player from its seeded simulated wall."""

    def __init__(self, game: Game, player: HeadlessPlayer) -> None:
        self.game = game
        self.player = player

    def next_tile(self, ask: TileAsk, show: Show) -> Tile:
        return self.player.draw(self.game)

    def ready(self) -> bool:
        return True

    def close(self) -> None:
        return None


class AutoChoices:
    """The auto-player decides (a strategy is a pure function of the game)."""

    def __init__(self, game: Game, strategy: Strategy) -> None:
        self.game = game
        self.strategy = strategy

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        """The strategy's choice, found by its notation among the options asked: on the
        game's menu, or on the question a choice asks first (the mode's ``sure``), where
        the strategy, the game unchanged, wants it still."""
        request = self.game.pending
        assert isinstance(request, ChoiceRequest)
        wanted = str(self.strategy(self.game, request))
        return [o.choice for o in ask.options].index(wanted)
