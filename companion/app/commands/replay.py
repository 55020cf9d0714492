"""``companion replay FILE``: play the games of a ``--log`` again and compare every event.

A log holds one or more games, each a header line (seed, preset, strategy,
profile and its SHA-256, input kind, who chose) followed by one JSON line per event.
A game played on the simulated wall is played again from its seed with the same strategy; the
replay must give the same events, in order. A game whose tiles or choices came
from the table (camera, RFID, keys, buttons) cannot be played again and is
named as such. Exit 0 when every game played again matches, 1 at the first
difference (which is printed), 2 when the file, or a game's profile, cannot be read, or
the profile changed since the game was logged, or when no game in it could be replayed (all
from the table or a player's choices; reviews69 NIT 3). A game whose log stops
before the game ends (stopped to be resumed, or the log cut short) is said to be so, with
exit 0: every event it holds is the game's. A log cut short inside its last line (a power cut
as it was written, or a tail of NUL bytes the file system left) is cut short all the same: that
part of a line is left out and said, and the games before it replay (hist63 F2).

The header's ``version`` says which events a log holds. Version 2 (issue 22) added the
``turn`` event at the start of each melee turn. A version 1 log is compared with the
replay's turn events left out; the rules have changed since some version 1 logs were
written (issue 22: no flight from a floor's start room), so such a game is reported
where it first differs, which is the honest answer.
"""

from __future__ import annotations

import argparse
import codecs
import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.command_list import COMMANDS
from companion.app.command_name import companion_command, companion_line
from companion.app.commands.play.saves import own_log, resume_as_played
from companion.app.history import BUSY, HOT_JOURNAL, History, HistoryError
from companion.app.session.log import begins_as_log
from companion.app.session.save import (
    SAVE_LIMIT,
    SaveGame,
    default_save_path,
    profile_unchanged,
    what_file,
)
from companion.errors import DataError
from companion.files import kept_aside, loads_json, open_regular, read_regular
from companion.systems.jongrogue.autoplay import STRATEGIES, HeadlessPlayer
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game, plays_its_seed_again
from companion.systems.jongrogue.profile import (
    Option,
    Profile,
    load_played_profile,
    preset_options,
)

LOG_VERSION = 2  # what companion play --log writes (its log_header)


@dataclass
class LoggedGame:
    path: Path  # the log, and the lines in it of the header and each event, for messages
    line: int
    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    event_lines: list[int] = field(default_factory=list)
    # the log's last line, after this game's, cut short (no line end, unreadable): left out
    cut_line: int | None = None


class _Unreadable(DataError):
    """A line that is not UTF-8 or not JSON: the log's cut end when it is its last line,
    with no line end after it."""


# Far past any line `play --log` writes (a header with every house rule is 2 KiB).
LINE_LIMIT = 1024 * 1024


def read_log(path: Path) -> list[LoggedGame]:
    """The games of the log at ``path``, read a line at a time. Each line is decoded alone
    (UTF-8), so a damaged one is named by its number, as a line that is not JSON is. A
    device or a pipe is refused, and a line longer than :data:`LINE_LIMIT`: /dev/zero was
    read into memory whole, for ever.

    The last line, when no line end follows it and it cannot be read, is where the log was
    cut short (a power cut as it was written; ext4 may leave NUL bytes there): it was
    refused, and every game before it with it. It is left out, in the last game's
    :attr:`LoggedGame.cut_line`, as ``play --log`` cuts it off before it writes on. Any
    other line that cannot be read is refused, naming it. A file refused before its first
    game that is one of the companion's other files (a save, a fight file, the history) is
    named for what it is (:func:`not_a_log`)."""
    games: list[LoggedGame] = []
    try:
        _read_games(path, games)
    except DataError:
        if games or (said := not_a_log(path)) is None:
            raise
        raise DataError(said) from None
    if not games:
        raise DataError(f"{path}: no game in this log")
    return games


