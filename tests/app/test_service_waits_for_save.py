"""The boot service started while another companion (a game in a terminal, over SSH) holds
the save waits for it, saying so in the journal and on the screen, and takes the game up
once it is let go (concurrency58 F7): it exited at once, systemd started it again every 3 s
and gave up after 20 starts, and the table stayed black after the terminal's game ended.
Elsewhere a second companion is still refused at once (tests/app/test_play_lock.py).

The lock is a real flock on the save's lock file, held by the test and let go from a
thread (or from the test, for a real second process)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play import session as play_session
from companion.app.commands.play.saves import load_game
from companion.hw.buttons import Press
from companion.hw.display.view import View
from tests.app.held_save_helpers import IN_USE, WAITING, held_by_another


class TableScreen:
    """The table's screen: it notes what it shows, and says (``waiting``) when it shows
    the wait; once a game is on it the power goes (a stop)."""

    def __init__(self) -> None:
        self.views: list[View] = []
        self.waiting = threading.Event()
        self.closed = 0

    def show(self, view: View) -> None:
        self.views.append(view)
        if view.prompt.startswith(IN_USE):
            self.waiting.set()

    def poll(self) -> list[Press]:
        if self.views and not self.views[-1].prompt.startswith(IN_USE):
            raise KeyboardInterrupt
        return []

    def close(self) -> None:
        self.closed += 1


def service_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in (("CONFIG_DIR", tmp_path / "config"), ("DATA_DIR", tmp_path / "data"),
                       ("INPUT_POLL_SECONDS", "0.005"), ("SERVICE", "jongrogue-companion")):
        monkeypatch.setenv(f"COMPANION_{key}", str(value))
    return tmp_path / "data" / "save.json"


def test_the_service_waits_on_the_screen_for_a_save_in_use_and_takes_it_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    save = service_env(tmp_path, monkeypatch)
    screen = TableScreen()
    monkeypatch.setattr(play_session, "open_display", lambda *args: screen)
    fd = held_by_another(save)

    def terminal_game_ends() -> None:
        screen.waiting.wait()
        os.close(fd)

    ending = threading.Thread(target=terminal_game_ends)
    ending.start()
    try:
        code = main(["play", "--input", "sim", "--choices", "keyboard", "--display", "screen",
                     "--seed", "3", "--resume"])
    finally:
        screen.waiting.set()
        ending.join()
    said = f"{save} is in use by another companion (pid {os.getpid()}, companion play); {WAITING}"
    err = capsys.readouterr().err
    assert code == 130, err
    assert [v.prompt for v in screen.views[:1]] == [IN_USE + said]
    assert screen.views[-1].floor == 1  # the game, taken up
    assert screen.closed >= 1  # the wait's screen let go before the game opened it again
    assert err.startswith(f"companion: {IN_USE}{said}\ncompanion: let go: taking it up\n"), err
    assert "companion: stopped; the game is saved in" in err
    saved = load_game(save)
    assert saved is not None and saved.seed == 3


def test_a_real_second_process_under_the_service_plays_once_the_save_is_let_go(
        tmp_path: Path) -> None:
    """The journal alone says it where nothing is shown; the game then plays to its end."""
    data = tmp_path / "data"
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data), "COMPANION_SERVICE": "jongrogue-companion"}
    save = data / "save.json"
    fd = held_by_another(save)
    try:
        service = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "auto",
             "--display", "none", "--seed", "3", "--resume"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert service.stderr is not None
        first = service.stderr.readline()
    finally:
        os.close(fd)
    rest = service.communicate(timeout=120)[1]
    assert first == (f"companion: {IN_USE}{save} is in use by another companion (pid "
                     f"{os.getpid()}, companion play); {WAITING}\n"), first + rest
    assert service.returncode == 0, first + rest
    assert rest.startswith("companion: let go: taking it up\n"), rest
    saved = load_game(save)
    assert saved is not None and saved.seed == 3 and saved.finished
