"""A terminal that types its lines in turn, then Ctrl-C at the next prompt, for the typed dice
commands' tests."""

from __future__ import annotations


class Terminal:
    """The player's terminal: each line typed in turn, then Ctrl-C (KeyboardInterrupt) at the
    next prompt, as the terminal raises it in ``readline``."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.read = 0

    def readline(self) -> str:
        if not self.lines:
            raise KeyboardInterrupt
        self.read += 1
        return self.lines.pop(0) + "\n"
