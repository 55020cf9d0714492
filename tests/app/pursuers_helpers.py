"""A Plus game with pursuers after the PC, and its view, for the pursuers' view tests."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode
from companion.hw.display.view import View
from companion.systems.jongrogue.game import Game
from tests.systems.jongrogue.script import feed


def pursued() -> Game:
    """Room 4 (a bat deeply asleep, two gold piles), then room 5's awake snake (1m), fled
    from back into room 4: the snake follows and attacks there."""
    game = Game("plus")
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "1m 1z 2z 3z 4z | move:4 4z 4m 1s 1s | move:5 1m 6z 6z 6z | flee 9m")
    assert game.room_no == 4 and [m.monster.name_en for m in game.pursuers] == ["snake"]
    return game


def pursuers_view(game: Game) -> View:
    mode = JongRogueMode(game)
    ask = mode.ask()
    assert ask is not None
    return mode.view(ask.prompt, options=getattr(ask, "options", ()))
