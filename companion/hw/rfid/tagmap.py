"""The UID → tile map: which sticker is under which tile, in a TOML file the player can read.

The app keeps it in ``config_dir() / TAGMAP_FILENAME`` and passes the path in
(hardware code does not know about the user's folders). The file looks like::

    # RFID stickers → tiles, written by `companion calibrate rfid`.
    version = 1

    [tags]
    "04A1B2C3D4E5F6" = "1m"  # 一萬 1 of characters

A set has four copies of each kind (JR-TILE-1), so a kind holds at most four
UIDs, and a UID belongs to one tile only.
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import re
import tomllib
from pathlib import Path

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import InlineTable, Item, KeyType, SingleKey, Table

from companion.errors import CompanionError, DataError
from companion.files import aside_command, blank_fault, cut_copies_words, file_there, loads_toml
from companion.hw.rfid.protocol import UID_PATTERN
from companion.systems.jongrogue.tiles import ALL_KINDS, COPIES_PER_KIND, Tile
from companion.toml_writing import commented, table, write_toml

TAGMAP_FILENAME = "rfid_tags.toml"
FORMAT_VERSION = 1
_FILE_KEYS = ("version", "tags")  # all that save() writes


class TagAlreadyEnrolled(CompanionError, ValueError):
    """The sticker is already enrolled (as the same or another tile)."""


class KindFull(CompanionError, ValueError):
    """All four copies of a kind already have a sticker."""


def normalise_uid(uid: str) -> str:
    """Upper-case hex without separators; raise DataError when it is not a UID."""
    text = uid.strip().upper().replace(":", "").replace(" ", "")
    if not UID_PATTERN.match(text) and not _is_em4100(text):
        raise DataError(
            f"{uid!r} is not a tag UID (8, 14 or 20 hex digits, or 10 for 125 kHz tags)")
    return text


def _is_em4100(text: str) -> bool:
    return len(text) == 10 and all(c in "0123456789ABCDEF" for c in text)


def _toml_error(exc: tomllib.TOMLDecodeError, text: str) -> str:
    """What is wrong with a tag map that is not TOML (``text``), and what to do: a UID
    written twice in the same spelling under ``[tags]`` is tomllib's "Cannot overwrite a
    value", said here as the sticker it is; any other line (a repeated ``version``) is to be
    mended or deleted, named by its number (the last one where the file was cut short: it
    said "the line it names" of tomllib's "at end of document", newuser61 N7; the one where
    a string never closed began, review61d N4). The file is not set aside, as calibration's
    own files are: it holds hours of enrolling, and mending or deleting the one broken line
    keeps the rest."""
    said = str(exc)
    where = re.search(r"\(at line (\d+), column \d+\)$", said)
    if said.startswith("Cannot overwrite a value") and where \
            and _sticker_line(text, int(where.group(1))):
        return (f"line {where.group(1)}: the same sticker as an earlier line: delete one of "
                "them")
    if where:
        return _mend(said, int(where.group(1)))
    # "(at end of document)": the file was cut short, its last line the broken one, or a
    # string opened earlier (a """ left open) ran to its end.
    lines = text.rstrip("\r\n").split("\n")
    opened = _string_left_open(text) if said in _LEFT_OPEN else None
    if opened is not None and opened < len(lines):
        return _mend(said.replace("(at end of document)",
                                  f"(a string opened on line {opened} is never closed)"),
                     opened)
    return _mend(said.replace("(at end of document)", _at_the_end(len(lines))), len(lines))


def _at_the_end(line: int) -> str:
    return f"(at the end of the file, line {line}: cut short?)"


def _mend(said: str, line: int) -> str:
    return (f"cannot read the RFID tag map: {said}; mend or delete line {line} in a text "
            "editor: a sticker whose line is deleted is enrolled again by `companion "
            "calibrate rfid`")


def _string_left_open(text: str) -> int | None:
    """The line (from 1) on which the multi-line string a tag map never closes opens (tomllib
    names none): that of its last triple quote (either kind, past those a backslash escapes),
    where the file up to that line ends inside a string and up to the line before does not.
    None when neither does (a file cut short). Of two strings left open, tomllib takes the
    second's quotes for the first's end and names that line itself; once it is mended, the
    first is named."""
    for at in sorted((_last_quotes(text, quotes) for quotes in ('"""', "'''")), reverse=True):
        line = text.count("\n", 0, at) + 1
        if at >= 0 and _inside_string(_first_lines(text, line)) \
                and not _inside_string(_first_lines(text, line - 1)):
            return line
    return None


