"""``companion simulate``: many headless games at once, and their statistics (issue 2).

Survival rate, floors, causes of death, speed. Game ``i`` of a run with base
seed ``S`` always gets seed ``(S << 32) | i``, so the result does not depend on
how the games are spread over processes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.arg_types import existing_file, positive_int, seeds_below
from companion.app.command_list import COMMANDS
from companion.app.commands.rules import (
    PRESET_DEFAULT,
    PROFILE_HELP,
    chosen_preset,
    chosen_profile,
    preset_arg,
    preset_help,
)
from companion.app.session.save import SEED_LIMIT, profile_hash
from companion.systems import jongrogue
from companion.systems.jongrogue.autoplay import STRATEGIES, play
from companion.systems.jongrogue.core import Termination
from companion.systems.jongrogue.game import RULES_REVISION
from companion.systems.jongrogue.narration import cause_name
from companion.systems.jongrogue.profile import Profile, load_profile

CHUNK = 250  # most games per task: big enough to amortise the process hop
# A base seed below it in size gives games whose seeds, (S << 32) | i, are each one
# `companion play --seed` takes (and the history keeps), to play one of them again.
BASE_SEED_LIMIT = SEED_LIMIT >> 32


def game_seed(base: int, index: int) -> int:
    return (base << 32) | index


@dataclass
class Tally:
    """Sums over finished games; two tallies add up to the tally of both runs."""

    games: int = 0
    wins: int = 0
    floors: int = 0
    deepest: int = 0
    inputs: int = 0
    deaths_by: Counter[str] = field(default_factory=Counter)
    # The games lost with no death: the empty wall (山牌切れ) ended them (Termination).
    ended_by: Counter[str] = field(default_factory=Counter)
    floor_reached: Counter[int] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.floors += other.floors
        self.deepest = max(self.deepest, other.deepest)
        self.inputs += other.inputs
        self.deaths_by.update(other.deaths_by)
        self.ended_by.update(other.ended_by)
        self.floor_reached.update(other.floor_reached)


def wilson_ci95(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (sound near 0, unlike the normal one)."""
    if games == 0:
        return (0.0, 0.0)
    z = 1.959964
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_chunk(
    args: tuple[int, int, int, str, str, str | None], simulation: bool = True
) -> Tally:
    """Games ``start``..``stop`` of a run; in simulation mode unless told otherwise (the
    reference mode plays the same games, only slower: scripts/bench_rules.py)."""
    base, start, stop, preset, strategy, profile_path = args
    profile = load_profile(Path(profile_path) if profile_path else None)
    tally = Tally()
    for i in range(start, stop):
        game = play(game_seed(base, i), preset, strategy, profile, simulation=simulation)
        outcome = game.outcome()
        assert outcome is not None
        tally.games += 1
        tally.wins += outcome.won
        tally.floors += outcome.floor
        tally.deepest = max(tally.deepest, outcome.floor)
        tally.inputs += len(game.inputs)
        tally.floor_reached[outcome.floor] += 1
        if outcome.termination is Termination.WALL_EXHAUSTED:
            # No death, the PC perhaps at full HP, as play and history say (journey73
            # DEFECT 2: it was listed under the causes of death).
            tally.ended_by[outcome.termination.value] += 1
        elif not outcome.won:
            tally.deaths_by[outcome.cause or outcome.termination.value] += 1
    return tally


