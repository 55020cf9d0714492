"""The run of ``companion play``, its files held: the screen and controls opened, then a
table mode or a game of JongRogue, new or resumed, built into a session and played."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import secrets
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from companion.app.command_name import companion_line
from companion.app.commands.play.press_sources import (
    ButtonsOff,
    PinsHeld,
    a_button_unread,
    open_press_sources,
    open_waiting_signal,
    refused,
)
from companion.app.commands.play.readers import (
    OtherKindsStickers,
    kind_found,
    open_reader,
    told_at_start,
)
from companion.app.commands.play.saves import (
    log_header,
    lost_log_words,
    offer_new_game,
    previous_game,
    put_back,
    record,
    record_kept,
    resume_as_played,
    resuming,
    saved_profile,
)
from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.commands.play.table_modes import (
    TABLE_MODES,
    QuitAtNoCamera,
    run_coc,
    run_dice_tray,
    run_genso,
    table_files,
    titled,
    tray_held,
    tray_left,
    tray_stale,
)
from companion.app.commands.play.telling import (
    auto_player_line,
    back_home,
    back_home_note,
    farewell,
    held_until_ok,
    print_events,
    resume_command,
    resume_elsewhere,
    show_message,
    show_settings_notices,
    show_stop,
    tell,
)
from companion.app.commands.rules import profile_file, told_profile
from companion.app.config import Config, Source
from companion.app.modes.dice_tray import table_path
from companion.app.modes.fight_replaced import table_holder
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.notes import note, tell_error
from companion.app.session.controls import Controls, MenuChoices, PressSource
from companion.app.session.host import Session, StoppedBehind, replay
from companion.app.session.log import HOLDER as LOG_HOLDER
from companion.app.session.log import GameLog
from companion.app.session.mode import ChoiceFeed, TileFeed
from companion.app.session.reads import TableTiles
from companion.app.session.save import (
    SAVE_LIMIT,
    AnotherModesSave,
    CorruptSave,
    SaveGame,
    default_save_path,
    profile_hash,
)
from companion.app.session.system_menu import MODE_NAMES, ModeSwitch, NewGameAsked, SystemMenu
from companion.errors import CompanionError, DataError, DeviceError, error_text
from companion.file_locks import service_name
from companion.files import keep_unreadable, kept_aside, read_regular
from companion.hw.buttons import WaitingSignal
from companion.hw.display import Display, open_display
from companion.hw.display.fonts import FontError
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import Profile, load_profile


def held_files(args: argparse.Namespace, config: Config,
               save_path: Path | None) -> list[tuple[Path, str]]:
    """The files this run writes while it lasts, and who it is, for :func:`holding`: the
    game's save; a table's save and its fight file (which the fight commands then leave
    alone); the dice tray's table part-thrown (two trays on one data folder, the boot
    service's and one over SSH, would each write it, the last write winning), in the tray
    and in any mode while the tray left for it holds its table (:func:`tray_left`:
    reviewd67 DEFECT 2); the game's ``--log``."""
    mode = config.text("play.mode")
    tray = [(table_path(), "companion play")] if mode == "dice" or tray_left() else []
    if mode in ("genso", "coc"):
        return [(path, table_holder(mode)) for path in table_files(args, mode)] + tray
    # The game's --log too (reviewh68 RISK 1, NIT 1): held here, from before anything is
    # read, the boot service waits for it as for the save, and a held log is refused before
    # the unfinished save is set aside. The GameLog's own hold of it is this one, shared
    # in the process (one flock on its lock file), and let go with the game.
    logged: Path | None = getattr(args, "log", None)  # (a command line made by hand may lack it)
    log = [(logged, LOG_HOLDER)] if mode == "game" and logged is not None else []
    if mode == "dice" or save_path is None:
        return log + tray
    return [(save_path, "companion play"), *log, *tray]


def configured_display(config: Config) -> tuple[Display, DataError | None]:
    """The display config.toml asks for. A ``display.font`` that is missing or no font is
    refused naming the setting (a screen without it would drop the Japanese unsaid): the
    screen is then opened with the font it finds itself, to say so, and the refusal is
    returned beside it for the run to raise."""
    kind, size = config.text("display.kind"), config.text("display.size")
    fullscreen = config.flag("display.fullscreen")
    # The header's System hint says how long the item button is held (only with buttons).
    held = config.number("buttons.system_press_seconds") \
        if config.text("choices.kind") == "gpio" else None
    scale, rotate = config.number("display.text_scale"), config.text("display.rotate")
    if kind != "screen":
        return open_display(kind, size, fullscreen, "", held), None
    try:
        font = config.existing_file("display.font")
        return open_display(kind, size, fullscreen, str(font or ""), held, scale, rotate), None
    except FontError as exc:
        problem = DataError(f"{config.where('display.font')}: {exc}")
    except DataError as exc:
        problem = exc
    return open_display(kind, size, fullscreen, "", held, scale, rotate), problem


