"""A fight command's action whose save the disk refuses (full, read-only), said as such.

``coc fight act`` and the ``genso fight`` actions play the action, then write the fight
file. A full disk ended them with the OS's words alone (``…/fight.json: No space left on
device``): the dice the player threw and typed were dropped unsaid, and nothing told that
the action was not played, nor how to play it again (hist72 DEFECT 2). The write is atomic
(:func:`companion.files.atomic_write_text`): refused, the file holds the fight as it was,
so the action is not played, and the player is told so, with the dice thrown, to be typed
again (``--dice typed``) once the disk takes the write.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterable, Iterator
from pathlib import Path

from companion.errors import DataError
from companion.files import DISK_ERRNOS, NotDurable

#: The refusals that free space mends; a folder mounted read-only or not the player's is
#: mended by letting it be written.
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def dice_thrown(dice: Iterable[tuple[int, int]]) -> str:
    """The dice of an action as (sides, value) pairs, in words: ``d100 33, d10 4``."""
    return ", ".join(f"d{sides} {value}" for sides, value in dice)


@contextlib.contextmanager
def action_saved(path: Path, command: str, dice: Iterable[tuple[int, int]] = ()
                 ) -> Iterator[None]:
    """The block writes the fight at ``path`` after ``command`` (``coc fight act attack``)
    played its action with ``dice`` ((sides, value), in the order thrown). A write the disk
    refuses (:data:`~companion.files.DISK_ERRNOS`) is a :class:`DataError` saying that the
    action was not played and the fight is as it was, what to mend, and the dice thrown, to
    type again with ``--dice typed``. A write whose rename went through and only the
    folder's fsync failed (:class:`NotDurable`) is the action played: raised as it is."""
    try:
        yield
    except NotDurable:
        raise
    except OSError as exc:
        if exc.errno not in DISK_ERRNOS:
            raise
        where = exc.filename or str(path)
        fix = (f"free space in {path.parent}" if exc.errno in _NO_ROOM
               else f"let {path.parent} be written")
        thrown = dice_thrown(dice)
        again = (f"; the dice thrown: {thrown} (to play the same throw, run it with --dice "
                 "typed and type them)" if thrown else "")
        raise DataError(f"cannot save the fight ({where}: {exc.strerror or exc}): this "
                        f"`{command}` was not applied, and the fight is as it was before it; "
                        f"{fix}, then run it again{again}") from exc
