"""Writing the companion's own files: whole or not at all, TOML through tomlkit.

A power cut mid-write must leave the old file or the new one, never half of
either: :func:`atomic_write_text` writes a temporary file beside the target,
fsyncs it, renames it over the target (``os.replace`` is atomic on POSIX) and
fsyncs the folder, so the rename itself survives the cut. Each write has a
temporary file of its own (``.<name>.<random>.tmp``), so two writers of one file
never write into each other's; one a cut left behind is removed by the next
process that writes that file (:func:`_remove_stale_temporaries`).

A file a long-running session owns (a save, a table's fight file) is held with
:func:`holding`: an advisory ``flock`` on ``<name>.lock`` beside it. A second
session refuses to take it up, and any other writer of that file
(:func:`atomic_write_bytes`) refuses to write it while it is held. The kernel
lets go of a lock when its process dies, however it dies, so a power cut or a
``kill -9`` leaves no lock held (only, at most, an unlocked lock file, reused).

TOML (calibrations, the RFID tag map, character sheets) is built as a tomlkit
document, never by hand from f-strings: tomlkit quotes and escapes every string,
and keeps the comments a player reads in the file. :func:`write_toml` checks the
text loads back with the standard library before it replaces anything.

The game systems do no I/O; the app and the hardware adapters write through here.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import json
import os
import re
import stat
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import Item, KeyType, SingleKey, Table

from companion.errors import CompanionError, DataError

T = TypeVar("T")

#: When this process began (near enough: the module is loaded as a command starts). A
#: temporary file older than it, and than STALE_SECONDS, is no write of a process running now.
_STARTED = time.time()


#: Errors that say the disk or folder cannot take a write now, not that the path is wrong
#: (EFBIG: a file grown to the largest its filesystem or the process may write).
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                         errno.EIO, errno.EFBIG})


def _umask() -> int:
    """This process's umask (read by setting it, then set back: at load, before threads)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: The mode a new file gets from open() under this process's umask.
_FILE_MODE = 0o666 & ~_umask()
#: A write takes well under this, even on a slow SD card: an older temporary file is stale.
STALE_SECONDS = 60.0
#: How long a session waits for a lock another writer holds for a moment (a command's write
#: of a fight file takes milliseconds; a session holds it until it stops).
LOCK_WAIT_SECONDS = 0.5


class FileInUse(CompanionError):
    """Another companion process holds the file (:func:`holding`)."""


