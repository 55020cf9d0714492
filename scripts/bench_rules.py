"""Benchmark the rules core: complete headless games per second on one core, for the
reference engine, the simulation mode in pure Python and the compiled build, in one run.

    .venv/bin/python scripts/bench_rules.py --games 2000 --preset plus

Each engine plays the same games in a child process of its own, one after the other on
one core (CPU time, so other load on the machine counts less):

- reference: the engine as the play session drives it (a push per input, events,
  prompts and input checks; today's path), pure Python;
- simulation, pure: ``companion simulate``'s mode (no events or prompts, answers in-line);
- simulation, compiled: the same on the mypyc build (``scripts/build_compiled.py``).

Each line says which build ran, games/s, inputs/s, the ratio to the reference and the
peak RSS (it must stay flat as games grow); the three must agree on every game's outcome
(won or not, floor, cause, inputs played: a digest of them all is compared, not only the
survival rate and mean floor, which two swapped outcomes leave as they are). The peak RSS
is the child's own high-water mark (VmHWM, begun again at exec), not ``ru_maxrss``, which
Linux carries over from the process that started it, so it could never read below the
bench's own size (audit fw65 N2). Last comes a
ceiling: games/s of games as long as the measured ones that
do nothing but draw the simulated wall, move each tile in the ledger, hand it through a
generator and journal it, with no rule at all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import positive_int, seeds_below
from companion.app.commands.rules import preset_arg
from companion.app.commands.simulate import BASE_SEED_LIMIT, game_seed
from companion.dice.randomizer import seeded
from companion.systems import jongrogue
from companion.systems.jongrogue.autoplay import STRATEGIES, play
from companion.systems.jongrogue.profile import load_profile
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, SimulatedWall, TileLedger

# (label, rules build, simulation mode)
ENGINES = (
    ("reference", "pure", False),
    ("simulation", "pure", True),
    ("simulation", "compiled", True),
)


def rss_mib() -> float:
    """This process's own peak RSS in MiB: VmHWM, which starts afresh at exec. Its
    ``ru_maxrss`` starts at the forking parent's high-water mark (bench_startup says so
    too); that figure is kept only where /proc is missing."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bare_wall_games_per_second(inputs_per_game: int, games: int = 300) -> float:
    """Games/s when each input is only a wall draw, a ledger move, a generator hop and a
    journal entry: the ceiling for a rules core built on this ledger."""
    def engine(ledger: TileLedger) -> Generator[None, Tile, None]:
        while True:
            tile = yield
            ledger.move(tile, Place.WALL, Place.DISCARDS)

    start = time.process_time()
    for seed in range(games):
        ledger, wall, journal = TileLedger(), SimulatedWall(seeded(seed)), []
        proc = engine(ledger)
        next(proc)
        for _ in range(inputs_per_game):
            if ledger.wall_total == 0:
                ledger.reshuffle()
                wall.refill(ledger.tiles(Place.WALL))
            tile = wall.draw()
            journal.append(tile)
            proc.send(tile)
    return games / (time.process_time() - start)


def measure(games: int, seed: int, preset: str, strategy: str, simulation: bool) -> dict[str, Any]:
    """Play the games here (a child process), as ``companion simulate`` plays them
    (``run_chunk``), and return the figures, with a digest of every game's outcome."""
    start = time.process_time()
    profile = load_profile(None)
    outcomes = []
    for i in range(games):
        game = play(game_seed(seed, i), preset, strategy, profile, simulation=simulation)
        outcome = game.outcome()
        assert outcome is not None
        outcomes.append((outcome.won, outcome.floor, outcome.cause or outcome.termination.value,
                         len(game.inputs)))
    cpu = time.process_time() - start
    return {"build": jongrogue.BUILD, "cpu": cpu, "games": games,
            "inputs": sum(o[3] for o in outcomes),
            "survival": sum(o[0] for o in outcomes) / games if games else 0.0,
            "mean_floor": sum(o[1] for o in outcomes) / games if games else 0.0,
            "outcomes": hashlib.sha256(json.dumps(outcomes).encode()).hexdigest(),
            "rss": rss_mib()}


def agreement(figures: list[dict[str, Any]]) -> str:
    """Whether the engines' runs gave every game the same outcome (:func:`measure`)."""
    if len({f["outcomes"] for f in figures}) == 1:
        return "the three agree on every game's outcome (won, floor, cause, inputs)"
    return "MISMATCH: the engines' outcomes differ"


def run_engine(args: argparse.Namespace, build: str, simulation: bool) -> dict[str, Any]:
    env = dict(os.environ, COMPANION_RULES_BUILD=build)
    env.pop("PYTEST_VERSION", None)
    command = [sys.executable, __file__, "--child", "--games", str(args.games), "--seed",
               str(args.seed), "--preset", args.preset, "--strategy", args.strategy]
    if simulation:
        command.append("--simulation")
    child = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if child.returncode:
        # its reason was thrown away with its stderr (audit scripts68 D2)
        sys.stderr.write(child.stderr)
        raise SystemExit(f"bench_rules.py: the {build} engine's run failed "
                         f"(exit {child.returncode}); its output is above")
    figures: dict[str, Any] = json.loads(child.stdout)
    return figures


def main(argv: list[str] | None = None) -> None:
    # --help shows the whole docstring: what is measured, how to run it, the targets.
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    # the option types and choices are `companion simulate`'s (audit scripts68 D1, D2)
    parser.add_argument("--games", type=positive_int, default=1000,
                        help="games each engine plays (default %(default)s)")
    parser.add_argument("--seed", type=seeds_below(BASE_SEED_LIMIT), default=0, metavar="S",
                        help="base seed, as `companion simulate --seed`: game i's seed is "
                             "(S << 32) | i (default %(default)s)")
    parser.add_argument("--preset", type=preset_arg, default="plus", metavar="PRESET",
                        help="rules preset, as `companion simulate --preset`: ez, plus, or "
                             "ez+OPTION… (default %(default)s)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="cautious",
                        help="auto-player strategy (default %(default)s)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--simulation", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.games, args.seed, args.preset, args.strategy,
                                 args.simulation)))
        return
    print(f"rules core bench: {args.games} games, preset {args.preset}, strategy "
          f"{args.strategy}, base seed {args.seed}; one core, CPU time")
    print(f"{'engine':<12} {'build':<9} {'games/s':>8} {'inputs/s':>9} {'× ref':>6} "
          f"{'cpu s':>7} {'peak RSS MiB':>13}  survival  mean floor")
    reference = 0.0
    measured: list[dict[str, Any]] = []
    inputs_per_game = 0
    for label, build, simulation in ENGINES:
        f = run_engine(args, build, simulation)
        rate = f["games"] / f["cpu"]
        reference = reference or rate
        inputs_per_game = round(f["inputs"] / f["games"])
        note = "" if f["build"] == build else "  (no compiled build: scripts/build_compiled.py)"
        print(f"{label:<12} {f['build']:<9} {rate:8.1f} {f['inputs'] / f['cpu']:9.0f} "
              f"{rate / reference:6.2f} {f['cpu']:7.1f} {f['rss']:13.1f}  "
              f"{f['survival']:7.3%}  {f['mean_floor']:6.2f}{note}", flush=True)
        measured.append(f)
    print(agreement(measured))
    ceiling = bare_wall_games_per_second(inputs_per_game)
    print(f"ceiling with no rules at all ({inputs_per_game} bare wall draws per game, the "
          f"{jongrogue.BUILD} ledger): {ceiling:.0f} games/s")


if __name__ == "__main__":
    main()
