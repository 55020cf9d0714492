"""The ``--log`` file: a game's events as JSON Lines, rewritten from the save on a resume.

It is bounded (:data:`ROTATE_AT`): a game that begins with the file past that size first
moves it to ``FILE.1`` (and ``FILE.1`` to ``FILE.2``, the oldest ``FILE.2`` deleted), so a
Pi's card played on for months is not filled. Only a new game's beginning moves the files
(a resume never does), so a game's lines stay together in one file. (A game stopped, then
a new game begun with the same log past the size, even one left before its first move,
and the first resumed: its lines up to the stop stay in ``FILE.1``, and the resume writes
them whole again in the new ``FILE``, as after any file replaced.) Only a regular file is
moved, never a symbolic link (``--log /dev/stdout``) nor what it leads to.

A game holds its log while it lasts (:data:`HOLDER`), as it holds its save: two ``play
--log`` runs on one file interleaved their lines, and `replay` refused it (hist68 RISK 2)."""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import json
import os
import stat
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from companion.app.notes import note
from companion.errors import DataError
from companion.file_locks import NO_LOCKS, holding
from companion.files import DISK_ERRNOS, atomic_write_bytes, fsync_dir, open_regular

# What every game's first line holds (play.log_header): where the next game begins.
_HEADER = b'"log": "jongrogue-companion"'
# How that line begins (its keys sorted): a first line cut short by a power cut begins so.
_HEADER_START = b'{"choices": "'
_BLOCK = 64 * 1024  # read back from a log's end this much at a time
#: A log larger than this is moved to ``FILE.1`` when the next game begins: some 40 games of the
#: simulated wall (200 KiB each), and at most three such files (24 MiB and a game) on a card.
ROTATE_AT = 8 * 1024 * 1024
#: How many older logs are kept beside it: ``FILE.1`` (the newer) and ``FILE.2``.
KEPT = 2
#: Who holds a log while its game lasts, as another run's refusal names it.
HOLDER = "companion play --log"
#: What :meth:`GameLog.holding` finds: the file holds the game (or nothing yet), a resume
#: with it writes the game whole there; another game's header is where the game began and
#: the game is nowhere; the file holds no game there and the game is nowhere (notes).
HOLDS, OTHER_GAME, NO_GAME = "holds", "another game", "no game"


def begins_as_log(head: bytes) -> bool:
    """Whether ``head``, a file's first bytes (its first line whole, or :data:`_BLOCK` of
    it), begins as a log this companion writes: a first line holding a game's header. A
    ``--state`` file so begun is a log given by a slip, not a save to set aside
    (journey73 DEFECT 1). A byte order mark before it (an editor's, Notepad's) is read
    through, as replay and the save reader read it."""
    line = head.removeprefix(codecs.BOM_UTF8).partition(b"\n")[0]
    return line.startswith(b"{") and _HEADER in line


