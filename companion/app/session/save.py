"""The save file: enough to rebuild a game exactly, written so a power cut loses nothing.

The rules engine is deterministic, so a game is fully described by its seed,
its rules (preset and profile) and the journal of inputs it was given (tiles in
MPSZ such as ``"5p"``, choices as short strings). A save holds exactly that,
plus how many events the game had produced and where its lines begin in the
``--log`` file, so a resumed game can rewrite its log to match.

Crash safety:

* :func:`companion.files.atomic_write_text` writes a temporary file, fsyncs it, renames it over
  the old file (``os.replace`` is atomic on POSIX) and fsyncs the folder. At
  any instant the path holds either the old save or the new one, whole.
* The session writes the save *before* appending the step's log lines, and a
  resume truncates the log back to ``log_start`` and rewrites every event of
  the replayed game. The last step goes the other way (its lines synced, then
  the finished save), since a finished game is not resumed: a cut between the
  two leaves the save a step short, and the resume plays that step again.
  Whatever moment the power goes, nothing is lost or written twice.

A save that cannot be read is moved aside (:func:`companion.files.keep_unreadable`), never
deleted, with the copies a write cut short left beside it (one may hold the last save
whole), and the player is offered a new game.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import shlex
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.app.command_name import companion_line
from companion.app.paths import data_dir
from companion.app.session.log import begins_as_log
from companion.errors import DataError
from companion.files import (
    TooLarge,
    aside_name,
    atomic_write_text,
    blank_fault,
    cut_short,
    keep_unreadable,
    kept_aside,
    open_regular,
    read_regular,
)
from companion.systems.jongrogue.game import RULES_REVISION
from companion.systems.jongrogue.profile import read_profile_file

SAVE_FORMAT = 1
#: The byte order mark a text editor may put first, as read from UTF-8.
BOM = codecs.BOM_UTF8.decode("utf-8")
SEED_LIMIT = 2**63  # a seed is below it in size: the history keeps it as a 64-bit integer
SAVE_NAME = "save.json"
#: No save comes near it: the longest games measured (1,600 answers) save in 13 KiB, and a
#: fight at the table grows by about 1.4 KiB an action (100 actions: 140 KiB, its fight file
#: alike). A file over it is no save, and is not read into memory whole.
SAVE_LIMIT = 4 * 1024 * 1024
INPUT_KINDS = ("camera", "rfid", "sim")  # where a game's tiles (or a table's dice) come from

S = TypeVar("S", bound="SaveGame")


class SaveLeftInPlace(DataError):
    """A save that is whole but not this run's to play: it is someone's game, not a broken
    save, so :func:`read_save` leaves it where it is and its caller decides."""


class AnotherModesSave(SaveLeftInPlace):
    """A save of another mode (a game of JongRogue, a table) found where a run saves, left
    where it is as ``refusal`` says. ``mode`` plays it on from ``path`` (None: a finished
    game, which nothing plays on), a table with its own fight file ``fight`` (None: the
    mode's default, or a game): the message says with what command, its flags none until
    the run that found it gives its own (:meth:`say_with`). The mode is always said: the
    run that found it played another, which config.toml may choose."""

    def __init__(self, refusal: str, mode: str | None, path: Path, fight: str | None) -> None:
        self.refusal, self.mode, self.path, self.fight = refusal, mode, path, fight
        # A table resumed without its save's fight file takes up the default fight instead.
        super().__init__(self._told(companion_line(
            "play", *(["--mode", mode] if mode else []), "--resume",
            *(["--fight", fight] if fight else []), "--state", str(path))))

    def say_with(self, resume: Callable[[str, Path, str | None], str]) -> None:
        """Say the command that plays it on as ``resume(mode, path, fight)`` gives it: the
        run's flags a laptop needs (its keys and terminal) are in it, and the bare one
        failed there, looking for the screen."""
        if self.mode is not None:
            self.args = (self._told(resume(self.mode, self.path, self.fight)),)

    def _told(self, command: str) -> str:
        if self.mode is None:
            return f"{self.refusal}; it is over (kept for the history)"
        then = "carry that game on" if self.mode == "game" else "play that fight on"
        return f"{self.refusal}; {then} with `{command}`"


class NewerSave(SaveLeftInPlace):
    """A save a newer companion wrote (a later save format or rules revision): whole, and
    not corrupt; the caller keeps it for that companion and says how to carry it on."""

    #: What a player does with it.
    UPDATE = ("update this companion (git pull, then bash scripts/install-pi.sh) to carry it "
              "on")

    def kept_as(self, kept: Path, resume: str) -> str:
        """What it is and how to carry it on, once kept aside as ``kept``: ``resume``, the
        command that plays it on (as the run that found it played), once updated."""
        return f"{self}; it is kept as {kept.name} ({self.UPDATE}: then `{resume}` does)"


class NewerFightFile(DataError):
    """A fight file a newer companion wrote (a :class:`~companion.errors.NewerFight` of any
    system), said with how to update, as every system's fight command and table say it:
    whole, so nothing of this companion's is written over it or moves it aside. ``fault``:
    the file and what is newer alone, for ``fight new``'s refusal, which offers --force."""

    def __init__(self, fault: str) -> None:
        super().__init__(f"{fault}; it is kept as it is: {NewerSave.UPDATE}")
        self.fault = fault


class CorruptSave(DataError):
    """The save file exists but cannot be read back into a game."""

    def __init__(self, message: str, kept_at: Path | None = None) -> None:
        super().__init__(message)
        self.kept_at = kept_at


def json_fault(text: str, exc: json.JSONDecodeError, what: str = "save") -> str:
    """Where ``text`` stops being JSON, in a user's terms (newuser61 N3): a save that ends
    before it closes was cut short (json's "Unterminated string starting at" named the
    string's start, "at line 1" of a one-line save), inside a word or a number as well
    (``tr`` of true, ``1.``: review61d N1); a whole save with more after it has extra data
    (a ``tr`` there is no cut, review61g N5); other faults by json's words and the byte they
    are at, which ``head -c`` and a hex editor count. ``exc`` is json's fault in ``text``
    after the byte order mark it may start with (:meth:`SaveGame.from_json`). ``what``
    names the file (``save``, ``fight file``: hist68 NIT 3)."""
    body = text.removeprefix(BOM)
    size = len(text.encode("utf-8"))
    if (blank := blank_fault(text, what)) is not None:
        # A power cut as an SD card wrote the save leaves its length in zero bytes (hist65
        # NIT 2: said as JSON's "expecting value at byte 1").
        return blank
    at = size - len(body[exc.pos:].encode("utf-8")) + 1
    if exc.msg.startswith("Extra data"):
        return f"extra data after the {what}'s end at byte {at} of {size}"
    if (exc.msg.startswith("Unterminated string") or exc.pos >= len(body.rstrip())
            or _cut_in_last_word(body, exc)):
        return cut_short(size, what)
    said = exc.msg.removesuffix(" at")  # "Invalid control character at": "at at byte 9"
    return f"{said[0].lower()}{said[1:]} at byte {at} of {size}"


_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")


def _cut_in_last_word(text: str, exc: json.JSONDecodeError) -> bool:
    """Does the fault lie in the save's last word, one a cut left unfinished: ``tr`` of
    true, false or null, a number (``-``, ``1.``, ``1e+``) or a ``\\u`` escape?"""
    tail = text[exc.pos:].rstrip()
    if re.search(r"[\s,:\[\]{}\"]", tail):
        return False
    if exc.msg.startswith("Invalid \\uXXXX escape"):
        return re.fullmatch(r"u[0-9a-fA-F]{0,3}", tail) is not None
    if any(word.startswith(tail) for word in ("true", "false", "null")):
        return True
    start = exc.pos
    while start and text[start - 1] in "0123456789.eE+-":
        start -= 1
    number = text[start:exc.pos] + tail
    return re.fullmatch(r"[\d.eE+-]+", number) is not None and not _NUMBER.fullmatch(number)


@dataclass(slots=True)
class SaveGame:
    """Everything needed to replay a game to where it stopped."""

    seed: int
    preset: str
    inputs: list[str] = field(default_factory=list)
    events: int = 0
    profile_path: str | None = None
    profile_hash: str | None = None
    strategy: str | None = None
    input_kind: str = "sim"  # camera, rfid or sim: a simulated wall must be replayed too
    log_path: str | None = None
    log_start: int = 0
    game_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    finished: bool = False
    version: int = SAVE_FORMAT
    # A player made some of its choices (keys, buttons): the auto-player cannot replay its log.
    player_chose: bool = False
    rules: int = RULES_REVISION  # the engine's rules revision that played it

    def to_json(self) -> str:
        # Not asdict: it deep-copies every input, and a save is written after each one (4.5 ms
        # at 1,600 inputs on this machine, several times that on a Pi).
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__}
        return json.dumps(fields, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, source: str = "save") -> SaveGame:
        """Parse and shape-check a save; :class:`DataError` names the field that is wrong."""
        try:
            # Read through the byte order mark an editor (Notepad) puts first, as the tag map
            # and camera.toml are: json refused it, and the save was set aside (review61g N6).
            raw = json.loads(text.removeprefix(BOM))
        except json.JSONDecodeError as exc:
            raise DataError(f"{source}: not valid JSON ({json_fault(text, exc)})") from None
        except RecursionError:
            raise DataError(f"{source}: not a save (nested too deeply to read)") from None
        if not isinstance(raw, dict):
            raise DataError(f"{source}: expected a JSON object, found {json_kind(raw)}")
        version = raw.get("version")
        # A newer save still has a save's own fields: a genso fight file (its "version" 8)
        # given to --state was kept aside as .newer-… and a new game written under its name
        # (reviewj73 RISK 1); without them, read_save's other_file names it and leaves it.
        if (isinstance(version, int) and not isinstance(version, bool) and version > SAVE_FORMAT
                and any(key in raw for key in _OWN_KEYS)):
            raise NewerSave(f"{source}: written by a newer companion (save version {version}; "
                            f"this one reads {SAVE_FORMAT})")
        if "version" not in raw:
            raise DataError(f"{source}: the save has no version field (this companion reads "
                            f"version {SAVE_FORMAT})")
        if version is None:  # the field is there: "version is None" was Python's word
            raise DataError(f"{source}: the save's version is empty (null; this companion "
                            f"reads version {SAVE_FORMAT})")
        if isinstance(version, bool):  # true == 1 in Python: it passed for version 1
            raise DataError(f"{source}: the save's version is {json.dumps(version)}, not a "
                            f"number (this companion reads version {SAVE_FORMAT})")
        if version != SAVE_FORMAT:
            raise DataError(f"{source}: version is {version!r}, this companion reads {SAVE_FORMAT}")
        _expect(raw, "seed", int, source)
        _expect(raw, "preset", str, source)
        if "input_kind" in raw:
            _expect(raw, "input_kind", str, source)
            if raw["input_kind"] not in INPUT_KINDS:
                raise DataError(f"{source}: input_kind must be one of {', '.join(INPUT_KINDS)}, "
                                f"found {raw['input_kind']!r}")
        _expect(raw, "events", int, source)
        _expect(raw, "log_start", int, source)
        _expect(raw, "game_id", str, source)
        _expect(raw, "finished", bool, source)
        if "player_chose" in raw:
            _expect(raw, "player_chose", bool, source)
        # A save from before the engine kept revisions was played by revision 1.
        raw = {"rules": 1, **raw}
        _expect(raw, "rules", int, source)
        if raw["rules"] > RULES_REVISION:
            raise NewerSave(f"{source}: played by a newer companion (rules revision "
                            f"{raw['rules']}; this one plays 1 to {RULES_REVISION})")
        if raw["rules"] < 1:
            raise DataError(f"{source}: rules revision {raw['rules']} is not one this companion "
                            f"plays (1 to {RULES_REVISION})")
        for key in ("profile_path", "profile_hash", "strategy", "log_path"):
            if raw.get(key) is not None:
                _expect(raw, key, str, source)
        inputs = raw.get("inputs")
        if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
            raise DataError(f"{source}: inputs must be a list of strings")
        if raw["seed"] >= SEED_LIMIT:
            raise DataError(f"{source}: seed {raw['seed']} is too large (a seed is below 2**63)")
        if raw["seed"] < -SEED_LIMIT:
            raise DataError(f"{source}: seed {raw['seed']} is too small (a seed is -2**63 or "
                            "more)")
        if raw["events"] < 0 or raw["log_start"] < 0:
            raise DataError(f"{source}: events and log_start cannot be negative")
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise DataError(f"{source}: unknown field {unknown[0]!r}")
        return cls(**raw)


