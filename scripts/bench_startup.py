#!/usr/bin/env python3
"""Benchmark how long quick commands take to start and answer, and their peak memory.

At the table a player rolls (``companion roll``), looks a rule up (``companion rules``) or
plays a fight's action (``companion genso``, ``companion coc``) between moves; each is a
new process, so its start-up is what the player waits for. Each command line runs
``--runs`` times in a fresh ``python -m companion`` (user folders in a temporary folder);
prints the median, p95 and slowest wall time and the largest peak RSS. ``--history-games N``
first fills that history with N finished games, as years of play would.

The peak RSS is the command's own: its VmHWM, which it reads as it ends (a ``python -c``
that registers the reading, then runs ``companion`` as ``-m`` does). ``os.wait4``'s figure
was the bench's: Linux carries a forked child's high-water mark across exec, so no command
read less than the bench held when it started it (35 MB with 10,000 games made).

The GM's commands at the table run on files made first with the companion itself, as a GM
makes them: a genso sheet (``genso new Aki``), a genso fight of Aki and pc2 against two
orcs, a coc fight of docs/examples' sheets. So that every run finds the same fight, each
``fight attack`` is taken back (``fight undo``) after it, untimed, and each timed ``fight
undo`` has an attack to take back, made untimed before it. The mistyped command and a
bare ``companion`` end in a usage error (exit 2), as they do for a player.

``play --input camera`` never ends by itself: its row is the time until the terminal
display first asks for a tile, which it does once the camera reader is up (the tile model
loaded, the first agreeing frames read). The camera is the simulated one, a rendered mat
(``input.camera_source = "render:"``), so no camera is needed; a real camera adds its own
opening time. ``play --headless``'s row is the time to its first line; both are stopped
with SIGTERM (scripts/bench_play.py times that stop, and a game's steps and resume).

No target is set for these; at the table a command over about 2 s on a Pi (this
machine's figure times 3 to 5) is felt as a wait (audit pi59). The p95 is by nearest
rank (scripts/bench_stats.py): of 19 runs or fewer (5 by default) it is the slowest; give
``--runs 20`` or more for a p95 of its own. Stopped by SIGTERM or Ctrl-C, the bench stops
the command it runs and removes its temporary folder.

    .venv/bin/python scripts/bench_startup.py [--runs 5] [--history-games 10000]
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import pty
import select
import signal
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import non_negative_int, positive_int
from companion.app.history import HISTORY_NAME, History, Run

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_play import bench_parser  # scripts beside this one
from bench_stats import percentile

ROOT = Path(__file__).resolve().parents[1]

#: ``python -m companion`` (its arguments after ``-c CHILD``) that writes its own peak RSS
#: in KiB (VmHWM, per address space and begun again at exec) to the file descriptor
#: BENCH_FD as it ends: its atexit hook, registered first, runs last.
CHILD = """
import atexit, os, runpy
told = int(os.environ.pop("BENCH_FD"))
def tell():
    with open("/proc/self/status", encoding="ascii") as status:
        os.write(told, next(line.split()[1] for line in status
                            if line.startswith("VmHWM:")).encode())
