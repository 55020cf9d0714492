"""The saved game and what is kept of it: the save a run finds (carried on, kept aside or
put in the history), the profile a game plays with, its entry in the history, and the
first line of its log."""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from companion.app.command_name import companion_line
from companion.app.commands.play.telling import cause_of_death, resume_command, tell
from companion.app.config import load_config
from companion.app.history import History, HistoryError, Run
from companion.app.modes.fight_save import refuse_another_modes
from companion.app.notes import note
from companion.app.paths import data_dir_setting
from companion.app.session.controls import Controls
from companion.app.session.host import COMPANION_FAULTS, told_fault
from companion.app.session.log import HOLDS, NO_GAME, OTHER_GAME, GameLog
from companion.app.session.save import (
    BOM,
    SAVE_LIMIT,
    CorruptSave,
    NewerSave,
    SaveGame,
    profile_unchanged,
    read_save,
)
from companion.errors import CompanionError, DataError
from companion.file_locks import real_path
from companion.files import (
    DISK_ERRNOS,
    fsync_dir,
    kept_aside,
    loads_json,
    move_aside,
    read_regular,
)
from companion.hw.display import Display
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import Profile, load_played_profile


@dataclass(frozen=True)
class Previous:
    """What a run found where it saves: ``saved``, the game to carry on (None: a new game
    is played); ``replaced``, where the unfinished game the new one replaces was kept
    aside (``save.json.replaced-…``), to be put back if the new game stops before its
    first move (:func:`put_back`)."""

    saved: SaveGame | None
    replaced: Path | None = None


def previous_game(save_path: Path | None, args: argparse.Namespace,
                  display: Display | None, controls: Controls) -> Previous:
    """The saved game to carry on, if any. A corrupt save is kept aside and a new game offered."""
    if save_path is None:
        return Previous(None)
    make_save_folder(save_path, args.state is not None)
    if not args.resume:
        try:
            old = load_game(save_path, args)
        except CorruptSave as exc:  # kept aside, never overwritten unseen
            tell(f"{exc}; this new game is saved in {save_path}", display, controls)
            return Previous(None)
        except NewerSave as exc:
            tell(f"{keep_newer(save_path, exc, args)}; this new game is saved in {save_path}",
                 display, controls)
            return Previous(None)
        if old is not None and old.finished:
            record_saved(replayed(old, save_path, display, controls), old, save_path, args,
                         display, controls)
        elif old is not None and old.inputs and over_in_history(old, save_path, display,
                                                                 controls):
            return Previous(None)  # the new game's first save replaces it
        elif old is not None and old.inputs:
            try:
                kept = move_aside(save_path, "replaced")
            except OSError as exc:  # a read-only folder: the new game must not replace it
                raise OSError(exc.errno, f"the unfinished game in it cannot be kept aside "
                              f"for a new one ({exc.strerror}): play it on with --resume, "
                              "or fix the folder", str(save_path)) from exc
            try:
                # A game of the camera or the tray plays on only there (journey73 NIT 4);
                # one of the simulated wall anywhere, but by the run's own choices and
                # display, which "on a computer" beside --choices gpio belied (a76journey).
                where = "on the simulated wall (no table needed)" if old.input_kind == "sim" \
                    else "at the table (camera or tray)"
                tell(f"前の冒険は残しました The unfinished game is kept as {kept.name}, beside "
                     f"{save_path}; this new game replaces it. To play that one on later, "
                     f"{where}: {resuming(args, kept)}", display, controls)
            except BaseException:  # stopped on the notice (Ctrl-C): no new game was begun
                put_back(kept, save_path, args)
                raise
            return Previous(None, kept)
        # A save with no inputs (a start that stopped at once: no camera, no tray) holds
        # nothing a player did: the new game's save replaces it, and no copy is kept.
        return Previous(None)
    try:
        saved = load_game(save_path, args)
    except CorruptSave as exc:
        offer_new_game(str(exc), display, controls)
        return Previous(None)
    except NewerSave as exc:
        offer_new_game(keep_newer(save_path, exc, args), display, controls)
        return Previous(None)
    if saved is None:
        note(no_save_note(save_path, args))
    elif saved.finished:
        game = replayed(saved, save_path, display, controls)
        if game is not None and game.outcome() is None and kept_aside(save_path):
            # Kept aside by record_saved below, and resumed by name as it said to.
            tell(f"the game kept in {save_path} was marked over, but it replays to floor "
                 f"{game.floor} still running: it plays on, in that file", display, controls)
            return Previous(replace(saved, finished=False))
        if record_saved(game, saved, save_path, args, display, controls):
            note("the saved game is over; starting a new one")
        return Previous(None)
    if saved is not None and saved.inputs and over_in_history(saved, save_path, display,
                                                              controls):
        return Previous(None)  # the new game's first save replaces it
    return Previous(saved)