def no_hardware_hint(config: Config, args: argparse.Namespace,
                     save_path: Path | None) -> str | None:
    """After a device error, the line that tells a player at a laptop (no camera, buttons
    or screen) how to play a game anyway; None for the dice tables, and for a run that
    played so already. A resume of an unfinished game in ``save_path`` played on the
    simulated wall is hinted at as a resume (a new game would set it aside), ``--input sim``
    said for the new games that run may start (:func:`resume_as_played`); one played with
    the camera or the RFID tray plays on only at the table, with either (the resume
    refuses only a switch to or from the simulated wall), which is said, and the new game
    the keys play meanwhile is saved where this run saves (``--state``), setting that one
    aside; for a kept copy (``save.json.replaced-…``), in save.json, or, when save.json
    holds an unfinished game on the simulated wall, that game's resume is said instead
    (reviewj73 NIT 4). With no such game to resume, ``--resume`` starts a new one, and the
    hint is the simulated wall's."""
    if config.text("play.mode") != "game":
        return None
    saved = unfinished_save(save_path) if args.resume else None
    keys = all(config.text(key) == kind for key, kind in
               (("choices.kind", "keyboard"), ("display.kind", "terminal")))
    if saved is not None and saved.input_kind != "sim":
        device = "camera" if saved.input_kind == "camera" else "RFID tray"
        # A file a game was kept aside in (save.json.replaced-…) is no place for a new one:
        # it would set the game aside once more, as ….replaced-….replaced-… (journey73 NIT
        # 4); the new game goes where a run saves by default, this file left as it is.
        aside = args.state is not None and kept_aside(args.state)
        state = [] if args.state is None or aside else ["--state", str(args.state)]
        table = (f"the saved game in {save_path} was played with the {device}, and plays on "
                 "only at the table (camera or tray); ")
        # save.json most often holds the game on the keys that set this one aside (a new sim
        # game begun over it): a new game there would set that one aside in turn (reviewj73
        # NIT 4), so its resume is offered.
        keys_game = unfinished_save(default_save_path()) if aside else None
        if keys_game is not None and keys_game.input_kind == "sim":
            resume = resume_as_played(argparse.Namespace(**{
                **vars(args), "state": None, "choices": "keyboard", "display": "terminal"}),
                keys_game)
            return (f"{table}{resume} plays on the game with the keys in "
                    f"{default_save_path()}, that file left as it is")
        command = companion_line("play", "--input", "sim", "--choices", "keyboard",
                                 "--display", "terminal", *state)
        return (f"{table}{command} plays a new game with the "
                + ("keys meanwhile, that file left as it is" if aside
                   else "keys meanwhile, that one kept aside"))
    if saved is not None:
        command = resume_as_played(argparse.Namespace(
            **{**vars(args), "choices": "keyboard", "display": "terminal"}), saved)
        return None if keys else (f"no camera, buttons or screen here (a laptop)? {command} "
                                  "plays the saved game on with the keys")
    if keys and config.text("input.kind") == "sim":
        return None
    keys_command = companion_line("play", "--input", "sim", "--choices", "keyboard",
                                  "--display", "terminal")
    return (f"no camera, buttons or screen here (a laptop)? {keys_command} plays the simulated "
            "wall with the keys")


def laptop_hinted(exc: CompanionError | OSError) -> bool:
    """Whether a stop for ``exc`` may say how to play without the device: a device's error,
    not a tray to set up, nor a pin another program holds (a Pi's: reviewscreen74 NIT 3)."""
    return isinstance(exc, DeviceError) and not isinstance(exc, (TrayNotSetUp, PinsHeld))


def back_home_hint(config: Config, args: argparse.Namespace, save_path: Path | None,
                   exc: CompanionError | OSError, first: argparse.Namespace,
                   home: str) -> str | None:
    """How to play without the device whose error ``exc`` stopped the mode of ``args``
    (``config``, saving in ``save_path``), switched to from ``home``, the mode the command
    line ``first`` plays (None: no hint, as :func:`no_hardware_hint`). A laptop's
    JongRogue: ``first`` carried on with ``--input sim``, whose System menu plays the
    simulated wall; the hint named a game's run, which ended this one to follow (reviewm74
    RISK 1). Not for a saved game played with the camera or tray: it plays on only at the
    table, and the hint says the new game to play meanwhile."""
    if not laptop_hinted(exc):
        return None
    hint = no_hardware_hint(config, args, save_path)
    if hint is None or home == config.text("play.mode"):
        return hint
    saved = unfinished_save(save_path) if args.resume else None
    if saved is not None and saved.input_kind != "sim":
        return hint
    command = resume_command(argparse.Namespace(**{**vars(first), "input": "sim"}), home)
    device = "RFID tray" if config.text("input.kind") == "rfid" else "camera"
    return (f"no {device} here (a laptop)? {command} carries this {MODE_NAMES[home]} on, "
            f"its System menu's {MODE_NAMES['game']} on the simulated wall")


class TrayNotSetUp(DeviceError):
    """The RFID tray's reader refused to open because no sticker is enrolled (or none its
    kind reads: :class:`OtherKindsStickers`): the tray is
    there to be set up (``companion calibrate rfid``, as the error says), not missing, and
    no hint of playing without it follows (install58 N6: "no camera, buttons or screen here
    (a laptop)?" did)."""


