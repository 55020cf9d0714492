"""What the tile camera's pick tests (tests/app/test_camera_enrol_classify_misread_picks.py,
test_camera_every_legal_tile_picks.py, test_camera_empty_slot_picks.py) share: the scripted
readers, the screen a picking player reads, and a game played to its first tile then resumed
from its save.

Kept here, not in a test module, so no test module imports another (dedupe71)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import pytest

from companion.app.commands.play.saves import load_game
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import READ_OPTIONS, Controls, PressSource
from companion.app.session.host import Session
from companion.app.session.reads import OTHER, TableTiles
from companion.app.session.save import SaveGame
from companion.hw.buttons import Press
from companion.hw.display import Display
from companion.hw.display.view import View
from companion.hw.ports import Candidate, ReaderStatus, Slot, SlotReading, TileReader
from companion.systems.jongrogue.game import Game

#: The camera reads the 8m laid as 3m, surely, every time: 8m is not among its candidates.
MISREAD = SlotReading(Slot.DRAW, "3m", 0.9, (Candidate("3m", 0.9), Candidate("6m", 0.04),
                                             Candidate("9m", 0.03), Candidate("2m", 0.02),
                                             Candidate("1m", 0.01)))


class ScriptedReader:
    """A tile reader that hands out its ``script`` one poll at a time, then nothing."""

    script: deque[list[SlotReading]]

    def poll(self) -> list[SlotReading]:
        return self.script.popleft() if self.script else []

    def status(self) -> ReaderStatus:
        return ReaderStatus(True, "")

    def close(self) -> None:
        return None


class MisreadingCamera(ScriptedReader):
    """The table: every slot empty at start-up, then an 8m laid on the Draw slot, read 3m;
    lifted and laid again each time the player rejects the read."""

    def __init__(self) -> None:
        self.script = deque([[SlotReading(slot, "empty", 1.0) for slot in Slot], [MISREAD]])

    def relay(self) -> None:
        self.script += [[SlotReading(Slot.DRAW, "empty", 1.0)], [], [MISREAD]]


class QuietScreen:
    """A display no one presses and nothing closes; subclasses say what ``show`` does."""

    def poll(self) -> list[Press]:
        return []

    def close(self) -> None:
        return None


class ShowsPicks(Protocol):
    def show(self, status: str, picks: tuple[str, ...]) -> None: ...


class PickScreen(QuietScreen):
    """The session's display as a picking player reads it: (status, picks)."""

    def __init__(self, player: ShowsPicks) -> None:
        self.player = player

    def show(self, view: View) -> None:
        picks = () if view.options == READ_OPTIONS else tuple(o.choice for o in view.options)
        self.player.show(view.status, picks)
        if picks and picks[-1] == OTHER:
            assert view.options[-1].label == "Other tile… 他の牌"


class SteppedClock(Protocol):
    """A test's clock that the session's sleep moves on (as test_session_reads' StepClock)."""

    now: float

    def sleep(self, seconds: float) -> None: ...


class Stop(Exception):
    """The power going off once the first tile is counted."""


class StopAtChoice:
    def next_choice(self, ask: object, show: object) -> int:
        raise Stop


def stop_at_first_tile(game: Game, clock: SteppedClock, limit: float,
                       shown: Callable[[], Sequence[object]]) -> Callable[[float], None]:
    """The session's sleep: the power goes off once ``game`` counts a tile, and a game that
    counts none by ``limit`` seconds fails, saying the last of what was ``shown``."""

    def sleep(seconds: float) -> None:
        if game.inputs:
            raise Stop
        assert clock.now < limit, f"no tile was counted: {list(shown())[-3:]}"
        clock.sleep(seconds)

    return sleep


def play_to_first_tile(game: Game, save_path: Path, reader: TileReader, player: PressSource,
                       display: Display, sleep: Callable[[float], None],
                       clock: Callable[[], float], poll_seconds: float = 0.1) -> None:
    """A `plus` game saved to ``save_path``, played until ``sleep`` stops it."""
    session = Session(JongRogueMode(game), choices=StopAtChoice(),
                      tiles=TableTiles(reader, Controls([player], clock=clock),
                                       accept_seconds=3.0, poll_seconds=poll_seconds,
                                       sleep=sleep, clock=clock),
                      display=display, save=SaveGame(seed=0, preset="plus"),
                      save_path=save_path, sleep=sleep)
    with pytest.raises(Stop):
        session.run()


def resumed_from_save(game: Game, save_path: Path, picked: str) -> Game:
    """The save holds the one tile ``picked``, and `play --resume` replays ``game`` from it."""
    saved = load_game(save_path)
    assert saved is not None and saved.inputs == [picked]
    resumed = Game("plus")
    Session(JongRogueMode(resumed), choices=StopAtChoice(), save=saved).replay(saved.inputs)
    assert [e.to_json() for e in resumed.events] == [e.to_json() for e in game.events]
    return resumed