class GameLog:
    """This game's JSON Lines in a ``--log`` file that may hold earlier games before it.

    ``start`` is the byte offset where this game's lines begin (kept in the
    save). :meth:`rewrite` truncates back to it and writes every line of the
    game so far; :meth:`append` adds a step's lines.

    The log is held (:func:`~companion.file_locks.holding`) from the moment it is made,
    a resume's as a new game's, until it is let go with the game (its last reference, or
    the process's end): another run's log on the same file is refused then, in one line
    naming the file and this run (:class:`~companion.file_locks.FileInUse`), instead of
    the two games' lines mixed and a resume's rewrite putting back the file without the
    other's lines appended meanwhile.
    """

    def __init__(self, path: Path, start: int) -> None:
        self.path = path
        self.start = start
        held = contextlib.ExitStack()
        held.enter_context(holding(path, HOLDER))
        self._let_go = weakref.finalize(self, held.close)

    def close(self) -> None:
        """Let go of the log: its game is over. Done as well when the log is dropped."""
        self._let_go()

    @classmethod
    def begin(cls, path: Path) -> GameLog:
        """A log for a new game, after whatever the file already holds.

        A file ending in the middle of a line (an earlier game cut off) first loses that
        part of a line: it is no event, `replay` would stop at it and refuse every game in
        the file, and a resume of that game writes its lines again. A file that is no such
        log is refused (:meth:`refuse_other`). A file past :data:`ROTATE_AT` is rotated
        (:func:`_rotate`) and the game begins a new one. All of it is done holding the log
        (:func:`_held`): another ``play`` beginning on the same log at the same moment
        would else rotate it again, a generation lost and this game's lines parted.
        """
        GameLog.refuse_other(path)
        log = cls(path, 0)  # held first: another game's lines are not cut back nor moved
        try:
            with _held(path) as handle:
                if handle is None:
                    return log
                end = handle.seek(0, os.SEEK_END)
                size = _last_line_end(handle.fileno(), end)
                if size != end:
                    handle.truncate(size)
                if size > ROTATE_AT and _rotate(path):
                    size = 0
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                raise
            # A log on a disk mounted read-only (or a file not ours to write) refused the
            # whole game where a full disk plays on (hist70 R1): the game begins after the
            # file's last whole line, and its first write, refused, is told as any is
            # (Session.write_log), the log written whole once the disk takes it.
            size = _readable_end(path, exc)
        log.start = size
        return log

    @staticmethod
    def refuse_other(path: Path) -> None:
        """A DataError when ``path`` holds something but is no such log, left as it is (its
        tail was once cut back to its last line end, unsaid): a folder, a device or a pipe
        (opened to read, a pipe would wait for a writer for ever), or a file whose first
        line holds no game header (notes, the history database given by a slip of the tab
        key). A first line a power cut tore in the log's first write is the companion's:
        :meth:`begin` cuts it back. Play asks before it sets the last game's save aside,
        which a refused log would have done for nothing."""
        try:
            with open_regular(path, "log") as handle:
                first = handle.read(_BLOCK)
        except FileNotFoundError:
            return
        if _no_log(first):
            raise DataError(f"{path}: not a log `companion play --log` wrote (its first line "
                            "is no game header); it is left as it is: give --log a new file, "
                            "or a log it wrote")

    @staticmethod
    def holding(path: Path, start: int, game_id: str) -> str:
        """What the log ``path`` is to the game ``game_id`` saved as begun at byte ``start``
        in it, as :meth:`rewrite` takes it: :data:`HOLDS` when a resume with ``--log path``
        writes the game whole in it, as rewrite does whenever the file holds the game or
        nothing yet: a line at ``start`` with no line end (an empty file, NUL bytes, a
        header a power cut or a full disk cut: rewrite counts it as the game's own,
        :func:`_ours`), the game's header at ``start`` or anywhere else in the file (another
        game resumed since moved its lines, hist72 DEFECT 3), or in ``FILE.1``/``FILE.2``
        (rotated since: the resume writes it whole in the new file, as this module says).
        :data:`OTHER_GAME` when the line at ``start`` is another game's header and the
        game's own is nowhere; :data:`NO_GAME` for anything else without the game (notes),
        and for any file :meth:`refuse_other` refuses, before all else (:func:`_no_log`:
        notes shorter than ``start``, or with the game in ``FILE.1``, were named, and the
        resume then refused them, reviewjourney75c RISK 1).
        Raises OSError (FileNotFoundError when gone) or DataError (a folder, a pipe) when
        the file cannot be read. The one test `play` uses to name the log in a resume
        command (reviewjourney75b DEFECT 1: a stricter one named none, and the game went on
        unlogged, its log cut short for good)."""
        with open_regular(path, "log") as handle:
            # A file the resume refuses (notes under the log's name) is never named in a
            # command, whatever its length or FILE.1 holds (reviewjourney75c RISK 1).
            if _no_log(handle.read(_BLOCK)):
                return NO_GAME
            handle.seek(start)
            line = handle.readline(_BLOCK)
            if not line.endswith(b"\n") and _torn(line):
                return HOLDS
            if _header_id(line) == game_id:
                return HOLDS
            handle.seek(0)
            if _names_header(handle, game_id):
                return HOLDS
        for age in range(1, KEPT + 1):
            with contextlib.suppress(OSError, DataError), \
                    open_regular(older_log(path, age), "log") as handle:
                if _names_header(handle, game_id):
                    return HOLDS
        return OTHER_GAME if _header_id(line) is not None else NO_GAME

    def rewrite(self, lines: Sequence[str]) -> None:
        """Replace this game's lines with ``lines``. Games logged in the same file after
        this one stopped (another ``--log`` game before the resume) are kept whole, and
        this game's lines move after them, every earlier copy of them gone (found by the
        game's header when the saved start no longer is where they begin, or when a copy
        of them lies before it: a stray one an older companion's resume left)."""
        try:
            self._rewrite(lines)
        except OSError as exc:
            raise _named(exc, self.path) from exc

    def _rewrite(self, lines: Sequence[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        ours = "".join(line + "\n" for line in lines).encode("utf-8")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        with os.fdopen(fd, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            # A file cut shorter than where this game began (edited by hand): write at its end.
            start = min(self.start, size)
            handle.seek(0)
            head = handle.read(start)
            tail = handle.read()
            if _ours(tail, lines) and not _holds_ours(head, lines):
                later = _later_games(tail)
            else:
                # What lies at our start is not ours: the file was replaced since the stop
                # (deleted, another game logged to it), or the games before ours moved (a
                # game stopped before ours resumed since: its lines moved after ours, and
                # ours forward, hist72 DEFECT 3). Or it is, or nothing is there (a start
                # past the end of a file cut by hand), but a copy of ours lies before it
                # (ours still earlier, reviewh72 RISK 1; a stray beginning an older
                # companion's resume left, NIT 2). Then every game is kept, and ours,
                # wherever it lies, goes: this rewrite writes it after them all. A last
                # line a power cut tore is no event (`begin` cuts it too): it goes.
                whole = head + tail
                later, start = whole[:whole.rfind(b"\n") + 1], 0
            # A copy of ours moved after them by a rewrite the save never heard of (a cut
            # before it learned the new start) goes: this rewrite writes ours again.
            later = _without_ours(later, lines)
            if not later:
                os.ftruncate(fd, start)
                os.lseek(fd, start, os.SEEK_SET)
                self.start = start
                _write_whole_lines(fd, ours, sync=True)
                return
            before = head[:start]
        later += b"" if later.endswith(b"\n") else b"\n"
        atomic_write_bytes(self.path, before + later + ours)  # the other games are in it too
        self.start = start + len(later)

    def append(self, lines: Sequence[str], sync: bool = False) -> None:
        """Add lines at the end; ``sync`` when no resume would rewrite what a cut lost."""
        if not lines:
            return
        try:
            # Read and write: a refused write is cut back to a line end read from the file.
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                _write_whole_lines(fd, "".join(line + "\n" for line in lines).encode("utf-8"),
                                   sync)
            finally:
                os.close(fd)
        except OSError as exc:
            raise _named(exc, self.path) from exc


def rotate_limit() -> str:
    """:data:`ROTATE_AT` in words: "8 MiB"."""
    mib, rest = divmod(ROTATE_AT, 1024 * 1024)
    return f"{ROTATE_AT} bytes" if rest else f"{mib} MiB"


def older_log(path: Path, age: int) -> Path:
    """``FILE.1``, ``FILE.2``: the log ``path`` as it was ``age`` rotations ago."""
    return path.with_name(f"{path.name}.{age}")


@contextlib.contextmanager
def _held(path: Path) -> Iterator[BinaryIO | None]:
    """The log ``path`` open to read and write and flocked while the block runs (None when
    there is none). A log rotated or replaced while this process waited for the lock is no
    longer ``path``: the file there now is taken instead, so the second of two games
    beginning at once sees the first's new log, not the one it moved. A filesystem that
    keeps no locks (:data:`~companion.file_locks.NO_LOCKS`) is used unlocked, as before."""
    while True:
        try:
            handle = open(path, "rb+")
        except FileNotFoundError:
            yield None
            return
        with handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            except OSError as exc:
                if exc.errno not in NO_LOCKS:
                    raise
            try:
                now = os.stat(path)
            except FileNotFoundError:
                now = None
            mine = os.fstat(handle.fileno())
            if now is not None and (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                yield handle
                return


def _rotate(path: Path) -> bool:
    """Move the log ``path`` to ``FILE.1``, ``FILE.1`` to ``FILE.2`` (:data:`KEPT` of them,
    the oldest deleted); False, said on stderr, when it stays where it is and the game is
    added to it as before: ``path`` is a symbolic link or no regular file (renaming would
    move the link, ``/dev/stdout`` itself, and leave what it leads to unbounded), an older
    name holds something no ``--log`` wrote (never written over), or the folder refuses the
    moves. Renames need no room, so a full card rotates."""
    names = [path, *(older_log(path, age) for age in range(1, KEPT + 1))]
    limit = rotate_limit()
    if not stat.S_ISREG(os.lstat(path).st_mode):
        note(f"the log {path} is past {limit} but is not moved to {names[1].name}: it is a "
             "symbolic link, and only a regular file is moved, so this log is not bounded; "
             "give --log the file it leads to, to bound it")
        return False
    for old in names[1:]:
        try:
            GameLog.refuse_other(old)
        except (DataError, OSError):
            note(f"the log {path} is past {limit} but is not moved to {names[1].name}: {old} "
                 "is not a log `companion play --log` wrote; move it away, and the next "
                 "game moves the log")
            return False
    try:
        for age in range(KEPT, 0, -1):  # FILE.1 to FILE.2 first, then FILE to FILE.1
            with contextlib.suppress(FileNotFoundError):  # no FILE.1 yet
                os.replace(names[age - 1], names[age])
    except OSError as exc:
        note(f"the log {path} is past {limit} but could not be moved to {names[1].name} "
             f"({exc.strerror or exc}); this game is added to it")
        return False
    # The moves are made; a folder that cannot be synced loses them only to a power cut.
    with contextlib.suppress(OSError):
        fsync_dir(path.parent)
    return True


def _write_whole_lines(fd: int, data: bytes, sync: bool) -> None:
    """Write ``data`` (whole lines) at ``fd``'s offset. A write the disk refuses part-way is
    cut back to the last whole line (cutting a file needs no room): half a line would make
    `replay` refuse the whole file."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    except OSError:
        os.ftruncate(fd, _last_line_end(fd, os.lseek(fd, 0, os.SEEK_END)))
        raise


def _readable_end(path: Path, refused: OSError) -> int:
    """Where the last whole line of the log ``path`` ends, read without writing; ``refused``
    (the write's error) when it cannot be read either: that file cannot be a log at all."""
    try:
        with open(path, "rb") as handle:
            return _last_line_end(handle.fileno(), handle.seek(0, os.SEEK_END))
    except OSError:
        raise refused from None


def _last_line_end(fd: int, end: int) -> int:
    """Where the last whole line of a file of ``end`` bytes ends (0: none), read back from
    its end a block at a time: a log of years of games is never read into memory whole."""
    block = end
    while block > 0:
        start = max(0, block - _BLOCK)
        found = os.pread(fd, block - start, start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        block = start
    return 0


def _torn(line: bytes) -> bool:
    """Whether ``line``, a log's line with no line end, is what a power cut or a full disk
    leaves of a first write: nothing, NUL bytes, or the beginning of a game's header."""
    return (line.startswith(_HEADER_START[:len(line)]) or line.startswith(_HEADER_START)
            or not line.strip(b"\0"))


def _no_log(first: bytes) -> bool:
    """Whether ``first``, a file's first block, shows it is no log ``play --log`` wrote: its
    first line holds no game header and is no first line a power cut tore (:func:`_torn`).
    The one test :meth:`GameLog.refuse_other` refuses a file by and
    :meth:`GameLog.holding` names none by, so a log is never named and then refused."""
    line, ends, _ = first.partition(b"\n")
    return bool(first) and _HEADER not in line and not (not ends and _torn(line))


def _header_id(line: bytes) -> str | None:
    """The ``game_id`` of ``line`` when it is a whole game header; None otherwise."""
    if not line.endswith(b"\n") or _HEADER not in line:
        return None
    try:
        header = json.loads(line)
    except ValueError:  # UnicodeDecodeError too
        return None
    game_id = header.get("game_id") if isinstance(header, dict) else None
    return game_id if isinstance(game_id, str) else None


def _names_header(handle: BinaryIO, game_id: str) -> bool:
    """Whether the log open in ``handle`` holds a whole header of the game ``game_id``,
    read a line at a time from where it is (a log is ROTATE_AT and a game, or more when not
    rotated: never read into memory whole, nor a line longer than :data:`_BLOCK`, a file
    with no line end at all in its place). Only the lines holding :data:`_HEADER` and the
    game's id are parsed."""
    wanted = json.dumps(game_id).encode("utf-8")
    while line := handle.readline(_BLOCK):
        if wanted in line and _HEADER in line and _header_id(line) == game_id:
            return True
    return False


def _ours(tail: bytes, lines: Sequence[str]) -> bool:
    """Does ``tail`` (the file from this game's start) begin with this game's first line?
    Game headers are told apart by ``game_id``; a first line cut off by a power cut (no
    line end yet) is ours, as nothing else was written after it."""
    first, ended, _ = tail.partition(b"\n")
    if not ended or not lines:
        return True
    try:
        theirs, mine = json.loads(first), json.loads(lines[0])
    except ValueError:
        return False
    if isinstance(theirs, dict) and isinstance(mine, dict) and "game_id" in mine:
        return bool(theirs.get("game_id") == mine["game_id"])
    return bool(theirs == mine)


def _named(exc: OSError, path: Path) -> OSError:
    """A write's error naming the log (a full disk's names no file)."""
    if exc.filename is not None or exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))


def _without_ours(games: bytes, lines: Sequence[str]) -> bytes:
    """``games`` (whole games' lines) without any game whose header is this game's."""
    kept: list[bytes] = []
    dropping = False
    for line in games.splitlines(keepends=True):
        if _HEADER in line:
            dropping = bool(lines) and line.endswith(b"\n") and _ours(line, lines)
        if not dropping:
            kept.append(line)
    return b"".join(kept)


def _holds_ours(games: bytes, lines: Sequence[str]) -> bool:
    """Does ``games`` (the file before this game's start) hold a game whose header is this
    game's: its lines still there, or a copy of them? Only the header lines are read (found
    by :data:`_HEADER`): a new game's first write reads the whole log before it, 8 MiB at most."""
    at = games.find(_HEADER) if lines else -1
    while at >= 0:
        end = games.find(b"\n", at)
        if end < 0:  # a header a power cut tore: no game's (`_without_ours` keeps it too)
            return False
        if _ours(games[games.rfind(b"\n", 0, at) + 1:end + 1], lines):
            return True
        at = games.find(_HEADER, end)
    return False


def _later_games(tail: bytes) -> bytes:
    """The games in ``tail`` (the file from where this game began) after this game's lines:
    everything from the first game header after its own first line."""
    offset = tail.find(b"\n") + 1
    if offset == 0:
        return b""
    for line in tail[offset:].splitlines(keepends=True):
        if _HEADER in line:
            return tail[offset:]
        offset += len(line)
    return b""