def over_in_history(saved: SaveGame, save_path: Path, display: Display | None,
                    controls: Controls) -> bool:
    """Whether the unfinished ``saved`` game (in ``save_path``) is over, in the history:
    the companion puts only a finished game there, so its save is one whose last writes
    the disk refused, behind the game's end (review65h RISK 1: a new game kept it aside as
    an unfinished game the player had seen end, and ``--resume``, the boot service's,
    played the ended game on, another game whose result the history dropped). Said, and
    the next game's save replaces it. A history that cannot be asked now holds it not, as
    far as this run knows: the save is treated as any unfinished one (kept aside, or
    played on); what stopped it is said when a game is put there (:func:`record`)."""
    history = History()
    try:
        held = history.holds(saved.game_id)
    except HistoryError:
        return False
    finally:
        for notice in history.notices:
            tell(notice, display, controls)
    if held:
        note(f"the game in {save_path} is over and in the history "
             f"({companion_line('history')}): its save was behind it (the disk refused its "
             "last moves); starting a new one")
    return held


def resuming(args: argparse.Namespace, kept: Path) -> str:
    """The command that plays on the game kept in ``kept``, with the flags this run (its
    command line ``args``) was given that a resume needs (:func:`resume_command`), as the
    kept game was played (:func:`resume_as_played`; one that cannot be read, as this run
    plays). Its ``--log`` is the kept game's own (:func:`own_log`), never this run's: this
    run's log is another game's, and the kept game resumed into it left its own log cut
    short and its whole game in the new one's (journey75 DEFECT 1). A newer companion's
    save, which this one cannot read, names its log as its JSON says it (reviewjourney75
    RISK 5: none was said, and once updated the command played the game on unlogged)."""
    try:
        text = read_regular(kept, SAVE_LIMIT, "save").decode("utf-8")
        saved: SaveGame | None = SaveGame.from_json(text)
        log = own_log(saved)
    except NewerSave:
        saved, log = None, _newer_log(text)
    except (OSError, UnicodeDecodeError, CompanionError):
        saved, log = None, None
    # --state absolute, as the log is (log_path is kept resolved): a relative one beside
    # it, run from another folder, found no save and started a new game in the kept
    # game's log (reviewjourney75 RISK 2).
    return resume_as_played(
        argparse.Namespace(**{**vars(args), "state": kept.absolute(), "log": log}), saved)


def own_log(saved: SaveGame | None) -> str | None:
    """The log the game ``saved`` was begun in (``--log``), which a resume carries on,
    when that file still holds the game (:func:`log_holding`); None when there is none, or
    it is gone or holds another's lines (nothing of the game is left to carry on there)."""
    if saved is None:
        return None
    return log_holding(saved.log_path, saved.log_start, saved.game_id)


