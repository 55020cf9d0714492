"""The bench scripts' figures measure what they say (audit hist63 F5, F6, N2, N3, N4): run
with tiny sizes; the timings themselves are not tested."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.hw.camera import pace
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


def test_bench_camera_idle_times_the_idle_wait_apart_from_its_start(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The % of one core was the whole wait's, its first 3 s at the camera's full rate and
    the first classifier run in it: the longer --seconds, the lower the figure (a tile 30 %
    in 1 s, 10 % in 20 s). The idle phase is timed apart, at the idle pace alone. The pace
    is made short here (the start 1.2 s) so that a tiny wait has both phases."""
    bench = load_script("bench_camera_idle")
    monkeypatch.setattr(pace, "IDLE_AFTER_S", 0.2)
    start, idle = bench.dice_wait(2.5, rethrow=True)
    # the start ends at the first poll past it; how late that poll comes is the machine's
    # load, not the bench's doing, so only its lower bound is checked (review63b R2)
    assert start.seconds >= bench.start_seconds() - 1e-6
    # the wait ends at the first poll past its length: at the idle pace, a look's period,
    # with a second's slack for a shared machine's late poll or oversleep
    assert 2.5 <= start.seconds + idle.seconds <= 2.5 + pace.IDLE_PERIOD_S + 1.0
    assert 0 < idle.frames / idle.seconds <= 1.5 / pace.IDLE_PERIOD_S
    bench.report("waiting", [start, idle])
    (only_start,) = bench.dice_wait(0.5, rethrow=True)
    bench.report("short", [only_start])
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0].strip() for line in out] == [
        "waiting", "start (full rate)", "then idle", "short", "start (full rate)", "then idle"]
    assert out[-1].endswith("not reached: give --seconds over 1")


@pytest.mark.parametrize("script", ["bench_poisons", "bench_camera_idle"])
def test_these_benches_help_says_their_whole_docstring(
        script: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """bench_poisons' --help said its docstring's first line alone (what a roll is and what
    is printed were left out); neither was among the benches whose help is checked."""
    bench = load_script(script)
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--help"])
    assert exit_.value.code == 0
    assert " ".join(bench.__doc__.split()) in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(("script", "argv", "said"), [
    ("bench_poisons", ["--rolls", "1"], "--rolls must be 2 or more, not 1"),
    ("bench_camera", ["--repeats", "3"], "--repeats must be 4 or more, not 3"),
])
def test_too_few_runs_for_a_median_is_a_usage_error_not_a_traceback(
        script: str, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench_poisons.py --rolls 1` ended in StatisticsError (no median of the rolls after
    the first), `bench_camera.py --repeats 3` too (a quarter of 3 is no call)."""
    with pytest.raises(SystemExit) as exit_:
        load_script(script).main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_bench_poisons_runs_with_two_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_script("bench_poisons").main(["--tracked", "0", "3", "--rolls", "2"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[0] for row in rows] == ["0", "3"] and all(len(row) == 5 for row in rows)


def test_bench_rules_compares_every_games_outcome_not_two_totals() -> None:
    """It said "the three agree on every game's outcome" after comparing the survival rate
    and mean floor alone: engines that swapped two games' outcomes passed. The games' own
    outcomes are compared now: two runs of other games with the same totals differ."""
    bench = load_script("bench_rules")
    reference = bench.measure(3, 0, "ez", "cautious", simulation=False)
    simulated = bench.measure(3, 0, "ez", "cautious", simulation=True)
    assert bench.agreement([reference, simulated]).startswith("the three agree")
    # the same totals, other games' outcomes
    other = bench.measure(3, 1, "ez", "cautious", simulation=True)["outcomes"]
    swapped = {**reference, "build": "compiled", "outcomes": other}
    assert bench.agreement([reference, swapped]) == "MISMATCH: the engines' outcomes differ"


@pytest.mark.parametrize(("count", "fraction", "rank"), [
    (1, 0.95, 1), (5, 0.95, 5), (19, 0.95, 19), (20, 0.95, 19), (21, 0.95, 20),
    (40, 0.95, 38), (10, 0.95, 10), (100, 0.99, 99), (100, 0.95, 95), (300, 0.95, 285),
    (3, 0.5, 2), (4, 0.5, 2)])
def test_the_benches_percentile_is_by_nearest_rank(count: int, fraction: float,
                                                   rank: int) -> None:
    """Nearest rank is the ⌈p·n⌉-th smallest: the p95 of 20 is the 19th, not the worst (one
    formula took the 20th), of 40 the 38th; of 10 the 10th (another took the 9th)."""
    values = [float(n) for n in range(count, 0, -1)]  # given in any order
    assert load_script("bench_stats").percentile(values, fraction) == rank


def test_every_bench_with_a_p95_takes_the_shared_one() -> None:
    """bench_rfid, bench_display and bench_dice took the p95 three ways (bench_play and
    bench_startup bench_rfid's): each now takes bench_stats'."""
    shared = load_script("bench_stats").percentile
    for script in ("bench_rfid", "bench_play", "bench_startup", "bench_display", "bench_dice"):
        assert load_script(script).percentile is shared, script
    spread = load_script("bench_dice")._spread([float(n) for n in range(1, 11)])
    assert "p95 10.0 ms, p99 10.0 ms, max 10.0 ms" in spread
