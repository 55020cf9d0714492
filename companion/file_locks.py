"""The locks on the files the companion changes (a save, a table's fight file, the poison list).

A file is held with :func:`holding`: an advisory ``flock`` on ``<name>.lock`` beside it.
A second session refuses to take it up, and any other writer of that file
(:func:`companion.files.atomic_write_bytes`, through :func:`not_held_elsewhere`) refuses
to write it while it is held. A command that reads a file, changes it and writes it back
holds it the while (:func:`writing`, :func:`changing`), so no change made between its read
and its write is written over. The kernel lets go of a lock when its process dies, however
it dies, so a power cut or a ``kill -9`` leaves no lock held (only, at most, an unlocked
lock file, reused).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

#: How long a command or a session's start waits for a lock another writer holds for a
#: moment, before it is refused as held by a session (which holds it until it stops). A
#: fight command holds the file while it loads and saves it: a `fight apply` writing N
#: sheets does 2N+2 fsyncs meanwhile, 0.4-0.9 s at an SD card's 30-80 ms each (pi59 F3:
#: 0.5 s refused a second command in that window, to be typed again).
LOCK_WAIT_SECONDS = 2.0
#: How long a short change (a poison tracked, a room marked: :func:`changing`) waits for
#: another's to be done: milliseconds, or seconds on a tired SD card or a long list.
CHANGE_WAIT_SECONDS = 5.0
#: How long that wait goes unsaid: most are over in milliseconds.
QUIET_WAIT_SECONDS = 0.5

#: What the boot service's unit sets to its own name (scripts/install-pi.sh), read by
#: :func:`service_name`.
SERVICE_ENV = "COMPANION_SERVICE"


def service_name() -> str:
    """The boot service this run is, as its unit names it in :data:`SERVICE_ENV`; "" none.
    Blank is none: the lock file names no service then, and the System menu offers no Quit
    to console nor does a start wait for a held save (review58a N-9)."""
    return os.environ.get(SERVICE_ENV, "").strip()


#: flock's errors on a filesystem that keeps no locks (NFS without its lock manager: ENOLCK,
#: or EBADF through a writable open; some FUSE and network shares: EOPNOTSUPP, EINVAL; an
#: exclusive lock refused through a read-only open is NFS keeping locks: _refuse_if_held).
#: The file is held by nothing there, as in a folder where no lock file can be made, and
#: that is said once (:func:`_tell_no_locks`): refusing every start would leave nothing to
#: play on such a card, for a refusal of a second companion that is rarely needed.
NO_LOCKS = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL, errno.EBADF})


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a file: its pid and what it is, as its lock file says (or the kernel, when
    the holder could not write the lock file); ``service``, the boot service's unit it runs
    as ("" for a terminal's)."""

    pid: str
    who: str
    service: str = ""

    def __str__(self) -> str:
        return (f"pid {self.pid}, {self.who}"
                + (f", the boot service {self.service}" if self.service else ""))

    @property
    def stop(self) -> str:
        """How a refusal says to stop it: with the command that stops the boot service."""
        return "stop it first" + (f": sudo systemctl stop {self.service}" if self.service
                                  else "")


class FileInUse(CompanionError):
    """Another companion process holds the file (:func:`holding`); ``holder``, who, when
    known."""

    def __init__(self, message: str, holder: Holder | None = None) -> None:
        super().__init__(message)
        self.holder = holder


class StillChanging(OSError):
    """Another process went on changing a file past :data:`CHANGE_WAIT_SECONDS`
    (:func:`changing`): nothing was changed. An OSError naming the file, as a write the
    disk refused is, so a session that goes on after a refused write (the dice tray,
    ``companion events``) says it as one."""


@dataclass(slots=True)
class _Hold:
    fd: int | None  # None: none could be made (a read-only folder): taken before a write
    count: int  # holdings of this process (a session re-opened in one process shares it)
    holder: str  # who holds it, as the lock file says


_HELD: dict[Path, _Hold] = {}  # by lock file: the locks this process holds, or means to
_NO_LOCKS_TOLD: set[Path] = set()  # the folders whose lack of locks was said


