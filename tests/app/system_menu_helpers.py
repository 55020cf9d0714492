"""A JongRogue game whose player can open the System menu (システム), for the System menu tests
and those that switch modes from it: its title, the seed, the menu's clock, the session, and
the game's first choice on the simulated wall."""

from __future__ import annotations

from companion.app.commands.play.sim_sources import SimTiles
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk
from companion.app.session.system_menu import SystemMenu
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from tests.app.table import PlayerAtTheScreen

SYSTEM = "System 設定"
SEED = 3


class MenuClock:
    """The System menu's clock and sleep: a sleep moves the clock on, and no time passes."""

    POLL_SECONDS = 0.5

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def clock(self) -> float:
        return self.now


def game_session(screen: PlayerAtTheScreen, shutdown: str = "",
                 clock: MenuClock | None = None) -> Session:
    """A game of JongRogue on the simulated wall, its choices the player's at ``screen``;
    the System menu's time ``clock``'s when given (else it polls without sleeping)."""
    game = Game("plus")
    mode = JongRogueMode(game, HeadlessPlayer(SEED), describe)
    controls = Controls([screen], clock=screen.time_at_the_table)
    menu = (SystemMenu(controls, "game", 0.0, shutdown, sleep=lambda s: None) if clock is None
            else SystemMenu(controls, "game", MenuClock.POLL_SECONDS, shutdown,
                            sleep=clock.sleep, clock=clock.clock))
    return Session(mode, choices=MenuChoices(controls, 0.0, lambda s: None),
                   tiles=SimTiles(game, mode.sim), display=screen, system_menu=menu)


def before_the_first_choice() -> tuple[str, list[str], str]:
    """The prompt of the game's first choice on this wall, the journal before it, and its
    first option."""
    session = game_session(PlayerAtTheScreen([]))
    ask = session.mode.ask()
    while not isinstance(ask, ChoiceAsk):
        assert ask is not None
        session.mode.answer(session.get(ask))
        ask = session.mode.ask()
    return ask.prompt, list(session.mode.journal), ask.options[ask.highlight].choice


def first_choice() -> str:
    return before_the_first_choice()[0]
