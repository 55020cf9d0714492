"""What a command says on stderr beside its work: a note for whoever reads the terminal
or the boot service's journal, not something a player at the screen must see."""

from __future__ import annotations

import sys


def note(message: str) -> None:
    print(f"companion: {message}", file=sys.stderr)
