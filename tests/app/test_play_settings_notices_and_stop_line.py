"""fix61d: `companion play`'s Settings notices wait for OK, and its stop line after an error
that gave no hint (review61d R2, N6)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path

from companion.hw.display.fonts import NO_FONT_NOTE
from tests.app.play_pty_helpers import Terminal
from tests.app.play_state_helpers import unfinished_game


def read_for(term: Terminal, seconds: float) -> str:
    """What the terminal shows over the next ``seconds``, no key pressed."""
    start = len(term.seen)
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if select.select([term.master], [], [], left)[0]:
            term.seen.extend(os.read(term.master, 65536))
    return bytes(term.seen[start:]).decode("utf-8", errors="replace")


def test_the_settings_notices_wait_for_ok_on_the_terminal(tmp_path: Path) -> None:
    """R2: newfix61's test stopped reading at the notice, so a notice drawn for one frame
    and at once drawn over by the game passed it. The game's first frame comes only once
    OK (a) is pressed: nothing of it in the 1.5 s after the notice, the notice not cleared."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('[game]\npreset = "plsu"\n', encoding="utf-8")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(config),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    term = Terminal(["--input", "sim", "--choices", "keyboard", "--display", "terminal"], env)
    term.answer("Settings 設定", 1, b"", pause=0)
    assert "game.preset: unknown preset 'plsu'" in term.text() + read_for(term, 0)
    waited = read_for(term, 1.5)
    assert "Floor" not in waited and "\x1b[2J" not in waited, waited
    assert term.proc.poll() is None
    os.write(term.master, b"a")
    term.answer("Floor", 1, b"")
    term.proc.send_signal(signal.SIGINT)
    assert term.finish() == 130


def test_a_stop_on_an_error_with_no_hint_says_to_mend_it_first(tmp_path: Path) -> None:
    """N6: a stop (Ctrl-C) while the screen holds an error no hint follows (a game played
    on the simulated wall resumed with --input rfid) says the resume command carries on
    once the error is mended; only the hinted case was tested."""
    save = tmp_path / "game.json"
    unfinished_game(save)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "play", "--resume", "--input",
                             "rfid", "--choices", "keyboard", "--display", "screen", "--state",
                             str(save)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    weakref.finalize(proc, proc.kill)
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while not lines or "stays on the screen" not in lines[-1]:
        assert time.monotonic() < deadline, lines
        line = proc.stderr.readline().decode()
        assert line, lines
        if line.rstrip("\n") == NO_FONT_NOTE:  # said first on a machine without the font
            continue
        lines.append(line.rstrip("\n"))
    assert lines[0] == ("companion: error: this game was played with --input sim; resume it "
                        "with --input sim")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    last = proc.stderr.read().decode().splitlines()[-1]
    # The game was on the simulated wall: its command says so (journey71 DEFECT 1).
    assert last == (f"companion: stopped; the game is saved in {save}: companion play --resume "
                    f"--input sim --choices keyboard --display screen --state {save} carries "
                    "on once the error above is mended")
