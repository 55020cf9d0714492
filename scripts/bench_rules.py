"""Benchmark the rules core: complete headless games per second on one core, and resident
memory as the number of games grows (it must stay flat).

    .venv/bin/python scripts/bench_rules.py --games 20000 --preset plus

Prints one line per checkpoint (1k, 2k, 5k, 10k, 20k, 50k, 100k games, as far as --games
goes): games, games/s, inputs/s and the process's peak RSS, then the survival rate.

Last it prints a ceiling: games/s of games as long as the measured ones that do nothing
but what every input of any engine here must do (draw the next tile of the simulated
wall, move it in the ledger, hand it through a generator, journal it), with no rule at
all. No rules core in this interpreter can go faster than that.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Generator

from companion.app.commands.simulate import Tally, game_seed, run_chunk, summary
from companion.dice.randomizer import seeded
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, SimulatedWall, TileLedger

CHECKPOINTS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bare_wall_games_per_second(inputs_per_game: int, games: int = 300) -> float:
    """Games/s when each input is only a wall draw, a ledger move, a generator hop and a
    journal entry: the ceiling for any rules core in this interpreter."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="plus")
    parser.add_argument("--strategy", default="cautious")
    args = parser.parse_args()
    total = Tally()
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    print(f"rules core bench: preset {args.preset}, strategy {args.strategy}, one process")
    print(f"{'games':>8} {'games/s':>9} {'inputs/s':>10} {'cpu s':>8} {'peak RSS MiB':>13}")
    done = 0
    for checkpoint in [c for c in CHECKPOINTS if c < args.games] + [args.games]:
        tally = run_chunk((args.seed, done, checkpoint, args.preset, args.strategy, None))
        total.add(tally)
        done = checkpoint
        cpu = time.process_time() - start_cpu
        print(f"{done:8d} {done / cpu:9.1f} {total.inputs / cpu:10.0f} {cpu:8.1f} "
              f"{rss_mib():13.1f}", flush=True)
    result = summary(total, time.perf_counter() - start_wall)
    low, high = result["ci95"]
    print(f"survival {result['survival_rate']:.3%} (95% CI {low:.3%}-{high:.3%}), "
          f"mean floor {result['mean_floor']:.1f}, {result['inputs_per_game']:.0f} inputs/game")
    print(f"first game's seed {game_seed(args.seed, 0)}")
    ceiling = bare_wall_games_per_second(round(result["inputs_per_game"]))
    print(f"ceiling with no rules at all ({round(result['inputs_per_game'])} bare wall draws "
          f"per game): {ceiling:.0f} games/s")


if __name__ == "__main__":
    main()