def log_holding(log_path: object, start: object, game_id: object) -> str | None:
    """``log_path`` when a resume with it as ``--log`` writes the game ``game_id`` (begun
    at byte ``start`` in it, as its save says) whole there (:meth:`GameLog.holding`, the
    test the log's own rewrite makes: the game's lines, or nothing yet, at ``start``; its
    header elsewhere in the file, or in ``FILE.1``/``FILE.2``); None when it cannot be read,
    or another game's log or notes are under that name and the game is nowhere in them
    (reviewjourney75 RISK 4: such a file was named, and the command said then refused). A
    pipe or a device is not waited on. Only the line at ``start`` is read when it holds
    the game (reviewjourney75b DEFECT 1: that line alone was asked, and a game whose lines
    another game's resume moved, or rotated, or cut by a full disk, went on unlogged)."""
    found = log_verdict(log_path, start, game_id)
    return log_path if found == HOLDS and isinstance(log_path, str) else None


def log_verdict(log_path: object, start: object, game_id: object) -> str:
    """What :meth:`GameLog.holding` finds of the log ``log_path`` for the game ``game_id``
    begun at ``start``, or why it could not look, in words (``cannot be read (…)``); "gone"
    when there is no such file (or no log named at all)."""
    if not (isinstance(log_path, str) and isinstance(game_id, str)
            and isinstance(start, int) and not isinstance(start, bool) and start >= 0):
        return "gone"
    try:
        return GameLog.holding(Path(log_path), start, game_id)
    except FileNotFoundError:
        return "gone"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    except DataError as exc:
        return f"cannot be read ({str(exc).removeprefix(f'{log_path}: ')})"


def lost_log_words(saved: SaveGame) -> str | None:
    """Why the save ``saved``'s log is not named in a resume command, for the resume that
    goes on unlogged: not there, cannot be read, another game's log, or a file holding no
    line of the game (reviewjourney75b NIT 3: "another file under that name?" was said of
    a log that could not be read, or that held nothing yet). None when the log holds the
    game (:func:`own_log` names it): the one search both need, made once (reviewjourney75c
    NIT 1: the unlogged resume asked own_log, then this, each reading the whole log)."""
    found = log_verdict(saved.log_path, saved.log_start, saved.game_id)
    if found == HOLDS and isinstance(saved.log_path, str):
        return None
    if found == "gone":
        return "is not there (a disk taken out, or the file moved)"
    if found == OTHER_GAME:
        return "is no longer its log (another game's log is under that name)"
    if found == NO_GAME:
        return "holds no line of this game (another file under that name?)"
    return found


def _newer_log(text: str) -> str | None:
    """The log a save a newer companion wrote (``text``) names, as its JSON says it, when
    that file holds the game (:func:`log_holding`)."""
    try:
        raw = loads_json(text.removeprefix(BOM))
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    return log_holding(raw.get("log_path"), raw.get("log_start", 0), raw.get("game_id"))


def resume_as_played(args: argparse.Namespace, saved: SaveGame | None) -> str:
    """:func:`resume_command` for the unfinished game ``saved`` (None: as this run, its
    command line ``args``, plays), with what the resume needs of how it was played:
    - A player's game (``player_chose``) hinted at by a ``--headless`` run is resumed
      with the keys on the terminal: ``--headless`` refuses it (journey71 DEFECT 2: the
      command said for a ``save.json.replaced-…`` was then refused).
    - A game on the simulated wall says ``--input sim``: the resume takes the save's kind
      without it, but the new game that run may start (New game, Game over, or a save
      that was over meanwhile) took config.toml's ``input.kind``, the camera by default,
      and stopped at once on a laptop (journey71 DEFECT 1)."""
    changes: dict[str, object] = {}
    if saved is not None and saved.player_chose and args.headless:
        changes = {"headless": False, "mode": "game", "choices": "keyboard",
                   "display": "terminal"}
    if saved is None or saved.input_kind != "sim" or (args.headless and not changes):
        return resume_command(argparse.Namespace(**{**vars(args), **changes}))
    # --input is said by resume_command only with the next game's flags; the save keeps
    # its own profile, preset and strategy, which are said for the run's new games.
    return resume_command(argparse.Namespace(**{
        **vars(args), **changes, "input": "sim", **begun_with(saved)}), next_game=True)


