"""A terminal the calibrate tests type on: a text stream that says it is a tty."""

from __future__ import annotations

import io


class Terminal(io.StringIO):
    """The player at a terminal; each Enter awaited is counted, and may be a Ctrl-C."""

    def __init__(self, text: str = "\n", *, ctrl_c: bool = False) -> None:
        super().__init__(text)
        self.ctrl_c = ctrl_c
        self.awaited = 0

    def isatty(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:
        self.awaited += 1
        if self.ctrl_c:
            raise KeyboardInterrupt
        return super().readline(size)
