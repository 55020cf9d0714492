"""A named pipe (FIFO) where a file is expected, for the tests that a reader refuses one rather
than wait on it: should it wait, a writer comes after a while and ends each wait with nothing
written, so such a test fails on its assertion instead of hanging the suite."""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def pipe_at(path: Path, *, waits_up_to: float = 5.0) -> Iterator[Path]:
    """A FIFO made at ``path``; from ``waits_up_to`` seconds on, any reader waiting on it
    is let go with nothing read (opened for writing and closed, again and again, as a reader
    may open it more than once), until the block ends."""
    os.mkfifo(path)
    stop = threading.Event()

    def release() -> None:
        if stop.wait(waits_up_to):
            return
        while not stop.wait(0.05):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as err:
                if err.errno == errno.ENXIO:  # no reader waits now
                    continue
                return
            os.close(fd)

    writer = threading.Thread(target=release, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        stop.set()
        writer.join()
