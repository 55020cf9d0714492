"""``fight new`` over a fight already saved (``coc fight new``, ``genso fight new``): without
``--force`` it is refused, saying what ``--force`` does; with it, the old fight is kept
beside the new one, never deleted, as a game save another game replaces is (newuser55 #10).
Kept apart from :mod:`~companion.app.modes.fight_file` (the table's), which a system's
``fight`` command would otherwise load with the whole play session."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from companion.errors import DataError
from companion.files import kept_if_unreadable, move_aside


def refuse_replacing(path: Path) -> DataError:
    """What ``fight new`` says of a fight already at ``path`` without ``--force``: what
    ``--force`` does with it (:func:`keep_replaced_fight`), so none is thought lost."""
    return DataError(f"a fight is saved at {path}; pass --force to start over, keeping it "
                     f"as {path.name}.replaced-…")


def keep_replaced_fight(path: Path, read: Callable[[Path], object], command: str) -> str:
    """Before ``fight new --force`` writes a new fight at ``path``, the fight there is kept:
    one ``read`` cannot read as ``.corrupt-…`` (:func:`kept_if_unreadable`), any other as
    ``.replaced-…``. The notice, naming how ``command`` (``companion coc fight``) shows the
    copy. A folder that lets nothing be renamed is an OSError, and nothing is replaced."""
    unreadable = kept_if_unreadable(path, read)
    if unreadable is not None:
        return unreadable
    try:
        kept = move_aside(path, "replaced")
    except OSError as exc:
        raise OSError(exc.errno, f"the fight in it cannot be kept aside for a new one "
                      f"({exc.strerror}): play it on, or start the new one with another "
                      "--file", str(path)) from None
    return (f"the fight replaced is kept as {kept.name}, beside {path.name}: "
            f"{command} show --file {shlex.quote(str(kept))} shows it")
