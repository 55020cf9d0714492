"""The types of the commands' options (argparse ``type=``): whole numbers, seeds, files; and
the checks of the paths a script writes to. A bad value is a usage error naming the option
and why."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Callable
from pathlib import Path


def _whole(text: str) -> int:
    """``text`` as a whole number; a refusal naming it, as every option's is (argparse's own
    for a ValueError names the type function: "invalid positive_int value")."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of 1 or more")
    return value


def non_negative_int(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of 0 or more")
    return value


def seeds_below(limit: int, why: str = "") -> Callable[[str], int]:
    """A ``--seed`` option's type: a whole number from 0 to below ``limit``. Play's limit is
    2**63, a seed the history can keep (SQLite's 64-bit integers); ``why`` ends the
    refusal of a larger one. A negative seed is refused: the wall is shuffled by the
    seed's size alone (``random.Random`` takes ``abs``), so -5 would play 5's game under
    another name in the history."""

    def seed_number(text: str) -> int:
        seed = _whole(text)
        if seed < 0:
            # Plainly: which positive seed it would match differs by command (simulate
            # plays (seed << 32) | game).
            raise argparse.ArgumentTypeError(f"{text} is negative: a seed is 0 or more")
        if seed >= limit:
            raise argparse.ArgumentTypeError(
                f"{text} is too large: a seed is below 2**{limit.bit_length() - 1}{why}")
        return seed

    return seed_number


def not_a_file(path: Path) -> str | None:
    """Why ``path`` is no file to read, in words ("no such file", "a folder, not a file"),
    or None when it is one (a regular file, or a link to one). A folder or /dev/null was
    said as "no such file", which sent the user looking for a typo in a path that is there
    (rules74 NIT 4)."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return _dangling(path) or "no such file"
    except OSError as error:  # a folder on the way not to be entered, a loop of links
        return f"cannot be looked at ({error.strerror})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO), not a regular file"
    return "not a regular file"


def _dangling(path: Path) -> str | None:
    """What a symbolic link at ``path`` whose file is not there is ("a link to nothere.toml,
    which is not there"); None when ``path`` is no link. "no such file" was said of a name
    ``ls`` shows (reviewb74 N4)."""
    try:
        target = os.readlink(path)
    except OSError:  # not there, or no link
        return None
    # a link to a link, itself there but leading nowhere, is not "not there"
    there = os.path.lexists(path.parent / target)
    return f"a link to {target}, which {'leads to no file' if there else 'is not there'}"


def existing_file(text: str) -> Path:
    """A file to read (--profile, a script's --model): refused, saying why, when the path is
    missing or no regular file."""
    path = Path(text)
    trouble = not_a_file(path)
    if trouble:
        raise argparse.ArgumentTypeError(f"{text}: {trouble}")
    return path


def file_name(text: str) -> Path:
    """A file given by name (play's --log, --state, --fight; genso's and coc's fight
    --file): an empty one (``--log ""``, a shell variable unset) is refused as empty. As a
    Path it was ``.``, the folder, and refused as "a folder, not a log" (setup71 NIT 10);
    genso's and coc's --file took "" as not given and wrote over the default fight.json
    (reviews71 RISK 1). One of spaces only named a file of spaces in the folder the
    command ran in."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"the file name is empty{f' (only spaces: {text!r})' if text else ''}: give one")
    return Path(text)


def cannot_make_folder(out: Path) -> str | None:
    """Make ``out``, a folder for a script to write into (a script's ``--out``), with the
    folders above it; None when it is there now, else why not, in words: the file in its
    way (``out`` itself, or a folder above it that is a file), else what the system said.
    Called right after the arguments are read, so a path that cannot be used is a usage
    error before any work, not a FileExistsError traceback at the end (a76maker DEFECT 1;
    render_tiles' own check, camera75 NIT 7)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        for place in (out, *out.parents):
            if place.exists() and not place.is_dir():
                where = "" if place == out else f"{place} is "
                return f"{where}a file, not a folder; give a folder to write into"
        return f"cannot make the folder ({error.strerror})"
    return None


def cannot_write_file(path: Path) -> str | None:
    """Why ``path`` is no file a script can write (make_tray's ``--out``, scan_label_cuts'
    PNG), in words, or None when it can be: its folder must be there (it is not made) and
    ``path`` no folder. Checked before the work, which the write comes after (a76maker
    DEFECT 1: a FileNotFoundError or IsADirectoryError traceback, or pygame's error)."""
    if path.is_dir():
        return "a folder, not a file; give a file name"
    folder = path.parent
    if not folder.is_dir():
        for place in (folder, *folder.parents):
            if place.exists() and not place.is_dir():
                return f"{place} is a file, not a folder"
        return f"no folder {folder}; make it first, or give another"
    if path.exists():
        if not os.access(path, os.W_OK):
            return "cannot be written (permission denied)"
    elif not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write into the folder {folder} (permission denied)"
    return None