def stickers_enrolled() -> bool:
    """Whether the RFID tag map holds a sticker (one that cannot be read counts: its error
    is not the one that says none is enrolled)."""
    from companion.app.paths import config_dir
    from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap

    try:
        return len(TagMap.load(config_dir() / TAGMAP_FILENAME)) > 0
    except (CompanionError, OSError):
        return True


def unfinished_save(save_path: Path | None) -> SaveGame | None:
    """The unfinished game saved at ``save_path`` as its file says (not replayed: only how
    it was played is wanted); None when there is none, or none that can be read. Read as a
    regular file only (:func:`read_regular`): a pipe or a device at that path waited for a
    writer, or was read for ever, and the hint after a device error never came."""
    if save_path is None:
        return None
    try:
        saved = SaveGame.from_json(
            read_regular(save_path, SAVE_LIMIT, "save").decode("utf-8"))
    except (OSError, UnicodeDecodeError, DataError):
        return None
    return None if saved.finished else saved


class StoppedAfterError(KeyboardInterrupt):
    """A stop (Ctrl-C, the service stopped) while the screen holds the error that stopped
    the run: the stop's last word does not name the command that just failed as the one
    that carries on (newuser61 N6: ``play --resume`` with no GPIO, its Ctrl-C line said
    ``companion play --resume carries on``). ``hinted``: a line was said of how to play
    without the device."""

    def __init__(self, hinted: bool) -> None:
        super().__init__()
        self.hinted = hinted


@dataclass(frozen=True)
class Among:
    """Where a run of ``companion play`` is among its modes, which the System menu switches:
    ``switched``, this mode was switched to (the settings' notices and the pins' warnings
    were told as the run began); ``unplayable``, why a mode cannot be switched to now
    ("" when it can); ``stopped``, at a terminal, why the mode switched to stopped and that
    the run is back in this one, held on its display until OK before it plays on ("": none;
    said on stderr only, the mode's first frame cleared it at once: modes74 DEFECT 1, 2);
    ``home``, the mode the run goes back to should this one stop ("": this is the one the
    run began in), and ``first``, the command line it began with, for what that stop says
    (:func:`back_home_hint`)."""

    switched: bool
    unplayable: Callable[[str], str]
    stopped: str = ""
    home: str = ""
    first: argparse.Namespace | None = None


