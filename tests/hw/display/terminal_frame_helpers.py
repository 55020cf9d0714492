"""A view drawn as the terminal display frames it, row by row, for the terminal height tests."""

from __future__ import annotations

import io

from rich.console import Console

from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View

CLEAR = "\x1b[2J\x1b[H"


def frame(view: View, width: int, height: int | None, terminal: bool = True) -> list[str]:
    """The rows the terminal display prints for ``view`` on a console of that size."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, force_terminal=terminal,
                      color_system=None)
    TerminalDisplay(console).show(view)
    return out.getvalue().removeprefix(CLEAR).splitlines()
