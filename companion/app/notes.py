"""What a command says on stderr beside its work: a note for whoever reads the terminal
or the boot service's journal, not something a player at the screen must see."""

from __future__ import annotations

import sys

from companion.app.command_name import as_typed_here
from companion.errors import CompanionError, error_text


def note(message: str) -> None:
    print(f"companion: {message}", file=sys.stderr)


def tell_error(exc: CompanionError | OSError) -> int:
    """Say the error that stops a command (``companion: error: …``) and give its exit
    status: 2 for what the user gave us (a ValueError kind, a usage error), else 1."""
    print(f"companion: error: {as_typed_here(error_text(exc))}", file=sys.stderr)
    return 2 if isinstance(exc, ValueError) else 1