def play(args: argparse.Namespace, config: Config, save_path: Path | None,
         among: Among) -> int:
    """The run, its files held: the screen and controls opened, the mode played, a game of
    JongRogue after another while the player asks for a new one. An error that stops the
    run is shown on the screen too, until a press or for a minute, with the System menu once
    the controls are open: under the boot service the screen is all the player sees."""
    display: Display | None = None
    sources: list[PressSource] = []
    menu: SystemMenu | None = None  # once the controls are open
    player = config.text("choices.kind") != "auto"
    try:
        display, font_refused = (None, None) if config.text("display.kind") == "none" \
            else configured_display(config)
        if display is not None and config.text("play.mode") in TABLE_MODES:
            display = titled(display, config.text("play.mode"))
        sources, pin_warnings, refusal = open_press_sources(config, display)
        controls = Controls(sources, player)
        if refusal is not None:  # raised once the sources are here: they end its stop
            raise refusal
        if font_refused is not None:
            raise refused([str(font_refused)])
        if not among.switched:
            for warning in pin_warnings:
                note(f"warning: {warning}")
            show_settings_notices(
                dataclasses.replace(config, notices=config.notices + tuple(pin_warnings)),
                display, controls, a_button_unread(config) if pin_warnings else None)
        if among.stopped:
            show_message(among.stopped, display, controls)
        menu = system_menu(config, display, controls, among.unplayable)
        if menu is not None:
            menu.new_game_refused = lambda: new_game_refusal(args, config)
        if config.text("play.mode") in TABLE_MODES:
            assert display is not None  # effective_config refused a table mode with no display
            if config.text("play.mode") == "dice":
                run_dice_tray(config, display, controls, args.seed, menu)
            elif config.text("play.mode") == "coc":
                run_coc(args, config, display, controls, menu)
            else:
                run_genso(args, config, display, controls, menu)
            return 0
        if args.resume and save_path is not None and kept_aside(save_path):
            done = record_kept(save_path, args, display, controls)
            if done is not None:
                return done
        # The next game is a new one, its seed drawn afresh.
        while play_game(args, config, save_path, display, controls, menu, among.switched):
            args = argparse.Namespace(**{**vars(args), "resume": False, "seed": None})
    except ModeSwitch:
        raise  # the run starts again in the mode chosen (options.run), the files let go
    except (CompanionError, OSError) as exc:
        if isinstance(exc, AnotherModesSave):  # told (stderr, the screen) as this run plays
            exc.say_with(lambda mode, state, fight: resume_elsewhere(args, mode, state, fight))
        screen = display is not None and config.text("display.kind") == "screen"
        # A mode switched to, at a terminal: its device error too goes to options.run, which
        # says it and holds it on the display of the mode the run goes back to (modes74
        # DEFECT 2: said on stderr here, it was cleared by that mode's first frame at once).
        if not screen and (among.home or not isinstance(exc, DeviceError)):
            raise
        # Said first: the screen holds the error up to a minute, and a player at a
        # desktop's terminal would wait that long in silence. A mode switched to says it
        # as the terminal does (its name, and the mode the run goes back to: reviewm74 NIT
        # 3, 4), with how this run plays on without the device (RISK 1).
        mode = config.text("play.mode")
        if among.home:
            note(back_home_note(mode, among.home, error_text(exc)))
            code = 2 if isinstance(exc, ValueError) else 1
        else:
            code = tell_error(exc)
        # A tray to set up, or a pin another program holds (a Pi's: reviewscreen74 NIT 3),
        # is no laptop's: the hint to play with the keys does not fit it.
        hint = back_home_hint(config, args, save_path, exc, among.first, among.home) \
            if among.home and among.first is not None else \
            no_hardware_hint(config, args, save_path) if laptop_hinted(exc) else None
        if hint:
            note(hint)
        # A Quit chosen at the dice camera's question, its text just read, is not held
        # again: the run goes back home (reviewm74 NIT 2).
        if screen and not (among.home and isinstance(exc, QuitAtNoCamera)):
            assert display is not None
            back = back_home(mode, among.home, error_text(exc), hint) if among.home else ""
            try:
                with contextlib.suppress(CompanionError, OSError):  # the error said stays first
                    # With the System menu: under the boot service, another mode or
                    # unplugging is a way on that the stop, started again, is not.
                    show_stop(error_text(exc), display, menu.controls if menu
                              else Controls(sources or [display], player), menu,
                              buttons_off=isinstance(exc, ButtonsOff),
                              ends=exc.ends if isinstance(exc, ButtonsOff) else None,
                              back=back)
            except KeyboardInterrupt:
                raise StoppedAfterError(hint is not None) from None
        return code
    except Exception as exc:
        # A bug. Under the boot service the screen is all the player sees: it says the
        # companion stopped (a black screen restarting every few seconds said nothing), after
        # the traceback went to stderr (the journal under the service), for whoever mends it;
        # the screen names where (bug_details).
        if display is None or config.text("display.kind") != "screen":
            raise
        traceback.print_exc()
        try:
            # With the System menu as well: a bug met at every start (a replay's fault not
            # known for the save's) comes back at each, held 30 s and never tripping the
            # start limit; Shut down, another mode or the console are the buttons' way on
            # (review62e R1).
            show_stop(f"internal error 内部エラー ({type(exc).__name__}: {exc}); the save on "
                      f"disk is kept. {bug_details()}", display,
                      menu.controls if menu else Controls(sources or [display], player), menu)
        except ModeSwitch:
            raise  # the run starts again in the mode chosen (options.run)
        except Exception:  # the bug said stays first
            pass
        return 1
    finally:
        for source in sources or ([] if display is None else [display]):
            close = getattr(source, "close", None)
            if close is not None:
                close()
    return 0


def bug_details() -> str:
    """Where a bug's traceback went, for the screen that says the companion stopped: the
    journal under the boot service (its unit's own name), else the terminal the run was
    started from; the journal holds nothing of a `companion play` typed at a terminal
    (maker73 DEFECT 1: it was named for every run)."""
    service = service_name()
    if service:
        return f"Details 詳細: journalctl -u {service}"
    return "Details 詳細: the traceback in the terminal it was started from 起動した端末に"


def new_game_refusal(args: argparse.Namespace, config: Config) -> str:
    """Why the System menu's New game cannot begin a game now ("": it can): the profile the
    new game would read (:func:`build_session`) refused, a blank item name (JR-ITEM-1) or
    keys at odds. A game begun with such a profile before 42818b26 resumes (its save's own),
    and New game kept it aside, said so, then stopped on the profile and put it back, the
    run ended with exit 2 (reviewh74b N2): said in the menu now, the game left as it is."""
    try:
        load_profile(profile_file(args.profile, config))
    except (CompanionError, OSError) as exc:
        return f"No new game 新しいゲーム不可: {error_text(exc)}; this game plays on"
    return ""


def system_menu(config: Config, display: Display | None, controls: Controls,
                unplayable: Callable[[str], str]) -> SystemMenu | None:
    """The System menu of a run with a player at a display; None for the auto-player or
    with nothing shown (headless). ``unplayable``: why a mode cannot be switched to now.
    Its heading and Unplug say whether the run holds the dice tray's table part-thrown, in
    memory only (:func:`tray_held`), or an older table in its file (:func:`tray_stale`); the
    tray itself says its own, ``run_dice_tray``."""
    if display is None or not controls.player:
        return None
    menu = SystemMenu(controls, config.text("play.mode"), config.number("input.poll_seconds"),
                      config.text("play.shutdown_command"), unplayable)
    menu.table_unsaved, menu.table_stale = tray_held, tray_stale
    return menu


