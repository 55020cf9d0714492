"""``scripts/bench_startup.py``'s GM commands and ``scripts/bench_play.py`` run as their
figures need (bench61): the timings themselves are not tested, only that each bench runs
what it says and prints its figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.scripts import SCRIPTS, load_script


def test_bench_startup_times_the_gm_commands_on_files_it_made_and_leaves_the_fight_as_it_was(
        tmp_path: Path) -> None:
    """The GM's rows run on the sheet and fights SETUP made with the companion (a failing
    command, or a mistyped one not ending in its usage error, stops the bench), and every
    run finds the same genso fight: each attack is taken back, each undo has one to take
    back."""
    bench = load_script("bench_startup")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    for argv in bench.SETUP:
        bench._run_once(argv, env)
    fight = tmp_path / "data" / "genso" / "fight.json"
    made = fight.read_bytes()
    at_the_table = [line for line in bench.COMMAND_LINES
                    if line.exit_code or (line.argv[:1] in (("genso",), ("coc",), ("events",))
                                          and "--help" not in line.argv)]
    assert {line.argv[:2] for line in at_the_table} >= {
        ("genso", "fight"), ("genso", "sheet"), ("coc", "fight"), ("events", "trap"), ()}
    for line in at_the_table:
        seconds, peak_kib = bench._run_timed(line, env)
        assert seconds > 0 and peak_kib > 0
    assert fight.read_bytes() == made
    headless = next(row for row in bench.UNTIL_SHOWN if "--headless" in row[0])
    seconds, _ = bench._run_until(headless[0], headless[2], env)
    assert 0 < seconds < bench.SHOWN_WITHIN_SECONDS


def test_bench_play_prints_each_figure_as_median_p95_and_worst() -> None:
    """A tiny run: 3 steps, one resume of a 20-input game, one stop."""
    root = SCRIPTS.parent
    shown = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_play.py"), "--steps", "3", "--runs", "1",
         "--resume-inputs", "20", "--stop-after", "0"],
        env={**os.environ, "PYTHONPATH": str(root)}, cwd=root, capture_output=True,
        text=True, check=True, timeout=120).stdout.splitlines()
    number = r"\s+(\d+\.\d)"
    rows = [re.fullmatch(rf"(.+?){number}{number}{number} (m?s) \(n=(\d+)\)(, peak \d+ MB)?",
                         line) for line in shown[1:]]
    assert all(rows), shown
    named = {row[1].strip(): row for row in rows if row}
    names = list(named)
    assert names[3].startswith("save.json write (≤")
    assert names[:3] + names[4:] == [
        "first show (cold caches)", "step: screen to next screen", "show: drawing the screen",
        "resume, 20 inputs, to screen", "SIGTERM to exit, mid-game"]
    for name, count in (("step: screen to next screen", "3"), ("show: drawing the screen", "3"),
                        ("resume, 20 inputs, to screen", "1"), ("SIGTERM to exit, mid-game", "1")):
        assert named[name][6] == count
    for row in named.values():
        assert float(row[2]) <= float(row[4]) and float(row[3]) <= float(row[4])