def begun_with(saved: SaveGame) -> dict[str, object]:
    """The ``--preset``, ``--profile`` and ``--strategy`` that give a run's new games the
    rules the game ``saved`` was begun with, for the command that resumes it: the resume
    plays the save's own, but the New game (System menu, Game over) of that run took
    config.toml's (journey73 NIT 5: a game begun with --preset ez+drops, resumed as the
    stop said, then New game, played plus). Each is said only where config.toml (or the
    environment) gives another: a profile whose file is gone is not (the command would be
    refused), a strategy only for the auto-player's games."""
    try:
        config = load_config()
    except CompanionError:  # a broken config.toml: the run it starts says so
        config = None

    def default(key: str) -> str | None:
        return None if config is None else config.text(key)

    def profile_default() -> str | None:
        try:
            chosen = None if config is None else config.existing_file("game.profile")
        except CompanionError:
            return None
        return None if chosen is None else str(chosen.resolve())

    said: dict[str, object] = {"preset": None, "profile": None, "strategy": None}
    if saved.preset != default("game.preset"):
        said["preset"] = saved.preset
    if saved.profile_path is not None and Path(saved.profile_path).is_file() and \
            saved.profile_path != profile_default():
        said["profile"] = saved.profile_path
    if not saved.player_chose and saved.strategy is not None and \
            saved.strategy != default("choices.strategy"):
        said["strategy"] = saved.strategy
    return said


def put_back(kept: Path, save_path: Path, args: argparse.Namespace) -> None:
    """Put the unfinished game kept aside as ``kept`` for a new one (this run, its command
    line ``args``) back in ``save_path``: the new game stopped before its first move
    (Ctrl-C, no camera), and holds nothing a player did. One rename, atomic: a power cut
    leaves either file whole where it was."""
    try:
        os.replace(kept, save_path)
        fsync_dir(save_path.parent)
    except OSError as exc:
        note(f"the new game stopped before its first move, and the unfinished game could not "
             f"be put back in {save_path} ({exc.strerror}); it stays as {kept}: "
             f"{resuming(args, kept)} plays it on")
        return
    note(f"the new game stopped before its first move: the unfinished game is back in "
         f"{save_path}, as it was")


def no_save_note(save_path: Path, args: argparse.Namespace) -> str:
    """What ``--resume`` finding no save at ``save_path`` says: a new game starts, and an
    unfinished game a new one set aside beside it (the newest, ``save.json.replaced-…``),
    which the player likely meant to resume, is named with the command that plays it on.
    "Newest" is by the names' stamps, the clock's when each was set aside, and a Pi's clock
    can start behind (it has none of its own): the others set aside are counted, so the
    player knows to look."""
    stamp = re.compile(re.escape(save_path.name) + r"\.replaced-(\d{8}T\d{6}Z)(?:-(\d+))?")
    aside = []
    for path in save_path.parent.glob(f"{glob.escape(save_path.name)}.replaced-*"):
        if match := stamp.fullmatch(path.name):
            aside.append((match.group(1), int(match.group(2) or 1), path))
    if not aside:
        return f"no saved game in {save_path}: starting a new one"
    newest, _, kept = max(aside)
    when = datetime.strptime(newest, "%Y%m%dT%H%M%SZ").strftime("%Y-%m-%d %H:%M UTC")
    command = resuming(args, kept)
    more = len(aside) - 1
    others = (f" ({more} more set aside beside it, as {save_path.name}.replaced-…)"
              if more else "")
    return (f"no saved game in {save_path}, but an unfinished game set aside for a new one "
            f"at {when} is beside it, as {kept.name}{others}: {command} plays it on; "
            "starting a new one")