def play_game(args: argparse.Namespace, config: Config, save_path: Path | None,
              display: Display | None, controls: Controls, menu: SystemMenu | None,
              switched: bool = False) -> bool:
    """One game of JongRogue, from the save it finds to its farewell; True when the player
    asks for another (after a game over, or leaving this one from the System menu).
    ``switched``: the run came back to it from another mode (:class:`Among`)."""
    if args.log is not None:
        GameLog.refuse_other(args.log)
    previous = previous_game(save_path, args, display, controls)
    if previous.replaced is None or save_path is None:
        return played_game(args, config, previous.saved, save_path, display, controls, menu,
                           switched)
    try:
        return played_game(args, config, None, save_path, display, controls, menu, switched)
    except BaseException:
        # Stopped before its first move (Ctrl-C, no camera): the new game holds nothing a
        # player did, and the one it set aside is the game to resume.
        if no_move_saved(save_path):
            put_back(previous.replaced, save_path, args)
        raise


def no_move_saved(save_path: Path) -> bool:
    """Whether the new game saved at ``save_path`` holds no move (or was never saved); one
    that cannot be read is left to the next start, which keeps it aside."""
    try:
        text = save_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    except (OSError, UnicodeDecodeError):
        return False
    try:
        return not SaveGame.from_json(text).inputs
    except DataError:
        return False


def played_game(args: argparse.Namespace, config: Config, saved: SaveGame | None,
                save_path: Path | None, display: Display | None, controls: Controls,
                menu: SystemMenu | None, switched: bool = False) -> bool:
    """:func:`play_game`'s game, ``saved`` (None: a new one), built and played."""
    try:
        session, game = build_session(args, config, saved, save_path, display, controls, menu,
                                      switched)
    except CorruptSave as exc:  # raised before anything is opened or written
        if saved is None or save_path is None:
            raise
        kept = keep_unreadable(save_path)
        back = (f"; it plays on once that profile is back, with `{resuming(args, kept.path)}`"
                if isinstance(exc, ProfileNotAsPlayed) else "")
        offer_new_game(f"the save {save_path} cannot be resumed ({exc}); it was kept as "
                       f"{kept.path}{back}{kept.copies(lambda copy: resuming(args, copy))}",
                       display, controls)
        saved = None
        session, game = build_session(args, config, saved, save_path, display, controls,
                                      menu)
    try:
        if saved is not None and (said := older_rules(saved.rules)) is not None:
            # Once: on stderr, and to a player at a display on a screen held until OK, which
            # cannot be missed; the status line, cleared at the first answer, a press made
            # at once (a double tap) never showed. Where no OK screen holds it (the
            # auto-player's display), on the status line until the first answer, as a table
            # resumed under a newer engine says it (review65h NIT 3: a player read it twice).
            tell(said, display, controls)
            if not held_until_ok(display, controls):
                assert isinstance(session.mode, JongRogueMode)
                # Beside a note the start gave (a stale enrolment's), not in its place
                # (reviewcam73 NIT 3).
                note = session.mode.note
                session.mode.note = f"{said}; {note}" if note else said
        if args.headless:
            if saved is None:
                assert session.save is not None
                print(auto_player_line(session.save))
                print_events(game.events, game.profile)
            else:
                print(f"--- resumed from {save_path}: {len(saved.inputs)} inputs replayed ---")
        session.show_next()
        try:
            session.run()
        except NewGameAsked:
            return True  # the next start keeps this unfinished game aside (previous_game)
        assert session.save is not None
        recorded = False
        try:
            # A headless game saved nowhere (no --state, no --resume) is a look at the
            # companion, not the player's game: it stays out of the history as out of the
            # save. A save the disk refused is behind the game: what it holds is said, and
            # the resume that brings the game to the history (hist65 RISK 2); or, the
            # history holding the game, that the next game replaces that save (review65h
            # RISK 1: previous_game finds the game over there).
            if save_path is not None:
                recorded = record(game, session.save, display, controls)
                if not recorded:
                    tell(behind_save(session.save, session.saved_moves, args,
                                     held_until_ok(display, controls),
                                     on_disk=save_on_disk(save_path, session.save),
                                     log_whole=None if session.log is None
                                     or session.log_behind else session.log.path)
                         if session.save_trouble else
                         f"the game is kept in {save_path}, and put in the history when the "
                         "next game starts", display, controls)
                elif session.save_trouble:
                    # None of its saves on disk, none is said to hold it (reviews71 NIT 2).
                    held = (f"its save {save_path} holds it only up to move "
                            f"{session.saved_moves} (the disk refused the rest), and the "
                            "next game replaces it"
                            if save_on_disk(save_path, session.save) else
                            f"no save of it was written to {save_path} (the disk refused "
                            "every save)")
                    tell(f"the game is in the history ({companion_line('history')}); {held}",
                         display, controls)
            return farewell(session, game, display, controls, config, args.headless,
                            again=recorded or not session.save_trouble)
        except KeyboardInterrupt:
            # A stop at the game's end, its save behind it, says how far the save holds, as
            # a stop during the game does (env58 R2): "the game is saved" was read from the
            # unfinished save on disk, and the moves after it were lost. One the history
            # holds is over, as the stop's note finds (options.stopped_note).
            if not session.save_trouble or recorded:
                raise
            raise StoppedBehind(session.saved_moves, len(session.mode.journal)) from None
    finally:
        session.close()


