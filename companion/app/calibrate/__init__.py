"""The calibration flows of ``companion calibrate``: camera, RFID tray and dice reader, and
the check of the buttons, LED and buzzer.

Each module registers its own sub-command (see :mod:`companion.app.commands.calibrate`);
the camera, RFID tray and dice reader save what they learnt in the user's config folder,
and ``calibrate buttons`` names each press with its pin and saves nothing (a77keys RISK 6).

A file of its own that calibration cannot read (cut short, edited wrong, from an
older companion) is set aside with :func:`set_aside`, kept beside the original
name as ``config.toml`` is, so the command that writes it again is never blocked
by it and the player's edits are not lost.
"""

from __future__ import annotations

import calendar
import errno
import re
import sys
import time
from pathlib import Path

from companion.files import Kept, keep_cut_writes, keep_unreadable
from companion.systems.jongrogue.tiles import Tile

# How the errors of a file calibration writes end: the fix, which is calibrating again.
_ADVICE = ("; run `companion calibrate", "; fix it or calibrate again",
           "; mend it, or run `companion calibrate")


def set_aside(path: Path, problem: str) -> None:
    """Move the unreadable ``path`` aside (kept, never deleted) and say why and where, in
    one line on stderr, with the copies its cut writes left beside it that may hold its
    last write (:func:`kept_aside`, :func:`say_set_aside`); calibrating writes it afresh."""
    say_set_aside(path, problem, kept_aside(path))


def kept_aside(path: Path) -> Kept:
    """Move the unreadable ``path`` aside and keep every copy its cut writes left beside it:
    those kept now and those an earlier load kept (``dice.toml.unwritten-…``, kept by a
    ``roll`` or by the load that found the file unreadable, whose words naming them the
    advice cut off: fixcarry74)."""
    aside = keep_unreadable(path)
    return Kept(aside.path, keep_cut_writes(path))


def kept_since(kept: Kept) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """``kept``'s copies split in two: those kept since the damaged file was last written
    (one may hold its last write), and the older ones, from writes cut short before it was
    written again, which cannot (reviewa74 R2: each set-aside named every copy ever left,
    a longer line at each incident, each "which may hold the last write whole"). When a
    copy's write was cut is its own modification time (a rename keeps it), set by the same
    clock as the damaged file's, not the time in its name, which is the clock's when it was
    renamed: a Pi with no RTC boots after a power cut with its clock behind, and the copy
    of that very cut was named before the file's last write and counted as older
    (reviewfw74 R1). The name's time serves only a copy whose time cannot be read; one with
    neither, or a damaged file whose time cannot be read, counts as recent."""
    try:
        written = int(kept.path.stat().st_mtime)  # a rename keeps it: the damaged file's
    except OSError:
        return kept.unwritten, ()
    recent: list[Path] = []
    older: list[Path] = []
    for copy in kept.unwritten:
        at: int | None
        try:
            at = int(copy.stat().st_mtime)
        except OSError:
            stamp = _STAMP.search(copy.name)
            at = (calendar.timegm(time.strptime(stamp.group(1), "%Y%m%dT%H%M%SZ"))
                  if stamp else None)
        (older if at is not None and at < written else recent).append(copy)
    return tuple(recent), tuple(older)


def say_set_aside(path: Path, problem: str, kept: Kept, copies: bool = True) -> None:
    """Say on stderr that ``path`` could not be read (``problem``) and was kept aside as
    ``kept``, naming the copies that may hold its last write (:func:`kept_since`) and
    counting the older ones; ``copies`` False: none of them, as the line after this one
    names each (a dice enrolment's put-back: reviewa74 N3, the copy named twice)."""
    recent, older = kept_since(kept)
    problem = problem.removeprefix(f"{path}: ")  # errors name the file; the line names it once
    for advice in _ADVICE:
        # Its fix is the calibration now running: "run it again" would send the player round.
        problem = problem.split(advice, 1)[0]
    words = ""
    if copies:
        words = Kept(kept.path, recent).copies(by_name=True)
        if older:
            one = len(older) == 1
            which = "an older copy, of a write" if one \
                else f"{len(older)} older copies, of writes"
            words += (f"; {which} cut short before {path.name} was last written, "
                      f"{'stays' if one else 'stay'} beside it ({path.name}.unwritten-*)")
    print(f"companion: {path} cannot be read ({problem}); it was kept as {kept.path.name}"
          f"{words} and calibration starts afresh", file=sys.stderr)


#: The time a copy was kept, in its name (companion.files._free_name's stamp).
_STAMP = re.compile(r"\.unwritten-(\d{8}T\d{6}Z)(?:-\d+)?$")


def describe(tile: Tile) -> str:
    """``tile`` as the enrolments ask for it: MPSZ, Japanese and English (``7z 中 (Red
    dragon)``), for a maker who does not know yet that 7z is 中 (cal66 N1)."""
    return f"{tile} {tile.name_ja} ({tile.name_en})"


#: The disk errors that free space mends; a folder mounted read-only or not the player's
#: (EROFS, EACCES) is not (cal66 N4: `calibrate dice` said "free space" to both).
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def room_fix(exc: OSError, folder: object) -> str:
    """What to do about a write the disk refused with ``exc`` in ``folder``: free space in
    it, or let it be written."""
    return f"free space in {folder}" if exc.errno in NO_ROOM else f"let {folder} be written"
