"""review62c's findings on fix62s: a replay sets a save aside only for a fault of the
companion's its inputs meet, never for this system's trouble (R1); a stop on the boot
service's screen pressed through at once still holds the run 30 s from its start, so the
unit's start limit is never reached by retrying (R2); a fault's traceback is printed once
(N6); the kept copy's command is said (N7)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play import telling
from companion.app.commands.play.saves import load_game
from companion.app.history import History
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Controls
from companion.app.session.host import replay
from companion.app.session.save import CorruptSave, default_save_path
from companion.hw.buttons import Button
from companion.systems.jongrogue.game import Game
from tests.app.boot_stop_clock_helpers import FakeClock
from tests.app.failing_replay_helpers import SEED, stopped_after
from tests.app.table import PlayerAtTheScreen

#: This system's trouble met during a replay: none is the save's fault.
ENVIRONMENTAL: list[BaseException] = [
    ImportError("failed to map segment from shared object"),
    ModuleNotFoundError("No module named 'companion.systems.jongrogue._compiled'"),
    RecursionError("maximum recursion depth exceeded"),
    RuntimeError("can't start new thread"),
    PermissionError(13, "Permission denied"),
    MemoryError(),
    KeyboardInterrupt(),
    SystemExit(1),
]


def files_beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name))


@pytest.mark.parametrize("trouble", ENVIRONMENTAL, ids=lambda e: type(e).__name__)
def test_this_systems_trouble_in_a_replay_sets_no_save_aside(
        trouble: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    """review62c R1: an ImportError (a venv broken mid-update), a RecursionError or a
    RuntimeError (no thread to be had) met in a replay set a good save aside as
    `.corrupt-…`, a new game over it. The trouble is made at the replay's fourth input;
    the rest is the real `play --resume`: it stops (a traceback, a start the service's limit
    counts), and the save stays to be resumed once the system is mended."""
    stopped_after(6, monkeypatch)
    path = default_save_path()
    before, names = path.read_bytes(), files_beside(path)
    restore, given = JongRogueMode.restore, []

    def faulty(self: JongRogueMode, text: str) -> None:
        given.append(text)
        if len(given) == 4:
            raise trouble
        restore(self, text)

    with monkeypatch.context() as patch:
        patch.setattr(JongRogueMode, "restore", faulty)
        with contextlib.suppress(type(trouble)):
            assert main(["play", "--headless", "--resume", "--seed", "7"]) != 0
    assert len(given) == 4
    assert files_beside(path) == names and path.read_bytes() == before
    # Mended, it plays on from where it stopped.
    assert main(["play", "--headless", "--resume"]) == 0
    assert files_beside(path) == names


@pytest.mark.parametrize("trouble", [ImportError("No module named 'companion.x'"),
                                     RuntimeError("can't start new thread")],
                         ids=lambda e: type(e).__name__)
def test_this_systems_trouble_in_a_finished_saves_replay_keeps_it_in_place(
        trouble: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for a finished game the history lacks: it was kept as `.unrecorded-…`."""
    path = default_save_path()
    assert main(["play", "--headless", "--state", str(path), "--seed", str(SEED)]) == 0
    History().path.unlink()
    finished = path.read_text()

    def faulty(*args: Any, **kwargs: Any) -> Game:
        raise trouble

    with monkeypatch.context() as patch:
        patch.setattr(Game, "replay", staticmethod(faulty))
        with pytest.raises(type(trouble)):
            main(["play", "--headless", "--resume", "--seed", "7"])
    assert files_beside(path) == ["save.json", "save.json.lock"] or \
        files_beside(path) == ["save.json"]
    assert path.read_text() == finished


@pytest.mark.parametrize("fault", [KeyError("floor"), ZeroDivisionError("division by zero"),
                                   AssertionError("pending"), TypeError("'NoneType'"),
                                   NameError("name 'tile' is not defined")],
                         ids=lambda e: type(e).__name__)
