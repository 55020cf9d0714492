"""Writing the companion's own files: whole or not at all, TOML through tomlkit.

A power cut mid-write must leave the old file or the new one, never half of
either: :func:`atomic_write_text` writes a temporary file beside the target,
fsyncs it, renames it over the target (``os.replace`` is atomic on POSIX) and
fsyncs the folder, so the rename itself survives the cut.

TOML (calibrations, the RFID tag map, character sheets) is built as a tomlkit
document, never by hand from f-strings: tomlkit quotes and escapes every string,
and keeps the comments a player reads in the file. :func:`write_toml` checks the
text loads back with the standard library before it replaces anything.

The game systems do no I/O; the app and the hardware adapters write through here.
"""

from __future__ import annotations

import contextlib
import os
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import Item, KeyType, SingleKey, Table


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file, whole."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):  # no stray file beside a path not written
            tmp.unlink()
        if isinstance(exc, OSError) and exc.errno is not None:
            # A full disk's error from write or fsync names no file: name the one we write
            # (not the temporary one beside it), keeping the error's kind.
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    fsync_dir(path.parent)


def atomic_write_npz(path: Path, **arrays: Any) -> None:
    """Replace ``path`` with a compressed NumPy archive of ``arrays``, whole or not at all."""
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    atomic_write_bytes(path, buffer.getvalue())


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (the folder's entry list is data too)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def move_aside(path: Path, why: str = "corrupt") -> Path:
    """Rename a file to ``<name>.<why>-<UTC timestamp>`` (kept, never deleted); return it."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


def write_toml(path: Path, document: tomlkit.TOMLDocument) -> None:
    """Write a TOML document atomically, after checking that it loads back as written."""
    text = tomlkit.dumps(document)
    tomllib.loads(text)  # a value tomlkit cannot write faithfully fails here, not at next load
    atomic_write_text(path, text)


def one_line_each(values: Mapping[str, Any], *comments: str) -> tomlkit.TOMLDocument:
    """A TOML document of one line per field, tables written inline, under ``comments``
    (a character sheet a player reads and edits field by field)."""
    document = tomlkit.document()
    for comment in comments:
        document.add(tomlkit.comment(comment))
    for key, value in values.items():
        document.add(key, _inline(value))
    return document


def _inline(value: Any) -> Any:
    if isinstance(value, Mapping):
        inline = tomlkit.inline_table()
        inline.update({k: _inline(v) for k, v in value.items()})
        return inline
    if isinstance(value, list | tuple):
        array = tomlkit.array()
        array.extend(_inline(v) for v in value)
        return array
    return value


def commented(value: object, comment: str) -> Item:
    """A TOML value with a comment after it on its line: ``stable_frames = 3  # frames…``."""
    item = tomlkit.item(value)
    item.comment(comment)
    item.trivia.comment_ws = "  "
    return item


def table(values: dict[str, object], quoted_keys: bool = False) -> Table:
    """A TOML table of plain values (or :func:`commented` ones), in the given order.

    ``quoted_keys`` writes every key in quotes, for keys that are data (an RFID
    UID) rather than names.
    """
    section = tomlkit.table()
    for key, value in values.items():
        section.add(SingleKey(key, t=KeyType.Basic) if quoted_keys else key, value)
    return section
