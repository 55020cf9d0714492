"""The bench scripts' figures measure what they say (audit hist63 F5, F6, N2, N3, N4): run
with tiny sizes; the timings themselves are not tested."""

from __future__ import annotations

import os
from pathlib import Path

from tests.scripts import load_script

MIB = 1024 * 1024


def test_bench_startups_peak_is_the_commands_own_not_the_benchs(tmp_path: Path) -> None:
    """The peak RSS came from os.wait4, which for a child forked from the bench is never
    below the bench's own RSS at the fork (Linux carries it across exec): every quick
    command read 35 MB, the bench's size. Here the bench holds 256 MiB more than the
    command could: the figure must stay far below it."""
    bench = load_script("bench_startup")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    held = b"\x01" * (256 * MIB)  # written, so resident
    _, once = bench._run_once(("--version",), env)
    headless = next(row for row in bench.UNTIL_SHOWN if "--headless" in row[0])
    _, until = bench._run_until(headless[0], headless[2], env)
    assert len(held) == 256 * MIB
    for kib in (once, until):
        assert kib is not None and 0 < kib * 1024 < 128 * MIB
