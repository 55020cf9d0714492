"""Writing TOML (calibrations, the RFID tag map, character sheets).

A file is built as a tomlkit document, never by hand from f-strings: tomlkit quotes and
escapes every string, and keeps the comments a player reads in the file. :func:`write_toml`
checks the text loads back with the standard library before it replaces anything.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import InlineTable, Item, KeyType, SingleKey, Table

from companion.files import atomic_write_text


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


def one_line_each_over(text: str, values: Mapping[str, Any], *comments: str,
                       same: Callable[[tomlkit.TOMLDocument], bool] | None = None,
                       ) -> tomlkit.TOMLDocument:
    """``values`` as :func:`one_line_each` writes them, put into the document ``text`` holds,
    so a file the player wrote keeps its comments and order: a field whose value is the same
    is not touched, a changed one keeps its line's comment, a new one goes at the end and one
    no longer written goes. A table the file holds (``[money]``, or an inline one) is changed
    key by key in place, so its own comments and order stay too. Text that is not TOML gets
    :func:`one_line_each`'s document.

    ``same`` tells whether a document reads back as ``values`` do, defaults and all: given,
    a file that already does is returned untouched, and a field or a table's key the file
    left out is not added when the document reads back the same without it (a sheet's
    ``silver = 0`` or ``race``: genso74 DEFECT 1, a rest at full HP wrote a sheet's
    ``[money]`` over inline, its comments gone, though no coin changed)."""
    try:
        document = tomlkit.parse(text)
    except ParseError:
        return one_line_each(values, *comments)
    if same is not None and same(document):
        return document
    added: list[tuple[str, ...]] = []
    for key in [k for k in document if k not in values]:
        del document[key]
    for key, value in values.items():
        item = tomlkit.item(_inline(value))
        if key not in document:
            document.add(key, item)
            added.append((key,))
        elif document[key].unwrap() == item.unwrap():
            continue
        elif isinstance(value, Mapping) and isinstance(document[key], Table | InlineTable):
            added.extend((key, k) for k in _update_in_place(document[key], value))
        else:
            document[key] = item
    if same is None:
        return document
    left_out: list[tuple[str, ...]] = []
    for path in added:  # each left out only if the file still reads the same without it
        if same(_without(document, [*left_out, path])):
            left_out.append(path)
    return _without(document, left_out) if left_out else document


def _update_in_place(section: Table | InlineTable, values: Mapping[str, Any]) -> list[str]:
    """``section`` made to hold ``values``, key by key: a key whose value is the same keeps
    its line, a changed one its comment, one no longer there goes; the keys added, returned."""
    added: list[str] = []
    for key in [k for k in section if k not in values]:
        del section[key]
    for key, value in values.items():
        item = tomlkit.item(_inline(value))
        if key not in section:
            section[key] = item
            added.append(key)
        elif section[key].unwrap() != item.unwrap():
            section[key] = item
    return added


def _without(document: tomlkit.TOMLDocument,
             paths: list[tuple[str, ...]]) -> tomlkit.TOMLDocument:
    """A copy of ``document`` without the fields ``paths`` name (a key, or a table's key)."""
    copy = tomlkit.parse(tomlkit.dumps(document))
    for *tables, key in paths:
        holder: Any = copy
        for name in tables:
            holder = holder[name]
        del holder[key]
    return copy


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