class _Busy(Exception):
    """Another process holds the lock."""

    def __init__(self, holder: Holder) -> None:
        super().__init__(holder)
        self.holder = holder


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
def holding(path: Path, holder: str, *, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold ``path`` for this process while the block runs: another :func:`holding` of it
    raises :class:`FileInUse` ("<path> is in use by another companion (pid N, …); stop it
    first"), and so does another process's :func:`atomic_write_bytes` of it. A hold another
    process has for a moment is waited for, ``wait`` seconds.

    ``holder`` says who holds it, in the lock file beside the pid, for those refusals
    (``companion play``); under the boot service, its unit too. Within one process holding
    again is allowed (shared). A folder where no lock file can be made (read-only, full)
    holds nothing yet: the hold is taken before this process writes the file
    (:func:`not_held_elsewhere`), and refused then if another took it meanwhile.
    """
    if path.exists() and not path.is_file():
        yield  # a folder, a device: no file of ours, and reading it is refused
        return
    lock = lock_path(path)
    held = _HELD.get(lock)
    if held is not None:
        held.count += 1
    else:
        try:
            fd = _take(lock, holder, wait)
        except _Busy as busy:
            raise FileInUse(f"{path} is in use by another companion ({busy.holder}); "
                            f"{busy.holder.stop}", busy.holder) from None
        held = _HELD[lock] = _Hold(fd, 1, holder)
    try:
        yield
    finally:
        held.count -= 1
        if held.count == 0:
            _release(lock, held)


def _release(lock: Path, held: _Hold) -> None:
    """Let go of ``held`` (removing its lock file, so none is left beside the file)."""
    if _HELD.get(lock) is held:
        del _HELD[lock]
    if held.fd is not None:
        with contextlib.suppress(OSError):  # removed while held: see _locked
            lock.unlink()
        os.close(held.fd)
        held.fd = None


@contextlib.contextmanager
def writing(path: Path, holder: str) -> Iterator[None]:
    """Hold ``path`` while a fight command loads it, and again while it saves it (never
    while it asks for dice: :func:`~companion.app.modes.fight_unchanged.saving_over` then
    refuses the save of a file changed meanwhile; an undo, which asks none, is held from
    its load to its save). Another's hold is waited for up to :data:`LOCK_WAIT_SECONDS`,
    another command's load and save being that short, unsaid (a table's hold, the one met
    most, is refused after it: a line saying "waiting" would come before each refusal);
    past that refused, as a write of it is (:func:`not_held_elsewhere`): a table holding
    it refuses an action before its dice."""
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(holding(path, holder))
        except FileInUse as exc:
            if exc.holder is None:  # holding's refusals name their holder; said as it is
                raise
            raise FileInUse(_open_elsewhere(path, exc.holder), exc.holder) from None
        yield


@contextlib.contextmanager
def changing(path: Path, holder: str) -> Iterator[None]:
    """Hold ``path`` while this process reads it, changes it and writes it back, a change
    of a moment (a poison tracked, a room marked), so that another's change made between
    the read and the write is not written over. Another's hold is waited for, up to
    :data:`CHANGE_WAIT_SECONDS` (said on stderr once it has lasted
    :data:`QUIET_WAIT_SECONDS`: a wait of milliseconds, the most, said in the middle of the
    dice tray's frame, is left unsaid): it is as short. Past that, :class:`StillChanging`
    naming the file and the holder, and nothing is changed."""
    quiet = min(QUIET_WAIT_SECONDS, CHANGE_WAIT_SECONDS)
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(holding(path, holder, wait=quiet))
        except FileInUse as busy:
            print(f"companion: {path} is being changed by another companion ({busy.holder}): "
                  "waiting for it", file=sys.stderr, flush=True)
            try:
                held.enter_context(holding(path, holder, wait=CHANGE_WAIT_SECONDS - quiet))
            except FileInUse as still:
                raise StillChanging(
                    errno.EBUSY, f"still being changed by another companion ({still.holder}) "
                    f"after {CHANGE_WAIT_SECONDS:g} s: nothing was changed here; try again "
                    "once it is done", str(path)) from None
        yield


@contextlib.contextmanager
def let_go(path: Path) -> Iterator[Callable[[], bool]]:
    """Let other processes have ``path``, which this one holds (:func:`holding`), while the
    block runs: a closed fight's table waits so for the GM's ``fight new``, which the
    table's hold refused. The block is given ``take_back()``, which holds it again as
    before, or is False while another process holds it (``fight new`` still writing it, a
    fight command loading or saving it), and the block waits on. A block left without
    taking it back leaves it to others: its session is leaving (Quit, another mode)."""
    lock = lock_path(path)
    held = _HELD.get(lock)
    if held is None or held.fd is None:
        yield lambda: True
        return
    _release(lock, held)

    def take_back() -> bool:
        try:
            held.fd = _take(lock, held.holder, 0)
        except _Busy:
            return False
        _HELD[lock] = held
        return True

    yield take_back


def _take(lock: Path, holder: str, wait: float) -> int | None:
    """The lock file ``lock``, locked exclusively, with this process's pid and ``holder``
    in it; None when none can be made. :class:`_Busy` when another process holds it past
    ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = _locked(lock, fcntl.LOCK_EX, create=True)
            break
        except _Busy:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.02)
    if fd is not None:
        service = service_name()
        with contextlib.suppress(OSError):  # who holds it, for the refusals; flock is the lock
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n{holder}\n{service}".strip().encode() + b"\n", 0)
    return fd


def _locked(lock: Path, operation: int, *, create: bool) -> int | None:
    """The lock file at ``lock`` open and flocked with ``operation``; :class:`_Busy` while
    another process holds it; None when there is none (``create`` False) or none can be
    made (a read-only or full folder, a filesystem without locks: :data:`NO_LOCKS`).

    A holder removes its lock file as it lets go (so none is left beside the file): a
    file locked after that is no longer the lock, and the one there now is tried instead.
    """
    while True:
        read_only = not create
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
                read_only = True
            except OSError:
                return None
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _Busy(_holder_of(fd))
            os.close(fd)
            raise busy from None
        except OSError as exc:
            if exc.errno == errno.EBADF and read_only and operation == fcntl.LOCK_EX:
                _refuse_if_held(lock, fd)
                return None
            os.close(fd)
            if exc.errno in NO_LOCKS:
                _tell_no_locks(lock, exc)
                return None
            raise OSError(exc.errno, f"cannot lock it: {exc.strerror}", str(lock)) from None
        try:
            now = os.stat(lock)
        except FileNotFoundError:
            now = None
        mine = os.fstat(fd)
        if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
            return fd
        os.close(fd)


def _refuse_if_held(lock: Path, fd: int) -> None:
    """Close ``fd``, the lock file ``lock`` open to read only, which NFS would not lock
    exclusively (EBADF) though it keeps locks (review58b R4): a shared lock tells whether
    another holds it, :class:`_Busy` when one does. Held by none, it is as a folder that
    took no lock file (:func:`not_held_elsewhere` tries again before this process writes)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        busy = _Busy(_holder_of(fd))
        os.close(fd)
        raise busy from None
    except OSError as exc:
        if exc.errno in NO_LOCKS:
            _tell_no_locks(lock, exc)
    os.close(fd)


def _tell_no_locks(lock: Path, exc: OSError) -> None:
    """Say once for each folder, on stderr, that its filesystem keeps no locks: a second
    companion on its files is not refused there."""
    if lock.parent in _NO_LOCKS_TOLD:
        return
    _NO_LOCKS_TOLD.add(lock.parent)
    print(f"companion: {lock}: the {filesystem_of(lock.parent)} keeps no locks "
          f"({exc.strerror}): a second companion on the files in {lock.parent} is not "
          "refused there, so run one at a time", file=sys.stderr, flush=True)


#: The mounts of this process (Linux), for the filesystem a folder is on.
MOUNTINFO = Path("/proc/self/mountinfo")


def filesystem_of(folder: Path) -> str:
    """The filesystem ``folder`` is on, in words: "nfs4 filesystem mounted at /mnt/data";
    "filesystem" when it cannot be told."""
    try:
        lines = MOUNTINFO.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return "filesystem"
    real = str(folder.resolve())
    best: tuple[str, str] | None = None
    for line in lines:
        mine, sep, theirs = line.partition(" - ")
        fields = mine.split()
        if not sep or len(fields) < 5 or not theirs.split():
            continue
        # Spaces and the like in a mount point are written as octal escapes (\040).
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= len(best[0])):
            best = (point, theirs.split()[0])
    if best is None:
        return "filesystem"
    return f"{best[1]} filesystem mounted at {best[0]}"


#: The kernel's table of the locks held (Linux): who really holds a lock file.
PROC_LOCKS = Path("/proc/locks")


def _holder_of(fd: int) -> Holder:
    """Who holds the open lock file ``fd``: as it says ("?" for a pid it does not give),
    unless the kernel names another process as the one holding it (a holder in a read-only
    folder could not write its pid over a dead one's): then that process, by its command
    line."""
    try:
        lines = os.pread(fd, 4096, 0).decode("utf-8", "replace").splitlines()
    except OSError:
        lines = []
    pid = lines[0].strip() if lines and lines[0].strip().isdigit() else "?"
    who = lines[1].strip() if len(lines) > 1 and lines[1].strip() else "companion"
    service = lines[2].strip() if len(lines) > 2 else ""
    holders = _kernel_holders(fd)
    if holders and pid not in holders:
        return Holder(holders[0], _command_of(holders[0]))
    return Holder(pid, who, service)


def _kernel_holders(fd: int) -> list[str]:
    """The pids :data:`PROC_LOCKS` names as holding an flock on the file open at ``fd``;
    [] when it cannot be told."""
    try:
        stat = os.fstat(fd)
        table = PROC_LOCKS.read_text(encoding="ascii", errors="replace")
    except OSError:
        return []
    # "1: FLOCK  ADVISORY  WRITE 8573 fe:00:2146396 0 EOF"; a waiter's line has "->" after
    # the number, and a pid the reader cannot see (another namespace's) is 0 or -1.
    file = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    pids = []
    for line in table.splitlines():
        fields = line.split()
        if (len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == file
                and fields[4].isdigit() and fields[4] != "0"):
            pids.append(fields[4])
    return pids


def _command_of(pid: str) -> str:
    """What process ``pid`` is, by its command line from ``companion`` on (``companion play
    --resume``); "companion" when it cannot be read."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return "companion"
    args = [w for w in words.split("\0") if w]
    for n, arg in enumerate(args):
        if arg == "companion" or arg.endswith("/companion"):
            return " ".join(["companion", *args[n + 1:]])
    return "companion"


def holder_of(path: Path) -> Holder | None:
    """Who holds ``path`` now, another process (:func:`holding`); None when none does."""
    try:
        fd = _locked(lock_path(path), fcntl.LOCK_SH, create=False)
    except _Busy as busy:
        return busy.holder
    if fd is not None:
        os.close(fd)
    return None


def _open_elsewhere(path: Path, holder: Holder) -> str:
    """The refusal of a write of ``path``, which another process holds."""
    return (f"{path} is open in another companion ({holder}), which alone writes it while it "
            f"runs: do it there, or {holder.stop} (reading it still works)")


@contextlib.contextmanager
def not_held_elsewhere(path: Path) -> Iterator[None]:
    """Refuse (:class:`FileInUse`) while another process holds ``path``; else share its lock
    for the write, so no session takes it up half-written by a command. A file this process
    holds is written; one it means to hold and could not yet (:func:`holding` in a folder
    that took no lock file then) is held first, and refused if another process took it up
    meanwhile: its copy there is newer than this one's."""
    lock = lock_path(path)
    held = _HELD.get(lock)
    if held is not None:
        if held.fd is None:
            try:
                held.fd = _take(lock, held.holder, LOCK_WAIT_SECONDS)
            except _Busy as busy:
                raise FileInUse(
                    f"{path} was taken up by another companion ({busy.holder}) while this one "
                    "could hold no lock on it (its folder took no lock file): this one writes "
                    "it no more, so as not to put its older copy over that one's; go on there, "
                    f"or {busy.holder.stop}, then start this one again", busy.holder) from None
        yield
        return
    try:
        fd = _locked(lock, fcntl.LOCK_SH, create=False)
    except _Busy as busy:
        raise FileInUse(_open_elsewhere(path, busy.holder), busy.holder) from None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)