def json_kind(value: object) -> str:
    """What JSON value ``value`` (as :func:`json.loads` gives it) is, in JSON's words: a
    save holding ``null`` was said to be "found NoneType", Python's name (journey73 NIT 7).

    >>> [json_kind(v) for v in (None, True, 4, 2.5, "x", [], {})]
    ['null', 'true', 'a number', 'a number', 'text', 'a list', 'an object']
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def _expect(raw: dict[str, Any], key: str, kind: type, source: str) -> None:
    value = raw.get(key)
    # bool is an int in Python; a save with "seed": true is still wrong.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DataError(f"{source}: {key} must be {kind.__name__}, found {value!r}")


def default_save_path() -> Path:
    return data_dir() / SAVE_NAME


def profile_hash(path: Path) -> str:
    """SHA-256 of the profile played from the file at ``path``, so a resume or a replay
    can tell the rules changed under it: the packaged profile with the file's keys over
    it, as one JSON text (keys sorted). A file holds only what it changes, so a new
    packaged value of a key it leaves out changes the game and the hash; a comment or
    the file's layout changes neither. A DataError when the file cannot be read."""
    played = read_profile_file(path).played
    text = json.dumps(played, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)  # a TOML date is no JSON value
    return hashlib.sha256(text.encode()).hexdigest()


