"""Writing TOML (calibrations, the RFID tag map, character sheets).

A file is built as a tomlkit document, never by hand from f-strings: tomlkit quotes and
escapes every string, and keeps the comments a player reads in the file. :func:`write_toml`
checks the text loads back with the standard library before it replaces anything.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Collection, Mapping, Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.container import OutOfOrderTableProxy
from tomlkit.exceptions import ParseError
from tomlkit.items import Array, InlineTable, Item, KeyType, Null, SingleKey, Table, Whitespace

from companion.files import atomic_write_bytes, atomic_write_text


def write_toml(path: Path, document: tomlkit.TOMLDocument, as_it_was: bool = False) -> None:
    """Write a TOML document atomically, after checking that it loads back as written.

    ``as_it_was``: a file already at ``path`` keeps its line ends (CRLF, as Windows Notepad
    saves) and its UTF-8 byte-order mark, when it had them (reviewg74 NIT 3: a sheet a
    command changed came out all LF, every line changed to git and diff, its BOM gone)."""
    text = tomlkit.dumps(document)
    tomllib.loads(text)  # a value tomlkit cannot write faithfully fails here, not at next load
    if as_it_was:
        try:
            was = path.read_bytes()
        except OSError:  # none yet, or unreadable: written as a new file is
            was = b""
        first_end = was.find(b"\n")
        if first_end > 0 and was[first_end - 1:first_end] == b"\r":
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        if was.startswith(BOM):
            atomic_write_bytes(path, BOM + text.encode("utf-8"))
            return
    atomic_write_text(path, text)


#: The UTF-8 byte-order mark a file written by an older Windows Notepad starts with.
BOM = b"\xef\xbb\xbf"


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
                       taken: Mapping[str, int] | None = None,
                       dropped: Collection[str] = (),
                       first: Collection[str] = (),
                       ) -> tomlkit.TOMLDocument:
    """``values`` as :func:`one_line_each` writes them, put into the document ``text`` holds,
    so a file the player wrote keeps its comments and order: a field whose value is the same
    is not touched, a changed one keeps its line's comment, a new one goes at the end and one
    no longer written goes. A table the file holds (``[money]``, an inline one, or dotted
    keys ``money.gold = 3``) is changed key by key in place, so its own comments and order
    stay too. Text that is not TOML gets :func:`one_line_each`'s document.

    ``same`` tells whether a document reads back as ``values`` do, defaults and all. Given:

    - a file that already does is returned untouched;
    - a field or a table's key the file left out is not added when the document reads back
      the same without it (a sheet's ``silver = 0`` or ``race``: genso74 DEFECT 1, a rest
      wrote a sheet's ``[money]`` over inline, its comments gone, though no coin changed);
    - a field (or a table's key) the file holds and ``values`` leave out is kept as it is
      when the file still reads the same with it (``combat = 0``, ``spells = []``, an empty
      ``[rings]``), else set in place to its type's empty value (``[]``, ``0``, ``""``),
      its comment kept, when that reads the same (a stone sold: ``mana_stones = []  # …``),
      and deleted only when neither does (reviewg74 DEFECT 1: ``sell`` and ``gear --off``
      took the shipped example's commented lines away, a ``rest`` a sheet's ``combat = 0``).

    ``taken`` names which copy went out of a list, field by field: the index the item had
    in the file's list (``sell mana_stone:1`` of ``[4  # tower, 4  # town]`` took the second
    stone, and the town's line goes with it). Of equal items side by side the list alone
    cannot tell which went; without ``taken`` the first is taken to be it (fixcarry75 item 1:
    the tower's comment went, the stone sold the town's).

    ``dropped`` names fields a change makes no more sense of (a Ring of Storage's
    ``storage_mp`` and the ``rings`` worn, the last ring taken off): one the values leave
    out is deleted, not emptied, when its line is as this module adds it: one line, no
    comment of its own or inside (:func:`_as_added`). ``gear ring_storage`` added
    ``storage_mp = 5`` and ``rings = {left = [...], right = []}``, and ``--off`` left
    ``storage_mp = 0`` and ``rings = {left = [], right = []}`` behind (fixcarry75 item 4).
    A line the player commented, or a ``[rings]`` table, is emptied as ever.

    ``first`` names lists an item is added to at the front (a sheet's ``weapons``: the one
    readied is weapon 0): of equal items a copy added went at the end, and the comment on
    the one held before went to the new weapon 0 (f76genso item 1).
    """
    try:
        document = tomlkit.parse(text)
    except ParseError:
        return one_line_each(values, *comments)
    if same is not None and same(document):
        return document
    layout = _items_layout(document)
    added: list[tuple[str, ...]] = []
    gone: list[tuple[str, ...]] = [(k,) for k in document if k not in values]
    if same is None:
        for (key,) in gone:
            del document[key]
        gone = []
    for key, value in values.items():
        item = tomlkit.item(_inline(value))
        if key not in document:
            document.add(key, item)
            added.append((key,))
        elif document[key].unwrap() == item.unwrap():
            continue
        elif isinstance(value, Mapping) and isinstance(document[key], _TABLES):
            now_added, now_gone = _update_in_place(document[key], value, same is None, layout)
            added.extend((key, k) for k in now_added)
            gone.extend((key, k) for k in now_gone)
        elif not _changed_in_place(document[key], value, (taken or {}).get(key),
                                   key in first, layout):
            document[key] = item
    if same is None:
        return document
    # Each field the values leave out: kept, emptied or deleted, the first that reads the
    # same (the ones not yet decided deleted meanwhile, as the values have them).
    emptied: list[tuple[str, ...]] = []
    deleted: list[tuple[str, ...]] = []
    for at, path in enumerate(gone):
        undecided = gone[at + 1:]
        if (len(path) == 1 and path[0] in dropped and _as_added(document[path[0]])
                and same(_without(document, [*deleted, path, *undecided], emptied))):
            deleted.append(path)
            continue
        if same(_without(document, [*deleted, *undecided], emptied)):
            continue
        if same(_without(document, [*deleted, *undecided], [*emptied, path])):
            emptied.append(path)
        else:
            deleted.append(path)
    document = _without(document, deleted, emptied) if deleted or emptied else document
    left_out: list[tuple[str, ...]] = []
    for path in added:  # each left out only if the file still reads the same without it
        if same(_without(document, [*left_out, path])):
            left_out.append(path)
    return _without(document, left_out) if left_out else document


def _as_added(item: Any) -> bool:
    """Whether ``item`` is a field as :func:`one_line_each_over` adds one: a plain value or
    an inline table or array on one line, with no comment on it or inside it."""
    if isinstance(item, Table | OutOfOrderTableProxy):
        return False
    if isinstance(item, Item) and item.trivia.comment:
        return False
    text = tomlkit.dumps({"x": item}) if isinstance(item, Item) else ""
    return "#" not in text and text.count("\n") <= 1


#: What a table the file holds may be: ``[money]``, ``money = {…}``, or two or more dotted
#: keys (``money.gold = 3`` and ``money.large_silver = 1``), which tomlkit reads as a proxy
#: that changes the dotted lines in place (reviewg74 RISK 2: replaced whole, they came out
#: as an inline table at the end, their comments gone).
_TABLES = (Table, InlineTable, OutOfOrderTableProxy)
#: A file with no list written one item a line: its items two spaces in, as
#: :func:`_line_indent` puts a line, each with its comma (:func:`_items_layout`).
_LAYOUT = ("\n  ", True)


def _update_in_place(section: Table | InlineTable | OutOfOrderTableProxy,
                     values: Mapping[str, Any], delete: bool = True,
                     layout: tuple[str, bool] = _LAYOUT,
                     ) -> tuple[list[str], list[str]]:
    """``section`` made to hold ``values``, key by key: a key whose value is the same keeps
    its line, a changed one its comment; one no longer there goes (with ``delete``) or is
    left for the caller to decide. Returns the keys added and the keys left over."""
    added: list[str] = []
    gone = [k for k in section if k not in values]
    if delete:
        for key in gone:
            del section[key]
        gone = []
    for key, value in values.items():
        item = tomlkit.item(_inline(value))
        if key not in section:
            section[key] = item
            added.append(key)
        elif section[key].unwrap() != item.unwrap() and not _changed_in_place(
                section[key], value, layout=layout):
            section[key] = item
    return added, gone


def _changed_in_place(old: Any, value: Any, taken_at: int | None = None,
                      first: bool = False, layout: tuple[str, bool] = _LAYOUT) -> bool:
    """Whether the array ``old`` the file holds was made to hold the list ``value`` item by
    item, so each item it keeps keeps its own comment and a list written one item a line
    stays so (reviewz74 RISK 1: ``buy``, ``sell`` and ``gear --off`` wrote a commented
    multi-line ``equipment``, ``mana_stones`` or ``weapons`` over as one line, every item's
    comment gone). Only a list of plain values is; anything else is left to be replaced.
    ``taken_at``: the index of the item the caller took out, when ``value`` is ``old``
    without it (which of two equal stones was sold; its line goes, the other's stays).
    ``first``: an item added goes at the front (:func:`one_line_each_over`). ``layout``:
    how the file's lists one item a line start and end their items (:func:`_items_layout`),
    which a list written over lines with no item yet takes."""
    if not isinstance(old, Array) or not isinstance(value, list | tuple):
        return False
    now = old.unwrap()
    plain = (str, int, float, bool)
    if not all(isinstance(v, plain) for v in [*now, *value]):
        return False
    # Typed so 1 and True (equal, and the same hash, to Python) are never taken as the same.
    was = [(type(v), v) for v in now]
    if (taken_at is not None and 0 <= taken_at < len(was)
            and was[:taken_at] + was[taken_at + 1:] == [(type(v), v) for v in value]):
        del old[taken_at]
        return True
    if not now and "\n" in old.as_string():
        # No item yet, and written over lines (`weapons = [  # my arms` and `]`): tomlkit
        # puts an item into it at 4 spaces, with no comma, whatever the file's lists use
        # (f77carry item 3); its items go one a line as the file's other lists have theirs.
        line, comma = layout
        for v in value:
            old.append(v)
        groups = [g for g in old._value if _value_of(g) is not None]
        for n, group in enumerate(groups, 1):
            group.indent = Whitespace(line)
            group.comma = Whitespace(",") if comma or n < len(groups) else None
        return True
    typed = [(type(v), v) for v in value]
    if first and typed[1:] == was:
        old.insert(0, value[0])
        return True
    # One item taken, and at most one other put at the end (armour swapped for the one worn
    # goes into the pack): the first copy of equal items side by side is taken, as
    # drop_one takes it. The diff below matched [chain # a, chain # b] → [chain, leather]
    # as the second chain replaced, and the first's "# a" stayed on the one left; with a
    # copy kept after it, a used stone's comment went to the next (f76genso item 1).
    if typed[:len(was)] != was and len(was) - 1 <= len(typed) <= len(was):
        for at in range(len(was)):
            rest = was[:at] + was[at + 1:]
            put = value[len(rest):]
            if typed[:len(rest)] == rest and not any(
                    (type(v), v) == was[at] or _same_item_changed(now[at], v) for v in put):
                del old[at]
                for v in put:
                    old.append(v)
                return True
    if len(now) == len(value) and all(
            (type(a), a) == (type(b), b) or _same_item_changed(a, b)
            for a, b in zip(now, value, strict=True)):
        # Each item itself or itself changed, place by place (a stone spent, a stone used):
        # each keeps its comment. The diff below matched [4 # a, 4 # b] → [0, 4] as the
        # first stone's 4 kept and a 0 inserted before it, and the spent stone's "# a" went
        # with the line it took out (fixcarry75).
        for at, (a, b) in enumerate(zip(now, value, strict=True)):
            if (type(a), a) != (type(b), b):
                old[at] = b
        return True
    opcodes = SequenceMatcher(None, was, typed, autojunk=False).get_opcodes()
    for n, (tag, i1, i2, j1, j2) in reversed(list(enumerate(opcodes))):  # from the end
        if tag == "equal":
            continue
        if tag == "delete" and n > 0:
            # Of equal values side by side, the first goes, as drop_one and mana_stone:0
            # take it (finalb74 RISK 1: difflib took the last, so `sell dagger` on
            # [dagger # first, dagger # second] kept "# first"). The list comes out the
            # same; only which copy's comment goes changes. Slid no further than the
            # equal run before it, which the opcodes left of it do not touch.
            start = opcodes[n - 1][1]
            while i1 > start and was[i1 - 1] == was[i2 - 1]:
                i1, i2 = i1 - 1, i2 - 1
        common = min(i2 - i1, j2 - j1)
        for at in reversed(range(common)):
            new = value[j1 + at]
            if _same_item_changed(now[i1 + at], new):  # its comment still says what it is
                old[i1 + at] = new
            else:  # another item: the old one's comment goes with it (finalb74 DEFECT 2)
                del old[i1 + at]
                old.insert(i1 + at, new)
        for at in reversed(range(i1 + common, i2)):
            del old[at]
        for at in range(common, j2 - j1):  # old[:i1] is as the file had it still
            old.insert(i1 + at, value[j1 + at])
    return bool(old.unwrap() == list(value))


def _items_layout(document: tomlkit.TOMLDocument) -> tuple[str, bool]:
    """How the file's lists written one item a line lay out their items: the newline and
    indent an item's line starts with, and whether the last item ends with a comma; those
    of the first such list, in the file's order (a table's lists too), else
    :data:`_LAYOUT`."""
    holders: list[Any] = [document]
    while holders:
        holder = holders.pop(0)
        for value in holder.values():
            if isinstance(value, _TABLES):
                holders.append(value)
            if not isinstance(value, Array):
                continue
            groups = [g for g in value._value if _value_of(g) is not None]
            if groups and all(_starts_line(g) for g in groups):
                first = _line_indent(value._value, value._value.index(groups[0]))
                return first.as_string(), groups[-1].comma is not None
    return _LAYOUT


def _same_item_changed(was: Any, new: Any) -> bool:
    """Whether ``new`` is the item ``was`` changed, so it keeps ``was``'s comment: a number
    changed (a mana stone's MP spent, ``4`` to ``0``) or an item used (``healing_stone`` to
    ``used:healing_stone``). Anything else is another item (a worn armour swapped for the
    one carried), and the comment the player wrote on the old one is not about it."""
    numbers = int | float
    if (isinstance(was, numbers) and isinstance(new, numbers)
            and not isinstance(was, bool) and not isinstance(new, bool)):
        return True
    return isinstance(was, str) and new == f"used:{was}"


def _without(document: tomlkit.TOMLDocument, paths: Sequence[tuple[str, ...]],
             emptied: Sequence[tuple[str, ...]] = ()) -> tomlkit.TOMLDocument:
    """A copy of ``document`` without the fields ``paths`` name (a key, or a table's key),
    and with those ``emptied`` names set in place to their type's empty value."""
    copy = tomlkit.parse(tomlkit.dumps(document))
    for *tables, key in paths:
        holder: Any = copy
        for name in tables:
            holder = holder[name]
        del holder[key]
    for *tables, key in emptied:
        holder = copy
        for name in tables:
            holder = holder[name]
        _empty(holder, key)
    return copy


def _empty(holder: Any, key: str) -> None:
    """``holder[key]`` set to the empty value of its type, its line's comment kept: ``[]``,
    ``0``, ``""``, or a table whose every key is emptied so. A list keeps the comments on
    lines of their own inside it and on its opening line: only its values go."""
    item = holder[key]
    if isinstance(item, _TABLES):
        for name in list(item):
            _empty(item, name)
        return
    if isinstance(item, Array) and any(g.comment is not None for g in item._value
                                       if _value_of(g) is None):
        # A fresh `[]` dropped them: the kept line of a ring worn or an armour put on
        # (`comment_kept_aside`), which the last item leaving the pack took with it, so
        # `gear --off` brought that item back bare, and `equipment = [  # my pack` or
        # `weapons = [  # my arms` (r76genso2 DEFECT 1, r76genso NIT 3).
        for at in reversed(range(len(item))):
            del item[at]
        return
    value = item.unwrap()
    if isinstance(value, bool):
        empty: Any = False
    elif isinstance(value, list):
        empty = tomlkit.array()
    elif isinstance(value, int | float):
        empty = type(value)(0)
    elif isinstance(value, str):
        empty = ""
    else:
        return
    new = tomlkit.item(empty)
    if isinstance(item, Item) and item.trivia.comment:
        new.comment(item.trivia.comment.lstrip("#").strip())
        new.trivia.comment_ws = item.trivia.comment_ws
    holder[key] = new


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



# The two below work on tomlkit's own lines of an array (``Array._value``, one group of
# indent, value, comma and comment each): its public calls add a value or a comment at the
# end only, and a comment has to stay where the player wrote it.

def comment_kept_aside(before: tomlkit.TOMLDocument, after: tomlkit.TOMLDocument, key: str,
                       item: str, why: str) -> None:
    """The comment the player wrote on ``item`` in the list ``key`` of ``before``, kept in
    ``after``'s list as a line of its own where the item was, when the item left that list
    (a ring put on: ``"ring_storage",  # from grandma`` moved into ``rings``, an inline
    table with no room for it, and the comment was gone: reviewcarry75 RISK 2). ``why``
    says where the item went; :func:`comment_taken_back` puts it on the item again."""
    old, new = before.get(key), after.get(key)
    if not isinstance(old, Array) or not isinstance(new, Array) \
            or new.unwrap().count(item) >= old.unwrap().count(item):
        return
    groups = [g for g in old._value if _value_of(g) is not None]
    first = next((g for g in groups if _value_of(g) == item), None)  # the one taken
    if first is None or first.comment is None:
        return
    said = first.comment.as_string().strip()
    kept = tomlkit.parse(f"x = [\n  # {_aside(item, why)}  {said}\n]\n")["x"]._value[0]
    kept.indent = _line_indent(old._value, old._value.index(first))
    # Right after the value before the ring, on a line of its own: given the ring's own
    # indent, a ring second on its line put the kept line on its neighbour's line, where
    # it read as that item's comment and never came back (reviewb75 RISK B1); put before
    # the value after the ring, it went below a comment-only line heading the next items
    # (NIT B2).
    before_it = groups.index(first)
    lines = new._value
    values = [at for at, g in enumerate(lines) if _value_of(g) is not None]
    if before_it:
        at = values[before_it - 1] + 1
    else:
        # Below the comment on the list's opening line (`equipment = [  # my pack`), never
        # before it: that comment, a line with no newline before it, went onto the end of
        # the kept line, and came back at `gear --off` as the item's (r76genso DEFECT 1).
        at = 0
        while at < len(lines) and _value_of(lines[at]) is None and not _starts_line(lines[at]):
            at += 1
    # Of two of a kind put aside, the one put last is kept first: the engine takes the one
    # readied last off first (weapon 0, drop_one), and comment_taken_back takes the first
    # line. By place, a dagger readied from before another item put its line after the
    # first dagger's, whose comment then came back with it (r76genso RISK 1).
    mark = f"# {_aside(item, why)}  "
    earlier = _kept_line(lines, mark)
    if earlier is not None:
        at = min(at, lines.index(earlier))
    lines.insert(at, kept)
    new._reindex()


def _starts_line(group: Any) -> bool:
    """Whether a line of a tomlkit array starts on a line of its own (a newline in its
    indent), not after the opening bracket or another value."""
    return group.indent is not None and "\n" in group.indent.as_string()


def _line_indent(lines: list[Any], at: int) -> Whitespace:
    """The newline and indent that start the line of ``lines[at]`` (a line of a tomlkit
    array): that of the nearest value or comment at or before it that starts a line, else
    of a later one, else two spaces (not the closing bracket's, at the key's column)."""
    for group in [*reversed(lines[:at + 1]), *lines[at + 1:]]:
        text = group.indent.as_string() if group.indent is not None else ""
        if "\n" in text and (group.value is not None or group.comment is not None):
            return Whitespace("\n" + text.rsplit("\n", 1)[1])
    return Whitespace("\n  ")


def comment_taken_back(before: tomlkit.TOMLDocument, after: tomlkit.TOMLDocument, key: str,
                       item: str, why: str, *also: str) -> None:
    """``item`` come back into the list ``key`` of ``after`` takes the comment
    :func:`comment_kept_aside` kept for it there, whose line goes (a ring taken off).
    ``also``: what older lines kept for it say instead of ``why``, taken when no line says
    ``why`` (a ring's line kept before the hand was named in it)."""
    old, new = before.get(key), after.get(key)
    if not isinstance(old, Array) or not isinstance(new, Array) \
            or new.unwrap().count(item) <= old.unwrap().count(item):
        return
    lines = new._value
    kept, mark = None, ""
    for said_why in (why, *also):
        mark = f"# {_aside(item, said_why)}  "
        kept = _kept_line(lines, mark)
        if kept is not None:
            break
    back = next((g for g in reversed(lines) if _value_of(g) == item and g.comment is None),
                None)
    if kept is None or kept.comment is None or back is None or back.value is None:
        return
    lines.remove(kept)
    _comment_put(new, back, kept.comment.as_string().strip().removeprefix(mark))


def comment_carried(before: tomlkit.TOMLDocument, after: tomlkit.TOMLDocument, source: str,
                    key: str, item: str) -> None:
    """The comment the player wrote on ``item`` in the list ``source`` of ``before`` put on
    the copy that came into the list ``key`` of ``after``, when it left ``source`` for
    ``key`` (a weapon taken off: ``weapons = [\n  "staff",  # from grandpa\n]`` lost the
    comment as the staff went back into ``equipment``). The copy taken is the first, as
    the engine takes it; the one come is the last without a comment of its own."""
    was, gone, new = before.get(source), after.get(source), after.get(key)
    old = before.get(key)
    if not isinstance(was, Array) or not isinstance(gone, Array) \
            or not isinstance(new, Array) or gone.unwrap().count(item) >= was.unwrap().count(item) \
            or new.unwrap().count(item) <= (old.unwrap().count(item)
                                            if isinstance(old, Array) else 0):
        return
    first = next((g for g in was._value if _value_of(g) == item), None)
    back = next((g for g in reversed(new._value) if _value_of(g) == item
                 and g.comment is None), None)
    if first is None or first.comment is None or back is None:
        return
    _comment_put(new, back, first.comment.as_string().strip())


def comments_kept_in_order(before: tomlkit.TOMLDocument, after: tomlkit.TOMLDocument,
                           key: str) -> None:
    """The comments the player wrote in the list ``key`` of ``before`` put back on the same
    items in ``after``, copy by copy in order (the first club's on the first club), when
    the list holds the same items and only their places changed (a weapon readied already
    made weapon 0: the list was written over as that weapon taken out and a bare one put
    in at the front, and its comment was gone; of two clubs, the second's went onto the
    first, r77genso)."""
    old, new = before.get(key), after.get(key)
    if not isinstance(old, Array) or not isinstance(new, Array):
        return

    def copies(array: Array) -> dict[Any, list[Any]]:
        kinds: dict[Any, list[Any]] = {}
        for group in array._value:
            value = _value_of(group)
            if value is not None:
                kinds.setdefault((type(value), value), []).append(group)
        return kinds

    was, now = copies(old), copies(new)
    if {k: len(v) for k, v in was.items()} != {k: len(v) for k, v in now.items()}:
        return
    for kind, groups in was.items():
        for first, back in zip(groups, now[kind], strict=True):
            said = "" if first.comment is None else first.comment.as_string().strip()
            if said and (back.comment is None or back.comment.as_string().strip() != said):
                _comment_put(new, back, said)
            elif not said and back.comment is not None:  # another copy's, moved onto it
                back.comment = None


def comment_of_field_carried(before: tomlkit.TOMLDocument, after: tomlkit.TOMLDocument,
                             field: str, key: str, item: str) -> None:
    """The comment the player wrote on the line ``field = "item"`` of ``before`` put on the
    copy of ``item`` that came into the list ``key`` of ``after``, when ``field`` no longer
    holds it (worn armour swapped or taken off: `armor = "leather_armor"  # mum sewed it`
    stayed on the line, now saying the chain armour put on was mum's, and the leather
    armour went into `equipment` bare; at `--off` the line and its comment went, r76genso
    RISK 2). The line's comment goes from it when it holds another item."""
    was, now, new, old = before.get(field), after.get(field), after.get(key), before.get(key)
    if not isinstance(was, Item) or was.unwrap() != item or not was.trivia.comment \
            or not isinstance(new, Array) \
            or (now is not None and isinstance(now, Item) and now.unwrap() == item) \
            or new.unwrap().count(item) <= (old.unwrap().count(item)
                                            if isinstance(old, Array) else 0):
        return
    back = next((g for g in reversed(new._value) if _value_of(g) == item
                 and g.comment is None), None)
    if back is None:  # it took back a comment of its own, kept for it in the pack
        return
    _comment_put(new, back, was.trivia.comment.strip())
    if isinstance(now, Item) and now.trivia.comment == was.trivia.comment:
        now.trivia.comment = ""
        now.trivia.comment_ws = ""


def _comment_put(array: Array, back: Any, said: str) -> None:
    """``said`` (a comment, ``#`` and all) put on the line ``back`` of ``array``."""
    lines = array._value
    line = tomlkit.parse(f"x = [\n  {back.value.as_string()},  {said}\n]\n")["x"]._value[0]
    at = lines.index(back)
    # On a line of its own: appended after "backpack", "dagger", the ring's comment would
    # read as theirs too.
    alone = back.indent is not None and "\n" in back.indent.as_string()
    line.indent = back.indent if alone else _line_indent(lines, at)
    lines[at] = line
    array._reindex()


def comment_aside_moved(after: tomlkit.TOMLDocument, key: str, item: str, was: str,
                        why: str) -> None:
    """The line :func:`comment_kept_aside` kept for ``item`` in the list ``key`` of
    ``after`` saying ``was`` made to say ``why`` (a worn ring moved to the other hand: the
    line named the hand it left, and the ring taken off that hand took it back)."""
    new = after.get(key)
    if not isinstance(new, Array):
        return
    mark = f"# {_aside(item, was)}  "
    kept = _kept_line(new._value, mark)
    if kept is None or kept.comment is None:
        return
    said = kept.comment.as_string().strip().removeprefix(mark)
    line = tomlkit.parse(f"x = [\n  # {_aside(item, why)}  {said}\n]\n")["x"]._value[0]
    line.indent = kept.indent
    new._value[new._value.index(kept)] = line
    new._reindex()


def _kept_line(lines: list[Any], mark: str) -> Any:
    """The comment-only line of a tomlkit array that starts with ``mark``, else None."""
    return next((g for g in lines if _value_of(g) is None and g.comment is not None
                 and g.comment.as_string().strip().startswith(mark)), None)


def _aside(item: str, why: str) -> str:
    """The start of the line :func:`comment_kept_aside` keeps a comment on."""
    return f"{tomlkit.string(item).as_string()} {why}:"


def _value_of(group: Any) -> Any:
    """The plain value a line of a tomlkit array holds; None for a comment or blank alone."""
    value = group.value
    return None if value is None or isinstance(value, Null) else value.unwrap()