def save_on_disk(save_path: Path, save: SaveGame) -> bool:
    """Whether ``save_path`` holds a save of this game (its ``game_id``): a first game whose
    every write the disk refused left none, or another game's, there."""
    try:
        return SaveGame.from_json(save_path.read_text(encoding="utf-8")).game_id == save.game_id
    except (OSError, UnicodeDecodeError, CompanionError):
        return False


def replay_command(saved: SaveGame, args: argparse.Namespace) -> str:
    """The command that plays ``saved``, an auto-player's game on the simulated wall, again
    from its first move to the same end: its seed, preset, strategy and profile replay it
    (JongRogue's Randomizer is seeded, the auto-player's choices follow from what it is
    shown). Not headless, nor with no save: such a game stays out of the history. Its mode
    is said where config.toml's play.mode may be another (a headless run fixed it). Not
    ``--log``: the game reached its end, so the log holds it or was refused by the disk
    (told then); with --log the replay appended the same game a second time (reviews71
    NIT 1)."""
    words = ["play"]
    if args.headless or args.mode is not None:
        words += ["--mode", "game"]
    words += ["--input", "sim", "--choices", "auto", "--display", "none",
              "--seed", str(saved.seed), "--preset", saved.preset]
    if saved.strategy is not None:
        words += ["--strategy", saved.strategy]
    if saved.profile_path is not None:
        words += ["--profile", saved.profile_path]
    if (state := getattr(args, "state", None)) is not None:
        words += ["--state", str(state)]
    return companion_line(*words)


def behind_save(saved: SaveGame, moves: int, args: argparse.Namespace,
                new_game_offered: bool = False, *, on_disk: bool = True,
                log_whole: Path | None = None) -> str:
    """What a game that ended with its save behind it (the disk refused the last writes)
    and out of the history (the same disk) says: how far the save holds it, and the resume
    (as this run, its command line ``args``, played) that brings it to the history once
    there is room. The auto-player's game on the simulated wall is played again to the same
    end; a player's own, or one of the table's tiles, plays on from that move, the moves
    after it lost (hist65 RISK 2: only the ``--seed`` of an unsaved copy was said, and the
    next game set the save aside as an unfinished game the player had seen end).
    ``new_game_offered``: Game over offers New game on a screen, which sets the save aside
    (``save.json.replaced-…``), and the command said here then plays the new game on: that
    is said, the command for the kept copy said then (review65h NIT 1). ``on_disk``: False
    when no save of this game reached the disk (a first game whose every write was refused):
    ``--resume`` finds none and starts another game, so the auto-player's game is said by the
    ``--seed`` command that plays it again, and a player's own as not kept (setup71
    DEFECT 2). ``log_whole``: the ``--log`` file when it holds the whole game, said so the
    command's leaving it out is not read as a slip (reviews71 NIT 1)."""
    if not on_disk:
        nothing = "nothing of this game was kept (the disk refused every save)"
        if saved.input_kind == "sim" and not saved.player_chose:
            return (f"{nothing}: free space or fix the folder, then "
                    f"`{replay_command(saved, args)}` plays the same game again to its end "
                    "and puts it in the history"
                    + (f" (the log {log_whole} holds it already)" if log_whole else ""))
        return (f"{nothing}, and it cannot be played again: free space or fix the folder "
                "before the next game")
    held = f"the save holds this game only up to move {moves} (the disk refused the rest)"
    command = resume_command(args)
    if saved.input_kind == "sim" and not saved.player_chose:
        return (f"{held}: free space or fix the folder, then `{command}` plays it again to its "
                "end and puts it in the history")
    return (f"{held}, and the moves after it were not kept: free space or fix the folder, "
            f"then `{command}` plays it on from move {moves}, into the history at its end"
            + (" (a New game here keeps it aside first, and says the command for it then)"
               if new_game_offered else ""))