def profile_unchanged(path: Path, recorded: str) -> bool:
    """Whether the profile file at ``path`` plays as it did when ``recorded`` (a save's or
    a log's ``profile_hash``) was taken. Saves and logs from before a profile was read over
    the packaged one hold the SHA-256 of the file's bytes: such a file was a whole profile
    (a partial one was refused then), and with the same bytes it plays the same now."""
    return recorded in (profile_hash(path), hashlib.sha256(path.read_bytes()).hexdigest())


#: How much of a file too large to be a save is read to tell what it is: a log's first line
#: (its header, some 400 bytes, more with a profile's house rules) whole.
_HEAD = 64 * 1024
#: A save's fields, one at least in any save the companion wrote, and in a save damaged but
#: for a field or two: a JSON object holding one that does not read is a damaged save, set
#: aside and a new game started (a power cut cannot make one, a damaged disk can, and a Pi
#: at boot must start), once :func:`other_file` has found it none of the files it knows by
#: their own shape. ``{"version": "2"}`` was refused, the CI's save left in place (fixsave73).
SAVE_KEYS = ("version", "inputs", "game_id")
#: Of them, those only a save holds: not ``version``, which the dice tray's file
#: (dice/tray.json) and a genso fight file (its 8, taken for a newer save's) hold too
#: (reviewj73 RISK 1).
_OWN_KEYS = ("inputs", "game_id")
#: How an SQLite database's file begins: the history (history.sqlite3) given by a slip of the
#: tab key is named so, not as a file that "does not look like a save" (hist74 NIT 3).
_SQLITE = b"SQLite format 3\0"