class NotDurable(OSError):
    """The file was replaced, but the folder's fsync after the rename failed (EIO on a tired
    SD card): the new file is in place and read back as written, yet a power cut may still
    bring back the old one. Still an OSError, so every writer tells the player the write may
    not be on the disk; a writer that later checks the file is its own (a table's fight file)
    takes it as the one written, not as someone else's."""


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file, whole."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole.

    Refused with :class:`FileInUse` while another process holds ``path`` (:func:`holding`).
    An error names what failed: the folder when no file can be made in it, else ``path``
    (a full disk's error from write or fsync names no file, and the temporary file is gone).
    A symbolic link is written through: the file it points to is replaced, the link kept.
    A folder fsync that fails after the rename raises :class:`NotDurable`: ``path`` holds
    ``data`` then, only perhaps not on the disk yet.
    """
    if path.is_symlink():
        path = _real(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    with _not_held_elsewhere(path):
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        except OSError as exc:
            # Named by the folder (the temporary name means nothing to the player).
            raise OSError(exc.errno, f"no file can be made in this folder: {exc.strerror}",
                          str(folder)) from exc
        tmp = Path(name)
        try:
            os.fchmod(fd, _FILE_MODE)  # mkstemp makes it 0600; a file written anew is not
            with open(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException as exc:
            with contextlib.suppress(OSError):  # no stray file beside a path not written
                tmp.unlink()
            if isinstance(exc, OSError) and exc.errno is not None:
                raise OSError(exc.errno, exc.strerror, str(path)) from exc
            raise
        try:
            fsync_dir(folder)
        except OSError as exc:
            # Told apart from a write that never happened: the rename went through.
            raise NotDurable(exc.errno, exc.strerror, str(path)) from exc
    _remove_stale_temporaries(path)


_TIDIED: set[Path] = set()  # the files whose folder this process has tidied already


def _stale_temporaries(path: Path) -> list[Path]:
    """The temporary files of ``path`` a power cut or a kill left. One is stale when it is
    older than this process and than :data:`STALE_SECONDS`: then it is no write of a
    process running now (a write under way is younger)."""
    before = min(_STARTED, time.time() - STALE_SECONDS)
    stale = []
    with contextlib.suppress(OSError):  # a folder that cannot be listed keeps them
        for stray in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                if stray.lstat().st_mtime < before:
                    stale.append(stray)
    return stale


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the stale temporary files of ``path`` (:func:`_stale_temporaries`), once a
    process: names are unique, so they would pile up. Later ones are left for the next
    process that writes ``path``."""
    if path in _TIDIED:
        return
    _TIDIED.add(path)
    for stray in _stale_temporaries(path):
        with contextlib.suppress(OSError):  # tidying
            stray.unlink()


def atomic_write_npz(path: Path, **arrays: Any) -> None:
    """Replace ``path`` with a compressed NumPy archive of ``arrays``, whole or not at all."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    atomic_write_bytes(path, buffer.getvalue())


def read_npz(path: Path, keys: tuple[str, ...], what: str, fix: str) -> dict[str, Any]:
    """Every array of the NumPy archive at ``path``, which must hold ``keys``; a
    :class:`DataError` naming ``what`` it should hold and the ``fix`` when it cannot be read:
    unreadable, cut short by a power cut (numpy raises EOFError or BadZipFile for those, not
    an OSError), damaged inside (a flipped bit in the packed data is zlib.error: the zip's
    checksum is only tested once that data unpacks), not an archive, or without a key."""
    import zipfile
    import zlib

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except OSError as exc:
        reason = exc.strerror or str(exc)
    except (ValueError, EOFError, zipfile.BadZipFile, zlib.error):
        # numpy's own words ("pickled data ... load it unsafely") would mislead a player.
        reason = "not a file the companion wrote, or one cut short or damaged"
    else:
        missing = [key for key in keys if key not in arrays]
        if not missing:
            return arrays
        reason = f"no {', '.join(missing)} in it"
    raise DataError(f"{path}: cannot read {what} ({reason}); {fix}")


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (the folder's entry list is data too)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: The name move_aside gives a file it keeps: ``<name>.<why>-<UTC timestamp>[-n]``.
_KEPT = re.compile(r"\.[a-z]+-\d{8}T\d{6}Z(-\d+)?$")


def move_aside(path: Path, why: str = "corrupt") -> Path:
    """Rename a file to ``<name>.<why>-<UTC timestamp>`` (kept, never deleted); return it.

    A file kept as corrupt keeps the stale temporary files of its last writes too, each as
    ``<name>.unwritten-<UTC timestamp>``. A write whose rename a power cut stopped leaves
    one that may be whole. The next write would delete it unread
    (:func:`_remove_stale_temporaries`), though it may be the only whole copy left when
    the card lost the file's own tail.
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = _free_name(path, why, stamp)
    os.replace(path, target)
    if why == "corrupt":
        for stray in _stale_temporaries(path):
            with contextlib.suppress(OSError):  # kept where it is, then: still not lost
                os.replace(stray, _free_name(path, "unwritten", stamp))
    fsync_dir(path.parent)
    return target


def _free_name(path: Path, why: str, stamp: str) -> Path:
    """``<name>.<why>-<stamp>``, or with ``-2``, ``-3``… when that is taken."""
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    return target


def keep_aside(path: Path) -> str:
    """:func:`move_aside` an unreadable file the program can do without, and say where it is
    for the notice: "it was kept as …", or, in a folder that lets nothing be renamed, "it
    could not be kept aside (…)" (it stays where it is)."""
    try:
        return f"it was kept as {move_aside(path).name}"
    except OSError as err:
        return f"it could not be kept aside ({err.strerror})"


def kept_if_unreadable(path: Path, read: Callable[[Path], object]) -> str | None:
    """Before ``path`` is replaced as the player asked (``fight new --force``): when ``read``
    cannot read it (a DataError or an OSError), it is kept aside (:func:`keep_aside`), so a
    file damaged by accident is not lost with the replacing; the notice for that, else
    None."""
    try:
        read(path)
    except (DataError, OSError) as exc:
        return f"the file replaced could not be read ({exc}); {keep_aside(path)}"
    return None


def kept_aside(path: Path) -> bool:
    """Is ``path`` a file :func:`move_aside` kept (``save.json.unrecorded-20250101T000000Z``)?"""
    return _KEPT.search(path.name) is not None


def read_regular(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, which must be no larger than ``limit``.

    :class:`FileNotFoundError` when there is none; :class:`DataError` for a folder, a device
    or a pipe (``/dev/zero`` would be read for ever, a pipe would wait for a writer), and
    :class:`TooLarge` for a file over ``limit`` (no ``what`` is that big: it is not one).
    """
    with open_regular(path, what) as handle:
        data = handle.read(limit + 1)  # a file growing as it is read is held to it too
    if len(data) > limit:
        raise TooLarge(f"{path}: larger than {limit // 1024} KiB, so not a {what}")
    return data


def open_regular(path: Path, what: str = "file") -> BinaryIO:
    """The regular file at ``path`` opened to read; :class:`FileNotFoundError` when there is
    none and :class:`DataError` for a folder, a device or a pipe, refused, not waited on."""
    # O_NONBLOCK: opening a pipe waits for its writer otherwise; a regular file ignores it.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "a device or a pipe"
        raise DataError(f"{path}: {kind}, not a {what}")
    return open(fd, "rb")


class TooLarge(DataError):
    """A file far larger than what it should be could ever be (:func:`read_regular`)."""


#: Why a file nested thousands deep (an editing accident, a tool gone wrong) is not read:
#: the parsers recurse once a level and run out of Python's stack.
TOO_DEEP = "nested too deeply to read"


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads`` of ``text``; a file nested too deeply for the parser is refused with
    :class:`tomllib.TOMLDecodeError` too (not RecursionError), so every reader's handler of
    malformed TOML names the file for it alike."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(TOO_DEEP) from None


def loads_json(text: str) -> Any:
    """``json.loads`` of ``text``; a file nested too deeply for the parser is refused with
    :class:`json.JSONDecodeError` too (not RecursionError), as :func:`loads_toml` does."""
    try:
        return json.loads(text)
    except RecursionError:
        error = json.JSONDecodeError(TOO_DEEP, text, 0)
        # Its text would add "line 1 column 1", which is not where the nesting went wrong.
        error.args = (TOO_DEEP,)
        raise error from None


def parse_user_toml(data: bytes) -> dict[str, Any]:
    """The TOML file a player wrote, from its bytes. A leading byte order mark, which
    Windows Notepad writes, is no part of the text (tomllib refuses it as invalid TOML).
    Raises :class:`tomllib.TOMLDecodeError` or :class:`UnicodeDecodeError`."""
    return loads_toml(data.decode("utf-8-sig"))


def file_there(path: Path) -> bool:
    """Is there a file (or a folder) at ``path`` to read? False when nothing is there. A
    symbolic link to something gone (a settings file on a USB stick not plugged in) is
    :class:`DataError` naming the link and where it points, and a link that leads back to
    itself one naming the link: the player put a link there meaning a file to be read, so
    it is not taken as no file (its settings silently dropped)."""
    try:
        path.stat()
    except FileNotFoundError:
        if not path.is_symlink():
            return False
        raise DataError(f"{path} is a link to {os.readlink(path)}, which is not there "
                        "(a drive not plugged in, a file moved?)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DataError(f"{path}: {_LOOP}") from None
        return True  # a file the reader then names with what is wrong (no permission)
    return True


def load_toml_kept(
    path: Path, limit: int, what: str, parse: Callable[[dict[str, Any]], T], empty: T,
    afresh: str, notices: list[str],
) -> T:
    """``parse`` of the TOML file at ``path``; ``empty`` when there is none. A list the
    program keeps for the player (tracked poisons, used rooms) that is not one, or that
    ``parse`` refuses with a DataError, is kept aside and ``empty`` returned, and
    ``notices`` gets why: "<path> is not a <what> (<fault>); it was kept as … and <afresh>".
    """
    try:
        data = read_regular(path, limit, what)
    except FileNotFoundError:
        return empty
    try:
        return parse(parse_user_toml(data))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, DataError) as exc:
        notices.append(f"{path} is not a {what} ({exc}); {keep_aside(path)} and {afresh}")
        return empty


# -- holding a file ------------------------------------------------------------------------


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
    real = _real(path)
    return real.parent / f"{real.name}.lock"


_LOOP = "a symbolic link that leads back to itself"


def _real(path: Path) -> Path:
    """``path`` with its symbolic links followed; an OSError naming it for a loop of links
    (Python 3.11 raises a bare RuntimeError for one, a traceback to the player)."""
    try:
        return path.resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, _LOOP, str(path)) from None
    except OSError as exc:  # a later Python's word for a loop
        if exc.errno != errno.ELOOP:
            raise
        raise OSError(errno.ELOOP, _LOOP, str(path)) from None


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
def _not_held_elsewhere(path: Path) -> Iterator[None]:
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


def write_toml(path: Path, document: tomlkit.TOMLDocument) -> None:
    """Write a TOML document atomically, after checking that it loads back as written."""
    text = tomlkit.dumps(document)
    tomllib.loads(text)  # a value tomlkit cannot write faithfully fails here, not at next load
    atomic_write_text(path, text)


def one_line_each(values: Mapping[str, Any], *comments: str) -> tomlkit.TOMLDocument:
    """A TOML document of one line per field, tables written inline, under ``comments``
    (a character sheet a player reads and edits field by field)."""
    document = tomlkit.document()
    for comment in comments:
        document.add(tomlkit.comment(comment))
    for key, value in values.items():
        document.add(key, _inline(value))
    return document


def one_line_each_over(text: str, values: Mapping[str, Any],
                       *comments: str) -> tomlkit.TOMLDocument:
    """``values`` as :func:`one_line_each` writes them, put into the document ``text`` holds,
    so a file the player wrote keeps its comments and order: a field whose value is the same
    is not touched, a changed one keeps its line's comment, a new one goes at the end and one
    no longer written goes. Text that is not TOML gets :func:`one_line_each`'s document."""
    try:
        document = tomlkit.parse(text)
    except ParseError:
        return one_line_each(values, *comments)
    for key in [k for k in document if k not in values]:
        del document[key]
    for key, value in values.items():
        item = tomlkit.item(_inline(value))
        if key not in document:
            document.add(key, item)
        elif document[key].unwrap() != item.unwrap():
            document[key] = item
    return document


def _inline(value: Any) -> Any:
    if isinstance(value, Mapping):
        inline = tomlkit.inline_table()
        inline.update({k: _inline(v) for k, v in value.items()})
        return inline
    if isinstance(value, list | tuple):
        array = tomlkit.array()
        array.extend(_inline(v) for v in value)
        return array
    return value


def commented(value: object, comment: str) -> Item:
    """A TOML value with a comment after it on its line: ``stable_frames = 3  # frames…``."""
    item = tomlkit.item(value)
    item.comment(comment)
    item.trivia.comment_ws = "  "
    return item


def table(values: dict[str, object], quoted_keys: bool = False) -> Table:
    """A TOML table of plain values (or :func:`commented` ones), in the given order.

    ``quoted_keys`` writes every key in quotes, for keys that are data (an RFID
    UID) rather than names.
    """
    section = tomlkit.table()
    for key, value in values.items():
        section.add(SingleKey(key, t=KeyType.Basic) if quoted_keys else key, value)
    return section