def build_session(args: argparse.Namespace, config: Config, saved: SaveGame | None,
                  save_path: Path | None, display: Display | None,
                  controls: Controls, menu: SystemMenu | None,
                  switched: bool = False) -> tuple[Session, Game]:
    """A new game, or the saved one replayed to where it stopped. The flags the save
    overrules are said to be ignored once it has replayed: one that does not is kept aside,
    and the new game begun in its place plays them (a77jrrules NIT 1: they were said
    ignored, then played). ``switched``: the run came back to it from another mode, and
    they were said as the command began: not again at each return, the player having typed
    nothing (screen66 NIT 2)."""
    # A run that resumed a game on the simulated wall plays its next games there too
    # (``args.input``, set below) when the input kind is only the default: the default
    # camera stopped the New game of a laptop's run (journey71 DEFECT 1). A kind
    # config.toml or the environment names is kept for new games (reviewj71 DEFECT 1).
    input_kind = getattr(args, "input", None) or config.text("input.kind")
    if saved is None:
        played_file = profile_file(args.profile, config)
        profile: Profile | None = told_profile(load_profile(played_file))
        saved = SaveGame(
            seed=args.seed if args.seed is not None else secrets.randbelow(2**31),
            preset=config.text("game.preset"),
            strategy=config.text("choices.strategy"),
            input_kind=input_kind,
            profile_path=str(played_file.resolve()) if played_file else None,
            profile_hash=profile_hash(played_file) if played_file else None,
            player_chose=config.text("choices.kind") != "auto",
        )
        resuming = False
    else:
        resuming = True
        # A --preset, --profile or --strategy that gives the saved game's own is not
        # ignored: the resume commands say them as the game was begun, for the run's new
        # games (journey73 NIT 5). (--seed is the saved game's only: always said.)
        own = {"--seed": None, "--preset": saved.preset, "--strategy": saved.strategy,
               "--profile": saved.profile_path}
        ignored = [flag for flag, value in (("--seed", args.seed), ("--preset", args.preset),
                                             ("--strategy", args.strategy),
                                             ("--profile", args.profile and
                                              str(args.profile.resolve())))
                   if value is not None and value != own[flag]]
        if config.settings["input.kind"].source is not Source.COMMAND_LINE:
            input_kind = saved.input_kind  # carry on as it was played
            if input_kind == "sim" and \
                    config.settings["input.kind"].source is Source.DEFAULT:
                # and the run's next games with it, when no table was asked for (args is
                # the run's command line, which the next games' Namespace copies). A kind
                # config.toml or the environment names stays the new games' kind: the Pi's
                # service (`play --resume`, config.toml's camera or tray) would otherwise
                # start every later game on the simulated wall and save it so, never back
                # to its table from the buttons (reviewj71 DEFECT 1).
                args.input = "sim"
        elif saved.input_kind != input_kind and "sim" in (saved.input_kind, input_kind):
            # The simulated wall's order is part of a sim game; a table game has none.
            if args.headless and saved.input_kind != "sim":
                # --headless is --input sim: "resume it with --input rfid" beside it was
                # refused as well (a76saves NIT 3).
                raise DataError(f"this game was played with --input {saved.input_kind}, and "
                                "--headless plays the simulated wall: resume it without "
                                "--headless; the save is as it was")
            raise DataError(f"this game was played with --input {saved.input_kind}; "
                            f"resume it with --input {saved.input_kind}")
        if saved.player_chose and config.text("choices.kind") == "auto" and (
                args.headless
                or config.settings["choices.kind"].source is not Source.COMMAND_LINE):
            # The auto-player would play the player's game to its end, and a finished game
            # cannot be taken back: it takes one over only when asked by name.
            raise DataError(f"the game saved in {save_path} was played with your own "
                            "choices: resume it with --choices keyboard (--display terminal "
                            "on a terminal) or the buttons; --choices auto, without "
                            "--headless, lets the auto-player finish it; the save is as it was")
        saved.player_chose |= config.text("choices.kind") != "auto"
    if resuming:
        mode = resumed_mode(saved, input_kind, config)
        if ignored and not switched:
            print(f"companion: {', '.join(ignored)} ignored: the saved game keeps its own",
                  file=sys.stderr)
    else:
        mode = jongrogue_mode(saved, profile, input_kind)
    game, sim = mode.game, mode.sim
    poll = config.number("input.poll_seconds")
    tiles: TileFeed
    if sim is not None:
        tiles = SimTiles(game, sim)
    else:
        rfid_kind = config.text("input.rfid_kind")
        try:
            reader = open_reader(input_kind, config.camera_source(),
                                 config.text("input.rfid_port"), game.ledger, rfid_kind)
        except DeviceError as exc:
            if input_kind == "rfid" and (isinstance(exc, OtherKindsStickers)
                                         or not stickers_enrolled()):
                raise TrayNotSetUp(str(exc)) from None
            raise
        if input_kind == "rfid":
            # The kind the port shows itself to be, which the stop's resume line takes in
            # place of the kind that failed (rfid69 D1, D2); asked as the run stops.
            args.rfid_kind_found = partial(kind_found, reader)
        tiles = TableTiles(reader, controls, config.number("input.accept_seconds"), poll,
                           one_slot=input_kind == "rfid" and rfid_kind == "rdm6300")
        if told := told_at_start(reader):  # on the status line until the first answer
            mode.note = f"{told}; {mode.note}" if mode.note else told
    choices: ChoiceFeed
    if config.text("choices.kind") == "auto":
        strategy = find_strategy(saved.strategy or config.text("choices.strategy"))
        choices = AutoChoices(game, strategy)
    else:
        choices = MenuChoices(controls, poll)
    log = None
    if args.log is not None:
        same = resuming and saved.log_path is not None and _one_log(saved.log_path, args.log)
        log = GameLog(args.log, saved.log_start) if same else GameLog.begin(args.log)
        # isfile, not exists: a folder there now holds no lines of the game, and an old log
        # that cannot be looked at (no permission, a stale network path) is no reason to
        # refuse the resume, which exists() did with its OSError (reviewb74 D2, N2).
        if resuming and not same and saved.log_path is not None \
                and os.path.isfile(saved.log_path):
            # Its lines up to the stop stay in the log it began in, a game `replay` finds
            # stopped there, and whose advice then started a new one (hist74 NIT 2).
            note(f"this game's log {saved.log_path} is not carried on (--log {args.log}): "
                 f"the lines it holds of the game, up to where it stopped, stay there; "
                 f"{args.log} gets the game whole")
        saved.log_path, saved.log_start = str(args.log.resolve()), log.start
    elif resuming and saved.log_path is not None \
            and (lost := lost_log_words(saved)) is not None:
        # Its log gone (a USB stick taken out) or another file under its name: the hint's
        # `--log` made the stick's folder anew on the SD card, or named another's log
        # (reviewjourney75 RISK 6). No command: put back, the next resume says it. What
        # was found is said: "another file under that name?" was said of a log that
        # could not be read (reviewjourney75b NIT 3).
        note(f"this game's log {saved.log_path} {lost}: the game goes on "
             "unlogged (with the log back, a resume without --log says the command that "
             "writes it whole)")
    elif resuming and saved.log_path is not None:
        # The save still names its log, which a resume given it writes whole (hist65 NIT 4:
        # the log was left short unsaid, and replay then found no save of it). As the stop
        # line says it (resume_as_played): --input sim and the game's --preset kept, for the
        # run's new games (journey75 NIT 4: dropped, they took config.toml's).
        # --state absolute beside the absolute log (reviewjourney75 RISK 2).
        logged = argparse.Namespace(**{**vars(args), "log": saved.log_path,
                                       "state": args.state and args.state.absolute()})
        note(f"this game's log {saved.log_path} is not carried on (no --log); "
             f"`{resume_as_played(logged, saved)}` carries the game on with its log, written "
             "whole")
    signal: WaitingSignal | None = None
    if config.text("choices.kind") == "gpio" and sim is None:
        signal = open_waiting_signal(config)
    session = Session(
        mode, choices=choices, tiles=tiles, display=display,
        save=saved, save_path=save_path, log=log, log_header=log_header(saved),
        on_events=(partial(print_events, profile=game.profile,
                           options=game.options) if args.headless
                   else (lambda events: None)),
        pace=config.number("game.pace_seconds"), signal=signal, system_menu=menu,
        unattended=isinstance(choices, AutoChoices),
    )
    saved.events = len(game.events)  # a new game has already entered floor 1
    session.keep_saved(starting=True)  # before the log, so the save knows where the log began
    session.start_log()
    return session, game


