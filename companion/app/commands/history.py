"""``companion history [--json]``: finished games and totals.

The JSON object: ``runs`` (each a :class:`~companion.app.history.Run`), ``totals`` (of
every run listed: :class:`~companion.app.history.Totals`) and ``skipped``, the rows left out
because no finished game could have written them, each ``{"game_id", "reason"}``; each is
also named on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any

from rich.console import Console
from rich.table import Table

from companion.app.arg_types import positive_int
from companion.app.history import History, Run, Totals, tally

# The runs the table lists unless told: the recent games fit a terminal, and a table of
# every one scrolls them away (and took 11 to 16 s to draw for 10,000 games:
# scripts/bench_startup.py --history-games 10000); the totals count all.
TABLE_RUNS = 20


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "history", help="list finished games: wins, deepest floor, causes of death"
    )
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object, of every run unless --last")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--last", type=positive_int, default=None, metavar="N",
        help=f"list only the last N runs, N 1 or more (default: the table lists the last "
             f"{TABLE_RUNS})",
    )
    shown.add_argument("--all", action="store_true", help="list every run in the table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    history = History()
    runs = history.runs()
    totals = tally(runs)
    for notice in history.notices:
        print(f"companion: {notice}", file=sys.stderr)
    last = args.last if args.last is not None or args.json or args.all else TABLE_RUNS
    shown = runs[-last:] if last is not None else runs
    if args.json:
        print(json.dumps(
            {"runs": [asdict(r) for r in shown], "totals": asdict(totals),
             "skipped": [asdict(s) for s in history.skipped]},
            ensure_ascii=False, indent=2,
        ))
    else:
        print_table(Console(), shown, totals)
    return 0


def print_table(console: Console, runs: list[Run], totals: Totals) -> None:
    """``runs`` (the last of the history's, or all) and the ``totals`` of every run."""
    if not runs:
        # Imported here only: play's modules take 0.2 s to load, which a listing never needs.
        from companion.app.commands.play.telling import companion_command

        console.print(f"No finished games yet. Play one with `{companion_command()} play`.")
        return
    table = Table(title="Finished games")
    # the rules revision beside the seed: the seed plays the game again under it alone
    for name in ("finished (UTC)", "preset", "result", "floor", "level", "gold", "seed",
                 "rules"):
        table.add_column(name, justify="right" if name in ("floor", "level", "gold") else "left")
    for r in runs:
        result = "生還 won" if r.won else f"died: {r.cause or 'unknown'}"
        table.add_row(
            r.finished_at.replace("T", " ")[:19], r.preset, result, str(r.floor),
            str(r.level), str(r.gold), "" if r.seed is None else str(r.seed),
            "" if r.rules is None else str(r.rules),
        )
    console.print(table)
    if len(runs) < totals.games:
        console.print(f"The last {len(runs)} of {totals.games:,} games; every one: "
                      "`companion history --all`")
    rate = totals.wins / totals.games
    console.print(
        f"{totals.games:,} game{'' if totals.games == 1 else 's'}, {totals.wins:,} won "
        f"({rate:.1%}), deepest floor {totals.deepest_floor}"
    )
    if totals.deaths_by:
        causes = ", ".join(f"{cause} {n:,}" for cause, n in totals.deaths_by.items())
        console.print(f"Causes of death: {causes}")