def other_file(raw: bytes) -> str | None:
    """What the unreadable file whose bytes (or first :data:`_HEAD` bytes) are ``raw`` is,
    when it is one of the files the companion writes that are no save, known by its own
    shape: a ``--log`` file (its first line a game's header), the dice tray's file
    (``version`` and ``table``), or a genso or coc fight file (``entrants`` and
    ``journal``), each begun as a save is, with ``{``; or an SQLite database, as the
    history is (hist74 NIT 3: "does not look like a save"). Their ``version`` makes them no
    damaged save: each was renamed ``.corrupt-…`` (the genso file ``.newer-…``) and a save
    written in its place, under its name (journey73 DEFECT 1, reviewj73 RISK 1). None: it
    may be a save something damaged (:func:`fieldless`, :func:`damaged_save` say)."""
    body = raw.removeprefix(codecs.BOM_UTF8)
    if begins_as_log(body):
        return "a game log (`companion play --log` wrote it: its first line is a game's header)"
    if body.startswith(_SQLITE):
        return f"an SQLite database, as the history is (`{companion_line('history')}` lists it)"
    value = _json_of(body)
    if not isinstance(value, dict):
        return None
    if "table" in value and set(value) <= {"version", "table"}:
        return "the dice tray's file (dice/tray.json: the table it part-threw)"
    if "entrants" in value and "journal" in value:
        system = "genso" if value.get("system") == "genso" else "coc"
        return (f"a {system} fight file (`{companion_line(system, 'fight', 'new')}` wrote it: "
                "--fight takes it)")
    return None


