"""The power-cut test: a headless game killed with SIGKILL at random moments and resumed gives
exactly the events (and the log) of the same game played without interruption."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.app.commands.play.saves import load_game

SEED = 7  # a short game (saving fsyncs every step): 258 inputs in rules revision 5
# Paced so the game plays at least 5 s: with every run killed within 0.6 s of its first save,
# at least 3 are killed mid-game, however fast the machine.
PACE = "0.03"


def companion(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def events_of(log: Path) -> list[dict[str, object]]:
    """The log's lines as JSON; only the header's game id differs between two games."""
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines and lines[0].pop("game_id")
    return lines


def test_sigkill_at_random_moments_loses_and_doubles_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    reference = tmp_path / "reference.jsonl"
    done = companion("play", "--headless", "--seed", str(SEED), "--log", str(reference), env=env)
    assert done.wait(timeout=120) == 0, done.stderr.read() if done.stderr else ""

    state, log = tmp_path / "state.json", tmp_path / "cut.jsonl"
    rng = random.Random(20261129)
    first = ["play", "--headless", "--seed", str(SEED), "--state", str(state), "--log", str(log),
             "--pace", PACE]
    resume = ["play", "--headless", "--resume", "--state", str(state), "--log", str(log),
              "--pace", PACE]
    kills = 0
    args = first
    for _ in range(100):
        before = state.stat().st_mtime_ns if state.exists() else None
        proc = companion(*args, env=env)
        # Each run is cut at a random moment after it has saved a step, however long a loaded
        # machine takes to start Python: so every run gets the game further.
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline and (
                (state.stat().st_mtime_ns if state.exists() else None) == before):
            time.sleep(0.005)
        try:
            proc.wait(timeout=rng.uniform(0.0, 0.6))
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            kills += 1
            saved = load_game(state)
            if saved is not None and saved.finished:
                break  # cut after its last step: done (another --resume would start a new game)
            if saved is not None:
                args = resume
            continue
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
        break
    else:
        raise AssertionError("the game never finished")
    assert kills >= 3
    saved = load_game(state)
    assert saved is not None and saved.finished
    assert events_of(log) == events_of(reference)