def not_a_log(path: Path) -> str | None:
    """What to say of the file at ``path``, which is no log, when it is one of the
    companion's own files (:func:`~companion.app.session.save.what_file`, as ``play
    --state`` knows them by their shape): what it is, and what replay takes. `replay
    save.json` said "an event before any game header", and the history json's own
    "Expecting value" (hist74 NIT 3). None: a file none of them, or one that cannot be
    read again."""
    try:
        with open_regular(path, "log") as handle:
            head = handle.read(SAVE_LIMIT)
    except (OSError, DataError):
        return None
    what = what_file(head)
    if what is None or begins_as_log(head):  # a log refused for a line of its own
        return None
    resume = _save_said(path, head) if what.startswith("a save") else ""
    return f"{path} is {what}, not a log: {resume}{_takes()}"


def _save_said(path: Path, head: bytes) -> str:
    """What :func:`not_a_log` says of the save at ``path`` (its bytes ``head``) before what
    replay takes: a game over is said to be over, with no command (``play --resume`` of it
    starts a new game over the file); an unfinished one gets the command play's own stop
    line says for it (:func:`resume_as_played`), ``--headless`` for the auto-player's game
    on the simulated wall, which the plain ``play --resume --state`` said by 1ba2ee68 played
    on the screen, stopping at "no screen found" on a laptop (reviewb74 D3), and the game's
    own ``--log`` while that file is there (:func:`own_log`): without it, the game played
    on unlogged and its log stayed cut short (journey75 DEFECT 2). An unfinished save of
    a game the history holds (a copy kept, or its last writes refused) is said to be behind
    the game's end, with no command: its resume starts a new game. A save that cannot be
    read gets neither: a resume would set it aside."""
    try:
        saved = SaveGame.from_json(head.decode("utf-8-sig"), str(path))
    except (UnicodeDecodeError, DataError):
        return ""
    if saved.finished:
        return (f"its game is over, with nothing to play on (`{companion_line('history')}` "
                "lists the games played to their end), and ")
    held = _in_history(saved.game_id)
    if isinstance(held, str):
        return f"{_unread_history(held)}, and "
    if held:
        # A copy kept, or a save whose last writes the disk refused, of a game played to
        # its end since: its resume started a new game, in the old game's log (its own
        # --log, a20f0f50), as carried_on says of a save in the data folder (reviewjourney75
        # DEFECT 1).
        return (f"its game is over and in the history (`{companion_line('history')}` lists "
                "it): this save was behind its end, with nothing to play on, and ")
    args = argparse.Namespace(
        # --state absolute beside the absolute log (reviewjourney75 RISK 2)
        mode=None, headless=saved.input_kind == "sim", state=path.absolute(),
        log=own_log(saved),
        profile=None, preset=None, strategy=None, input=None, choices=None, display=None,
        rfid_kind=None, rfid_port=None, dice=None, d100=None, fight=None)
    return f"`{resume_as_played(args, saved)}` plays it on, and "


def _takes() -> str:
    """What replay takes, said of a file that is no log."""
    return f"replay takes the file `{companion_command()} play --log FILE` wrote"


def _read_games(path: Path, games: list[LoggedGame]) -> None:
    """The games of the log at ``path`` added to ``games``, as :func:`read_log` reads them."""
    try:
        with open_regular(path, "log") as handle:
            number = 0
            while chunk := handle.readline(LINE_LIMIT + 1):
                if len(chunk) > LINE_LIMIT:
                    raise DataError(f"{path}:{number + 1}: a line longer than "
                                    f"{LINE_LIMIT // 1024} KiB, which no log holds")
                pieces = chunk.splitlines()  # a lone CR ends a line too, as ever
                for index, raw in enumerate(pieces):
                    number += 1
                    try:
                        _read_line(raw, path, number, games)
                    except _Unreadable:
                        # readline stops short of a line end only at the file's end
                        torn = index == len(pieces) - 1 and not chunk.endswith((b"\n", b"\r"))
                        if not (torn and games):
                            raise
                        games[-1].cut_line = number
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror}") from exc


