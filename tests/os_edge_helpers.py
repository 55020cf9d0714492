"""The edge of the OS a durable write meets, recorded: os.fsync and os.replace as a program
makes them, for the tests of files written to last a power cut."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


class OsEdge:
    """Records os.fsync and os.replace as a program makes them, then makes them for real.

    An fsync is recorded with the path its descriptor is open on (``/proc/self/fd``), and for
    a regular file the bytes it holds then, so a test sees what was written before it was
    synced. A power cut loses what was not fsynced; a SIGKILL does not (the page cache
    survives it), so only a record like this can tell a durable write from a lucky one.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, str, bytes | None]] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(fd: int) -> None:
            where = os.readlink(f"/proc/self/fd/{fd}")
            held = Path(where).read_bytes() if os.path.isfile(where) else None
            self.calls.append(("fsync", where, held))
            real_fsync(fd)

        def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
            self.calls.append(("replace", os.path.realpath(dst), None))
            real_replace(src, dst)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)

    def of(self, path: Path) -> list[tuple[str, str, bytes | None]]:
        """The calls on ``path``, its temporary files or its folder, in order, a temporary
        file's name written as ``<tmp>``."""
        target = os.path.realpath(path)
        folder = os.path.dirname(target)
        name = os.path.basename(target)
        seen = []
        for call, where, held in self.calls:
            base = os.path.basename(where)
            if where in (target, folder):
                seen.append((call, where, held))
            elif os.path.dirname(where) == folder and base.startswith(f".{name}."):
                seen.append((call, "<tmp>", held))
        return seen