def keep_newer(save_path: Path, exc: NewerSave, args: argparse.Namespace) -> str:
    """Keep a save a newer companion wrote aside as ``.newer-…`` (whole, for that companion
    to carry on), and say so, with how to carry it on (as this run, its command line
    ``args``, plays: :func:`resuming`). A folder that lets no file be
    renamed (read-only) stops the run, saying what the save is: the bare OS error said
    nothing of the newer companion."""
    try:
        kept = move_aside(save_path, "newer")
    except OSError as err:
        raise DataError(f"{exc}; {NewerSave.UPDATE}. It cannot be kept aside for a new game "
                        f"here: {save_path.parent} lets no file in it be renamed "
                        f"({err.strerror}); fix the folder, or play a new game with --state "
                        "ANOTHER.json") from None
    return exc.kept_as(kept, resuming(args, kept))


def make_save_folder(save_path: Path, named: bool) -> None:
    """Make the folder of ``save_path`` (``named`` by ``--state``, else in the data folder)
    before a word is said of the game in it: one that cannot be made (a path that cannot
    be, /proc/nope) is refused naming the setting that chose it, not said after "starting
    a new one" by the OS's words alone. A disk that refuses it (full, read-only) is left
    to the session, which plays on and says the game is not saved."""
    folder = save_path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno in DISK_ERRNOS:
            return
        which = ("the folder of the --state file" if named
                 else f"the data folder ({data_dir_setting()})")
        why = ("a file is in its place" if isinstance(exc, FileExistsError)
               else exc.strerror or str(exc))
        raise OSError(exc.errno, f"{which} cannot be made: {why}", str(folder)) from exc


def refuse_missing_folder(save_path: Path, named: bool, resume: bool,
                          what: str = "game") -> None:
    """Refuse (:class:`DataError`), before anything is held or made, a save at ``save_path``
    whose folder is not there: a game's (``what`` "game") or a ``what`` table's (genso,
    coc); through a link, always; ``--state``'s (``named``), with ``resume``. That is a USB
    stick unplugged: "no saved game … starting a new one" hid its game, and the folder made
    where the stick mounts held the new game (a78saves item 2); a table said "no unfinished
    fight saved" and made the folder too (r78saves RISK). The words say how a new game or
    table is started on purpose, "without --resume" only to a player who typed it."""
    new = "a new game" if what == "game" else f"a new {what} table"
    if save_path.is_symlink():
        target = real_path(save_path)
        if not target.parent.is_dir():
            again = "play without --resume" if resume else "play again"
            raise DataError(f"{save_path} links to {target}, whose folder {target.parent} is "
                            "not there (a USB stick unplugged?): plug it in and start again; "
                            f"to start {new} instead, remove the link (rm {save_path}) "
                            f"and {again}")
    elif named and resume and not save_path.parent.is_dir():
        saved = "saved game" if what == "game" else f"saved {what} table"
        raise DataError(f"no {saved} can be in {save_path}: its folder {save_path.parent} "
                        "is not there (a USB stick unplugged?): plug it in and start again; "
                        f"to start {new} there instead, play without --resume")


def refuse_missing_fight_folder(fight_path: Path) -> None:
    """Refuse (:class:`DataError`), before anything is held or made, a table's ``--fight``
    whose folder (through a link, its target's) is not there: a USB stick unplugged. It
    said "no fight at … yet" and made the folder where the stick mounts (r78saves RISK)."""
    folder = real_path(fight_path).parent
    if not folder.is_dir():
        raise DataError(f"no fight can be in {fight_path}: its folder {folder} is not there "
                        "(a USB stick unplugged?): plug it in and start again")


def load_game(path: Path, args: argparse.Namespace | None = None) -> SaveGame | None:
    """The game of JongRogue saved at ``path``, or None (:func:`read_save`). A table's save
    given as ``--state`` is refused and left where it is: it is a fight to resume, not a
    corrupt game to set aside. ``args``: the command line of the run reading it, whose
    resume command (:func:`resuming`) is said with each copy a write cut short left beside
    a save that cannot be read (None: the copies are named only)."""

    def parse(text: str, source: str) -> SaveGame:
        try:
            return SaveGame.from_json(text, source)
        except DataError:
            refuse_another_modes(text, source, path, "a game of JongRogue", "the game",
                                 "save.json")
            raise

    return read_save(path, parse, "save",
                     None if args is None else lambda copy: resuming(args, copy))


