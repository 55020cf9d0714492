"""``scripts/bench_display.py``'s first screen is timed by bench_play's child (review61b N9):
one place patches ``ScreenDisplay.show`` for both benches."""

from __future__ import annotations

import re

import pytest

from tests.scripts import load_script


def test_bench_display_times_a_new_games_first_screen_from_its_start(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench_display")
    bench.first_screen()
    said = capsys.readouterr().out
    shown = re.fullmatch(r"first screen of `companion play --input sim`: (\d+\.\d\d) s after "
                         r"the process started  \[target 3 s\]\n", said)
    assert shown and 0 < float(shown[1]) < 120, said