def older_rules(played: int) -> str | None:
    """What a game resumed under newer rules says (hist65 RISK 1): that it plays on by the
    rules revision ``played`` it began by (the save is replayed, and played on, by it: a
    rule a later revision added is not offered in it), and that a new game plays by today's;
    None for a game of today's revision. The table modes say the same of a fight
    (:func:`~companion.app.modes.fight_file.older_engine_said`)."""
    if played >= RULES_REVISION:
        return None
    return (f"this game plays on by rules revision {played}, as it began; a new game plays by "
            f"{RULES_REVISION} この冒険は改訂{played}のまま、新しいゲームは改訂{RULES_REVISION}")


def jongrogue_mode(saved: SaveGame, profile: Profile | None, input_kind: str) -> JongRogueMode:
    """A fresh game of ``saved``'s rules, its tiles from the seeded wall when simulated."""
    game = Game(saved.preset, profile, revision=saved.rules)
    sim = HeadlessPlayer(saved.seed, saved.strategy or "cautious") if input_kind == "sim" \
        else None
    return JongRogueMode(game, sim, partial(describe, profile=game.profile,
                                            options=game.options))


class ProfileNotAsPlayed(CorruptSave):
    """The save's profile is gone, or not as the game was played (edited, or a packaged
    value it leaves out changed): the save is whole, and plays on once that profile is
    back (journey71 item 4: the save kept aside read as lost)."""


def resumed_mode(saved: SaveGame, input_kind: str, config: Config) -> JongRogueMode:
    """The saved game replayed to where it stopped, before any hardware is opened; a save
    whose preset, profile or strategy cannot be had, or whose inputs do not replay, raises
    :class:`CorruptSave` (the caller keeps it aside and offers a new game, so a boot service
    is never stopped by it)."""
    try:
        if config.text("choices.kind") == "auto":
            find_strategy(saved.strategy or config.text("choices.strategy"))
        try:
            profile = saved_profile(saved)
        except (CompanionError, ValueError) as exc:
            raise ProfileNotAsPlayed(str(exc)) from None
        mode = jongrogue_mode(saved, profile, input_kind)
    except ProfileNotAsPlayed:
        raise
    except (CompanionError, ValueError) as exc:
        raise CorruptSave(str(exc)) from None
    replay(mode, saved.inputs, saved.events, saved.rules)
    if profile is not None:
        # Its house rules, told for the game played on; a finished game put in the history
        # on the way to a new one is not played, and a save that does not replay neither.
        told_profile(profile)
    return mode


def _one_log(saved: str, given: Path) -> bool:
    """Whether ``given`` (``--log``) is the log the save names: by its resolved path, or one
    file by two names (a hard link), which then carries the game on from where its lines
    stopped, as its own name would (reviewb74 N2: it was said not carried on, and begun
    again after the stopped part). A name that cannot be looked at is another file."""
    if saved == str(given.resolve()):
        return True
    try:
        return os.path.samefile(saved, given)
    except OSError:
        return False
