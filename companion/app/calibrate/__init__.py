"""The calibration flows of ``companion calibrate``: camera, RFID tray and dice reader.

Each module registers its own sub-command (see :mod:`companion.app.commands.calibrate`)
and saves what it learnt in the user's config folder.

A file of its own that calibration cannot read (cut short, edited wrong, from an
older companion) is set aside with :func:`set_aside`, kept beside the original
name as ``config.toml`` is, so the command that writes it again is never blocked
by it and the player's edits are not lost.
"""

from __future__ import annotations

import errno
import sys
from pathlib import Path

from companion.files import Kept, keep_cut_writes, keep_unreadable
from companion.systems.jongrogue.tiles import Tile

# How the errors of a file calibration writes end: the fix, which is calibrating again.
_ADVICE = ("; run `companion calibrate", "; fix it or calibrate again",
           "; mend it, or run `companion calibrate")


def set_aside(path: Path, problem: str) -> None:
    """Move the unreadable ``path`` aside (kept, never deleted) and say why and where, in
    one line on stderr, with every copy its cut writes left beside it: those kept now and
    those an earlier load kept (``dice.toml.unwritten-…``, kept by a ``roll`` or by the
    load that found the file unreadable, whose words naming them the advice cut off): the
    line named none of those (fixcarry74), and calibrating writes the file afresh."""
    aside = keep_unreadable(path)
    kept = Kept(aside.path, keep_cut_writes(path))
    problem = problem.removeprefix(f"{path}: ")  # errors name the file; the line names it once
    for advice in _ADVICE:
        # Its fix is the calibration now running: "run it again" would send the player round.
        problem = problem.split(advice, 1)[0]
    print(f"companion: {path} cannot be read ({problem}); it was kept as {kept.path.name}"
          f"{kept.copies(by_name=True)} and calibration starts afresh", file=sys.stderr)


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
