"""A fight command's action whose save the disk refuses (full, read-only), said as such.

``coc fight act`` and the ``genso fight`` actions play the action, then write the fight
file. A full disk ended them with the OS's words alone (``…/fight.json: No space left on
device``): the dice the player threw and typed were dropped unsaid, and nothing told that
the action was not played, nor how to play it again (hist72 DEFECT 2). The write is atomic
(:func:`companion.files.atomic_write_text`): refused, the file holds the fight as it was,
so the action is not played, and the player is told so, with the dice thrown, to be typed
again once the disk takes the write, and the whole command that does it: the one typed,
its actor, target and options as given, with ``--dice typed`` for the dice (reviewh72 NIT
4: "run it again" named `coc fight act attack` alone, no actor nor target).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
from collections.abc import Iterable, Iterator
from pathlib import Path

from companion.app.command_name import companion_line
from companion.errors import DataError
from companion.files import DISK_ERRNOS, NotDurable

#: The refusals that free space mends; a folder mounted read-only or not the player's is
#: mended by letting it be written.
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
#: Where a throw's dice came from: the retyped command takes them typed, so they go.
_DICE_OPTIONS = frozenset({"dice", "seed", "source", "d100"})


def dice_thrown(dice: Iterable[tuple[int, int]]) -> str:
    """The dice of an action as (sides, value) pairs, in words: ``d100 33, d10 4``."""
    return ", ".join(f"d{sides} {value}" for sides, value in dice)


def retype_command(args: argparse.Namespace, command: str, typed: bool) -> str:
    """The command line that plays again what ``args`` (the parsed command line of
    ``command``, ``coc fight act attack``) played: its words, arguments and options as
    given, read back through the command's own parser, so every verb's (an actor, a
    target, ``--with``, ``--weapon``, ``--set``, ``--file``) are in it; the options naming
    where dice come from left out, and ``--dice typed`` added when ``typed`` (dice were
    thrown)."""
    from companion.app.cli import build_parser  # the cli loads this module's commands

    parser = build_parser(command.split()[0])
    words: list[str] = []
    for word in command.split():
        verbs = [action for action in parser._actions
                 if isinstance(action, argparse._SubParsersAction)]
        if not verbs or word not in verbs[0].choices:
            break
        parser = verbs[0].choices[word]
        words.append(word)
    options: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.dest in _DICE_OPTIONS:
            continue
        value = getattr(args, action.dest, None)
        if not action.option_strings:
            words += [str(each) for each in (value if isinstance(value, list) else [value])
                      if each is not None]
            continue
        flag = max(action.option_strings, key=len)
        if isinstance(action, argparse._AppendAction):
            for each in value or ():
                options += [flag, str(each)]
        elif value is not None and value != action.default:
            options += [flag] if action.nargs == 0 else [flag, str(value)]
    return companion_line(*words, *options, *(["--dice", "typed"] if typed else []))


@contextlib.contextmanager
def action_saved(path: Path, command: str, args: argparse.Namespace,
                 dice: Iterable[tuple[int, int]] = ()) -> Iterator[None]:
    """The block writes the fight at ``path`` after ``command`` (``coc fight act attack``,
    its command line parsed as ``args``) played its action with ``dice`` ((sides, value),
    in the order thrown). A write the disk refuses (:data:`~companion.files.DISK_ERRNOS`)
    is a :class:`DataError` saying that the action was not played and the fight is as it
    was, what to mend, and the command that plays it again (:func:`retype_command`) with
    the dice thrown to type. A write whose rename went through and only the folder's fsync
    failed (:class:`NotDurable`) is the action played: raised as it is."""
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
        again = f"`{retype_command(args, command, typed=bool(thrown))}`"
        if thrown:
            again += f" and type the dice thrown, for the same throw: {thrown}"
        raise DataError(f"cannot save the fight ({where}: {exc.strerror or exc}): this "
                        f"`{command}` was not applied, and the fight is as it was before it; "
                        f"{fix}, then run it again: {again}") from exc