def _last_quotes(text: str, quotes: str) -> int:
    """Where ``text``'s last ``quotes`` begin (-1 for none), past those a backslash escapes
    in a basic string (a literal string's have no escape; review61g N1)."""
    at = text.rfind(quotes)
    while quotes == '"""' and at > 0 and _escaped(text, at):
        at = text.rfind(quotes, 0, at)
    return at


def _escaped(text: str, at: int) -> bool:
    """Is the character at ``at`` escaped: after an odd run of backslashes?"""
    before = at
    while before > 0 and text[before - 1] == "\\":
        before -= 1
    return (at - before) % 2 == 1


def _first_lines(text: str, count: int) -> str:
    """``text``'s first ``count`` lines with their line endings: a CRLF line cut before its
    \\n would end in a bare \\r, which tomllib calls an illegal character, not a string
    left open (review61g R2: a Notepad map's open string blamed the last line)."""
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end + 1]


def _inside_string(text: str) -> bool:
    """Does ``text`` end inside a string?"""
    try:
        loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        return str(exc) in _LEFT_OPEN
    return False


#: tomllib's words for a file that ends inside a string (a literal one of ''' its own).
_LEFT_OPEN = ("Unterminated string (at end of document)",
              "Expected \"'''\" (at end of document)")


def _decode_error(exc: UnicodeDecodeError, raw: bytes) -> str:
    """A tag map that is not UTF-8 (``raw``, without its byte order mark), told with its
    line as a TOML fault is: Python's "'utf-8' codec can't decode bytes in position 33-34"
    named none, and a file cut inside a character (every line ``save`` writes ends in a
    Japanese comment) is cut short (review61d R3)."""
    if exc.end == len(raw) and exc.reason == "unexpected end of data":
        line = raw.count(b"\n") + 1
        return _mend(f"the file ends in the middle of a character {_at_the_end(line)}", line)
    line = raw[:exc.start].count(b"\n") + 1
    return _mend(f"not UTF-8 text (at line {line})", line)


def _sticker_line(text: str, number: int) -> bool:
    """Is line ``number`` (from 1) of a tag map a sticker's: a UID's key inside ``[tags]``?"""
    lines = text.split("\n")  # as tomllib counts them
    if not 1 <= number <= len(lines):
        return False
    table = ""  # the top level
    for line in lines[:number - 1]:
        header = re.fullmatch(r"\s*\[\s*([\"']?)([^\]\"']*)\1\s*\]\s*(#.*)?", line)
        if header:
            table = header.group(2).strip()
    key, sep, _ = lines[number - 1].partition("=")
    if table != "tags" or not sep:
        return False
    try:
        normalise_uid(key.strip().strip("\"'"))
    except DataError:
        return False
    return True


#: The most UIDs a message about too many stickers of a kind names; it says how many more.
_LINES_NAMED = 10


def _same_kind(tags: dict[str, object], tile: Tile) -> list[str]:
    """The UIDs of a tag map file's ``[tags]`` whose tile is ``tile``, as written."""
    same = []
    for uid, label in tags.items():
        with contextlib.suppress(CompanionError):  # a bad line elsewhere is told on its own
            if isinstance(label, str) and Tile.from_notation(label) is tile:
                same.append(uid)
    return same


def _uid_or_none(key: str) -> str | None:
    """The sticker a [tags] key names, as the map keeps it; None when it names none."""
    try:
        return normalise_uid(key)
    except DataError:
        return None


def _tile_or_none(value: object) -> Tile | None:
    """The tile a [tags] value names, as load() reads it ("0p" and "5P" are the 5p); None
    when it names none. A line that still reads as its sticker's tile is left as the player
    wrote it: compared as text, a red five's "0p" became "5p" and lost the player's comment
    at the next save (r77rfid)."""
    try:
        return Tile.from_notation(value) if isinstance(value, str) else None
    except CompanionError:
        return None


def _sticker_value(tile: Tile) -> Item:
    """A [tags] value as save() writes it: the tile, its names in a comment."""
    return commented(str(tile), f"{tile.name_ja} {tile.name_en}")


class _Unreadable(DataError):
    """A tag map that cannot be read at all (a folder, no permission): nothing of it is
    damaged, so no copy beside it is kept for it."""


