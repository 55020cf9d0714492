"""Fitting a terminal frame to the terminal's rows: the parts that give up rows, in turn."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol, runtime_checkable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.panel import Panel
from rich.text import Text


class GivesUp(IntEnum):
    """What gives up rows to a frame taller than the terminal, in this order: the game's
    log, then a fight's, then the last check; then, still too tall (a fight at 80x24, a
    late floor's PC and menu), the room's table and the combatants' their heading and rules,
    the PC sheet its box, the board its row of column letters, the dice tray its BCDice
    lines, a fight's result its oldest lines. Never the header (floor, HP), a room's tile, a
    line of the PC, a combatant's row, the board's squares, the prompt or the menu.
    端末の高さに収める順。"""

    LOG = 1
    FIGHT_LOG = 2
    LAST_CHECK = 3
    ROOM = 4
    SHEET = 5
    FIGHTERS = 6
    BOARD = 7
    DICE_ROLLS = 8
    RESULT = 9


Given = Mapping[GivesUp, int]


@runtime_checkable
class Gives(Protocol):
    """A part of a frame that can give up rows: ``steps`` of a kind, one at a time."""

    def steps(self, kind: GivesUp) -> int:
        """How many steps of ``kind`` it can give (0: none)."""
        ...

    def shown(self, given: Given) -> RenderableType | None:
        """The part, having given ``given`` steps of each kind; None where nothing is left."""
        ...


@dataclass(frozen=True, slots=True)
class Lines:
    """A panel of lines that gives up its oldest lines first, in its turn (``gives``). The
    lines are text as written: read as rich's markup, a bracketed word in one
    (``choice[a,b]``) was taken for a style and left out."""

    title: str
    lines: Sequence[str]
    gives: GivesUp

    def steps(self, kind: GivesUp) -> int:
        return len(self.lines) if kind is self.gives else 0

    def shown(self, given: Given) -> Panel | None:
        kept = len(self.lines) - given.get(self.gives, 0)
        if kept <= 0:
            return None
        return Panel(Text("\n".join(self.lines[-kept:])), title=self.title,
                     title_align="left")


class Fitted:
    """A frame's parts, top to bottom, fitted to ``rows`` of the terminal (None: as tall as
    they are, for a pipe or a log). At 80x24 a whole frame was 34 to 39 rows, and on the
    Pi's console (100x30) 36: its top, the floor and HP, the room and the PC, was cleared
    off the screen, and the Linux console keeps no scrollback (env58 R1); a CoC fight on its
    board was still 29 to 46 rows at 80x24 with every log given up (term60). The parts give
    up rows in :class:`GivesUp`'s order until the frame fits."""

    def __init__(self, parts: Sequence[RenderableType | Gives], rows: int | None) -> None:
        self.parts = list(parts)
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) \
            -> Iterator[RenderableType]:
        given = self.given(console, options)
        for part in self.parts:
            shown = part.shown(given) if isinstance(part, Gives) else part
            if shown is not None:
                yield shown

    def given(self, console: Console, options: ConsoleOptions) -> dict[GivesUp, int]:
        """How many steps of each kind the parts give up for the frame to fit."""
        given = dict.fromkeys(GivesUp, 0)
        if self.rows is None:
            return given

        def height(part: RenderableType | Gives) -> int:
            shown = part.shown(given) if isinstance(part, Gives) else part
            return 0 if shown is None else len(console.render_lines(shown, options))

        heights = [height(part) for part in self.parts]
        over = sum(heights) - self.rows
        givers = [(n, part) for n, part in enumerate(self.parts) if isinstance(part, Gives)]
        for kind in GivesUp:
            taking = [(n, part) for n, part in givers if part.steps(kind)]
            most = max((part.steps(kind) for _, part in taking), default=0)
            while over > 0 and given[kind] < most:
                given[kind] += 1
                for n, part in taking:
                    now = height(part)
                    over -= heights[n] - now
                    heights[n] = now
        # A later kind's step can save more than was still over (the combatants' table
        # its heading and rules, 8 rows): an earlier kind takes back what fits again.
        for kind in reversed(GivesUp):
            while given[kind]:
                given[kind] -= 1
                if sum(height(part) for part in self.parts) > self.rows:
                    given[kind] += 1
                    break
        return given
