"""The companion's own files: written whole or not at all, read back with care.

A power cut mid-write must leave the old file or the new one, never half of
either: :func:`atomic_write_text` writes a temporary file beside the target,
fsyncs it, renames it over the target (``os.replace`` is atomic on POSIX) and
fsyncs the folder, so the rename itself survives the cut. Each write has a
temporary file of its own (``.<name>.<random>.tmp``), so two writers of one file
never write into each other's. Its writer holds an ``flock`` on it until the rename, which
the kernel lets go of however the writer ends, so one no writer holds is a cut's or a
kill's left-over (:func:`_left_over`): removed by the next process that writes that file
(:func:`_remove_stale_temporaries`), or kept, and named, when the file itself cannot be
read (:func:`keep_unreadable`): it may be the whole copy.

A file a long-running session owns (a save, a table's fight file) is held with
:func:`companion.file_locks.holding`, and :func:`atomic_write_bytes` refuses to write
it while another process holds it. TOML is written by :mod:`companion.toml_writing`.

Reading them back: damaged files are kept aside (:func:`move_aside`), never written
over unread, and a file is read only if it is a regular one of a sane size
(:func:`read_regular`).

The game systems do no I/O; the app and the hardware adapters write through here.
"""

from __future__ import annotations

import calendar
import codecs
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from companion.errors import DataError
from companion.file_locks import LINK_LOOP, not_held_elsewhere, real_path

T = TypeVar("T")

#: When this process began (near enough: the module is loaded as a command starts): a
#: temporary made about then, in the last JUST_MADE_SECONDS, may not be locked by its writer
#: yet.
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
#: A writer locks its temporary file the moment it has made it: one younger than this, made
#: in this run and not locked, may be a write just begun.
JUST_MADE_SECONDS = 2.0


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
        path = real_path(path)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (NotADirectoryError, FileExistsError):
        # The OS named the folder looked for, not the file in its way (a77setup DEFECT 2).
        raise not_a_folder(path) from None
    with not_held_elsewhere(path):
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        except OSError as exc:
            # Named by the folder (the temporary name means nothing to the player).
            raise OSError(exc.errno, f"no file can be made in this folder: {exc.strerror}",
                          str(folder)) from exc
        tmp = Path(name)
        try:
            with open(fd, "wb") as handle:
                # Held to the rename (_left_over); a filesystem without locks has its
                # temporaries left, as no one can tell them from writes under way.
                with contextlib.suppress(OSError):
                    fcntl.flock(fd, fcntl.LOCK_EX)
                os.fchmod(fd, _FILE_MODE)  # mkstemp makes it 0600; a file written anew is not
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


