#!/usr/bin/env python3
"""Benchmark a game of JongRogue being played: a press to the next screen, the save each
step writes, ``play --resume`` of a long game (the boot service's start), and SIGTERM to
exit (the service's stop).

Each run is a whole ``companion play --input sim --choices auto`` in a new process, its
user folders in a temporary folder, on the SDL dummy driver unless SDL_VIDEODRIVER is
set. Nothing is warmed up or faked: the wall is seed ``--seed``'s, each screen is the
game's own next one, and each save is written and fsync'd as at the table. Each figure is
printed as its median, p95 and worst, with the peak RSS of its runs:

- *new game*: from the process's start to its first screen (bench_display's 3 s target).
- *step*: a press to the next screen, from one screen shown to the next (the rules, the
  save and the drawing; auto choices answer at once, so no wait for the player is in
  it), over ``--steps`` steps; *show*: the drawing of each of those screens alone
  (``ScreenDisplay.show``); *first show*: the first screen's, with cold caches.
- *save*: each write of save.json in those steps (a temporary file, fsync, rename, the
  folder fsync'd). An SD card adds its own fsync time.
- *resume*: ``play --resume`` of a game ``--resume-inputs`` steps long (played first with
  no display, and stopped just after a save, as a power cut would stop it), from the
  process's start to its first screen: the journal is replayed. ``--runs`` runs.
- *SIGTERM*: the game stopped ``--stop-after`` seconds after its first screen, mid-game,
  from the signal to the process's end. ``--runs`` runs.

Targets: bench_display's, a full redraw within 16 ms at 800x480 and the first screen of a
new game within 3 s; none is set for a step, a save or a resume. systemd waits 90 s for a
stop before it kills (install-pi.sh sets no TimeoutStopSec). The p95 is by nearest rank
(scripts/bench_stats.py): of 19 figures or fewer (the new game's one, the resume's and the
stop's at the default --runs) it is the worst.

Stopped by SIGTERM or Ctrl-C, the bench stops its ``companion play`` and removes its
temporary folder.

    .venv/bin/python scripts/bench_play.py [--steps 300] [--runs 3] [--resume-inputs 1400]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import NoReturn, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats import number_from, percentile  # a script beside this one

ROOT = Path(__file__).resolve().parents[1]

#: ``companion play`` (its argv as JSON in BENCH_ARGV) with every screen shown and every
#: save.json written timed, told on the file descriptor BENCH_FD: at the first screen the
#: seconds since BENCH_T0 (the parent's clock just before it started the process); after
#: BENCH_SHOWS screens or BENCH_SAVES saves (0: never) the timings as JSON, and the
#: process ends at once, its save whole as after a power cut.
CHILD = """
import json, os, sys, time
from companion import files
from companion.hw.display import screen
told = os.fdopen(int(os.environ["BENCH_FD"]), "w")
shows, saves = [], []
show, write = screen.ScreenDisplay.show, files.atomic_write_bytes
def done():
    print(json.dumps({"shows": shows, "saves": saves}), file=told, flush=True)
    os._exit(0)
def timed_show(self, view):
    begin = time.perf_counter()
    show(self, view)
    shows.append((begin, time.perf_counter()))
    if len(shows) == 1:
        print(time.time() - float(os.environ["BENCH_T0"]), file=told, flush=True)
    if len(shows) == int(os.environ["BENCH_SHOWS"]):
        done()
def timed_write(path, data):
    begin = time.perf_counter()
    write(path, data)
    if path.name == "save.json":
        saves.append((time.perf_counter() - begin, len(data)))
        if len(saves) == int(os.environ["BENCH_SAVES"]):
            done()
