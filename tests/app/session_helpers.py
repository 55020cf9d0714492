"""What the play session's tests share: scripted readers and presses, a clock stepped by the
test, a draw slot's reading, a display that records what it was shown, and a session stopped
after some choices (moved from tests/app/test_session_reads.py and test_session.py, tidy72:
no test module imports another)."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.app.session.log import GameLog
from companion.app.session.mode import ChoiceAsk, Show
from companion.app.session.save import SaveGame
from companion.hw.buttons import Press
from companion.hw.display.view import View
from companion.hw.ports import Candidate, ReaderStatus, Slot, SlotReading
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy
from companion.systems.jongrogue.game import Game


class ScriptedReader:
    """A TileReader whose table changes on a script: one list of readings per poll."""

    def __init__(self, script: list[list[SlotReading]], ok: bool = True) -> None:
        self.script = deque(script)
        self.ok = ok

    def poll(self) -> list[SlotReading]:
        return self.script.popleft() if self.script else []

    def status(self) -> ReaderStatus:
        return ReaderStatus(self.ok, "" if self.ok else "camera: no frames for 5 s")

    def close(self) -> None:
        return None


class ScriptedPresses:
    def __init__(self, script: list[list[Press]]) -> None:
        self.script = deque(script)

    def poll(self) -> list[Press]:
        return self.script.popleft() if self.script else []


class StepClock:
    """Advances by the time each poll sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def draw(label: str | None, *candidates: str) -> SlotReading:
    return SlotReading(Slot.DRAW, label, 0.9, tuple(Candidate(c, 0.1) for c in candidates))


EMPTY_DRAW = SlotReading(Slot.DRAW, "empty", 1.0)


class Stop(Exception):
    """Stands for the power going off in the middle of a game."""


class StopAfter:
    """Auto choices that cut the game after ``n`` of them."""

    def __init__(self, n: int | None) -> None:
        self.n = n

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        if self.n is not None:
            self.n -= 1
            if self.n < 0:
                raise Stop
        return self.auto.next_choice(ask, show)

    def play(self, game: Game) -> StopAfter:
        self.auto = AutoChoices(game, find_strategy("cautious"))
        return self


def sim_session(save: SaveGame, save_path: Path, log_path: Path, choices: StopAfter,
                resume: bool = False) -> Session:
    player = HeadlessPlayer(save.seed, "cautious")
    log = GameLog(log_path, save.log_start) if resume else GameLog.begin(log_path)
    save.log_start = log.start
    game = Game(save.preset)
    session = Session(JongRogueMode(game, player), tiles=SimTiles(game, player),
                      choices=choices.play(game), save=save, save_path=save_path, log=log)
    if resume:
        session.replay(save.inputs)
    session.start_log()
    return session


class RecordingDisplay:
    def __init__(self) -> None:
        self.views: list[View] = []

    def show(self, view: View) -> None:
        self.views.append(view)

    def poll(self) -> list[Press]:
        return []

    def close(self) -> None:
        return None