class TagMap:
    """UID → tile, with at most four UIDs per kind."""

    def __init__(self, tags: dict[str, Tile] | None = None) -> None:
        self._tags: dict[str, Tile] = {}
        for uid, tile in (tags or {}).items():
            self.enrol(uid, tile)

    @classmethod
    def load(cls, path: Path) -> TagMap:
        """Read the map: no file is an empty map, a broken one a DataError naming the field.

        The copies that writes of a map it cannot read left cut short beside it are kept
        and named (:func:`cut_copies_words`), one that reads whole with the command that
        puts it back: the player's next step, mending the map or moving it aside and
        enrolling again, ends in a save that would delete them unread (hist72 DEFECT 1).
        """
        move = aside_command(path)
        try:
            return cls._read(path, move)
        except _Unreadable as exc:
            raise DataError(str(exc)) from exc
        except DataError as exc:
            words = cut_copies_words(path, "tag map", cls._read, move=move)
            if not words:
                raise
            raise DataError(f"{exc}{words}") from exc

    @classmethod
    def _read(cls, path: Path, move: str = "") -> TagMap:
        """:meth:`load` but for the copies: a file that cannot be read at all is
        :class:`_Unreadable`; ``move``: the command that moves it aside."""
        if not file_there(path):
            return cls()
        try:
            # As camera.toml is read: Windows Notepad starts a file with a byte order mark.
            raw = path.read_bytes().removeprefix(codecs.BOM_UTF8)
            text = raw.decode("utf-8")
            if "\0" in text and (blank := blank_fault(text, "file")) is not None:
                # tomllib's "Invalid statement (at line 1, column 1)", and "mend or delete
                # line 1", said nothing of the power cut that leaves a file so (hist72 D1).
                raise DataError(
                    f"{path}: cannot read the RFID tag map: {blank}; move it aside "
                    f"(`{move}`), then run `companion calibrate rfid` to enrol the stickers "
                    "again")
            data = loads_toml(text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{path}: {_toml_error(exc, text)}") from exc
        except OSError as exc:  # its own text names the path again: "[Errno 21] …: '<path>'"
            raise _Unreadable(f"{path}: cannot read the RFID tag map: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise DataError(f"{path}: {_decode_error(exc, raw)}") from exc
        if not data:  # "version must be 1, not None" would send the player to add a line
            raise DataError(f"{path}: the file is empty (no version, no [tags]): delete it, "
                            "then run `companion calibrate rfid` to enrol the stickers")
        for key in data:
            if key not in _FILE_KEYS:
                # Left alone, its stickers would be an empty map, and the next save of
                # `calibrate rfid` (only version and [tags]) would lose them.
                close = difflib.get_close_matches(key.lower(), _FILE_KEYS, n=1)
                hint = (f"did you mean {'[tags]' if close[0] == 'tags' else close[0]}?"
                        if close else 'the file holds version and [tags] only')
                raise DataError(f"{path}: unknown table or key {key!r}; {hint}")
        version = data.get("version")
        if version is None:  # "found None" is Python's word, and names no line to add
            tags = data.get("tags")
            if isinstance(tags, dict) and "version" in tags:
                # Written at the end, it is a line of [tags]: "no version line" sent the
                # player to add a second, then refused as a sticker's (r77rfid).
                raise DataError(f"{path}: the version line is under [tags], where it is read "
                                "as a sticker: move it to the first line")
            raise DataError(f"{path}: no version line: add `version = {FORMAT_VERSION}` as "
                            "the first line")
        # true is 1 to Python, and 1.0 equal to it: the version is the whole number itself.
        if type(version) is not int or version != FORMAT_VERSION:
            shown = str(version).lower() if isinstance(version, bool) else repr(version)
            raise DataError(f"{path}: version must be {FORMAT_VERSION}, found {shown}")
        tags = data.get("tags", {})
        if not isinstance(tags, dict):
            raise DataError(f"{path}: [tags] must be a table of \"UID\" = \"tile\"")
        tag_map = cls()
        for uid, label in tags.items():
            try:
                if not isinstance(label, str):
                    raise DataError(f"the tile must be text like \"5p\", found {label!r}")
                tile = Tile.from_notation(label)
                tag_map.enrol(uid, tile)
            except KindFull:
                # Enrolment's advice (re-enrol a lost one) cannot work on this file: a line
                # must go, and the player has to see which.
                same = _same_kind(tags, tile)
                named = ", ".join(same[:_LINES_NAMED])
                if len(same) > _LINES_NAMED:  # 200,000 of them were 3.2 MB of message
                    named += f" and {len(same) - _LINES_NAMED} more"
                raise DataError(
                    f"{path}: {len(same)} stickers are {tile} ({tile.name_ja}), but a set has "
                    f"{COPIES_PER_KIND} of each kind: delete the line of each one not under a "
                    f"{tile} (tags {named})") from None
            except TagAlreadyEnrolled:
                raise DataError(
                    f"{path}: tags.{uid} is the same sticker as another line (case, spaces and "
                    "':' do not count): delete one of them") from None
            except CompanionError as exc:
                raise DataError(f"{path}: tags.{uid}: {exc}") from exc
        return tag_map

    def save(self, path: Path) -> None:
        """Write the map atomically (a crash mid-write keeps the old file).

        A map already at ``path`` is changed line by line: a sticker forgotten loses its
        line, a new one is added at the end of [tags], and the rest stays as the player
        left it, comments, line ends and byte-order mark too (a77rfid item 1: the first
        sticker enrolled after an edit in a text editor took away every comment written).
        """
        found = self._document_at(path)
        if found is None:
            document = tomlkit.document()
            document.add(tomlkit.comment(
                "RFID stickers → tiles, written by `companion calibrate rfid`."))
            document.add(tomlkit.comment(
                'One line per sticker: "UID" = "tile in MPSZ". Four stickers per kind at most.'))
            document.add("version", FORMAT_VERSION)
            tags: Table | InlineTable = table({}, quoted_keys=True)
            document.add("tags", tags)
        else:
            document, tags = found
        kept: set[str] = set()
        for key in list(tags):
            uid = _uid_or_none(key)
            tile = None if uid is None else self._tags.get(uid)
            if uid is None or tile is None or uid in kept:
                del tags[key]
                continue
            if _tile_or_none(tags[key]) is not tile:
                tags[key] = _sticker_value(tile)
            kept.add(uid)
        # A new sticker goes under the last sticker line, not under a note the player left
        # at the end of [tags] ("# spares, not on tiles yet"), which it would read as
        # belonging to (r77rfid NIT). tomlkit has no public insert at a place in a table:
        # a tomlkit without its private one puts the sticker at the end, saved all the same.
        insert_at = getattr(tags.value, "_insert_at", None) if isinstance(tags, Table) else None
        body = tags.value.body if insert_at is not None else []
        after = max((n + 1 for n, (key, _) in enumerate(body) if key is not None), default=0)
        for tile in ALL_KINDS:
            for uid in self.uids(tile):
                if uid in kept:
                    continue
                key, value = SingleKey(uid, t=KeyType.Basic), _sticker_value(tile)
                if insert_at is not None and 0 < after < len(body):
                    insert_at(after, key, value)
                    after += 1
                else:
                    tags.add(key, value)
        write_toml(path, document, as_it_was=True)

    @staticmethod
    def _document_at(path: Path) -> tuple[tomlkit.TOMLDocument, Table | InlineTable] | None:
        """The tag map at ``path`` as tomlkit reads it, and its [tags] table (added when
        the file has none); None when there is no such file, or it is not one to edit."""
        try:
            text = path.read_bytes().removeprefix(codecs.BOM_UTF8).decode("utf-8")
            document = tomlkit.parse(text)
        except (OSError, UnicodeDecodeError, ParseError):
            return None
        if set(document) - set(_FILE_KEYS) or document.get("version") != FORMAT_VERSION:
            return None
        if "tags" not in document:
            document.add("tags", table({}, quoted_keys=True))
        tags = document["tags"]
        return (document, tags) if isinstance(tags, Table | InlineTable) else None

    def label(self, uid: str) -> str | None:
        """The tile under this sticker in MPSZ, or None when it is not enrolled."""
        tile = self._tags.get(uid.upper())
        return None if tile is None else str(tile)

    def tile(self, uid: str) -> Tile | None:
        return self._tags.get(uid.upper())

    def uids(self, tile: Tile) -> list[str]:
        return [uid for uid, t in self._tags.items() if t is tile]

    def enrol(self, uid: str, tile: Tile) -> str:
        """Record a sticker; refuse one already enrolled or a fifth copy of a kind."""
        uid = normalise_uid(uid)
        known = self._tags.get(uid)
        if known is not None:
            raise TagAlreadyEnrolled(
                f"sticker {uid} is already enrolled as {known} ({known.name_ja}); "
                "use a tile that has no sticker yet"
            )
        if len(self.uids(tile)) >= COPIES_PER_KIND:
            raise KindFull(
                f"{tile} ({tile.name_ja}) already has {COPIES_PER_KIND} stickers; "
                f"re-enrol a lost one with `companion calibrate rfid --reenrol {tile}`"
            )
        self._tags[uid] = tile
        return uid

    def read_by(self, kind: str) -> list[str]:
        """The stickers enrolled that a reader of ``kind`` reads: the tray (``tray``)
        13.56 MHz UIDs of 8, 14 or 20 hex digits, an RDM6300 (``rdm6300``) 125 kHz IDs of
        10 (rfid69 R3)."""
        reads = _is_em4100 if kind == "rdm6300" else (lambda uid: bool(UID_PATTERN.match(uid)))
        return [uid for uid in self._tags if reads(uid)]

    def forget(self, uid: str) -> None:
        self._tags.pop(uid.upper(), None)

    def __len__(self) -> int:
        return len(self._tags)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and uid.upper() in self._tags