screen.ScreenDisplay.show, files.atomic_write_bytes = timed_show, timed_write
from companion.app.cli import main
sys.exit(main(json.loads(os.environ["BENCH_ARGV"])))
"""
#: A game on the simulated wall, the auto-player choosing: every step is the next at once.
GAME = ("play", "--input", "sim", "--choices", "auto")


@dataclass
class Child:
    """A ``companion play`` that :data:`CHILD` times, and where it tells its figures."""

    process: subprocess.Popen[bytes]
    told: TextIO
    argv: tuple[str, ...]


@dataclass
class Run:
    """One child's figures: seconds from its start to its first screen, its screens as
    (start, end) on its own clock, its save.json writes as (seconds, bytes), and its peak
    RSS in KiB."""

    first: float
    shows: list[tuple[float, float]]
    saves: list[tuple[float, int]]
    peak_kib: int


@contextlib.contextmanager
def started(argv: tuple[str, ...], folder: Path, shows: int = 0, saves: int = 0,
            ) -> Iterator[Child]:
    """``companion argv`` as :data:`CHILD` runs it, its user folders in ``folder``, on SDL's
    dummy driver unless SDL_VIDEODRIVER is set. Still running when the block is left (the
    bench stopped, or failed), it is killed and waited for: else it played its game on,
    its folder gone."""
    read, write = os.pipe()
    env = {**os.environ, "COMPANION_DATA_DIR": str(folder / "data"),
           "COMPANION_CONFIG_DIR": str(folder / "config"),
           "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "dummy"),
           "COMPANION_DISPLAY_FULLSCREEN": "false", "BENCH_ARGV": json.dumps(argv),
           "BENCH_FD": str(write), "BENCH_SHOWS": str(shows), "BENCH_SAVES": str(saves),
           "BENCH_T0": repr(time.time())}
    with (folder / "stderr.txt").open("wb") as errors:
        process = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, env=env,
                                   pass_fds=(write,), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors)
    os.close(write)
    child = Child(process, os.fdopen(read), argv)
    try:
        yield child
    finally:
        if process.returncode is None:
            process.kill()
            process.wait()
        child.told.close()


def failed(child: Child, folder: Path, why: str) -> SystemExit:
    """The bench's stop when a child went wrong, with the end of what it said."""
    tail = (folder / "stderr.txt").read_text(encoding="utf-8", errors="replace")[-600:]
    return SystemExit(f"companion {' '.join(child.argv)} {why}: …{tail}")


def first_screen(child: Child, folder: Path) -> float:
    """Seconds from the child's start to its first screen, once it has shown it."""
    line = child.told.readline()
    if not line:
        raise failed(child, folder, "ended before its first screen")
    return float(line)


def ended(child: Child) -> tuple[int, int]:
    """The exit code and peak RSS (KiB) of a child that has ended, or is ending."""
    _, status, usage = os.wait4(child.process.pid, 0)
    # Its Popen told, so that :func:`started` kills no other process given its pid since.
    child.process.returncode = os.waitstatus_to_exitcode(status)
    return child.process.returncode, usage.ru_maxrss


def run(argv: tuple[str, ...], folder: Path, shows: int = 0, saves: int = 0) -> Run:
    """The figures of ``companion argv``, stopped after ``shows`` screens or ``saves``
    saves."""
    with started(argv, folder, shows, saves) as child:
        first = first_screen(child, folder) if shows else 0.0
        line = child.told.readline()
        _, peak = ended(child)
    if not line:
        raise failed(child, folder, f"ended before {shows or saves} "
                                    f"{'screens' if shows else 'saves'}")
    timed = json.loads(line)
    return Run(first, [(s, e) for s, e in timed["shows"]],
               [(s, n) for s, n in timed["saves"]], peak)


def figures(name: str, seconds: list[float], peak_kib: int | None = None, unit: str = "ms",
            ) -> str:
    """One printed line: the median, p95 and worst of ``seconds``, in ``unit``."""
    scale = 1000 if unit == "ms" else 1
    line = (f"{name:<34}{statistics.median(seconds) * scale:>10.1f}"
            f"{percentile(seconds, 0.95) * scale:>9.1f}{max(seconds) * scale:>9.1f} {unit}"
            f" (n={len(seconds)})")
    return line + (f", peak {peak_kib / 1024:.0f} MB" if peak_kib else "")


