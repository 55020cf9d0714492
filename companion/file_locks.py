"""The locks on the files a session owns (a save, a table's fight file).

A file is held with :func:`holding`: an advisory ``flock`` on ``<name>.lock`` beside it.
A second session refuses to take it up, and any other writer of that file
(:func:`companion.files.atomic_write_bytes`, through :func:`not_held_elsewhere`) refuses
to write it while it is held. The kernel lets go of a lock when its process dies, however
it dies, so a power cut or a ``kill -9`` leaves no lock held (only, at most, an unlocked
lock file, reused).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

#: How long a session waits for a lock another writer holds for a moment (a command's write
#: of a fight file takes milliseconds; a session holds it until it stops).
LOCK_WAIT_SECONDS = 0.5


class FileInUse(CompanionError):
    """Another companion process holds the file (:func:`holding`)."""


@dataclass(slots=True)
class _Hold:
    fd: int | None  # None: let go for a while (:func:`let_go`), or none could be made again
    count: int  # holdings of this process (a session re-opened in one process shares it)
    holder: str  # who holds it, as the lock file says


_HELD: dict[Path, _Hold] = {}  # by lock file: the locks this process holds


class _Busy(Exception):
    """Another process holds the lock: its pid and who it said it is."""

    def __init__(self, pid: str, who: str) -> None:
        super().__init__(pid, who)
        self.pid, self.who = pid, who


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: ``<name>.lock`` beside the file it really is (so a relative
    path, one through a linked folder, or a link to the file finds the same lock)."""
    real = real_path(path)
    return real.parent / f"{real.name}.lock"


LINK_LOOP = "a symbolic link that leads back to itself"


def real_path(path: Path) -> Path:
    """``path`` with its symbolic links followed; an OSError naming it for a loop of links
    (Python 3.11 raises a bare RuntimeError for one, a traceback to the player)."""
    try:
        return path.resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, LINK_LOOP, str(path)) from None
    except OSError as exc:  # a later Python's word for a loop
        if exc.errno != errno.ELOOP:
            raise
        raise OSError(errno.ELOOP, LINK_LOOP, str(path)) from None


@contextlib.contextmanager
def holding(path: Path, holder: str) -> Iterator[None]:
    """Hold ``path`` for this process while the block runs: another :func:`holding` of it
    raises :class:`FileInUse` ("<path> is in use by another companion (pid N, …); stop it
    first"), and so does another process's :func:`atomic_write_bytes` of it.

    ``holder`` says who holds it, in the lock file beside the pid, for those refusals
    (``companion play``). Within one process holding again is allowed (shared). A folder
    where no lock file can be made (read-only, full) is held by nothing: nothing can write
    the file there either, and the session says so when it tries.
    """
    if path.exists() and not path.is_file():
        yield  # a folder, a device: no file of ours, and reading it is refused
        return
    lock = lock_path(path)
    held = _HELD.get(lock)
    if held is not None:
        held.count += 1
    else:
        fd = _take(lock, path, holder)
        if fd is None:
            yield
            return
        held = _HELD[lock] = _Hold(fd, 1, holder)
    try:
        yield
    finally:
        held.count -= 1
        if held.count == 0 and held.fd is not None:
            del _HELD[lock]
            with contextlib.suppress(OSError):  # removed while held: see _locked
                lock.unlink()
            os.close(held.fd)
        elif held.count == 0:
            _HELD.pop(lock, None)


@contextlib.contextmanager
def let_go(path: Path) -> Iterator[None]:
    """Let other processes have ``path``, which this one holds (:func:`holding`), while the
    block runs, then hold it again as before: a closed fight's table waits so for the GM's
    ``fight new``, which the table's hold refused. :class:`FileInUse` if another still
    holds it when the block ends (past the brief wait :func:`_take` allows)."""
    lock = lock_path(path)
    held = _HELD.get(lock)
    if held is None or held.fd is None:
        yield
        return
    del _HELD[lock]
    with contextlib.suppress(OSError):
        lock.unlink()
    os.close(held.fd)
    held.fd = None
    try:
        yield
    finally:
        held.fd = _take(lock, path, held.holder)
        if held.fd is not None:
            _HELD[lock] = held


def _take(lock: Path, path: Path, holder: str) -> int | None:
    """The lock file of ``path``, locked exclusively, with this process's pid and ``holder``
    in it; None when none can be made. A lock held for a moment (a command writing the
    file) is waited for, briefly."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fd = _locked(lock, fcntl.LOCK_EX, create=True)
            break
        except _Busy as busy:
            if time.monotonic() >= deadline:
                raise FileInUse(f"{path} is in use by another companion (pid {busy.pid}, "
                                f"{busy.who}); stop it first") from None
            time.sleep(0.02)
    if fd is not None:
        with contextlib.suppress(OSError):  # who holds it, for the refusals; flock is the lock
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n{holder}\n".encode(), 0)
    return fd


def _locked(lock: Path, operation: int, *, create: bool) -> int | None:
    """The lock file at ``lock`` open and flocked with ``operation``; :class:`_Busy` while
    another process holds it; None when there is none (``create`` False) or none can be
    made (a read-only or full folder).

    A holder removes its lock file as it lets go (so none is left beside the file): a
    file locked after that is no longer the lock, and the one there now is tried instead.
    """
    while True:
        try:
            if not create:
                fd = os.open(lock, os.O_RDONLY)
            else:
                lock.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            if not create:
                return None
            try:  # a folder gone read-only: a lock file in it still locks
                fd = os.open(lock, os.O_RDONLY)
            except OSError:
                return None
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _Busy(*_holder_of(fd))
            os.close(fd)
            raise busy from None
        try:
            now = os.stat(lock)
        except FileNotFoundError:
            now = None
        mine = os.fstat(fd)
        if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)


def _holder_of(fd: int) -> tuple[str, str]:
    """The pid and the holder written in an open lock file ("?" when it says nothing)."""
    try:
        lines = os.pread(fd, 4096, 0).decode("utf-8", "replace").splitlines()
    except OSError:
        lines = []
    pid = lines[0].strip() if lines and lines[0].strip().isdigit() else "?"
    who = lines[1].strip() if len(lines) > 1 and lines[1].strip() else "companion"
    return pid, who


@contextlib.contextmanager
def not_held_elsewhere(path: Path) -> Iterator[None]:
    """Refuse (:class:`FileInUse`) while another process holds ``path``; else share its lock
    for the write, so no session takes it up half-written by a command."""
    lock = lock_path(path)
    if lock in _HELD:
        yield
        return
    try:
        fd = _locked(lock, fcntl.LOCK_SH, create=False)
    except _Busy as busy:
        raise FileInUse(f"{path} is open in another companion (pid {busy.pid}, {busy.who}), "
                        "which alone writes it while it runs: do it there, or stop it first "
                        "(reading it still works)") from None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)
