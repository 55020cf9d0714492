"""``scripts/bench_startup.py``'s GM commands and ``scripts/bench_play.py`` run as their
figures need (bench61): the timings themselves are not tested, only that each bench runs
what it says and prints its figures, and that bench_play stopped leaves nothing behind."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@contextlib.contextmanager
def bench(script: str, *args: str, env: dict[str, str] | None = None,
          ) -> Iterator[subprocess.Popen[str]]:
    """``scripts/<script>.py args`` in a process group of its own, the whole group killed
    when the block is left: a timeout killed the bench alone, and its game played on."""
    root = SCRIPTS.parent
    process = subprocess.Popen([sys.executable, str(SCRIPTS / f"{script}.py"), *args],
                               env={**(env or os.environ), "PYTHONPATH": str(root)}, cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rpartition(")")[2].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def test_bench_play_prints_each_figure_as_median_p95_and_worst() -> None:
    """A tiny run: 3 steps, one resume of a 20-input game, one stop."""
    with bench("bench_play", "--steps", "3", "--runs", "1", "--resume-inputs", "20",
                    "--stop-after", "0") as process:
        out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    shown = out.splitlines()
    number = r"\s+(\d+\.\d)"
    rows = [re.fullmatch(rf"(.+?){number}{number}{number} (m?s) \(n=(\d+)\)(, peak \d+ MB)?",
                         line) for line in shown[1:]]
    assert all(rows), shown
    named = {row[1].strip(): row for row in rows if row}
    names = list(named)
    assert names[4].startswith("save.json write (≤")
    assert names[:4] + names[5:] == [
        "new game: start to first screen", "first show (cold caches)",
        "step: screen to next screen", "show: drawing the screen",
        "resume, 20 inputs, to screen", "SIGTERM to exit, mid-game"]
    assert named["new game: start to first screen"][5] == "s"
    for name, count in (("step: screen to next screen", "3"), ("show: drawing the screen", "3"),
                        ("resume, 20 inputs, to screen", "1"), ("SIGTERM to exit, mid-game", "1")):
        assert named[name][6] == count
    for row in named.values():
        assert float(row[2]) <= float(row[4]) and float(row[3]) <= float(row[4])


def test_bench_play_stopped_by_sigterm_stops_its_game_and_removes_its_folder(
        tmp_path: Path) -> None:
    """SIGTERM (a systemd stop, `kill`) ended the bench alone: its `companion play` played
    its game on, orphaned, and its temporary folder stayed. Now the bench stops the game,
    removes the folder and ends 143, as on a signal."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    # Steps past the game's end: the game is still being played when the signal comes.
    with bench("bench_play", "--steps", "100000",
               env={**os.environ, "TMPDIR": str(temp)}) as process:
        stopped_leaves_nothing(process, temp, "*/data/save.json")


def test_bench_startup_stopped_by_sigterm_stops_its_command_and_removes_its_folder(
        tmp_path: Path) -> None:
    """As bench_play: SIGTERM while it times the commands (its folder made, the GM's files
    being made or the commands timed) leaves no command running and no folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    with bench("bench_startup", env={**os.environ, "TMPDIR": str(temp)}) as process:
        stopped_leaves_nothing(process, temp, "*/config/config.toml")


def stopped_leaves_nothing(process: subprocess.Popen[str], temp: Path, begun: str) -> None:
    """SIGTERM to the bench ``process`` once a file matching ``begun`` is in ``temp`` (its
    TMPDIR) and it runs a child: it ends 143, its children gone, ``temp`` empty."""
    deadline = time.monotonic() + 60
    while not (list(temp.glob(begun)) and children_of(process.pid)):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    children = children_of(process.pid)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 143
    assert [pid for pid in children if Path(f"/proc/{pid}").exists()] == []
    assert list(temp.iterdir()) == []


@pytest.mark.parametrize("script", ["bench_startup", "bench_play"])
def test_the_benches_help_says_their_whole_docstring(script: str) -> None:
    """bench_startup's --help said its docstring's first line alone: how the GM's files are
    made, that no target is set and what its p95 means were left out."""
    import ast

    source = SCRIPTS / f"{script}.py"
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")))
    assert doc is not None
    with bench(script, "--help", env={**os.environ, "COLUMNS": "100"}) as process:
        out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert " ".join(doc.split()) in " ".join(out.split())