def steps(count: int, seed: int) -> list[str]:
    """A new game's first ``count`` steps after its first screen: step, show and save."""
    with tempfile.TemporaryDirectory() as name:
        timed = run((*GAME, "--display", "screen", "--seed", str(seed)), Path(name),
                    shows=count + 1)
    ends = [end for _, end in timed.shows]
    return [figures("new game: start to first screen", [timed.first], unit="s"),
            figures("first show (cold caches)", [timed.shows[0][1] - timed.shows[0][0]]),
            figures("step: screen to next screen", [b - a for a, b in itertools.pairwise(ends)],
                    timed.peak_kib),
            figures("show: drawing the screen", [e - s for s, e in timed.shows[1:]]),
            figures(f"save.json write (≤{max(n for _, n in timed.saves)} B)",
                    [s for s, _ in timed.saves])]


def resumes(inputs: int, seed: int, runs: int) -> list[str]:
    """``play --resume`` of a game ``inputs`` steps long, to its first screen."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        # The new game's first save holds no input yet: one save an input after it.
        run((*GAME, "--display", "none", "--seed", str(seed)), folder, saves=inputs + 1)
        save = json.loads((folder / "data" / "save.json").read_text(encoding="utf-8"))
        if save["finished"]:
            raise SystemExit(f"seed {seed}'s game ends before {inputs} steps: give fewer")
        timed = [run((*GAME, "--display", "screen", "--resume"), folder, shows=1)
                 for _ in range(runs)]
    return [figures(f"resume, {len(save['inputs'])} inputs, to screen", [t.first for t in timed],
                    max(t.peak_kib for t in timed), unit="s")]


def stops(after: float, seed: int, runs: int) -> list[str]:
    """SIGTERM to the process's end, ``after`` seconds into a game on the screen."""
    seconds, peak = [], 0
    for _ in range(runs):
        with (tempfile.TemporaryDirectory() as name,
              started((*GAME, "--display", "screen", "--seed", str(seed)), Path(name)) as child):
            first_screen(child, Path(name))
            time.sleep(after)
            begin = time.perf_counter()
            child.process.send_signal(signal.SIGTERM)
            code, kib = ended(child)
            seconds.append(time.perf_counter() - begin)
            peak = max(peak, kib)
            if code != 130:  # play leaves on SIGTERM as on Ctrl-C
                raise failed(child, Path(name), f"ended {code} on SIGTERM, not 130")
    return [figures("SIGTERM to exit, mid-game", seconds, peak)]


def leave(signum: int, frame: FrameType | None) -> NoReturn:
    """SIGTERM's handler: the bench leaves as on Ctrl-C, its children stopped and its
    temporary folders removed on the way out (killed outright, it left both behind)."""
    raise SystemExit(128 + signum)


def bench_parser(doc: str) -> argparse.ArgumentParser:
    """A bench's command line, its SIGTERM made to :func:`leave`; --help shows the whole
    docstring ``doc``: what it measures and how to run it."""
    signal.signal(signal.SIGTERM, leave)
    return argparse.ArgumentParser(description=doc,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def main(argv: list[str] | None = None) -> int:
    # the bench's own process stays small: a child's peak RSS (os.wait4) is never below
    # the bench's at the fork, so only these few lines of companion are imported here
    from companion.app.arg_types import non_negative_int, positive_int

    parser = bench_parser(__doc__)
    parser.add_argument("--steps", type=positive_int, default=300,
                        help="steps timed (default 300)")
    parser.add_argument("--runs", type=positive_int, default=3,
                        help="runs of the resume and of the stop (default 3)")
    parser.add_argument("--resume-inputs", type=non_negative_int, default=1400, metavar="N",
                        help="steps of the game resumed (default 1400; seed 11's ends at "
                             "1464)")
    parser.add_argument("--stop-after", type=number_from(0), default=0.5, metavar="SECONDS",
                        help="how long the game plays before SIGTERM (default 0.5)")
    parser.add_argument("--seed", type=non_negative_int, default=11,
                        help="the wall's (default 11)")
    args = parser.parse_args(argv)
    print(f"{'':<34}{'median':>10}{'p95':>9}{'worst':>9}")
    print("\n".join(steps(args.steps, args.seed)), flush=True)
    print("\n".join(resumes(args.resume_inputs, args.seed, args.runs)), flush=True)
    print("\n".join(stops(args.stop_after, args.seed, args.runs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