def simulate(
    games: int,
    seed: int = 0,
    preset: str = "plus",
    strategy: str = "cautious",
    profile: str | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Tally, float]:
    """Play ``games`` games in :func:`processes` processes; return the tally and the
    seconds it took."""
    workers = processes(games, jobs)
    size = max(1, min(CHUNK, -(-games // (workers * 4))))  # several chunks per process
    chunks = [
        (seed, start, min(start + size, games), preset, strategy, profile)
        for start in range(0, games, size)
    ]
    total = Tally()
    begin = time.perf_counter()
    results: Iterator[Tally]
    if workers <= 1:
        results = map(run_chunk, chunks)
        for tally in results:
            total.add(tally)
            if progress:
                progress(total.games, games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for tally in pool.map(run_chunk, chunks):
                total.add(tally)
                if progress:
                    progress(total.games, games)
    return total, time.perf_counter() - begin


def processes(games: int, jobs: int) -> int:
    """The processes ``--jobs`` ``jobs`` plays ``games`` in: no more than the games, each
    played whole in one process. The pool started every worker asked for, so ``--jobs 40``
    for one game started 40 interpreters to play it, at a twentieth of the speed of one
    (rules74 NIT 5)."""
    return max(1, min(jobs, games))


def summary(tally: Tally, seconds: float) -> dict[str, Any]:
    """The figures of a run, as ``--json`` prints them after the run's parameters
    (:func:`parameters`). ``deaths_by`` counts the deaths by cause id (a monster's,
    "frozen"), most first; ``ended_by`` the games lost with no death, by what ended them
    (``wall_exhausted``), as ``history --json``'s totals part them; ``cause_names`` names
    each id of both as the text output does."""
    low, high = wilson_ci95(tally.wins, tally.games)
    deaths_by = dict(tally.deaths_by.most_common())
    ended_by = dict(tally.ended_by.most_common())
    return {
        "games": tally.games,
        "wins": tally.wins,
        "survival_rate": tally.wins / tally.games if tally.games else 0.0,
        "ci95": [low, high],
        "mean_floor": tally.floors / tally.games if tally.games else 0.0,
        "deepest_floor": tally.deepest,
        "floor_reached": {str(k): v for k, v in sorted(tally.floor_reached.items())},
        "deaths_by": deaths_by,
        "ended_by": ended_by,
        "cause_names": {cause: cause_name(cause) for cause in [*deaths_by, *ended_by]},
        "inputs_per_game": tally.inputs / tally.games if tally.games else 0.0,
        "seconds": seconds,
        "games_per_second": tally.games / seconds if seconds else 0.0,
        "rules_build": jongrogue.BUILD,
    }


def parameters(args: argparse.Namespace, profile: Profile, path: Path | None) -> dict[str, Any]:
    """What a run measured, so that its saved ``--json`` says so: the rules (preset and
    profile, with the profile's SHA-256 and its house rules as a log's header has them, and
    the engine's rules revision, ``rules``, as a save and a log keep it: the same seed plays
    another game under another revision), the strategy, and the base seed (game i plays
    seed ``(seed << 32) | i``). ``path`` is the profile file played (``--profile``, else
    config.toml's ``game.profile``; None: the packaged profile).

    ``house_rules``: each value the book fixes ([SEED]) that ``profile`` sets otherwise,
    as stderr says it; they were said on stderr alone, so a saved result could not tell
    the rules that played it without the profile file."""
    return {
        "preset": args.preset, "strategy": args.strategy, "seed": args.seed,
        "profile": str(path.resolve()) if path else None,
        "profile_hash": profile_hash(path) if path else None,
        "house_rules": list(profile.house_rules), "rules": RULES_REVISION,
    }


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "simulate", help=COMMANDS["simulate"].help,
        description="Play --games headless games on the simulated wall, seeded from --seed, "
                    "and report the survival rate, the floors reached and the causes of "
                    "death.")
    parser.add_argument("--games", type=positive_int, required=True, help="how many games to play")
    parser.add_argument("--seed", default=0, metavar="S", type=seeds_below(
        BASE_SEED_LIMIT, " here, so that each game's seed, (S << 32) | i, is one "
        "`companion play --seed` takes"),
        help="base seed: the same seed plays the same games; game i's seed is "
             "(S << 32) | i (default 0)")
    parser.add_argument("--preset", type=preset_arg, metavar="PRESET",
                        help=preset_help(PRESET_DEFAULT))
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="cautious",
                        help="auto-player strategy (default cautious)")
    parser.add_argument("--profile", type=existing_file, help=PROFILE_HELP)
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="processes to play them in, no more than the games (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    # report a broken profile before starting any process, and say its house rules
    path, played = chosen_profile(args.profile)
    args.preset = chosen_preset(args.preset)  # config.toml's game.preset, as play's
    measured = parameters(args, played, path)  # the profile's hash before the games read it
    show = _bar if sys.stderr.isatty() else None
    tally, seconds = simulate(
        args.games, args.seed, args.preset, args.strategy, str(path) if path else None,
        args.jobs, show
    )
    if show:
        sys.stderr.write("\n")
    result = {**measured, **summary(tally, seconds)}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    low, high = result["ci95"]
    profile = f", profile {path}" if path else ""
    print(f"{plural(result['games'], 'game')}, preset {args.preset}, strategy {args.strategy}, "
          f"rules revision {result['rules']}{profile}")
    print(
        f"survival (生還率): {result['survival_rate']:.2%} "
        f"({plural(result['wins'], 'win')}; 95% CI {low:.2%} – {high:.2%})"
    )
    # Each heading with its Japanese, as survival's (newuser61 N11).
    print(f"mean floor reached (平均到達階): {result['mean_floor']:.1f} (deepest "
          f"{result['deepest_floor']})")
    # "none" said: a run the empty wall alone ended left the heading bare above its own.
    print("causes of death (死因):" + ("" if result["deaths_by"] else " none (なし)"))
    for cause, count in result["deaths_by"].items():
        print(f"  {count:7d}  {result['cause_names'][cause]}")
    if result["ended_by"]:  # no death: not among the causes of death (journey73 DEFECT 2)
        print("ended, no death (死亡なし):")
        for cause, count in result["ended_by"].items():
            print(f"  {count:7d}  {result['cause_names'][cause]}")
    used = processes(args.games, args.jobs)
    capped = f", --jobs {args.jobs} capped at the {plural(args.games, 'game')}" \
        if used < args.jobs else ""
    print(f"{result['games_per_second']:.0f} games per second (毎秒のゲーム数; "
          f"{plural(used, 'process')}{capped}, {result['rules_build']} rules core)")
    return 0


def plural(count: int, word: str) -> str:
    """``1 game``, ``2 games``, ``1 process``, ``4 processes`` (setup71 NIT 7: "1 games")."""
    return f"{count} {word}{'' if count == 1 else 'es' if word.endswith('s') else 's'}"
