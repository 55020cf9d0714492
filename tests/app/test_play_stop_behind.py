"""A stop (systemd's SIGTERM, Ctrl-C) while the save is refused says how far the save holds,
not "the game is saved" (env58 R2): that line is the one the journal keeps, and the moves
after the refusal were lost. The refusal is a real read-only folder, read-only to a child
process without root's override of file modes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.disk import without_root_override

SEED = 2


def stopped_in_a_read_only_folder(data: Path, env: dict[str, str], *args: str) -> str:
    """``companion play --headless ARGS`` with ``data`` read-only, stopped by SIGTERM once
    it said the save is refused and played a few moves more: its stderr."""
    data.chmod(0o555)
    try:
        proc = subprocess.Popen([*without_root_override(), sys.executable, "-m", "companion",
                                 "play", "--headless", "--pace", "0.05", *args], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        assert "companion: cannot save (" in first, first
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        rest = proc.communicate(timeout=60)[1].decode()
    finally:
        data.chmod(0o755)
    assert proc.returncode == 130, first + rest
    return first + rest


def test_a_stop_after_the_save_was_refused_says_how_far_it_holds(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data)}
    save = data / "save.json"
    cut = subprocess.Popen([sys.executable, "-m", "companion", "play", "--headless", "--seed",
                            str(SEED), "--resume", "--pace", "0.05"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not save.exists() or len(json.loads(save.read_text())["inputs"]) < 4:
        assert time.monotonic() < deadline and cut.poll() is None
        time.sleep(0.02)
    cut.kill()
    cut.wait()
    before = save.read_bytes()
    moves = len(json.loads(before)["inputs"])
    err = stopped_in_a_read_only_folder(data, env, "--resume")
    assert "the game is saved" not in err
    last = err.splitlines()[-1]
    assert last.startswith(f"companion: stopped; the save {save} holds the game for sure up "
                           f"to move {moves} only: the ")
    assert " moves after it may be lost (the save was refused or not synced, see above). " \
        "Free space or fix the folder; companion play --resume" in last
    assert last.endswith(f"carries on from move {moves}")
    assert save.read_bytes() == before


def test_a_stop_with_nothing_saved_says_so(tmp_path: Path) -> None:
    """A new game whose first save was refused: the stop said nothing at all."""
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data)}
    save = data / "save.json"
    err = stopped_in_a_read_only_folder(data, env, "--seed", str(SEED), "--state", str(save))
    assert err.splitlines()[-1] == ("companion: stopped; nothing of this game is saved for "
                                    f"sure: {save} was refused or not synced (see above)")
    assert not save.exists()
