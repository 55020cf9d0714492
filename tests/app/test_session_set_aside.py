"""A tile the game sets aside (JR-DICE-1: an honour drawn for a 1d9) is named on the screen."""

from __future__ import annotations

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.hw.display.view import View
from companion.systems.jongrogue.actions import Purpose, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from tests.app.session_helpers import RecordingDisplay
from tests.app.set_aside_helpers import Hand, NoChoices, Stop


def waiting_views(tiles: list[str]) -> list[View]:
    """The views shown while the table waited for each tile after the first, in a new game."""
    screen = RecordingDisplay()
    session = Session(JongRogueMode(Game("plus")), choices=NoChoices(), tiles=Hand(tiles),
                      display=screen)
    with pytest.raises(Stop):
        session.run()
    return [v for v in screen.views if v.prompt_tile == "back"][1:]


def test_an_honour_set_aside_for_the_start_room_is_said_until_the_next_tile() -> None:
    """2z for the start room's 1d9 is set aside: the same prompt comes back, and the status
    says why; 6p then decides the 1d9 and the note goes."""
    views = waiting_views(["2z", "6p"])
    assert views[0].prompt.endswith("1d9 for the start room 開始部屋の1d9")
    assert views[0].status == ("2z 南 set aside: it is not a number tile; draw another "
                               "南は数牌ではないので除外: もう1枚引いて")
    assert "start room" not in views[1].prompt and views[1].status == ""


def test_the_critical_and_the_fumble_are_not_set_aside() -> None:
    """7z is the critical of the plus preset: it decides the start room (9) at once."""
    views = waiting_views(["7z"])
    assert views and "start room" not in views[0].prompt and views[0].status == ""


def test_an_honour_set_aside_that_was_the_walls_last_tile_is_said_too() -> None:
    """Seed 36 draws 3z for the second floor's start room as the wall's last tile: the wall is
    made again of the discards (JR-WALL-1), and the note was dropped for that event, so the
    same 1d9 was asked again with no word of why (mutation10, finding 1)."""
    game, player = Game("plus"), HeadlessPlayer(36, "cautious")  # its tiles laid at a table
    mode = JongRogueMode(game)
    while len(mode.journal) < 208:
        mode.push(player.answer(game))
    request, tile = game.pending, player.answer(game)
    assert tile == Tile.from_notation("3z")
    assert isinstance(request, TileRequest) and request.purpose is Purpose.START_ROOM
    assert [e.kind for e in mode.push(tile)] == [Kind.RESHUFFLE]
    assert game.pending == request
    assert mode.view(request.prompt).status == (
        "3z 西 set aside: it is not a number tile; draw another "
        "西は数牌ではないので除外: もう1枚引いて")
