"""A save held by another companion process, for the tests of a service that waits for it: the
status's words and a process holding the save's lock."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from companion.file_locks import lock_path

IN_USE = "In use 使用中: "
WAITING = ("stop it first, or wait: this companion takes it up once it is let go "
           "空いたら始めます")


def held_by_another(save: Path) -> int:
    """The lock of ``save`` taken as another companion takes it (this process, as the
    kernel sees it): its descriptor, whose closing lets it go."""
    save.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(save), os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, f"{os.getpid()}\ncompanion play\n".encode())
    return fd
