"""A monster following the PC out of the room it fled (JR-FLEE-2, 追跡) is in the view: its
tile lies beside the PC, and the room's slots hold the room the PC came to, so the room
panel showed none of it while it attacked and the player chose to fight or flee again
without its state in sight (screen66 RISK 2). Driven by hand as the engine's own JR-FLEE-2
test is (tests/systems/jongrogue/test_combat.py)."""

from __future__ import annotations

from companion.app.modes.jongrogue import monster_detail
from companion.hw.display.terminal import PURSUING, render
from companion.hw.display.view import Name, TileView
from tests.app.pursuers_helpers import pursued, pursuers_view
from tests.systems.jongrogue.script import feed


def test_the_pursuer_is_shown_as_the_room_panel_shows_a_monster() -> None:
    game = pursued()
    view = pursuers_view(game)
    assert view.prompt == "大蛇 snake attack! 攻撃！"
    snake = game.pursuers[0]
    assert view.pursuers == (TileView("1m", Name("大蛇", "snake"), monster_detail(snake, True)),)
    assert view.pursuers[0].detail == "awake 起"
    # the room's slots are room 4's, the snake among none of them
    assert [t.tile for t in view.room_tiles] == ["4z", "4m", "1s", "1s"]


def test_a_pursuer_s_state_changes_show() -> None:
    """Its flags are the room panel's (JR-STATE-3): one hasted says so."""
    game = pursued()
    game.pursuers[0].hasted = True
    assert pursuers_view(game).pursuers[0].detail == "awake 起, haste 倍速"


def test_a_pursuer_defeated_is_no_longer_shown() -> None:
    game = pursued()
    feed(game, "fight:2 9m")  # the critical: the snake falls
    assert not game.pursuers and pursuers_view(game).pursuers == ()


def test_the_terminal_lists_the_pursuer_under_the_room() -> None:
    from rich.console import Console

    console = Console(width=80, record=True, color_system=None)
    console.print(render(pursuers_view(pursued()), rows=24))
    rows = [row.replace("│", " ").split() for row in console.export_text().splitlines()
            if PURSUING in row]
    assert rows == [[*PURSUING.split(), "1m", "大蛇", "snake", "awake", "起"]], rows