def offer_new_game(reason: str, display: Display | None, controls: Controls) -> None:
    """Tell why the saved game cannot go on; a player (not the auto-player) is asked
    whether to start a new game, and quitting leaves (KeyboardInterrupt)."""
    if not tell(f"{reason}. Start a new game?" if controls.player
                else f"{reason}; starting a new game", display, controls, ask=True):
        raise KeyboardInterrupt from None


def saved_profile(saved: SaveGame) -> Profile | None:
    """The profile a saved game was played with, as it was then (or the DataError why not)."""
    if saved.profile_path is None:
        return None
    path = Path(saved.profile_path)
    if not path.is_file():
        raise DataError(f"this game was played with the profile {path}, which is missing")
    profile, unread = load_played_profile(path)
    if saved.profile_hash is None or not profile_unchanged(path, saved.profile_hash):
        raise DataError(f"the profile {path} changed since this game was saved (the file, "
                        "or a packaged value it leaves out)")
    for problem in unread:  # not refused: mending the profile would stop the game resuming
        print(f"companion: note: {problem}; the saved game was played without it and goes "
              "on so, but a new game needs it mended", file=sys.stderr)
    return profile


def record_saved(game: Game | None, saved: SaveGame, save_path: Path,
                 args: argparse.Namespace, display: Display | None,
                 controls: Controls) -> bool:
    """Put a finished save's ``game`` (replayed; None: it did not replay) into the history:
    a cut may have come between the game's last save and its history entry (recording twice
    records once). One that no longer replays (its profile edited or gone), or that the
    history cannot take now, is told of and kept aside (``.unrecorded-…``), never in the way
    of the next game. One whose inputs replay to a game still running (the save edited or
    damaged: the companion marks a game over only at its end) is no game for the history,
    and is kept aside too (``.unfinished-…``), to be played on. False when the save was not
    over. The commands said repeat the flags of this run (its command line ``args``) that a
    resume needs."""
    if game is not None and game.outcome() is None:
        kept = move_aside(save_path, "unfinished")
        tell(f"{save_path} says its game is over, but its inputs replay to floor {game.floor} "
             f"with the game still running; it is kept as {kept}: `{resuming(args, kept)}` "
             "plays it on", display, controls)
        return False
    if game is not None and record(game, saved, display, controls):
        return True
    # The next game's save would overwrite it: keep it for a later look.
    kept = move_aside(save_path, "unrecorded")
    # A history that could not be asked may hold it already (its game's end put it there).
    # One that did not replay (its profile changed, a fault of the companion's) is put there
    # by the same command once that is put right (review62c N7).
    tell(f"the finished game is kept as {kept}: once that is put right, "
         f"`{resuming(args, kept)}` puts it in the history and removes that file"
         if game is None else
         f"the finished game is kept as {kept}; it may be in the history already: "
         f"`{resuming(args, kept)}` puts it there, once, and removes that file", display,
         controls)
    return True


def replayed(saved: SaveGame, save_path: Path, display: Display | None,
             controls: Controls) -> Game | None:
    """A finished save's game, played again for the history; None, told why, when it does
    not replay (its profile edited or gone)."""
    try:
        return Game.replay([input_from_notation(i) for i in saved.inputs], saved.preset,
                           saved_profile(saved), revision=saved.rules)
    except (CompanionError, ValueError) as exc:
        tell(f"the finished game in {save_path} could not be put in the history: {exc}",
             display, controls)
        return None
    except COMPANION_FAULTS as exc:  # every start met it (soak62 R2); nothing else is the
        told_fault()                 # save's (an ImportError: review62c R1)
        tell(f"the finished game in {save_path} could not be put in the history: the "
             f"companion failed on it ({type(exc).__name__}: {exc}); please report it with "
             "the kept game", display, controls)
        return None