def what_file(raw: bytes) -> str | None:
    """What the file whose bytes (or first :data:`SAVE_LIMIT` bytes) are ``raw`` is, when it
    is one of the companion's own files, known by its shape as ``play --state`` knows them:
    :func:`other_file`'s, or a save (a JSON object holding what only a save holds,
    :data:`_OWN_KEYS`). None: none of them. `replay` given such a file names it (hist74
    NIT 3: "an event before any game header", or json's own "Expecting value")."""
    if (other := other_file(raw)) is not None:
        return other
    value = _json_of(raw.removeprefix(codecs.BOM_UTF8))
    if isinstance(value, dict) and any(key in value for key in _OWN_KEYS):
        return "a save (`companion play` wrote it: --state takes it)"
    return None


def fieldless(raw: bytes) -> bool:
    """Whether ``raw`` is a JSON object with none of :data:`SAVE_KEYS` (a character sheet
    given to ``--state`` by a slip), no save. ``{}`` is not: it holds nothing anyone could
    lose, set aside with a new game in its place as an empty file is (the usual "empty JSON
    file" made by hand; reviewj73 RISK 2)."""
    value = _json_of(raw.removeprefix(codecs.BOM_UTF8))
    return (isinstance(value, dict) and bool(value)
            and not any(key in value for key in SAVE_KEYS))


def _json_of(body: bytes) -> object:
    """The JSON value ``body`` holds, or None when it is not JSON."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError)
        return None


def _the_data_folders(path: Path) -> bool:
    """Whether ``path`` is the data folder's save.json, which `companion play` reads with no
    --state typed: a Pi's boot service starts so."""
    return path.absolute() == default_save_path().absolute()


def _other_file_remedy(path: Path, what: str) -> str:
    """What to do about ``path``, one of :func:`other_file`'s files, left as it is. The
    data folder's save.json is moved aside by the command given: told to "give --state a
    new file", a flag they never typed, the player of a Pi that starts `companion play` at
    boot had no table (finala73 NIT 5). One there with none of a save's fields
    (:func:`fieldless`) is set aside by :func:`read_save` itself, a new game started."""
    if not _the_data_folders(path):
        return f"give --state a new file, or a {what} companion play wrote"
    move = f"mv {shlex.quote(str(path))} {shlex.quote(str(aside_name(path, 'kept')))}"
    return f"move it aside (`{move}`), and `{companion_line('play')}` starts a new game"


def damaged_save(path: Path, raw: bytes) -> bool:
    """Whether ``raw``, the unreadable file at ``path``, may be a save the companion wrote
    and something damaged: empty or all NUL bytes (a power cut on an SD card leaves such),
    a text begun as a save, a JSON object, begins (``{``, after the mark an editor such as
    Notepad may put first), or a name ending in ``.json`` (the saves' names; a copy kept
    aside, ``save.json.replaced-…``, too). Anything else, a TOML sheet or a README given to
    ``--state``, or a file holding ``42``, is the user's file, not ours to set aside."""
    name = path.name.rsplit(".", 1)[0] if kept_aside(path) else path.name
    body = raw.removeprefix(codecs.BOM_UTF8).strip(b"\0 \t\r\n")
    return name.endswith(".json") or not body or body.startswith(b"{")