def test_a_fault_of_the_companions_is_set_aside_and_its_traceback_told_once(
        fault: Exception, capsys: pytest.CaptureFixture[str]) -> None:
    """A programming fault is the same at every replay: the save is the companion's to be
    set aside (soak62 R2). A table replays a save up to three times on its way (review62c
    N6): the traceback is printed at the first alone. The message says how the kept copy
    plays on once the companion is fixed (N7)."""

    class Faulty:
        def restore(self, text: str) -> None:
            if text == "3z":  # a new one each time, as the engine's would be
                raise type(fault)(*fault.args)

        def progress(self) -> int:
            return 0

    for _ in range(3):
        with pytest.raises(CorruptSave) as caught:
            replay(Faulty(), ["1m", "2p", "3z"], None)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"the save does not replay at input 3 ('3z'): the companion failed on it "
        f"({type(fault).__name__}: {fault}); unless the save was edited, that is a fault of "
        "the companion's: please report it with the kept save; once the companion is fixed, "
        "`companion play --resume --state` with the kept copy named next plays it on")
    assert capsys.readouterr().err.count("Traceback") == 1


def test_a_finished_save_kept_for_a_fault_says_the_command_that_records_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """review62c N7: `.unrecorded-…` was named with no way on; the command said records it
    once the companion is fixed (record_kept), and removes the file."""
    path = default_save_path()
    assert main(["play", "--headless", "--state", str(path), "--seed", str(SEED)]) == 0
    History().path.unlink()
    finished = load_game(path)
    assert finished is not None

    def faulty(*args: Any, **kwargs: Any) -> Game:
        raise AttributeError("'NoneType' object has no attribute 'floor'")

    with monkeypatch.context() as patch:
        patch.setattr(Game, "replay", staticmethod(faulty))
        assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    (kept,) = path.parent.glob("save.json.unrecorded-*")
    err = capsys.readouterr().err
    command = f"companion play --resume --headless --state {kept}"
    assert (f"the finished game is kept as {kept}: once that is put right, `{command}` puts "
            "it in the history and removes that file") in err
    # Fixed: the command said does it.
    assert main(command.split()[1:]) == 0
    assert not kept.exists() and finished.game_id in [run.game_id for run in History().runs()]


@pytest.mark.parametrize("service", ["jongrogue-companion", ""])
def test_a_stop_pressed_through_soon_after_the_start_holds_the_run_30s_from_it(
        service: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """review62c R2: the unit's start limit (10 starts in 5 minutes) counted on a stop held
    a minute, but OK ends it: a player pressing it at once to retry (a camera being seated)
    started the companion every few seconds, and the 11th start was refused, the screen
    left to the console. Under the service the run now ends no sooner than 30 s from its
    start, saying it starts again shortly; at a terminal a press still ends it at once."""
    clock = FakeClock(1000.0)
    monkeypatch.setattr(telling, "time", clock)
    monkeypatch.setattr(telling, "STARTED", 1000.0 - 4.0)  # models loaded, the camera refused
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 60.0)
    monkeypatch.setenv("COMPANION_SERVICE", service)
    screen = PlayerAtTheScreen([("Stopped 停止", Button.ATTACK)])
    telling.show_stop("no tile camera", screen, Controls([screen]))
    assert not screen.script  # pressed
    held = [v.prompt for v in screen.views if "starting again shortly" in v.prompt]
    if service:
        assert clock.now == pytest.approx(1000.0 - 4.0 + 30.0)
        assert held == ["Stopped 停止, starting again shortly 間もなく再起動: no tile camera"]
        # RestartSec=3 after: 10 such runs outlast the unit's 300 s window.
        assert 10 * (clock.now - telling.STARTED + 3) > 300
    else:
        assert clock.now < 1000.0 + 1 and not held


def test_a_stop_pressed_late_is_not_held_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop shown 40 s after the start (a slow Pi's models) ends at the press."""
    clock = FakeClock(1000.0)
    monkeypatch.setattr(telling, "time", clock)
    monkeypatch.setattr(telling, "STARTED", 1000.0 - 40.0)
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 60.0)
    monkeypatch.setenv("COMPANION_SERVICE", "jongrogue-companion")
    screen = PlayerAtTheScreen([("Stopped 停止", Button.ATTACK)])
    telling.show_stop("no tile camera", screen, Controls([screen]))
    assert clock.now < 1000.0 + 1
    assert not any("starting again" in v.prompt for v in screen.views)
