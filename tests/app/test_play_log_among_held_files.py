"""The ``--log`` file is one of the files a run holds (held_files), from before anything
is read, not only from when the game's log is made (reviewh68 RISK 1, NIT 1, RISK 2):

- the boot service waits for a log another companion holds, as for a held save (it exited
  1, and systemd gave up after 20 starts);
- a new game refused on a held log says so in one line, before its unfinished save is
  touched (it said the save was set aside, then put back, then the refusal);
- a game left for another mode (System menu → Dice tray) lets its log go with its save (a
  resume of it over SSH was refused on the log alone, naming the tray's run).

One process holds the log's lock once: the run's hold and the game log's are one
(:func:`companion.file_locks.holding` shares it in the process), never two flocks on two
open file descriptions of the same lock file, which would refuse each other."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play import session as play_session
from companion.app.commands.play.saves import load_game
from companion.app.session.log import HOLDER, GameLog
from companion.file_locks import holding, lock_path
from companion.hw.buttons import Button
from companion.hw.display.view import View
from tests.app.held_save_helpers import IN_USE, WAITING, held_by_another
from tests.app.play_lock_helpers import companion, user_env
from tests.app.table import PlayerAtTheScreen

SYSTEM = "System 設定"
TRAY = "Dice tray ダイストレイ"


def test_the_service_waits_for_a_log_in_use_and_plays_once_it_is_let_go(
        tmp_path: Path) -> None:
    """RISK 1: said in the journal, then the game played to its end, logged."""
    env = {**user_env(tmp_path), "COMPANION_SERVICE": "jongrogue-companion"}
    log = tmp_path / "g.log"
    fd = held_by_another(log)
    try:
        service = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "auto",
             "--display", "none", "--seed", "3", "--resume", "--log", str(log)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert service.stderr is not None
        first = service.stderr.readline()
        time.sleep(2.5)  # past the lock's own wait: still waiting, not refused
        assert service.poll() is None, first + service.stderr.read()
    finally:
        os.close(fd)
    rest = service.communicate(timeout=120)[1]
    assert first == (f"companion: {IN_USE}{log} is in use by another companion (pid "
                     f"{os.getpid()}, companion play); {WAITING}\n"), first + rest
    assert service.returncode == 0, first + rest
    assert rest.startswith("companion: let go: taking it up\n"), rest
    saved = load_game(tmp_path / "data" / "save.json")
    assert saved is not None and saved.finished and saved.log_path == str(log.resolve())
    assert '"log": "jongrogue-companion"' in log.read_text().splitlines()[0]
    assert not lock_path(log).exists()


def test_a_new_game_on_a_held_log_is_refused_before_its_unfinished_save_is_touched(
        tmp_path: Path) -> None:
    """NIT 1: one line, the unfinished save left as it was and nothing set aside."""
    env = user_env(tmp_path)
    save, log = tmp_path / "b.json", tmp_path / "g.log"
    earlier = companion(["play", "--headless", "--seed", "9", "--state", str(save),
                         "--pace", "0.2"], env)
    try:
        deadline = time.monotonic() + 60
        while not save.exists() or not json.loads(save.read_text() or "{}").get("inputs"):
            assert time.monotonic() < deadline and earlier.poll() is None
            time.sleep(0.05)
    finally:
        earlier.send_signal(signal.SIGKILL)
        earlier.wait()
    before = save.read_bytes()
    fd = held_by_another(log)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "companion", "play", "--headless", "--seed", "5",
             "--state", str(save), "--log", str(log)],
            env=env, capture_output=True, text=True, timeout=120)
    finally:
        os.close(fd)
    assert (second.returncode, second.stdout, second.stderr) == (
        1, "", f"companion: error: {log} is in use by another companion (pid {os.getpid()}, "
               "companion play); stop it first\n")
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("b.json*")) == ["b.json"]


class LookingAtTheLock(PlayerAtTheScreen):
    """The player, and whether the log's lock file is there each time the tray shows."""

    def __init__(self, log: Path, script: list[tuple[str, str | Button]]) -> None:
        super().__init__(list(script))
        self.log = log
        self.at_the_tray: list[bool] = []
        self.in_the_game: list[bool] = []

    def show(self, view: View) -> None:
        seen = self.at_the_tray if view.prompt.startswith(TRAY) else self.in_the_game
        seen.append(lock_path(self.log).exists())
        super().show(view)


def test_a_game_left_for_the_dice_tray_lets_its_log_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RISK 2: the log is held while the game plays, and let go at the tray, as the save is."""
    for key, value in (("CONFIG_DIR", tmp_path / "config"), ("DATA_DIR", tmp_path / "data"),
                       ("DICE_SOURCE", "sim"), ("INPUT_POLL_SECONDS", "0.005")):
        monkeypatch.setenv(f"COMPANION_{key}", str(value))
    monkeypatch.delenv("COMPANION_SERVICE", raising=False)
    log = tmp_path / "g.log"
    screen = LookingAtTheLock(log, [("", Button.SYSTEM), (SYSTEM, "mode:dice"),
                                    (TRAY, Button.SYSTEM)])
    monkeypatch.setattr(play_session, "open_display", lambda *args: screen)
    assert main(["play", "--input", "sim", "--choices", "keyboard", "--display", "screen",
                 "--seed", "7", "--log", str(log)]) == 130
    assert screen.in_the_game and all(screen.in_the_game)  # held while it plays
    assert screen.at_the_tray and not any(screen.at_the_tray)
    save = load_game(tmp_path / "data" / "save.json")
    assert save is not None and save.log_path == str(log.resolve())


def flocks_on(path: Path) -> list[str]:
    """The pids /proc/locks names as holding an flock on ``path``, once per lock."""
    st = os.stat(path)
    file = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    return [f[4] for f in (line.split() for line in Path("/proc/locks").read_text()
                           .splitlines()) if len(f) >= 6 and f[1] == "FLOCK" and f[5] == file]


def test_the_run_s_hold_and_the_game_log_s_are_one_lock(tmp_path: Path) -> None:
    """The run holds the log (held_files) and its GameLog holds it again: one flock, which
    the GameLog's close leaves to the run and the run's end lets go."""
    log = tmp_path / "g.log"
    with holding(log, HOLDER):
        game_log = GameLog.begin(log)
        assert flocks_on(lock_path(log)) == [str(os.getpid())]
        game_log.close()
        assert flocks_on(lock_path(log)) == [str(os.getpid())]
    assert not lock_path(log).exists()