def _left_over(stray: Path, unsure: bool) -> bool:
    """Whether the temporary file ``stray`` is no write under way: its writer holds an
    ``flock`` on it from just after making it to the rename (:func:`atomic_write_bytes`),
    and the kernel lets go of that however the writer ends, a kill or a power cut. Only a
    file made in this run within :data:`JUST_MADE_SECONDS`, which its writer may not have
    locked yet, is spared by its time: "this run" reaches JUST_MADE_SECONDS before this
    process loaded, as another writer started with it may make its temporary first and be
    held up before locking it (files75: a sweep of one of two writers started together
    deleted the other's; a file's time is also the kernel's coarse clock, a tick behind
    ``time.time()``). ``unsure``: the answer when no lock can be asked
    (a filesystem without locks, another user's file): keeping a copy aside harms
    nothing, deleting it might.

    The clock is no judge otherwise: a Pi has no clock of its own and starts with the time
    it last saved (fake-hwclock), up to an hour behind the files its last run wrote, so a
    copy a cut left can be dated in the future. Going by age, such a copy was taken for a
    write under way: not kept when its file could not be read, then deleted unread."""
    try:
        made = stray.lstat()
    except OSError:  # gone
        return False
    if not stat.S_ISREG(made.st_mode):
        return False
    if (made.st_mtime >= _STARTED - JUST_MADE_SECONDS
            and abs(time.time() - made.st_mtime) < JUST_MADE_SECONDS):
        return False
    try:
        fd = os.open(stray, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return False
    except OSError:
        return unsure
    try:
        # Shared: it still meets the writer's exclusive lock, and NFS grants it on a file
        # open only to read.
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return unsure
    finally:
        os.close(fd)
    return True


def _stale_temporaries(path: Path, unsure: bool) -> list[Path]:
    """The temporary files of ``path`` no write under way owns: those a power cut or a kill
    left (:func:`_left_over`; ``unsure``: whether one no lock can be asked of is counted)."""
    with contextlib.suppress(OSError):  # a folder that cannot be listed keeps them
        return [stray for stray in path.parent.glob(f".{glob.escape(path.name)}.*.tmp")
                if _left_over(stray, unsure)]
    return []


def cut_writes(path: Path) -> list[Path]:
    """The temporary files that writes of ``path`` a power cut or a kill stopped left beside
    it (none a write under way owns): one may hold the last write whole, for a message to
    name when ``path`` itself cannot be read and is not kept aside (:func:`keep_unreadable`
    names them as it keeps them)."""
    return sorted(_stale_temporaries(path, unsure=True))


def keep_cut_writes(path: Path) -> tuple[Path, ...]:
    """Keep the temporary files writes of ``path`` cut short left (:func:`cut_writes`) as
    ``<name>.unwritten-<UTC timestamp>``, as :func:`keep_unreadable` does, but with
    ``path`` left where it is: for a file found damaged that the player is told to move
    aside, whose next write would else delete them unread (:func:`_remove_stale_temporaries`,
    reviewh70 DEFECT 1), the one copy that may hold its last write whole. Returns every
    such copy beside ``path``, these and those kept before; one that cannot be renamed is
    returned where it is."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = []
    for stray in cut_writes(path):
        copy = _free_name(path, "unwritten", stamp)
        try:
            os.replace(stray, copy)
        except OSError:  # a folder that lets nothing be renamed: named where it is
            copy = stray
        kept.append(copy)
    if kept:
        with contextlib.suppress(OSError):
            fsync_dir(path.parent)
    with contextlib.suppress(OSError):
        before = [old for old in path.parent.glob(f"{glob.escape(path.name)}.unwritten-*")
                  if _KEPT.search(old.name) and old not in kept]
        return tuple(sorted(before) + kept)
    return tuple(kept)


def cut_copies_words(path: Path, whole: str, reads: Callable[[Path], object],
                     move: str | None = None, put_back: str = "put it back instead with",
                     written_at: float | None = None) -> str:
    """The words, to follow what is said of ``path`` found damaged, for the copies writes of
    it cut short left beside it: each kept first (:func:`keep_cut_writes`), as the next write
    of ``path`` would delete it unread (hist72 DEFECT 1: a tag map zeroed by a power cut,
    deleted as told and enrolled again, lost the whole copy beside it), and named; of those
    that ``reads`` (raising DataError or OSError for none) as a ``whole`` one, the newest
    (:func:`_cut_at`) is given with the command that puts it back, after ``move`` (the
    command moving ``path`` aside, if it must go first), said after ``put_back``: "instead"
    where the words before ``path``'s offer another way (roll's "run --enrol again"), plain
    where they do not (calibrate's: finalb73 NIT 7). The older whole ones are named as
    older, with no command (dicecam75 DEFECT 1: every whole copy ever left was offered, last
    month's first, each command moving ``path`` to the same aside name, so running the
    second wrote the first's kept original over). One command only, last. A newest whole
    copy older than ``path``'s last write is said so, with when it was cut (reviewdice75 R2:
    last month's copy was offered with no word that it predates the file's last write, while
    calibrate's set-aside line called the same copy "older"); ``written_at`` is ``path``'s
    last write when ``path`` is already moved aside (calibrate's: reviewdice75b D1, where
    the file was gone and the date never said). "" when there are none."""
    import shlex

    try:
        copies = keep_cut_writes(path)
    except OSError:
        copies = ()
    words = ""
    whole_ones: list[Path] = []
    for copy in copies:
        try:
            reads(copy)
        except (DataError, OSError):
            words += (f"; {copy.name}, kept beside it from a write cut short, is no whole "
                      f"{whole} either")
            continue
        whole_ones.append(copy)
    if not whole_ones:
        return words
    newest, *older = sorted(whole_ones, key=_cut_at, reverse=True)
    if older:
        names = ", ".join(copy.name for copy in reversed(older))
        one = len(older) == 1
        words += (f"; {names}, kept beside it from {'an older write' if one else 'older writes'}"
                  f" cut short, {'reads' if one else 'read'} whole too and "
                  f"{'stays' if one else 'stay'} beside it")
    back = f"mv {shlex.quote(str(newest))} {shlex.quote(str(path))}"
    newest_words = ", the newest," if older else ","
    cut = "a write cut short"
    cut_at = _cut_at(newest)[0]
    with contextlib.suppress(OSError):
        if cut_at < (path.stat().st_mtime if written_at is None else written_at):
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(cut_at))
            cut = f"a write cut short at {when}, before {path.name} was last written"
    words += (f"; {newest.name}{newest_words} kept beside it from {cut}, reads as a whole "
              f"{whole}: {put_back} `{f'{move} && ' if move else ''}{back}`")
    return words


def _cut_at(copy: Path) -> tuple[float, str]:
    """When the write that left ``copy`` was cut, to order copies by: its own modification
    time, which a rename keeps and the same clock set as the damaged file's, before the time
    in its name, which is the clock's when it was kept (a Pi with no clock of its own boots
    behind: reviewfw74 R1); the name breaks ties and serves one whose time cannot be read."""
    try:
        return copy.lstat().st_mtime, copy.name
    except OSError:
        stamp = _KEPT_AT.search(copy.name)
        at = (calendar.timegm(time.strptime(stamp.group(1), "%Y%m%dT%H%M%SZ"))
              if stamp else 0.0)
        return float(at), copy.name


def aside_name(path: Path, why: str = "corrupt") -> Path:
    """``<name>.<why>-<UTC timestamp>`` beside ``path``, one no file has: the name a command
    printed for the player to move a damaged file aside by keeps nothing from being written
    over (reviewh70 RISK 3: a fixed ``.damaged`` replaced the copy kept the time before)."""
    return _free_name(path, why, time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))


def aside_command(path: Path) -> str:
    """``mv FILE FILE.corrupt-<stamp>``, shell-quoted: the command that moves a damaged
    ``path`` aside before a copy is put back in its place (:func:`cut_copies_words`'s
    ``move``), so a file with one typo is kept, not written over (reviewh72 NIT 3)."""
    import shlex

    return f"mv {shlex.quote(str(path))} {shlex.quote(str(aside_name(path)))}"


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of ``path`` no write under way owns (:func:`_left_over`),
    once a process: names are unique, so they would pile up. Later ones are left for the
    next process that writes ``path``."""
    if path in _TIDIED:
        return
    _TIDIED.add(path)
    for stray in _stale_temporaries(path, unsure=False):
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
#: The time in a kept copy's name.
_KEPT_AT = re.compile(r"\.[a-z]+-(\d{8}T\d{6}Z)(?:-\d+)?$")


def move_aside(path: Path, why: str = "corrupt") -> Path:
    """Rename a file to ``<name>.<why>-<UTC timestamp>`` (kept, never deleted); return it.
    One kept as ``corrupt`` keeps the copies its cut writes left too (:func:`keep_unreadable`,
    which names them)."""
    if why == "corrupt":
        return keep_unreadable(path).path
    target = _free_name(path, why, time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


@dataclass(frozen=True, slots=True)
class Kept:
    """A file that could not be read, kept as ``<name>.corrupt-<time>``, and the temporary
    files of its cut writes, kept as ``<name>.unwritten-<time>`` (:func:`keep_unreadable`)."""

    path: Path
    unwritten: tuple[Path, ...]

    def copies(self, resume: Callable[[Path], str] | None = None, *,
               by_name: bool = False) -> str:
        """The words for the kept temporaries, to follow "it was kept as …": "" when there
        are none. ``resume``: the command that takes up the copy at a path (a save's, as
        the run that found it plays), said for each; ``by_name``: each named as the kept
        file is (beside it), not by its whole path."""
        if not self.unwritten:
            return ""
        names = [p.name if by_name else str(p) for p in self.unwritten]
        words = (f"; a copy a write cut short left, which may hold the last write whole, was "
                 f"kept as {names[0]}" if len(names) == 1 else
                 "; copies writes cut short left, one of which may hold the last write whole, "
                 f"were kept as {', '.join(names)}")
        if resume is not None:
            commands = " or ".join(f"`{resume(copy)}`" for copy in self.unwritten)
            words += f": {commands} takes {'it' if len(names) == 1 else 'one'} up"
        return words


def keep_unreadable(path: Path) -> Kept:
    """Rename a file that cannot be read to ``<name>.corrupt-<UTC timestamp>`` (kept, never
    deleted), with the temporary files of its last writes as
    ``<name>.unwritten-<UTC timestamp>``: a write whose rename a power cut stopped leaves
    one that may be whole, the only whole copy left when the card lost the file's own tail.
    The next write would delete it unread (:func:`_remove_stale_temporaries`).

    Every temporary no write under way owns is kept (:func:`_left_over`), however young or
    dated in the future.
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = _free_name(path, "corrupt", stamp)
    os.replace(path, target)
    unwritten = []
    for stray in _stale_temporaries(path, unsure=True):
        copy = _free_name(path, "unwritten", stamp)
        with contextlib.suppress(OSError):  # kept where it is, then: still not lost
            os.replace(stray, copy)
            unwritten.append(copy)
    fsync_dir(path.parent)
    return Kept(target, tuple(unwritten))


def _free_name(path: Path, why: str, stamp: str) -> Path:
    """``<name>.<why>-<stamp>``, or with ``-2``, ``-3``… when that is taken."""
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    return target


def keep_aside(path: Path) -> str:
    """:func:`keep_unreadable` an unreadable file the program can do without, and say where
    it is for the notice: "it was kept as …" (and the copies its cut writes left, which may
    hold the last write whole), or, in a folder that lets nothing be renamed, "it could not
    be kept aside (…)" (it stays where it is)."""
    try:
        kept = keep_unreadable(path)
    except OSError as err:
        return f"it could not be kept aside ({err.strerror})"
    return f"it was kept as {kept.path.name}{kept.copies(by_name=True)}"


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


def blank_fault(text: str, what: str) -> str | None:
    """What a file whose ``text`` holds nothing but blank space and zero bytes is, in a
    user's terms: "the <what> is empty", or "the <what> is all zero bytes: a power cut as it
    was written?" (a power cut as an SD card wrote it leaves its length in zero bytes, hist65
    NIT 2; zero bytes among blanks are named as such, review65h NIT 3); None when it holds
    more. A leading byte order mark is no content."""
    body = text.removeprefix("\ufeff")
    if body.strip("\0 \t\r\n"):
        return None
    if "\0" not in body:
        return f"the {what} is empty"
    held = ("all zero bytes" if not text.strip("\0")
            else "nothing but zero bytes and blank space (spaces, line ends)")
    return f"the {what} is {held}: a power cut as it was written?"


def _zero_tail(text: str) -> str | None:
    """What a file whose good lines end in zero bytes is, or None: an SD card cut off as a
    file was rewritten in place (nano saves in place) leaves it so, and tomllib said only
    "Invalid statement (at line 5, column 1)", at bytes an editor shows as ``^@`` if at all
    (a77setup NIT 7). Zero bytes among the lines too are no tail: UTF-16 without a byte
    order mark ends in one, and "delete them" was no mending it (r77setup)."""
    kept = text.rstrip("\0")
    if kept == text or "\0" in kept:
        return None
    zeros, line = len(text) - len(kept), kept.count("\n") + 1
    return (f"the file ends in {zeros} zero byte{'s' * (zeros != 1)} from line {line}: a "
            "power cut as it was written? delete them")


def cut_short(size: int, what: str = "save") -> str:
    """A ``what`` (a save, a file) that ends in the middle, after ``size`` bytes."""
    return f"the {what} ends in the middle: cut short after {size} byte{'s' * (size != 1)}"


#: How tomllib ends its message for a fault at the end of the text: a file cut there.
_TOML_AT_END = "(at end of document)"


def toml_fault(data: bytes, exc: tomllib.TOMLDecodeError | UnicodeDecodeError) -> str:
    """Why a TOML file of ``data`` could not be read, said as a save's faults are
    (:func:`blank_fault`, :func:`cut_short`): zero bytes a power cut left, a file ending in
    the middle of a line or a character, a byte that is not UTF-8 (counted in the file);
    else tomllib's words (hist68 NIT 3: "Invalid statement (at line 1, column 1)" and the
    codec's "'utf-8' codec can't decode byte 0x93 in position 0")."""
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    if isinstance(exc, UnicodeDecodeError):
        if exc.reason == "unexpected end of data" and skip + exc.end >= len(data):
            return cut_short(len(data), "file")  # a character cut in two
        # as every reader of a player's file says it (errors.utf8_text: reviewh68 NIT 3)
        return f"not UTF-8 text (byte {skip + exc.start + 1} cannot be read)"
    text = data[skip:].decode("utf-8")
    if (blank := blank_fault(text, "file")) is not None:
        return blank
    if (zeros := _zero_tail(text)) is not None:
        return zeros
    if str(exc).endswith(_TOML_AT_END):
        return cut_short(len(data), "file")
    return str(exc)


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
    it is not taken as no file (its settings silently dropped). A file where one of its
    folders should be is :func:`not_a_folder`, an OSError (it was taken as a file there: "a fight is
    saved at …/genso/fight.json; pass --force", then "File exists", hist68 NIT 2)."""
    try:
        path.stat()
    except FileNotFoundError:
        if not path.is_symlink():
            return False
        raise DataError(f"{path} is a link to {os.readlink(path)}, which is not there "
                        "(a drive not plugged in, a file moved?)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DataError(f"{path}: {LINK_LOOP}") from None
        if exc.errno == errno.ENOTDIR:
            raise not_a_folder(path) from None
        return True  # a file the reader then names with what is wrong (no permission)
    return True


def not_a_folder(path: Path) -> NotADirectoryError:
    """The error for ``path`` when a file is where one of its folders should be (the OS's
    "Not a directory" named the file looked for, not the file in the way): naming that
    folder, the first of ``path``'s that is no folder, as the OS's error of a file that
    cannot be used (it is no fault of a file the player gave: status 1, as the data folder
    with a file in its place)."""
    for folder in reversed(path.parents):
        if folder.exists() and not folder.is_dir():
            return NotADirectoryError(
                errno.ENOTDIR, f"a file where a folder should be (to hold "
                f"{path.relative_to(folder)}); move it away", str(folder))
    return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path))


def _mended(path: Path, kept: bytes, mended: T, said: str, what: str,
            notices: list[str]) -> T:
    """``mended``, the list read from ``kept``, the whole part of the file at ``path`` that
    a power cut ended in zero bytes: written in its place, the damaged file kept aside and
    ``notices`` told (``said``: the zero bytes and the lines kept) where."""
    aside = keep_aside(path)
    atomic_write_bytes(path, kept)
    notices.append(f"{path} ended in {said} kept as the {what}, and the whole file "
                   f"{aside.removeprefix('it ')}")
    return mended


def load_toml_kept(
    path: Path, limit: int, what: str, parse: Callable[[dict[str, Any]], T], empty: T,
    afresh: str, notices: list[str],
) -> T:
    """``parse`` of the TOML file at ``path``; ``empty`` when there is none. A list the
    program keeps for the player (tracked poisons, used rooms) that is not one, or that
    ``parse`` refuses with a DataError, is kept aside and ``empty`` returned, and
    ``notices`` gets why: "<path> is not a <what> (<fault>); it was kept as … and <afresh>".
    One larger than ``limit`` is kept aside the same way: the program wrote it (a list grown
    past what it could ever hold), and refusing it stopped every command that reads it.
    """
    try:
        data = read_regular(path, limit, what)
    except FileNotFoundError:
        return empty
    except NotADirectoryError:
        raise not_a_folder(path) from None
    except TooLarge:
        notices.append(f"{path} is not a {what} (larger than {limit // 1024} KiB); "
                       f"{keep_aside(path)} and {afresh}")
        return empty
    try:
        return parse(parse_user_toml(data))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        fault = toml_fault(data, exc)
    except DataError as exc:
        fault = str(exc)
    whole = data.rstrip(b"\0")
    if whole.strip() and whole != data and b"\0" not in whole:
        # A card cut off as the list was written: the lines before the zero bytes are
        # whole. Dropped with them, a poison was no longer ticked and a used room could be
        # rolled again (EV-REC-1), with "delete them" said of a file moved away (a78saves
        # item 4).
        zeros, line = len(data) - len(whole), whole.count(b"\n") + 1
        tail = (f"{zeros} zero byte{'s' * (zeros != 1)} from line {line} (a power cut as it "
                "was written?)")
        try:
            mended = parse(parse_user_toml(whole))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            fault = f"{toml_fault(whole, exc)}, then {tail}"
        except DataError as exc:
            fault = f"{exc}, then {tail}"
        else:
            return _mended(path, whole, mended, f"{tail}: the lines before them were", what,
                           notices)
        # Zero bytes from the middle of a line: the table that line is in is cut, the
        # tables before it whole, kept rather than dropped with it (r78saves item 4 RISK);
        # none whole (a comment alone before the cut), the list is lost and said so below.
        tables = whole[:whole.rfind(b"\n[") + 1]
        if not whole.endswith(b"\n") and tables.strip():
            try:
                mended = parse(parse_user_toml(tables))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, DataError):
                mended = empty
            if mended != empty:
                last = tables.count(b"\n")
                return _mended(path, tables, mended,
                               f"{tail}, line {line} cut in its middle: lines 1 to {last}, "
                               "the whole tables before the one cut, were", what, notices)
    notices.append(f"{path} is not a {what} ({fault}); {keep_aside(path)} and {afresh}")
    return empty