def _read_line(raw: bytes, path: Path, number: int, games: list[LoggedGame]) -> None:
    """Line ``number`` of the log at ``path`` added to ``games``: a game's header begins a
    game, any other line is an event of the last one."""
    where = f"{path}:{number}"
    # An editor's byte order mark (Notepad's) before a header: the first, or one of a log
    # so saved joined to the end of another (`cat`).
    raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if not games:  # Python's words of a file that was never a log (hist74 NIT 3)
            raise _Unreadable(f"{where}: not UTF-8 text, so no log: {_takes()}") from exc
        raise _Unreadable(f"{where}: not UTF-8 text ({exc.reason})") from exc
    if not line.strip():
        return
    try:
        obj = loads_json(line)
    except json.JSONDecodeError as exc:
        if not games:  # json's "Expecting value" said of a file that was never a log
            raise _Unreadable(f"{where}: not a JSON line, so no log: {_takes()}") from exc
        # json's "Unterminated string starting at" ends where its column does
        said = f"{exc.msg} column {exc.colno}" if exc.msg.endswith(" at") else exc.msg
        raise _Unreadable(f"{where}: not a JSON line ({said})") from exc
    if not isinstance(obj, dict):
        raise DataError(f"{where}: expected a JSON object")
    if obj.get("log") == "jongrogue-companion":
        version = obj.get("version", 1)
        if not isinstance(version, int) or not 1 <= version <= LOG_VERSION:
            raise DataError(f"{where}: log version {version!r} is not one this "
                            f"companion reads (1 to {LOG_VERSION}); update the companion")
        rules = obj.get("rules", 1)  # logs from before the engine kept revisions: 1
        if not isinstance(rules, int) or isinstance(rules, bool) \
                or not 1 <= rules <= RULES_REVISION:
            raise DataError(f"{where}: rules revision {rules!r} is not one this "
                            f"companion plays (1 to {RULES_REVISION}); update the companion")
        _check_header(obj, where)
        games.append(LoggedGame(path, number, obj))
    elif not games:
        raise DataError(f"{where}: an event before any game header")
    else:
        games[-1].events.append(obj)
        games[-1].event_lines.append(number)


def _check_header(header: dict[str, Any], where: str) -> None:
    """A game header holds what replaying it needs, of the kinds log_header writes: a
    hand-edited or damaged one is named here rather than failing half-way through."""
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise DataError(f"{where}: the game's seed must be a whole number, found {seed!r}")
    preset = header.get("preset")
    # The engine's own check (profile.preset_options): a game played as ez+pincer replays
    # as it was played (rules70 RISK 3, fixr70b), and a damaged preset is named here.
    if not isinstance(preset, str):
        raise DataError(f"{where}: the game's preset must be ez, plus, or ez with EZ Plus "
                        f"options joined by + (options: {', '.join(o.value for o in Option)}), "
                        f"found {preset!r}")
    try:
        preset_options(preset)
    except DataError as exc:
        raise DataError(f"{where}: the game's preset: {exc}") from None
    strategy = header.get("strategy")
    if strategy is not None and (not isinstance(strategy, str) or strategy not in STRATEGIES):
        raise DataError(f"{where}: the game's strategy must be one of "
                        f"{', '.join(STRATEGIES)}, found {strategy!r}")
    for key in ("profile", "profile_hash", "input", "choices"):
        if not isinstance(header.get(key, ""), str | None):
            raise DataError(f"{where}: the game's {key} must be text, found {header[key]!r}")


