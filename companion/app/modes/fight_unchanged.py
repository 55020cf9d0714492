"""A fight command's action saved only over the fight file it loaded (review58b R1).

The command asks for its dice (typed, or the camera's) with the file not held: a GM gone
from a typed-dice prompt would otherwise keep the table, and every other command, out of
the fight for as long as the prompt stayed open. The file is held only a moment for the
load (:func:`loaded`: a table or another command holding it refuses the command before any
dice are asked for) and again for the save (:func:`saving_over`), which is refused, naming
what changed, when the file is not the one loaded: the action is then not applied, and the
GM runs it again on the fight as it is now.
Kept apart from :mod:`~companion.app.modes.fight_file` (the table's), which a system's
``fight`` command would otherwise load with the whole play session.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.overrides import utf8_text
from companion.errors import DataError
from companion.file_locks import FileInUse, writing
from companion.files import loads_json, open_regular


@dataclass(frozen=True, slots=True)
class AsLoaded:
    """The fight file as a command loaded it: its SHA-256 (None: there was none) and its
    JSON (None: not JSON), to tell at the save whether another wrote it meanwhile; its
    ``(device, inode)``, which a copy ``fight new --force`` renamed aside keeps."""

    path: Path
    sha: str | None
    data: Any
    file_id: tuple[int, int] | None


def loaded(path: Path) -> AsLoaded:
    """The fight file at ``path`` as it is now (read while it is held, so no companion writes
    it between this and the command's own load). Only a regular file is read
    (:func:`~companion.files.open_regular`): a pipe waited for a writer for ever, saying
    nothing, and a folder is named as one (a78gensofight item 1)."""
    try:
        with open_regular(path, "fight") as file:
            data = file.read()
            st = os.fstat(file.fileno())
    except FileNotFoundError:
        return AsLoaded(path, None, None, None)
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:  # the one decoder, a byte-order mark dropped as the fight's own load drops it
        fight = loads_json(utf8_text(data, "fight", path))  # (reviewgc67b NIT 3)
    except (DataError, json.JSONDecodeError):
        fight = None
    return AsLoaded(path, hashlib.sha256(data).hexdigest(), fight, (st.st_dev, st.st_ino))


def _replaced_copy(before: AsLoaded) -> Path | None:
    """The ``.replaced-…`` copy (:func:`~companion.app.modes.fight_replaced.replace_fight`)
    that is the very file ``before`` loaded, renamed aside by a ``fight new --force`` made
    meanwhile: told by its inode, as a new fight with the same party and no action yet can
    read as a prefix of the one loaded (review58c F3). None: no such copy."""
    if before.file_id is None:
        return None
    pattern = f"{glob.escape(before.path.name)}.replaced-*"
    for copy in before.path.parent.glob(pattern):
        with contextlib.suppress(OSError):
            st = copy.stat()
            if (st.st_dev, st.st_ino) == before.file_id:
                return copy
    return None


def what_changed(before: Any, now: Any) -> str:
    """What another wrote in a fight file between ``before`` and ``now`` (their JSON), in
    words: actions played or undone, another fight started, ``fight apply``'s record."""
    if now is None:
        return "it is gone or no longer a fight (another `fight new` may be writing it)"
    if not (isinstance(before, dict) and isinstance(now, dict)):
        return "it was written by another"
    if {k: v for k, v in before.items() if k not in ("journal", "applied")} \
            != {k: v for k, v in now.items() if k not in ("journal", "applied")}:
        return "another fight was started in it (`fight new`)"
    old, new = before.get("journal", []), now.get("journal", [])
    if isinstance(old, list) and isinstance(new, list) and old != new:
        if new[:len(old)] == old:
            return f"{_actions(len(new) - len(old))} played meanwhile"
        if old[:len(new)] == new:
            return f"{_actions(len(old) - len(new))} undone meanwhile"
        return "its actions were changed (undone and played again)"
    return "`fight apply` recorded the sheets it wrote in it"


def _actions(count: int) -> str:
    return "1 action was" if count == 1 else f"{count} actions were"


@contextlib.contextmanager
def saving_over(before: AsLoaded, holder: str, verb: str) -> Iterator[None]:
    """The file held (:func:`writing`) for the command's save of its action, which the block
    writes, when it is still as ``before``; refused (nothing written, the action not applied:
    the GM runs ``fight <verb>`` again) when another wrote it meanwhile, or holds it now (a
    table started meanwhile)."""
    again = (f"nothing was written: this `fight {verb}` was not applied (its dice are "
             "dropped); run it again")
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(writing(before.path, holder))
        except FileInUse as exc:
            raise FileInUse(f"{exc}; {again}", exc.holder) from None
        now = loaded(before.path)
        if now.sha != before.sha:
            copy = _replaced_copy(before)
            changed = (what_changed(before.data, now.data) if copy is None else
                       "another fight was started in it (`fight new --force`); the one "
                       f"loaded is kept as {copy.name}")
            raise DataError(f"{before.path} was changed while the dice were asked for: "
                            f"{changed}; {again}")
        yield
