"""The ``--log`` file: a game's events as JSON Lines, rewritten from the save on a resume."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path


class GameLog:
    """This game's JSON Lines in a ``--log`` file that may hold earlier games before it.

    ``start`` is the byte offset where this game's lines begin (kept in the
    save). :meth:`rewrite` truncates back to it and writes every line of the
    game so far; :meth:`append` adds a step's lines.
    """

    def __init__(self, path: Path, start: int) -> None:
        self.path = path
        self.start = start

    @classmethod
    def begin(cls, path: Path) -> GameLog:
        """A log for a new game, after whatever the file already holds.

        A file ending in the middle of a line (an earlier game cut off and never
        resumed) first gets its line ended, so the new game starts on a line of its own.
        """
        try:
            with open(path, "rb+") as handle:
                size = handle.seek(0, os.SEEK_END)
                if size and (handle.seek(size - 1), handle.read(1))[1] != b"\n":
                    handle.write(b"\n")
                    size += 1
        except FileNotFoundError:
            size = 0
        return cls(path, size)

    def rewrite(self, lines: Sequence[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        with os.fdopen(fd, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            # A file cut shorter than where this game began (edited by hand): write at its end.
            start = min(self.start, size)
            handle.truncate(start)
            handle.seek(start)
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        self.start = start

    def append(self, lines: Sequence[str], sync: bool = False) -> None:
        """Add lines at the end; ``sync`` when no resume would rewrite what a cut lost."""
        if not lines:
            return
        with open(self.path, "ab") as handle:
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
