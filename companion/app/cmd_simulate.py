"""``companion simulate``: many headless games and their statistics (issue 2)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.app.cmd_rules import existing_file, positive_int
from companion.app.simulate import simulate, summary
from companion.systems.jongrogue.autoplay import STRATEGIES
from companion.systems.jongrogue.narration import monster_name
from companion.systems.jongrogue.profile import PRESETS, load_profile


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play many headless games and report the survival rate"
    )
    parser.add_argument("--games", type=positive_int, required=True, help="how many games")
    parser.add_argument("--seed", type=int, default=0, help="base seed (game i gets its own)")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="plus")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="cautious")
    parser.add_argument("--profile", type=existing_file, help="a profile TOML of your own")
    parser.add_argument("--jobs", type=positive_int, default=1, help="processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    profile = str(args.profile) if args.profile else None
    load_profile(args.profile)  # report a broken profile before starting any process
    show = _bar if sys.stderr.isatty() else None
    tally, seconds = simulate(
        args.games, args.seed, args.preset, args.strategy, profile, args.jobs, show
    )
    if show:
        sys.stderr.write("\n")
    result = summary(tally, seconds)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    low, high = result["ci95"]
    print(f"{result['games']} games, preset {args.preset}, strategy {args.strategy}")
    print(
        f"survival (生還率): {result['survival_rate']:.2%} "
        f"({result['wins']} wins; 95% CI {low:.2%} – {high:.2%})"
    )
    print(f"mean floor reached: {result['mean_floor']:.1f} (deepest {result['deepest_floor']})")
    print("causes of death:")
    for cause, count in result["deaths_by"].items():
        name = "frozen to death (凍死)" if cause == "frozen" else monster_name(cause)
        print(f"  {count:7d}  {name}")
    print(f"{result['games_per_second']:.0f} games per second ({args.jobs} process(es))")
    return 0