def _normal(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the log holds it (JSON turns tuples into lists)."""
    normal: dict[str, Any] = json.loads(json.dumps(event, ensure_ascii=False))
    return normal


def not_replayable(header: dict[str, Any]) -> str | None:
    """Why a logged game cannot be played again from its header alone (None: it can)."""
    if header.get("input", "sim") != "sim":
        return f"its tiles came from the {header['input']}, not the simulated wall"
    if header.get("choices") == "player":
        return "a player made its choices, not the auto-player"
    return None


@dataclass(frozen=True, slots=True)
class Replayed:
    """What playing a logged game again found."""

    difference: str | None  # the first event that differs, and where; None: all match
    finished: bool  # the log holds the game to its end


def replay_game(logged: LoggedGame) -> Replayed:
    """Play one logged game again, and compare it with the log event by event."""
    header = logged.header
    game = Game(header["preset"], played_profile(logged), revision=header.get("rules", 1))
    player = HeadlessPlayer(header["seed"], header.get("strategy") or "cautious")
    expected = logged.events
    skipped = frozenset() if header.get("version", 1) >= 2 else frozenset({Kind.TURN})
    replayed: list[dict[str, Any]] = []
    seen = 0
    while True:
        replayed += [_normal(e.to_json()) for e in game.events[seen:] if e.kind not in skipped]
        seen = len(game.events)
        if len(replayed) >= len(expected) or game.pending is None:
            break
        game.push(player.answer(game))
    # The replay went past the log's last event, or the game waits for an answer there.
    finished = len(replayed) == len(expected) and game.pending is None
    replayed = replayed[: len(expected)]
    for index, (want, got) in enumerate(zip(expected, replayed, strict=False)):
        if want != got:
            return Replayed(f"{logged.path}:{logged.event_lines[index]}: event {index + 1} of "
                            f"the game at line {logged.line}: {_differing(want, got)}; the log "
                            f"has {_shown(want)}, the replay gives {_shown(got)}", finished)
    if len(replayed) < len(expected):
        return Replayed(f"{logged.path}:{logged.event_lines[len(replayed)]}: the log goes on, "
                        f"but the replay of the game at line {logged.line} ended after "
                        f"{len(replayed)} events", finished)
    return Replayed(None, finished)


def played_profile(logged: LoggedGame) -> Profile | None:
    """The profile a logged game was played with, as it was then: a key an older version
    dropped unread is dropped again. One that plays otherwise since (its hash is not the
    header's ``profile_hash``, which logs carry since it was added: the file was edited,
    or the packaged profile it is read over gives a key it leaves out another value), or
    one that cannot be read, is refused naming the header's line: replayed with other
    numbers, the game would differ for no fault of the rules."""
    name = logged.header.get("profile")
    if not name:
        return None
    path, where = Path(name), f"{logged.path}:{logged.line}"
    recorded = logged.header.get("profile_hash")
    try:
        profile = load_played_profile(path)[0]
        unchanged = recorded is None or profile_unchanged(path, recorded)
    except DataError as exc:
        if isinstance(exc.__cause__, OSError):
            raise DataError(f"{where}: this game was played with the profile {path}, which "
                            f"cannot be read ({exc.__cause__.strerror}); put it back there to "
                            "replay the game") from exc
        raise DataError(f"{where}: this game's profile cannot be read: {exc}") from exc
    if not unchanged:
        raise DataError(f"{where}: the profile {path} changed since this game was logged (the "
                        "file, or a packaged value it leaves out); put back the one it was "
                        "played with to replay the game")
    return profile


def _differing(want: dict[str, Any], got: dict[str, Any]) -> str:
    """The fields two events differ in, first, each with both values: ``tiles: log ["1z"],
    replay ["5p"]`` (cli59 F11: two whole JSON lines hid a one-field difference)."""
    def value(event: dict[str, Any], key: str) -> str:
        return json.dumps(event[key], ensure_ascii=False) if key in event else "(none)"

    keys = sorted(key for key in want.keys() | got.keys()
                  if key not in want or key not in got or want[key] != got[key])
    return "; ".join(f"{key}: log {value(want, key)}, replay {value(got, key)}" for key in keys)


def _shown(event: dict[str, Any]) -> str:
    """An event as one line, its keys in order: the log's and the replay's side by side
    differ only where the events do."""
    return json.dumps(event, ensure_ascii=False, sort_keys=True)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "replay", help=COMMANDS["replay"].help,
        description="Play each game of a log that `companion play --log FILE` wrote again "
                    "from its seed and compare every event with the log: exit 0 when all "
                    "match, 1 at the first difference (printed), 2 when the log or a game's "
                    "profile cannot be read, or when no game in it could be replayed. A game "
                    "whose tiles or choices came from the table (camera, RFID, keys, "
                    "buttons) is named, not replayed: only the auto-player's games are. "
                    "Example: "
                    "companion play --headless --log game.log, then companion replay "
                    "game.log")
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="a log written by companion play --log")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    games = read_log(args.file)
    replayed_any = False
    for number, logged in enumerate(games, start=1):
        name = f"game {number} (seed {logged.header['seed']}, {logged.header['preset']})"
        why = not_replayable(logged.header)
        if why:
            print(f"{name}: not replayed: {why}")
            if logged.cut_line is not None:
                print(_cut_after(logged))
            continue
        replayed = replay_game(logged)
        replayed_any = True
        if replayed.difference:
            print(f"DIFFERS: {replayed.difference}")
            return 1
        # Exit 0 all the same: every event logged is the game's, and a game stopped to be
        # carried on (play --resume --log) is logged so until it is.
        again = _logged_again(games, number)
        unfinished = "" if replayed.finished else (
            f"; the log ends before the game does{_cut(logged)}: {carried_on(logged)}"
            if again is None else
            # A stray copy a resume left (hist72 DEFECT 3): "stopped … carries it on" sent
            # the player to resume a game that was over, or to play it again.
            f"; the log ends before the game does: this is a copy of game {again}'s "
            f"beginning, left by an older companion's resume; game {again} is the game "
            "played on")
        print(f"{name}: {len(logged.events)} events match{unfinished}")
        if replayed.finished and logged.cut_line is not None:
            print(_cut_after(logged))
    if not replayed_any:
        # Exit 2, as a log with no game: nothing was compared, and 0 says all match
        # (setup69 DEFECT 2: a keyboard game's log "passed").
        raise DataError(f"{args.file}: nothing was replayed: no game in this log was played "
                        f"by the auto-player (log one with {companion_command()} play "
                        "--headless --log FILE)")
    return 0


def _logged_again(games: list[LoggedGame], number: int) -> int | None:
    """The number of the later game in the log that is game ``number`` (from 1) again, by
    its ``game_id``: a resume moves a game's lines after those logged since, and before
    hist72 DEFECT 3 it could leave the beginning of another in its old place. None when
    there is none."""
    game_id = games[number - 1].header.get("game_id")
    if game_id is None:
        return None
    for later, logged in enumerate(games[number:], start=number + 1):
        if logged.header.get("game_id") == game_id:
            return later
    return None


def _cut(logged: LoggedGame) -> str:
    """How the log of a game it does not hold to its end ends, when cut inside a line."""
    if logged.cut_line is None:
        return ""
    return f" (its last line, {logged.cut_line}, was cut short and is left out)"


def _cut_after(logged: LoggedGame) -> str:
    """The log's last line, cut short, after a game that is whole or not replayed."""
    return (f"{logged.path}:{logged.cut_line}: the log ends early: its last line was cut "
            "short (a power cut as it was written?) and is left out")


def _in_history(game_id: str) -> bool | str:
    """Whether the history holds ``game_id``, or why it cannot be asked now (a leftover
    ``-journal`` a read-only look cannot roll back, a history busy past SQLite's wait, a
    damaged file): then no resume is named (reviewjourney75b RISK 2: "not held" was taken,
    and the resume named for a game over started a second game in its log). Asked
    read-only: replay moved a damaged history aside and began a new one, unsaid
    (reviewjourney75 RISK 3)."""
    try:
        return History().holds_as_it_is(game_id)
    except HistoryError as exc:
        return str(exc)


def _unread_history(why: str) -> str:
    """What is said, with no resume, of a game whose history could not be read (``why``):
    "try again" only while another companion writes it; a leftover ``-journal`` only a
    writer rolls back, which replay again never does (reviewjourney75c NIT 2)."""
    history = companion_line("history")
    if HOT_JOURNAL in why:
        then = f"`{history}` (or the next `{companion_line('play')}`) rolls it back"
    elif BUSY in why:
        then = f"try again, or `{history}` reads it"
    else:
        then = f"`{history}` reads it (and mends it)"
    return (f"whether the game is over cannot be told: the history could not be read ({why}); "
            f"{then}, then replay again: a resume of a game over would start a new game in "
            "its log")


def _saved(path: Path, game_id: object) -> SaveGame | None:
    """The game ``game_id`` saved at ``path`` as its file says; None when there is none
    that can be read: a file past a save's size, a pipe or a device (read_regular refuses
    them, not waiting on a pipe's writer: a FIFO named *.json hung replay, reviewj73 NIT 3),
    or a file whose bytes do not name the game (not parsed: a data folder of kept copies
    was each read as JSON)."""
    try:
        raw = read_regular(path, SAVE_LIMIT, "save")
        if not isinstance(game_id, str) or game_id.encode() not in raw:
            return None
        return SaveGame.from_json(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, DataError):
        return None


def _json_named(path: Path) -> bool:
    """Whether ``path`` is named as a save may be: ``*.json``, or a copy of one kept aside
    (``save.json.replaced-…``), not a kept copy of a log (``game.jsonl.corrupt-…``)."""
    return (path.name.rsplit(".", 1)[0] if kept_aside(path) else path.name).endswith(".json")


def save_of(game_id: object) -> tuple[Path, SaveGame | None]:
    """Where in the data folder the game ``game_id`` is saved, and its save: the data
    folder's save.json, else a ``--state`` file of its own there (``*.json``: journey73
    NIT 6, "no save in the data folder holds it" was said of a game such a file held), or
    a copy a game was kept aside in (``save.json.replaced-…``); save.json and None when
    none holds it."""
    default = default_save_path()
    others = sorted(filter(_json_named, default.parent.glob("*.json*"))
                    ) if default.parent.is_dir() else []
    for path in [default, *(p for p in others if p != default)]:
        saved = _saved(path, game_id)
        if saved is not None and saved.game_id == game_id:
            return path, saved
    return default, None


def carried_on(logged: LoggedGame) -> str:
    """What carries on a replayed game whose log ends early, as it works: a resume when
    a save in the data folder holds it (:func:`save_of`); else it was saved nowhere the
    replay can see (a headless game without --state: newuser61 N5, where ``play --resume
    --log`` started a new game and logged it in the same file, or a --state file
    elsewhere), and its seed plays it again from the start (when this revision plays its
    seed's game: :func:`plays_its_seed_again`). A game the history holds is over, its log
    cut short or played on without: it is said so, with no resume (one would start a new
    game in this log). Only games of the auto-player are replayed."""
    header = logged.header
    save_path, saved = save_of(header.get("game_id"))
    state = [] if save_path == default_save_path() else ["--state", str(save_path)]
    log = str(logged.path)
    game_id = header.get("game_id")
    held = _in_history(game_id) if isinstance(game_id, str) and not (
        saved is not None and saved.finished and saved.game_id == game_id) else False
    if isinstance(held, str):
        return _unread_history(held)
    if saved is not None and not saved.finished and saved.game_id == game_id and held:
        # Its save was behind its end (the disk refused it): a resume starts a new game.
        # The next game replaces save.json alone: a --state file of its own stays until
        # removed (reviewjourney75 NIT 7: "the next game replaces it" was said of one).
        after = "the next game replaces it" if not state else "it can be removed"
        return (f"the game is over and in the history (`{companion_command()} history` lists "
                f"it); {save_path} was behind its end, and {after}")
    if saved is not None and not saved.finished and saved.game_id == header.get("game_id"):
        resume = companion_line("play", "--headless", "--resume", *state, "--log", log)
        return f"the game was stopped, and {save_path} holds it: `{resume}` carries it on"
    if saved is not None and saved.finished and saved.game_id == header.get("game_id"):
        # Resumed without --log (hist65 NIT 4): "no save holds it" was said of a game over.
        return (f"the game played on without this log and is over ({save_path} holds it, "
                f"finished: `{companion_command()} history` lists it)")
    if held:
        # Played on with another --log, or none, its save elsewhere or since replaced, or
        # its log cut short: the resume said below started a new game in this log
        # (journey75 DEFECT 3).
        said = (f"the game is over (`{companion_command()} history` lists it): this log "
                "stops before its end (cut short, or the game played on without it)")
    else:
        said = ("the game was stopped or its log was cut short, and no save in the data "
                "folder holds it: a --state file of it carries it on (`"
                + companion_line("play", "--headless", "--resume", "--state")
                + f" FILE --log {shlex.quote(log)}`)")
    if not plays_its_seed_again(header.get("rules", 1), bool(header.get("profile"))):
        return said  # its seed plays another game now
    again = ["play", "--headless", "--seed", str(header["seed"]), "--preset", header["preset"],
             "--strategy", header.get("strategy") or "cautious"]
    if header.get("profile"):
        again += ["--profile", header["profile"]]
    return f"{said}; `{companion_line(*again)}` plays it again from the start"
