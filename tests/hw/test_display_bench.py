"""``scripts/bench_display.py --screenshots``: it writes every screenshot docs/playing.md
shows, so that ``--screenshots docs/`` redraws them all (the dice tray's was a copy of a
test's screenshot, and went stale: sweep 53 item 16)."""

from __future__ import annotations

import re
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
