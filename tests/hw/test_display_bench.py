"""``scripts/bench_display.py``: ``--screenshots`` writes every screenshot docs/playing.md
shows, so that ``--screenshots docs/`` redraws them all (the dice tray's was a copy of a
test's screenshot, and went stale: sweep 53 item 16); a real game's screens are timed
beside the example screen (scripts73 R4)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tests.scripts import load_script

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_screenshots_writes_every_screen_the_docs_show(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load_script("bench_display")
    # The timings are not what is tested here.
    monkeypatch.setattr(bench, "redraws", lambda frames: None)
    monkeypatch.setattr(bench, "first_screen", lambda: None)
    monkeypatch.setattr(bench, "game_screens", lambda steps: None)
    monkeypatch.setattr(sys, "argv", ["bench_display.py", "--screenshots", str(tmp_path)])
    assert bench.main() == 0
    shown = set(re.findall(r"\((screen-[\w-]+\.png)\)",
                           (DOCS / "playing.md").read_text(encoding="utf-8")))
    assert "screen-dice-800x480.png" in shown
    assert shown <= {path.name for path in tmp_path.iterdir()}
    # The tray at the Trap table's outcome: its die drawn top-left of the Dice panel (an
    # ivory face), as in tests/app/test_dice_tray.py's screenshot.
    tray = pygame.image.load(tmp_path / "screen-dice-800x480.png")
    assert tray.get_size() == (800, 480)
    face = tray.get_at((20, 130))
    assert face.r > 200 and face.g > 200 and face.b > 200


def test_a_real_games_screens_are_timed_and_are_what_the_target_is_about(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """scripts73 R4: only the example screen was timed, redrawn with one log line changed
    (0.9 ms median), while a real game's screens took 3.0 ms median and 31.7 ms worst, over
    the 16 ms target: the bench could not show it. A game's screens are timed as bench_play
    times them (its child, a new process at 800x480), with units, and --help says which
    figure the target is about."""
    bench = load_script("bench_display")
    bench.game_screens(4)
    said = capsys.readouterr().out
    shown = re.fullmatch(r"800x480, a real game's screens \(`companion play --input sim "
                         r"--choices auto`, seed 11, the 4 after the first\):\n"
                         r"  shown median (\d+\.\d\d) ms, p95 (\d+\.\d\d) ms, worst "
                         r"(\d+\.\d\d) ms  \[target 16 ms\]\n", said)
    assert shown, said
    median, p95, worst = (float(x) for x in shown.groups())
    assert 0 < median <= p95 <= worst
    env = {**os.environ, "COLUMNS": "100"}
    help_text = subprocess.run([sys.executable, str(bench.__file__), "--help"], env=env,
                               capture_output=True, text=True, timeout=120, check=True).stdout
    assert "*A real game's screens* (the figure the 16 ms target is about)" in help_text
    assert "*The example screen* (a floor, not the target's figure)" in help_text
