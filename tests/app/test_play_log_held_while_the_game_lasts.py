"""A game holds its ``--log`` file while it lasts, as it holds its save (hist68 RISK 2):
two `play --log` runs on one file at once interleaved their lines, and `replay` then
refused the file; a resume's rewrite could put the file back without the lines another
game appended meanwhile. Real processes, real flocks."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.app.play_lock_helpers import companion, user_env


def headers(log: Path) -> list[str]:
    """The game ids of the games begun in ``log``, in order."""
    return [json.loads(line)["game_id"] for line in log.read_text().splitlines()
            if '"log": "jongrogue-companion"' in line]


def play(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "play", "--headless", *argv],
                          env=env, capture_output=True, text=True, timeout=120)


def wait_for_lines(log: Path, proc: subprocess.Popen[str], lines: int) -> None:
    deadline = time.monotonic() + 60
    while not log.exists() or len(log.read_text().splitlines()) < lines:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)


def test_a_second_game_on_a_log_in_use_is_refused_naming_the_log_and_the_other_run(
        tmp_path: Path) -> None:
    """A new game and the resume of a stopped one, each with its own save, on the log a
    game is writing: each refused in one line, the log left to the first game alone."""
    env, log = user_env(tmp_path), tmp_path / "g.log"
    stopped = tmp_path / "stopped.json"
    # A game that logged to the same file, then was stopped: its resume rewrites the log.
    earlier = companion(["play", "--headless", "--seed", "9", "--state", str(stopped),
                         "--log", str(log), "--pace", "0.2"], env)
    try:
        wait_for_lines(log, earlier, 3)
        while not json.loads(stopped.read_text())["inputs"]:
            time.sleep(0.05)
    finally:
        earlier.send_signal(signal.SIGKILL)
        earlier.wait()
    first = companion(["play", "--headless", "--seed", "3", "--state",
                       str(tmp_path / "a.json"), "--log", str(log), "--pace", "0.2"], env)
    try:
        wait_for_lines(log, first, len(log.read_text().splitlines()) + 3)
        for argv in (["--seed", "4", "--state", str(tmp_path / "b.json")],
                     ["--resume", "--state", str(stopped)]):
            second = play([*argv, "--log", str(log), "--pace", "0.002"], env)
            assert (second.returncode, second.stdout, second.stderr) == (
                1, "", f"companion: error: {log} is in use by another companion (pid "
                       f"{first.pid}, companion play --log); stop it first\n")
        assert not (tmp_path / "b.json").exists()
        assert len(headers(log)) == 2  # the stopped game's and the first's, no third
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    # The holder gone, the resume carries its game on in the log, which replays whole.
    resumed = play(["--resume", "--state", str(stopped), "--log", str(log), "--pace", "0"],
                   env)
    assert resumed.returncode == 0, resumed.stderr
    assert not (tmp_path / "g.log.lock").exists()
