"""``fight new`` over a fight already saved (``coc fight new``, ``genso fight new``): without
``--force`` it is refused, saying what ``--force`` does; with it, the old fight is kept
beside the new one, never deleted, as a game save another game replaces is. A command may
say a fight it is done with is simply written over, with no ``--force`` and no copy: coc's
once over, genso's once over with its results on the sheets (applied, or presets only).
Kept apart from :mod:`~companion.app.modes.fight_file` (the table's), which a system's
``fight`` command would otherwise load with the whole play session."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.app.notes import note
from companion.errors import DataError, OtherSystemsFight
from companion.file_locks import FileInUse, holder_of, holding, writing
from companion.files import NotDurable, file_there, fsync_dir, kept_if_unreadable, move_aside


def table_holder(mode: str) -> str:
    """Who a ``mode`` table (genso, coc) holds its files as, in their lock files
    (``companion play``'s ``held_files``): how the fight commands know it for the table."""
    return f"the {mode} table, companion play --mode {mode}"


def at_the_table(exc: FileInUse, path: Path, mode: str, over: Callable[[], bool],
                 then: str) -> FileInUse:
    """``exc``, a refusal of ``path`` held by another companion, as said when the holder is
    the ``mode`` table showing its fight over (``over()``; not closed): its Close lets go of
    the file, which stopping it does too, with the player's table gone. The GM is told to
    press it and ``then`` (run the command again)."""
    holder = exc.holder or holder_of(path)
    if holder is None or holder.who != table_holder(mode) or not over():
        return exc
    return FileInUse(f"{path} is open at the {mode} table ({holder}), which shows the fight "
                     "over: press Close 閉じる there (the table then lets go of the file and "
                     f"waits for the next fight) and {then}; nothing was written", holder)


@contextlib.contextmanager
def holding_fight(path: Path, mode: str, verb: str, over: Callable[[], bool],
                  refused: Callable[[FileInUse], FileInUse] = lambda exc: exc
                  ) -> Iterator[None]:
    """``path`` held (:func:`writing`) while ``companion <mode> fight <verb>`` loads it (and
    saves it, for a verb that asks for no dice): refused while another companion holds it
    (``refused`` rewords the refusal; the ``mode`` table showing its fight over is said as
    :func:`at_the_table`), saying to run it again. None there: the load says so, and no lock
    file or folder is made for it."""
    if not file_there(path):
        yield
        return
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(writing(path, f"companion {mode} fight {verb}"))
        except FileInUse as exc:
            raise at_the_table(refused(exc), path, mode, over,
                               f"run `fight {verb}` again") from None
        yield


#: How coc's and genso's fight readers refuse a file a newer companion wrote: "fight file
#: format 99 is not one this companion reads (1 to 2)" (coc; "… engine 26 …", a later rules
#: revision, r77coc), "… version 3 …" (genso).
NEWER = re.compile(r"fight file (?:format|version|engine|opening_engine) \S+ is not one "
                   r"this companion reads")


def not_a_fight_file(path: Path) -> DataError | None:
    """The refusal of ``--file`` naming something there that is no file (a folder, a pipe,
    a device): ``fight new --force`` kept *whatever* it found as ``.corrupt-…``, so the
    folder a player keeps fights in was renamed with all in it (a78gensofight item 1).
    None when nothing or a regular file is there."""
    try:
        mode = path.stat().st_mode
    except OSError:  # nothing there, or a path file_there names
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return DataError(f"--file {path} is a folder: give a file in it, e.g. "
                         f"{path / 'fight.json'}; nothing was moved or written")
    return DataError(f"--file {path} is a device or a pipe, not a fight file: give a file "
                     "name; nothing was moved or written")


def refuse_replacing(path: Path, meanwhile: str = "",
                     fault: DataError | None = None) -> DataError:
    """What ``fight new`` says of a fight already at ``path`` without ``--force``: what
    ``--force`` does with it (:func:`replace_fight`), so none is thought lost. ``meanwhile``:
    how it came there after this ``fight new`` began, and what of this one is dropped.
    ``fault``: why the file there cannot be read; ``--force`` keeps such a one as
    ``.corrupt-…`` (:func:`~companion.files.kept_if_unreadable`), and it has no fight to end
    (it was said to be kept as ``.replaced-…``, with ``fight end`` offered). A folder or a
    pipe at ``path`` is no fight, and ``--force`` is not offered (:func:`not_a_fight_file`),
    nor for another system's fight (:class:`~companion.errors.OtherSystemsFight`)."""
    if (not_file := not_a_fight_file(path)) is not None:
        return not_file
    if fault is not None and NEWER.search(str(fault)):
        # A newer companion's fight plays on there: not one that "cannot be played on"
        # (reviewh70 NIT 6). --force keeps it as one this companion cannot read.
        return DataError(f"{fault}: a newer companion's fight, to be played on there; or pass "
                         f"--force to start over here, keeping it as {path.name}.corrupt-…")
    if isinstance(fault, OtherSystemsFight):
        # whole, played by its own system: --force would keep it as .corrupt-… (r78coc RISK 3)
        return DataError(f"{fault}; nothing was moved or written")
    if fault is not None:
        return DataError(f"{fault}; it cannot be played on: pass --force to start over, "
                         f"keeping it as {path.name}.corrupt-…")
    return DataError(f"a fight is saved at {path}" + (f" ({meanwhile})" if meanwhile else "")
                     + f"; pass --force to start over, keeping it as {path.name}.replaced-…")


def replace_fight(path: Path, read: Callable[[Path], object], write: Callable[[], None],
                  command: str, refused: DataError | None,
                  over: Callable[[Any], bool] | None = None) -> Path | None:
    """``fight new``'s ``write`` of the new fight at ``path``, the fight there (``--force``)
    kept first: one ``read`` cannot read as ``.corrupt-…`` (:func:`kept_if_unreadable`), any
    other as ``.replaced-…``, with a note naming how ``command`` (``companion coc fight``)
    shows the copy. Returns the ``.replaced-…`` copy, for a command to say more of it; None
    when there was no fight, or none that could be read.

    ``refused``: without ``--force``, raised when a fight is there all the same, saved by
    another command while this one was made (its opening dice asked for): looked at under
    the hold, so none is moved aside unasked (review58c F1). None: ``--force``.

    ``over``: whether the command is done with the fight ``read`` gives (coc's: over, a side
    won, nobody stands or the Keeper ended it; genso's: over and its results on the sheets,
    review59a D3): such a fight is written over, with no ``--force`` and no copy kept, and a
    note saying so (cli59 F2: a copy for every finished fight piled up). None: every fight
    there is kept.

    ``path`` is held (:func:`holding`) before anything moves: a table playing it, which alone
    writes it, refuses this with :class:`FileInUse` and the fight there stays (moved first,
    it left the table with no fight). A write that fails (a full disk) puts the kept fight
    back, so an old fight is never left aside with no new one in its place. A folder that
    lets nothing be renamed is an OSError, and nothing is replaced. A folder or a pipe at
    ``path`` is refused (:func:`not_a_fight_file`), never moved aside, and so is another
    system's fight (:class:`~companion.errors.OtherSystemsFight`).
    """
    if (not_file := not_a_fight_file(path)) is not None:
        raise not_file
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(holding(path, f"{command} new"))
        except FileInUse as exc:
            raise FileInUse(f"{exc}, then start the new fight again: the fight saved there "
                            "was left as it was", exc.holder) from None
        if not file_there(path):
            write()
            return None
        if over is not None and _over_there(path, read, over):
            write()
            note(f"note: the fight saved at {path} was over; the new one is saved over it")
            return None
        if refused is not None:
            raise refused
        _refuse_other_systems(path, read)
        unreadable = kept_if_unreadable(path, read)
        if unreadable is not None:
            note(f"note: {unreadable}")  # no fight to play on: it stays kept, come what may
            write()
            return None
        try:
            kept = move_aside(path, "replaced")
        except OSError as exc:
            raise OSError(exc.errno, f"the fight in it cannot be kept aside for a new one "
                          f"({exc.strerror or exc}): play it on, or start the new one with "
                          "another --file", str(path)) from None
        notice = (f"note: the fight replaced is kept as {kept.name}, beside {path.name}: "
                  f"{command} show --file {shlex.quote(str(kept))} shows it")
        try:
            write()
        except NotDurable:
            note(notice)  # the new fight is in place, only perhaps not on the disk yet
            raise
        except OSError as exc:
            # A full disk: said as the refusal above is, so the old fight is not thought lost.
            back = _put_back(kept, path, notice)
            raise OSError(exc.errno, f"{exc.strerror or exc}: the new fight was not written"
                          + ("; the fight saved there was left as it was" if back else ""),
                          exc.filename) from None
        except BaseException:
            _put_back(kept, path, notice)
            raise
        note(notice)
        return kept


def _refuse_other_systems(path: Path, read: Callable[[Path], object]) -> None:
    """``--force`` keeps no other system's fight at ``path`` aside as ``.corrupt-…``: it is
    whole, played by that system's commands (:class:`OtherSystemsFight`, r78coc RISK 3)."""
    try:
        read(path)
    except OtherSystemsFight as exc:
        raise refuse_replacing(path, fault=exc) from None
    except (DataError, OSError):
        return  # a damaged file: kept_if_unreadable keeps it aside


def _over_there(path: Path, read: Callable[[Path], object],
                over: Callable[[Any], bool]) -> bool:
    """Is the fight saved at ``path`` over (False when it cannot be read: it is kept)?"""
    try:
        return over(read(path))
    except DataError:
        return False


def _put_back(kept: Path, path: Path, notice: str) -> bool:
    """The fight kept aside as ``kept`` back at ``path``, the new one not written (True); the
    ``notice`` of where it is kept when even that rename fails (False)."""
    try:
        os.replace(kept, path)
    except OSError:
        note(notice)
        return False
    with contextlib.suppress(OSError):  # it is back, only perhaps not on the disk yet
        fsync_dir(path.parent)
    return True