def record_kept(path: Path, args: argparse.Namespace, display: Display | None,
                controls: Controls) -> int | None:
    """``--resume --state`` of a file a game was kept in (``save.json.unrecorded-…``): a
    finished game is put in the history and the file removed (the history holds the game
    now; the file was kept only for this), and the run stops: its exit code. None when the
    kept game is not over (it plays on, in that file), or cannot be read (it is kept aside
    again and a new game offered, as for any save). A newer companion's save (``.newer-…``)
    is refused and left as it is, saying to update. ``args``: this run's command line,
    whose flags the command it says to try again with repeats. One not there is refused:
    a new game begun under a kept copy's name set itself aside as one (a mistyped stamp,
    or a copy resumed and finished before)."""
    if not path.exists():
        kept_from = path.name.rsplit(".", 1)[0]  # save.json of save.json.replaced-…
        kept = sorted(p.name for p in path.parent.glob(f"{glob.escape(kept_from)}.*")
                      if kept_aside(p))
        there = (f"the copies kept beside it: {', '.join(kept[:3])}{', …' if kept[3:] else ''}"
                 if kept else "no copy is kept beside it")
        raise DataError(f"{path}: no such file, so no game kept in it to resume (no new game is "
                        f"begun under a kept copy's name); {there}")
    try:
        saved = load_game(path, args)
    except CorruptSave as exc:
        offer_new_game(str(exc), display, controls)
        return None
    except NewerSave as exc:  # kept for that companion already: left as it is
        raise DataError(f"{exc}; {NewerSave.UPDATE}") from None
    if saved is None or not saved.finished:
        return None
    game = replayed(saved, path, display, controls)
    if game is not None and game.outcome() is None:
        return None  # marked over, but not: it plays on (previous_game says so)
    if game is None or not record(game, saved, display, controls):
        # What stopped it (a busy or full history, a profile changed since) was just told;
        # "later" alone would not mend a changed profile.
        tell(f"the finished game stays in {path}: once that is put right, "
             f"`{resuming(args, path)}` tries again", display, controls)
        return 1
    try:
        path.unlink()
        after = "that file is removed"
    except OSError as exc:
        after = f"that file could not be removed ({exc.strerror}) and holds nothing more"
    tell(f"the finished game in {path} is in the history now ({companion_line('history')}); "
         f"{after}",
         display, controls)
    return 0


def record(game: Game, saved: SaveGame, display: Display | None, controls: Controls) -> bool:
    """Put a finished game into the history (once, however often this runs); False when
    the history cannot be used now (busy, a full disk), which is told, not raised: the
    game is over and saved, and the next game must not be stopped by it."""
    outcome = game.outcome()
    if outcome is None:
        return True
    cause = None if outcome.won else cause_of_death(outcome)
    history = History()
    try:
        history.record(Run(
            game_id=saved.game_id,
            finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
            seed=saved.seed if saved.input_kind == "sim" else None,
            preset=saved.preset, won=outcome.won, floor=outcome.floor, level=game.pc.level,
            gold=game.pc.gold, cause=cause, events=len(game.events),
            input_kind=saved.input_kind, rules=saved.rules,
        ))
    except HistoryError as exc:
        tell(f"the game could not be put in the history: {exc}", display, controls)
        return False
    finally:
        for notice in history.notices:
            tell(notice, display, controls)
    return True


def log_header(saved: SaveGame) -> list[str]:
    """The first line of a game in the log: what is needed to play it again, and its
    profile's house rules (each value the book fixes, [SEED], that it sets otherwise, as
    stderr says it), so a logged result names the rules that played it without the
    profile file at hand."""
    house = [] if saved.profile_path is None else \
        list(load_played_profile(Path(saved.profile_path))[0].house_rules)
    return [json.dumps({
        "log": "jongrogue-companion", "version": 2, "game_id": saved.game_id,
        "seed": saved.seed, "preset": saved.preset, "strategy": saved.strategy,
        "input": saved.input_kind, "profile": saved.profile_path,
        "profile_hash": saved.profile_hash, "house_rules": house,
        "choices": "player" if saved.player_chose else "auto", "rules": saved.rules,
    }, ensure_ascii=False, sort_keys=True)]
