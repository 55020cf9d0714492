"""The seed-1 JongRogue game at its healing potion, played on the buttons, for the tests of a
question asked before an action (本当に回復薬を使う？)."""

from __future__ import annotations

from companion.app.commands.play.sim_sources import SimTiles
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from tests.app.session_helpers import RecordingDisplay
from tests.app.table import Buttons

# Seed 1 (cautious), the auditor's wall: after these inputs a monster attacks in room 2 of
# floor 3, with HP 14/15 and a healing potion held, so the menu offers *Use* on item.
SEED = 1
TO_THE_POTION = (
    "9m 5m 8p 8m 5z shoot:1 2z 4z 7s 5p 4m shoot:2 7p take stairs 1m 2z 9s 4p 5p take keep "
    "keep move:2 2s 6z 7s 1m shoot:3 5s 6p take move:3 7z 6s 8s 8m shoot:4 1s fight:4 4m "
    "take move:6 2p 5z 1m 4z shoot:5 3s 9p take stairs 1m 4p 4s 7m 5p shoot:6 2z 9s 8p take "
    "keep keep move:2 8m 6p 7p 9p shoot:7 1z 3p 6z 4s 6s shoot:7 6p take move:3 1p 9s 5z 9p "
    "take stairs 6z 6m 8s 4m 2p 8p shoot:8 3z 1s fight:8 7m take move:3 1p 1p 5s 1s take "
    "move:2 4p 2m 7p 8m shoot:9 3p 4p 7m shoot:10 7m take keep move:1 1z 3m 2s 9m shoot:11 "
    "5s 4z 2p 5z fight:12 7s fight:12 2m").split()


MENU = "Use healing potion now? 本当に回復薬を使う？"


class Stop(Exception):
    """The player stops (a power cut) once the script has run out."""


def at_the_potion(presses: list[str]) -> tuple[JongRogueMode, RecordingDisplay]:
    """The seed-1 game at the potion, played on the buttons from ``presses``, one a menu."""
    game, player = Game("plus"), HeadlessPlayer(SEED)
    mode = JongRogueMode(game, player)
    display, buttons = RecordingDisplay(), Buttons()
    script = list(presses)
    shown = [0]

    def sleep(_: float) -> None:
        if len(display.views) == shown[0]:
            return  # one press a screen: the next waits for the screen it changed
        shown[0] = len(display.views)
        if not script:
            raise Stop
        buttons.press(script.pop(0))

    session = Session(mode, tiles=SimTiles(game, player),
                      choices=buttons.choices(display, sleep), display=display)
    session.replay(TO_THE_POTION)
    try:
        buttons.run(session)
    except Stop:
        pass
    assert not script
    return mode, display