def write_save(path: Path, save: SaveGame) -> None:
    atomic_write_text(path, save.to_json() + "\n")


def read_save(path: Path, parse: Callable[[str, str], S], what: str,
              resume: Callable[[Path], str] | None = None) -> S | None:
    """The save at ``path`` as ``parse(text, source)`` reads it, or None when there is none.

    The file must be a regular file of at most :data:`SAVE_LIMIT` bytes: a folder, a device
    or a pipe is refused (:class:`DataError`) and left alone; a larger file, or one ``parse``
    refuses, is moved aside (:class:`CorruptSave`, naming the copies a write cut short left,
    :func:`keep_unreadable`), or refused (:class:`DataError`) where its folder lets it not
    be moved: a new save could not be written there either. A save ``parse`` finds to be
    another mode's or a newer companion's (:class:`SaveLeftInPlace`) is left where it is,
    and so is, refused (:class:`DataError`), a file that is no damaged save of ours
    (:func:`other_file`, :func:`fieldless`, :func:`damaged_save`): a log, the dice tray's
    file, a sheet or a README given to ``--state``. The data folder's own save.json with
    none of a save's fields is moved aside as a damaged one is: a boot service must start.
    ``what`` names it (``save``, ``fight save``); ``resume`` gives the command that takes up
    such a copy at a path, said with it (:meth:`~companion.files.Kept.copies`).
    """
    try:
        raw = read_regular(path, SAVE_LIMIT, what)
    except FileNotFoundError:
        return None
    except TooLarge as exc:
        reason = str(exc)
        with open_regular(path, what) as handle:
            raw = handle.read(_HEAD)
    else:
        try:
            return parse(raw.decode("utf-8"), str(path))
        except SaveLeftInPlace:
            raise
        except DataError as exc:
            reason = str(exc)
        except UnicodeDecodeError as exc:
            reason = f"{path}: " + (
                f"not valid JSON ({cut_short(len(raw))})" if exc.end == len(raw)
                and exc.reason == "unexpected end of data"  # a character cut in two
                else f"not readable text (byte {exc.start + 1} of {len(raw)} is not UTF-8)")
    if (other := other_file(raw)) is not None:
        log = other.startswith("a game log")
        raise DataError(
            f"{path} is {other}, not a {what}, so it was left as it is: "
            + (f"`{companion_line('replay', str(path))}` plays it back, and --log is where it "
               "goes; " if log else "")
            + _other_file_remedy(path, what))
    if fieldless(raw):
        nothing = (f"{path} is a JSON object with none of a save's fields "
                   f"({', '.join(SAVE_KEYS)}), not a {what}")
        if not _the_data_folders(path):  # typed: the player's file, given by a slip
            raise DataError(f"{nothing}, so it was left as it is: give --state a new file, "
                            f"or a {what} companion play wrote")
        # The data folder's own save.json: a boot service must never be stopped by it
        # (fixsave73); kept aside, and said where, as a damaged save is.
        reason = nothing
    if not damaged_save(path, raw):
        raise DataError(f"{path} does not look like a {what} of the companion's (not JSON, "
                        "and its name does not end in .json), so it was left as it is: give "
                        f"--state a new file, or a {what} companion play wrote")
    try:
        kept = keep_unreadable(path)
    except OSError as err:  # a read-only folder: no new game can be saved there either
        raise DataError(f"the {what} could not be read ({reason}), nor kept aside: "
                        f"{path.parent} lets no file in it be renamed ({err.strerror}), so "
                        "nothing can be saved there; give another file, or fix the folder"
                        ) from None
    raise CorruptSave(f"the {what} could not be read ({reason}); it was kept as "
                      f"{kept.path}{kept.copies(resume)}", kept.path)