atexit.register(tell)
runpy.run_module("companion", run_name="__main__", alter_sys=True)
"""


@dataclass(frozen=True)
class Timed:
    """A command line timed, its name in the table (its words, if not given) and the exit
    code it ends with; ``before`` runs untimed ahead of each run and ``after`` behind it,
    so that every run finds the same files."""

    argv: tuple[str, ...]
    name: str = ""
    exit_code: int = 0
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()


#: What the GM's commands below work on, made once with the companion before any timing.
SETUP: tuple[tuple[str, ...], ...] = (
    ("genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
     "--skill", "magic"),
    ("genso", "fight", "new", "--party", "Aki", "pc2", "--monsters", "orc:2"),
    ("coc", "fight", "new", "--investigators", "docs/examples/ann.toml",
     "docs/examples/bob.toml", "--foes", "docs/examples/cultist.toml"),
)
GENSO_ATTACK = ("genso", "fight", "attack", "Aki", "orc1", "--seed", "1")
GENSO_UNDO = ("genso", "fight", "undo")
COMMAND_LINES: tuple[Timed, ...] = (
    Timed(("--version",)),
    # Every command listed, none loaded (pi59 F1): with --help, bare, or misspelt.
    Timed(("--help",)),
    Timed((), "companion (no command)", exit_code=2),
    Timed(("plya",), "plya (mistyped)", exit_code=2),
    Timed(("roll", "2d6")),
    Timed(("rules", "sleep", "--floor", "1", "--monster-tile", "1m", "--corner-tile", "3p")),
    Timed(("events", "--help")),
    Timed(("events", "trap", "--seed", "1")),
    Timed(("genso", "--help")),
    Timed(GENSO_ATTACK, "genso fight attack Aki orc1", after=GENSO_UNDO),
    Timed(GENSO_UNDO, before=GENSO_ATTACK),
    Timed(("genso", "fight", "show")),
    Timed(("genso", "sheet", "Aki")),
    Timed(("coc", "--help")),
    Timed(("coc", "fight", "show")),
    Timed(("history",)),
    Timed(("play", "--help")),
)
#: Runs that do not end: each command line, its name in the table, and what the screen
#: shows once it has started.
UNTIL_SHOWN: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("play", "--input", "camera", "--display", "terminal", "--choices", "keyboard"),
     "play --input camera (reader up)", "Draw a tile"),
    (("play", "--headless", "--seed", "5"), "play --headless (first line)", "\n"),
)
SHOWN_WITHIN_SECONDS = 120.0
#: The simulated camera for ``play --input camera``: the rendered mat, empty.
CONFIG_TOML = '[input]\ncamera_source = "render:"\n'


@contextlib.contextmanager
def _companion(argv: tuple[str, ...], env: dict[str, str], stdin: int | None = None,
               stdout: int | None = None, stderr: int | None = None,
               ) -> Iterator[tuple[subprocess.Popen[bytes], Callable[[], int | None]]]:
    """``python -m companion argv`` as :data:`CHILD` runs it, with Popen's ``stdin``,
    ``stdout`` and ``stderr``, and the call that reads its peak RSS in KiB once it has
    ended, inside the block (None: it ended without telling, killed)."""
    read, write = os.pipe()
    try:
        child = subprocess.Popen([sys.executable, "-c", CHILD, *argv], cwd=ROOT,
                                 env={**env, "BENCH_FD": str(write)}, pass_fds=(write,),
                                 stdin=stdin, stdout=stdout, stderr=stderr)
        # Guarded from here on: a SIGTERM (SystemExit) landing as the pipe's end is closed
        # left the child running on, orphaned (a CI run caught it).
        with _stopped_on_leaving(child):
            os.close(write)
            write = -1
            yield child, lambda: int(os.read(read, 64) or 0) or None
    finally:
        if write != -1:
            os.close(write)
        os.close(read)


def _run_once(argv: tuple[str, ...], env: dict[str, str],
              exit_code: int = 0) -> tuple[float, int | None]:
    """Wall seconds and peak RSS (KiB) of one ``python -m companion argv``, which is to
    end with ``exit_code``."""
    start = time.perf_counter()
    with _companion(argv, env, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL) as (child, peak):
        child.wait()
        kib = peak()
    seconds = time.perf_counter() - start
    if child.returncode != exit_code:
        raise SystemExit(f"companion {' '.join(argv)} failed")
    return seconds, kib


@contextlib.contextmanager
def _stopped_on_leaving(child: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """``child``, killed and waited for if it still runs when the block is left (the bench
    stopped): else it ran on, orphaned, in a folder being removed. The block sets its
    ``returncode`` once it has waited for it, so no other process given its pid is killed."""
    try:
        yield child
    finally:
        if child.returncode is None:
            child.kill()
            child.wait()


def _run_timed(line: Timed, env: dict[str, str]) -> tuple[float, int | None]:
    """:func:`_run_once` of ``line``, with its untimed commands around it."""
    if line.before:
        _run_once(line.before, env)
    timed = _run_once(line.argv, env, line.exit_code)
    if line.after:
        _run_once(line.after, env)
    return timed


def _run_until(argv: tuple[str, ...], text: str,
               env: dict[str, str]) -> tuple[float, int | None]:
    """Wall seconds until ``python -m companion argv``, on a terminal of its own, first
    prints ``text``, and its peak RSS (KiB); then it is stopped as systemd stops the boot
    service (SIGTERM, the game saved)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    start = time.perf_counter()
    shown, seconds = b"", 0.0
    try:
        with _companion(argv, env, stdin=follower, stdout=follower,
                        stderr=follower) as (child, peak):
            os.close(follower)
            follower = -1
            try:
                while time.perf_counter() - start < SHOWN_WITHIN_SECONDS:
                    if select.select([leader], [], [], 0.05)[0]:
                        try:
                            shown += os.read(leader, 65536)
                        except OSError:  # the terminal closed: the child has ended
                            break
                    if text.encode() in shown:
                        seconds = time.perf_counter() - start
                        break
            finally:
                child.send_signal(signal.SIGTERM)
                child.wait()
            kib = peak()
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    if not seconds:
        tail = shown.decode(errors="replace")[-300:]
        raise SystemExit(f"companion {' '.join(argv)} did not show {text!r} within "
                         f"{SHOWN_WITHIN_SECONDS:.0f} s; it showed: …{tail}")
    return seconds, kib


