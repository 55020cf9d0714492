"""Benchmark the poison list's cost per roll against its length (soak audit 57 #1).

    .venv/bin/python scripts/bench_poisons.py               # 10, 100 and 1000 poisons
    .venv/bin/python scripts/bench_poisons.py --tracked 838 2000 --rolls 50

Each roll is what the dice tray does after a poison table's walk: ``PoisonList.track`` of
the walk's report (generic mode: a poison given to nobody named, ``victim N``), which reads
the list when another program changed it and writes it whole. The list is seeded with
``--tracked`` poisons written by the list's own writer in a temporary data folder, and
held open as the tray holds it; each roll adds one. Printed per length: the file's size,
the first roll's CPU time (this process's own, so other load on the machine counts less),
the median CPU and wall time (with the write's fsync) of the rolls after it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.poisons import PoisonList
from companion.dice import SimulatedDice
from companion.systems.events.poisoned import Poison
from companion.systems.events.report import EventReport
from companion.systems.events.rules import Mode
from companion.systems.events.run import run_event


def poison_walks(count: int) -> list[EventReport]:
    """``count`` walks of the poison table that each give a poison, in generic mode."""
    walks = [run_event("poison", SimulatedDice.seeded(seed), mode=Mode.GENERIC)
             for seed in range(count)]
    assert all(walk.find("EV-POI-3") for walk in walks)
    return walks


def bench(tracked: int, rolls: int, folder: Path) -> tuple[float, float, float, float]:
    """(file KiB before the rolls, the first roll's CPU ms, the median CPU ms and wall ms
    of the rolls after it) from ``tracked``."""
    path = folder / f"poisoned-{tracked}.toml"
    seeding = PoisonList(path)
    one = Poison(face=2, rule="EV-POI-6", toxicity=8, hours_left=3)
    seeding.poisons = {("victim" if n == 1 else f"victim {n}"): one
                       for n in range(1, tracked + 1)}
    seeding.save()
    size = path.stat().st_size / 1024
    poisons = PoisonList(path)  # as the tray holds it: read once, at its start
    walks = poison_walks(rolls)
    cpu, wall = [], []
    for walk in walks:
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        poisons.track(walk)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    assert len(PoisonList(path).poisons) == tracked + rolls
    return (size, cpu[0] * 1000, statistics.median(cpu[1:]) * 1000,
            statistics.median(wall[1:]) * 1000)


def main(argv: list[str] | None = None) -> int:
    # --help shows the whole docstring: what a roll is, what is printed (it said line one)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tracked", type=int, nargs="+", default=[10, 100, 1000],
                        help="poisons tracked before the rolls (default 10 100 1000)")
    parser.add_argument("--rolls", type=int, default=20,
                        help="rolls timed at each length, 2 or more (default 20)")
    args = parser.parse_args(argv)
    if args.rolls < 2:  # the first roll is printed apart: the median is of those after it
        parser.error(f"--rolls must be 2 or more, not {args.rolls}")
    if min(args.tracked) < 0:
        parser.error("--tracked must be 0 or more")
    print(f"{'tracked':>8} {'file KiB':>9} {'1st CPU ms':>11} {'CPU ms/roll':>12} "
          f"{'wall ms/roll':>13}")
    with tempfile.TemporaryDirectory() as folder:
        for tracked in args.tracked:
            size, first, cpu, wall = bench(tracked, args.rolls, Path(folder))
            print(f"{tracked:>8} {size:>9.1f} {first:>11.2f} {cpu:>12.2f} {wall:>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
