"""newfix61: what `companion play` tells a player at a terminal (newuser61 R1, N6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import weakref
from pathlib import Path

from tests.app.play_pty_helpers import Terminal
from tests.app.play_state_helpers import unfinished_game


def test_the_settings_notices_stay_on_the_terminal_until_ok(tmp_path: Path) -> None:
    """On --display terminal the notices of a bad config.toml went to stderr alone, and the
    first frame's clear wiped them: the player played plus, the ez asked for thrown away
    unsaid. The terminal shows them under Settings 設定 until OK, as the screen does."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(
        '[input]\naccept_seconds = -3\n[game]\npreset = "plsu"\n', encoding="utf-8")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(config),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    term = Terminal(["--input", "sim", "--choices", "keyboard", "--display", "terminal"], env)
    term.answer("Settings 設定", 1, b"a", pause=0.5)
    shown = term.text()
    # Nothing of the game is shown before OK: the notice is the frame on the terminal.
    assert "Floor" not in shown.split("Settings 設定")[1]
    assert "game.preset: unknown preset 'plsu'" in shown
    assert "input.accept_seconds must be at least 0" in shown
    term.answer("Floor", 1, b"")
    term.proc.send_signal(signal.SIGINT)
    assert term.finish() == 130


def test_a_stop_while_the_screen_holds_a_device_error_names_no_command_that_failed(
        tmp_path: Path) -> None:
    """`play --resume` on a PC (the buttons, no GPIO), then Ctrl-C on the Stopped screen:
    the last line said `companion play --resume … carries on`, the command that had just
    failed. It points to the hint above, which names the keys' command."""
    save = tmp_path / "game.json"
    unfinished_game(save)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "play", "--resume",
                             "--state", str(save)], stdin=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    weakref.finalize(proc, proc.kill)
    assert proc.stderr is not None
    lines: list[str] = []
    while not lines or "stays on the screen" not in lines[-1]:
        line = proc.stderr.readline().decode()
        assert line, lines
        lines.append(line.rstrip("\n"))
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    lines += proc.stderr.read().decode().splitlines()
    keys = (f"companion play --resume --input sim --choices keyboard --display terminal "
            f"--state {save}")  # --input sim: journey71 DEFECT 1
    assert any(keys in line for line in lines), lines
    assert lines[-1] == (f"companion: stopped; the game is saved in {save}: the hint above "
                         "says how to play on")
