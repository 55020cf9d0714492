"""``companion history [--json]``: finished games and totals.

The JSON object: ``runs`` (each a :class:`~companion.app.history.Run`), ``totals`` (of
every run listed: :class:`~companion.app.history.Totals`) and ``skipped``, the rows left out
because no finished game could have written them, each ``{"game_id", "reason"}``; each is
also named on stderr."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.table import Table

from companion.app.arg_types import positive_int
from companion.app.command_list import COMMANDS
from companion.app.command_name import companion_command
from companion.app.history import WALL_OUT, History, Run, Totals

# The runs the table lists unless told: the recent games fit a terminal, and a table of
# every one scrolls them away (and took 11 to 16 s to draw for 10,000 games:
# scripts/bench_startup.py --history-games 10000); the totals count all.
TABLE_RUNS = 20


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "history", help=COMMANDS["history"].help,
        description="List the finished games: wins, the deepest floor reached and the "
                    "causes of death.")
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
    last = args.last if args.last is not None or args.json or args.all else TABLE_RUNS
    listing = history.listing(last)
    for notice in history.notices:
        print(f"companion: {notice}", file=sys.stderr)
    if args.json:
        print(json.dumps(
            {"runs": [asdict(r) for r in listing.runs], "totals": asdict(listing.totals),
             "skipped": [asdict(s) for s in history.skipped]},
            ensure_ascii=False, indent=2,
        ))
    else:
        print_table(Console(), listing.runs, listing.totals, len(history.skipped))
    return 0


@dataclass(frozen=True)
class HistoryColumn:
    """A column of the table: its English ``name`` (which the note of the columns left out
    says), its cells, and whether each is kept whole, its lines as they are (a number, a
    seed: cut, it is another), or may wrap at its spaces (the result). Its heading is the
    name over its Japanese (``ja``): on a line of its own, it widens no narrow column."""

    name: str
    ja: str
    cells: tuple[str, ...]
    whole: bool
    justify: JustifyMethod = "left"

    @property
    def heading(self) -> str:
        return f"{self.name}\n{self.ja}"

    @property
    def least_width(self) -> int:
        """The narrowest it can be with nothing cut: the longest word of its header and
        cells (the longest line, kept whole)."""
        words = [word for cell in (self.heading, *self.cells)
                 for word in (cell.splitlines() if self.whole else cell.split())]
        return max(map(cell_len, words), default=0)


#: The columns the table leaves out, in this order, where the terminal is too narrow for
#: every one whole (env58 N1: below 80 columns every cell was cut to "…", the date, the
#: result and the gold with them). The date, the result, the floor and the gold stay.
GIVEN_UP = ("rules", "level", "preset", "seed")


def result_cell(run: Run) -> str:
    """The result column: won, ended (the wall ran out), or died of its cause."""
    if run.won:
        return "生還 won"
    if run.cause == WALL_OUT:
        return f"ended 終了: {run.cause}"
    return f"died: {run.cause or 'unknown'}"


def table_columns(runs: list[Run], stacked: bool) -> list[HistoryColumn]:
    """The table's columns for ``runs``; ``stacked``, each time under its date. The rules
    revision is beside the seed: the seed plays the game again under it alone."""
    return [
        HistoryColumn("finished\n(UTC)" if stacked else "finished (UTC)", "終了", tuple(
            r.finished_at[:19].replace("T", "\n" if stacked else " ") for r in runs), True),
        HistoryColumn("preset", "版", tuple(r.preset for r in runs), True),
        HistoryColumn("result", "結果", tuple(result_cell(r) for r in runs), False),
        HistoryColumn("floor", "階", tuple(str(r.floor) for r in runs), True, "right"),
        HistoryColumn("level", "レベル", tuple(str(r.level) for r in runs), True, "right"),
        HistoryColumn("gold", "金塊", tuple(str(r.gold) for r in runs), True, "right"),
        HistoryColumn("seed", "シード", tuple("" if r.seed is None else str(r.seed)
                                             for r in runs), True),
        HistoryColumn("rules", "規則", tuple("" if r.rules is None else str(r.rules)
                                           for r in runs), True),
    ]


def table_width(columns: list[HistoryColumn]) -> int:
    """The width of a table of ``columns`` with nothing cut: each column's least width, a
    space either side and a rule after it, and the rule before the first."""
    return sum(column.least_width + 3 for column in columns) + 1


def print_table(console: Console, runs: list[Run], totals: Totals, skipped: int = 0) -> None:
    """``runs`` (the last of the history's, or all) and the ``totals`` of every run;
    ``skipped``, how many runs the history left out (a value edited by hand, said above)."""
    if not runs and skipped:
        # Not "no finished games yet": the history holds games, none it can list
        # (journey71 NIT 7).
        say(console, f"No game in the history can be listed ({skipped} left out, said above).")
        return
    if not runs:
        # And how without hardware: on a laptop `play` stops at once (no camera), and the
        # README's first command, play --headless, puts nothing here (setup73 NIT 6).
        command = companion_command()
        # The hint a line of its own: folded into the first, "No" ended one line and
        # "hardware?" began the next (reviewa73 NIT 5).
        say(console, f"No finished games yet. Play one with `{command} play`.")
        say(console, f"No hardware? `{command} play --input sim --choices keyboard "
                     "--display terminal`.")
        return
    columns = table_columns(runs, stacked=False)
    if table_width(columns) > console.width:
        columns = table_columns(runs, stacked=True)
    left_out: list[str] = []
    for name in GIVEN_UP:
        if table_width(columns) <= console.width:
            break
        columns = [column for column in columns if column.name != name]
        left_out.append(name)
    # Narrower than the table with every word whole, the games are listed: a result's word
    # folded to the column split (山牌切れ) as 山牌切 / れ (journey73 NIT 8); narrower
    # still, rich squeezed it to nothing and cut the gold (hist63 N1).
    if table_width(columns) > console.width:
        print_listed(console, runs)
    else:
        print_columns(console, columns, left_out)
    if len(runs) < totals.games:
        say(console, f"The last {len(runs)} of {totals.games:,} games; every one: "
                     f"`{companion_command()} history --all`")
    rate = totals.wins / totals.games
    say(
        console,
        f"{totals.games:,} game{'' if totals.games == 1 else 's'}, {totals.wins:,} won "
        f"({rate:.1%}), deepest floor {totals.deepest_floor}"
    )
    if totals.deaths_by:
        causes = ", ".join(f"{cause} {n:,}" for cause, n in totals.deaths_by.items())
        say(console, f"Causes of death: {causes}")
    for cause, n in totals.ended_by.items():  # no death (rules72 NIT 5)
        say(console, f"Ended, no death 死亡なし: {cause} {n:,}")


def print_columns(console: Console, columns: list[HistoryColumn], left_out: list[str]) -> None:
    """The table of ``columns``, and which were ``left_out`` to fit it."""
    table = Table(title="Finished games 終わったゲーム")
    for column in columns:
        table.add_column(column.heading, justify=column.justify, no_wrap=column.whole,
                         overflow="fold", min_width=column.least_width)
    for row in zip(*(column.cells for column in columns), strict=True):
        table.add_row(*row)
    console.print(table)
    if left_out:
        command = f"{companion_command()} history --json"
        # A command wider than the terminal (a venv's whole path) wraps mid-path there.
        has = (f"`{command}` has them" if cell_len(command) + 2 <= console.width
               else "this command with --json has them")
        say(console, f"({', '.join(left_out)} left out at this width: {has})")


def print_listed(console: Console, runs: list[Run]) -> None:
    """``runs`` as lines of ``name 日本語: value``, a blank line before each game: on a
    console too narrow for even the date, result, floor and gold as a table (below some 34
    columns) rich squeezed the result to nothing and cut the gold (10260 shown as 1026;
    hist63 N1). Each line wraps at its spaces, so nothing is cut, and none is left out."""
    say(console, "Finished games 終わったゲーム")
    columns = table_columns(runs, stacked=False)
    for index in range(len(runs)):
        console.print()
        for column in columns:
            # a value kept whole in the table is one word here: the date's time on a line
            # of its own read as a field of its own (review63b N-b)
            value = column.cells[index]
            say(console, f"{column.name} {column.ja}: "
                         f"{value.replace(' ', NO_BREAK) if column.whole else value}")
    console.print()  # the totals below are no game's


def say(console: Console, line: str) -> None:
    """``line`` wrapped at its spaces to the console's width in cells (a Japanese name is
    two a letter), never inside a `command`: a hint's command broke across two lines, its
    venv's whole path among them, and failed where pasted; a command wider than the console
    has a line of its own. Rich reads no ``[`` in a path or a cause of death as markup."""
    # The odd parts are the commands: their spaces bind each into one word of the wrap.
    bound = "`".join(part.replace(" ", NO_BREAK) if i % 2 else part
                     for i, part in enumerate(line.split("`")))
    lines: list[str] = []
    for word in (word.replace(NO_BREAK, " ") for word in bound.split()):
        if lines and cell_len(f"{lines[-1]} {word}") <= console.width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    for wrapped in lines:
        console.print(wrapped, soft_wrap=True, markup=False, highlight=False)


#: Stands for a space inside a command while its line is wrapped: no text has it.
NO_BREAK = "\0"