def _fill_history(path: Path, games: int) -> None:
    """``games`` finished games in the history at ``path``, one in 100 won."""
    runs = [Run(game_id=f"bench-{n}", finished_at="2026-12-01T20:00:00Z", seed=n,
                preset="plus", won=n % 100 == 0, floor=1 + n % 26, level=1 + n % 15,
                gold=10 * n % 5000, cause=None if n % 100 == 0 else "大こうもり bat",
                events=1800, input_kind="camera") for n in range(games)]
    History(path).record(runs[0])
    with sqlite3.connect(path) as conn:
        names = ", ".join(asdict(runs[0]))
        marks = ", ".join(f":{k}" for k in asdict(runs[0]))
        conn.executemany(f"INSERT INTO runs ({names}) VALUES ({marks})",
                         [asdict(r) for r in runs[1:]])
    conn.close()


def _shortened(name: str) -> str:
    """``name`` cut to the table's column."""
    return name if len(name) <= 32 else name[:31] + "…"


def main(argv: list[str] | None = None) -> None:
    # --help shows the whole docstring: what is timed, how the GM's files are made, no target.
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=positive_int, default=5,
                        help="runs of each command line (default 5)")
    parser.add_argument("--history-games", type=non_negative_int, default=0, metavar="N",
                        help="finished games in the history `history` lists (default 0)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, COMPANION_CONFIG_DIR=f"{folder}/config",
                   COMPANION_DATA_DIR=f"{folder}/data")
        if args.history_games:
            _fill_history(Path(folder) / "data" / HISTORY_NAME, args.history_games)
        (Path(folder) / "config").mkdir()
        (Path(folder) / "config" / "config.toml").write_text(CONFIG_TOML, encoding="utf-8")
        print(f"{'command':<34}{'median s':>10}{'p95 s':>8}{'max s':>8}{'peak MB':>9}")
        for argv in SETUP:
            _run_once(argv, env)
        rows: list[tuple[str, Callable[[], tuple[float, int | None]]]] = [
            (_shortened(line.name or " ".join(line.argv)),
             functools.partial(_run_timed, line, env)) for line in COMMAND_LINES]
        rows += [(name, functools.partial(_run_until, argv, text, env))
                 for argv, name, text in UNTIL_SHOWN]
        for name, run in rows:
            run()  # the first run reads the files from disk
            runs = [run() for _ in range(args.runs)]
            seconds = [s for s, _ in runs]
            peaks = [kib for _, kib in runs]
            # a command that ended without telling it (killed) has no figure: none is made up
            peak = "?" if None in peaks else f"{max(k or 0 for k in peaks) / 1024:.0f}"
            print(f"{name:<34}{statistics.median(seconds):>10.2f}"
                  f"{percentile(seconds, 0.95):>8.2f}{max(seconds):>8.2f}{peak:>9}")


if __name__ == "__main__":
    main()
