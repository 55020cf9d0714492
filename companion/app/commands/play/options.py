"""``companion play``'s command line: its options (``register``), the config the flags
make (``effective_config``), and the entry that holds the run's files and plays (``run``).

At the table the tiles come from the camera or the RFID tray (``--input``),
choices from the buttons, the keyboard or taps (``--choices``), and the game is
shown on the screen or in the terminal (``--display``). ``--headless`` is the
same session with the simulated wall, the auto-player and no display; it prints
the game turn by turn.

(The paragraph above is the command's ``--help`` description.)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.app.arg_types import existing_file, file_name, seeds_below
from companion.app.command_list import COMMANDS
from companion.app.command_name import companion_command, companion_line
from companion.app.commands.config import pairing_problems
from companion.app.commands.play.saves import (
    load_game,
    refuse_missing_fight_folder,
    refuse_missing_folder,
    resume_as_played,
)
from companion.app.commands.play.session import (
    Among,
    StoppedAfterError,
    back_home_hint,
    configured_display,
    held_files,
    play,
)
from companion.app.commands.play.table_modes import (
    TABLE_MODES,
    QuitAtNoCamera,
    forget_sim_dice,
    table_files,
)
from companion.app.commands.play.telling import back_home, back_home_note, resume_command
from companion.app.commands.roll import refuse_idle_d100, refuse_idle_seed, typed_alias
from companion.app.commands.rules import preset_arg, preset_help
from companion.app.config import Config, Source, load_config
from companion.app.dice_expressions import parse_expressions
from companion.app.history import History
from companion.app.notes import note
from companion.app.session.host import StoppedBehind
from companion.app.session.log import KEPT, rotate_limit
from companion.app.session.save import INPUT_KINDS, SEED_LIMIT, default_save_path
from companion.app.session.system_menu import ModeSwitch
from companion.errors import CompanionError, DataError, error_text
from companion.file_locks import FileInUse, holding, real_path, service_name
from companion.hw.display import Display
from companion.hw.display.view import message_view
from companion.systems.jongrogue.autoplay import STRATEGIES

FLAG_KEYS = {
    "input": ("input.kind", "--input"),
    "rfid_kind": ("input.rfid_kind", "--rfid-kind"),
    "rfid_port": ("input.rfid_port", "--rfid-port"),
    "choices": ("choices.kind", "--choices"),
    "display": ("display.kind", "--display"),
    "preset": ("game.preset", "--preset"),
    "strategy": ("choices.strategy", "--strategy"),
    "pace": ("game.pace_seconds", "--pace"),
    "mode": ("play.mode", "--mode"),
    "dice": ("dice.source", "--dice"),
    "d100": ("dice.d100", "--d100"),
}


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "play", help=COMMANDS["play"].help,
        description=__doc__.split("\n\n")[1].replace("``", "") if __doc__ else None,
    )
    parser.add_argument("--mode", choices=("game", "dice", "genso", "coc"),
                        help="a game of JongRogue 雀ローグ (default), the dice tray: event "
                             "tables and dice rolls with real dice, a genso fight "
                             "(幻想迷宮冒険譚) or a coc fight (Call of Cthulhu; --fight); "
                             "setting play.mode")
    parser.add_argument("--fight", type=file_name,
                        help="--mode genso or coc: the fight file `companion genso|coc fight "
                             "new` wrote (default: genso/fight.json or coc/fight.json in the "
                             "user data folder)")
    parser.add_argument("--dice", type=typed_alias, choices=("camera", "typed", "sim"),
                        help="the dice of --mode dice, genso and coc: thrown and read by the "
                             "camera, thrown and typed on a keypad menu (no dice camera), or "
                             "thrown by the companion (simulated); setting dice.source")
    parser.add_argument("--d100", type=typed_alias, choices=("typed", "sim"),
                        help="--mode coc with --dice camera: the dice the camera cannot read "
                             "(d100, d20, D4, ...): typed on a keypad menu, or simulated; "
                             "setting dice.d100")
    parser.add_argument("--headless", action="store_true",
                        help="simulated wall, auto-player, no display; print the game")
    parser.add_argument("--seed", type=seeds_below(SEED_LIMIT),
                        help="the simulated wall's (or dice's) seed (default: random)")
    parser.add_argument("--preset", type=preset_arg, metavar="PRESET",
                        help=preset_help("setting game.preset"))
    parser.add_argument("--strategy", choices=sorted(STRATEGIES),
                        help="auto-player strategy; setting choices.strategy")
    parser.add_argument("--profile", type=existing_file,
                        help="a profile TOML with your own numbers (default: game.profile)")
    parser.add_argument("--log", type=file_name, metavar="FILE",
                        help="append the events as JSON Lines to FILE; a game that begins "
                             f"with FILE past {rotate_limit()} first moves it to FILE.1, the "
                             f"older ones on up to FILE.{KEPT} (the oldest is deleted)")
    parser.add_argument("--input", choices=INPUT_KINDS,
                        help="where tiles come from; setting input.kind")
    parser.add_argument("--rfid-kind", choices=("tray", "rdm6300"),
                        help="with --input rfid: the tray, or one RDM6300 under the draw "
                             "slot; setting input.rfid_kind")
    parser.add_argument("--rfid-port", metavar="PORT",
                        help="with --input rfid: the reader's serial port, e.g. /dev/ttyACM0 "
                             "(`companion rfid list`; default: the tray found by its USB id, "
                             "or /dev/serial0 for an RDM6300); setting input.rfid_port")
    parser.add_argument("--choices", choices=("gpio", "keyboard", "auto"),
                        help="where choices come from; setting choices.kind")
    parser.add_argument("--display", choices=("screen", "terminal", "none"),
                        help="where the game is shown; setting display.kind")
    parser.add_argument("--state", type=file_name, metavar="FILE",
                        help="the save file (default, in the user data folder: save.json "
                             "for a game, genso/table.json or coc/table.json for --mode "
                             "genso or coc; the dice tray's table part-thrown is always "
                             "dice/tray.json)")
    parser.add_argument("--resume", action="store_true",
                        help="carry on the saved game or table (a new one if there is none)")
    parser.add_argument("--pace", type=float, metavar="SECONDS",
                        help="pause after each step, to watch a headless game; setting "
                             "game.pace_seconds")
    parser.set_defaults(func=run)


#: What the System menu says to type for a fight table with no fight yet (as the commands'
#: own help gives it).
FIGHT_NEW_EXAMPLE = {"genso": "--party pc1 pc2 --monsters orc:2",
                     "coc": "--investigators ann.toml --foes cultist.toml"}


def run(args: argparse.Namespace) -> int:
    """The run, in the mode asked (its home); again in another when the player switches to it
    from the System menu (:class:`ModeSwitch`), its files let go and the next mode's held. A
    mode switched to that ends (its Quit, or a stop it showed on the screen) leads back home,
    carried on: under the boot service the run ending was a black screen and a start afresh,
    and at a terminal the game the player came from was gone."""
    # systemd stops the service with SIGTERM: leave like Ctrl-C (the terminal restored;
    # the game is already saved).
    signal.signal(signal.SIGTERM, stop_on_signal)
    forget_sim_dice()
    config = effective_config(args)
    refuse_stray_fight(args, config)
    refuse_idle_table_d100(args, config)
    refuse_idle_table_seed(args, config)
    refuse_log_over_save(args, config)
    home = config.text("play.mode")

    def unplayable(mode: str) -> str:
        """Why the System menu cannot switch to ``mode`` now: a fight table with no fight,
        or files another companion holds (its table would only show a stop)."""
        other = switched(args, home, mode)
        if mode == "dice":
            # The dice tray's rolls, read as it starts: refused there, the switch ended the
            # whole run (events74 RISK 2); said in the menu, the game stays.
            theirs: Config | None = None
            try:
                theirs = effective_config(other, tell=False)
                parse_expressions(theirs.text("dice.expressions"))
            except DataError as exc:
                # The environment wins over config.toml: mended there, the tray was refused
                # again (r77setup, as a77setup DEFECT 1).
                setting = None if theirs is None else theirs.settings["dice.expressions"]
                where = (f"{setting.origin}, which sets it over config.toml"
                         if setting is not None and setting.source is Source.ENV
                         else "config.toml")
                return f"Dice tray ダイストレイ: {exc}; mend it in {where}"
        if mode in ("genso", "coc") and not table_files(other, mode)[0].exists():
            # A command to type, with its arguments: "fight new …" read as cut text, and
            # typed as it was it is refused (screen70 NIT 6).
            return (f"No {mode} fight yet 戦闘がありません: make one on a computer 端末で, "
                    f"e.g. {companion_command()} {mode} fight new {FIGHT_NEW_EXAMPLE[mode]}")
        for path, _ in held_files(other, effective_config(other, tell=False),
                                  other.state or default_save_path()):
            try:
                with holding(path, "companion play's System menu, looking"):
                    pass
            except FileInUse as exc:
                return f"In use 使用中: {exc}"
        return ""

    this = args
    stopped = ""  # why the mode switched to stopped, to hold on the display back home
    while True:
        held, stopped = stopped, ""
        # The mode the run goes back to should this one stop ("": this is it), and the
        # command line it began with, for what the stop says (back_home_hint).
        back = "" if config.text("play.mode") == home else home
        try:
            code = run_mode(this, config, Among(this is not args, unplayable, held, back, args))
        except KeyboardInterrupt:
            if config.text("play.mode") != home:
                # Stopped in a mode switched to (the dice tray): the game or table the run
                # began with is saved too, and said, as a stop there says it (journey73
                # DEFECT 3: only the tray's own lines were said, nothing of the game).
                said_where_saved(stop_line(args, home, args.state or default_save_path(),
                                           None, "the game the run began with"))
            raise
        except ModeSwitch as switch:
            this = switched(args, home, switch.mode)
            config = dataclasses.replace(effective_config(this, tell=False), notices=())
            continue
        except FileInUse as exc:
            if not back:
                raise
            # Taken by another companion since the menu looked: said, and back home.
            note(back_home_note(back_mode(this, home), home, str(exc)))
            stopped = back_home(back_mode(this, home), home, str(exc))
            code = 2
        except (CompanionError, OSError) as exc:
            if not back:
                raise
            # A mode switched to that stops, at its start (a file of its own written wrong)
            # or later, or with no device (a laptop's JongRogue wants the camera): said, and
            # back to the game or table the run began with, carried on; it ended the whole
            # run (events74 RISK 2, modes74 DEFECT 1). At a terminal (a screen held it
            # already) the mode back home holds it until OK: its first frame cleared the
            # stderr lines at once (modes74 DEFECT 2). Not a Quit the player chose at the
            # dice camera's question, its text just read (reviewm74 NIT 2).
            mode = back_mode(this, home)
            note(back_home_note(mode, home, error_text(exc)))
            hint = back_home_hint(config, this, this.state or default_save_path(), exc, args,
                                  home)
            if hint:
                note(hint)
            if not isinstance(exc, QuitAtNoCamera):
                stopped = back_home(mode, home, error_text(exc), hint)
            code = 2
        if config.text("play.mode") == home:
            return code
        this = switched(args, home, home)
        config = dataclasses.replace(effective_config(this, tell=False), notices=())


def back_mode(this: argparse.Namespace, home: str) -> str:
    """The mode the command line ``this`` plays, switched to from ``home``."""
    return str(this.mode or home)


def refuse_log_over_save(args: argparse.Namespace, config: Config) -> None:
    """``--log`` naming a file the run saves in is refused, before anything is written: the
    game's save (``--state``, or the data folder's save.json that play saves in without it,
    a table's run too, in a game the System menu switches to), a fight table's save and its
    fight file. Each save is written whole in a new file put in its place, and the log's lines
    went to the file it replaced: a whole game played with exit 0 and its log was lost,
    unsaid (hist74 DEFECT 1). One file by two names (a link, ``./``) is one file too."""
    log: Path | None = getattr(args, "log", None)
    if log is None:
        return
    mode = config.text("play.mode")
    # a file the run writes, the flag typed for it (None: its default), what it is, and what
    # would become of the log there (said only as it is: fixhist74b, reviewb74 NIT 1)
    saves_over = "each save would be written over the log, and its lines lost"
    saved: list[tuple[Path, str | None, str, str]] = []
    if mode in ("genso", "coc"):
        fight, state = table_files(args, mode)
        saved += [(state, "--state" if args.state else None,
                   f"the {mode} table's save with no --state", saves_over),
                  (fight, "--fight" if args.fight else None,
                   f"the {mode} fight file with no --fight",
                   "each write of the fight would replace the log, and its lines be lost")]
    if mode == "game" and args.state is not None:
        saved.append((args.state, "--state", "the game's save", saves_over))
    # The data folder's save.json in any run (a table's too: the game the System menu
    # switches to saves there). A headless game saves only when asked and a game with --state
    # saves elsewhere, but a later `play` with no --state that reads save.json (--resume, or
    # any but --headless: previous_game) would find a log there and stop (reviewb74 NIT 1:
    # with --state it was let through, and said to be saved over without). Which ones, said:
    # a plain `play --headless` reads no save and plays (reviewh74b N3).
    writes = mode != "game" or (args.state is None and (args.resume or not args.headless))
    saved.append((default_save_path(), None, "where play saves the game with no --state",
                  saves_over if writes else
                  "this run saves nothing there, but a later `companion play --resume`, or "
                  "`companion play` without --headless (at the screen), with no --state, "
                  "would find the log where it looks for its save, and stop"))
    for path, flag, what, why in saved:
        if not _one_file(log, path):
            continue
        other = log.with_suffix(".jsonl") if log.suffix != ".jsonl" \
            else log.with_name(f"{log.stem}.log.jsonl")
        said = (f"--log names {path}, {what}" if flag is None
                else f"--log and {flag} name one file ({log})" if path == log
                else f"--log {log} and {flag} {path} name one file")
        raise DataError(f"{said}: {why}; give --log another file (e.g. {other})")


def _one_file(first: Path, second: Path) -> bool:
    """Whether two names are of one file: the same file when both are there, else the same
    path once links and ``..`` are resolved. A name that cannot be resolved (a loop of
    symbolic links) is no file of the run's: the run's own refusals name it as the loop it
    is, where Python 3.11's ``resolve()`` raised a RuntimeError, a traceback (reviewb74 D1)."""
    try:
        return first.samefile(second)
    except OSError:  # one of them is not there yet, or a loop
        pass
    try:
        return real_path(first) == real_path(second)
    except OSError:
        return False


def refuse_idle_table_seed(args: argparse.Namespace, config: Config) -> None:
    """A fight table or the dice tray refuses ``--seed`` when none of its dice is simulated,
    as ``companion roll`` does (:func:`refuse_idle_seed`): taken and ignored, it promised
    dice it does not repeat. The game's seed is its wall's, always used."""
    mode = config.text("play.mode")
    if mode not in TABLE_MODES:
        return
    dice = argparse.Namespace(seed=args.seed, dice=config.text("dice.source"))
    if mode == "coc":
        dice.d100 = config.text("dice.d100")
    flag = config.settings["dice.source"].source is Source.COMMAND_LINE
    refuse_idle_seed(dice, "" if flag else f"{config.where('dice.source')}: {dice.dice}")


def refuse_stray_fight(args: argparse.Namespace, config: Config) -> None:
    """``--fight`` is refused unless the run's mode is a fight table's, genso or coc, as
    --headless refuses --mode dice: in a game (or --headless) or at the dice tray it was
    taken and ignored, the game played, and its resume command carried it on (setup71
    NIT 8). A table the System menu switches to plays its own fight file, not this one
    (:func:`switched`). Where the mode came from is said when config.toml chose it."""
    mode = config.text("play.mode")
    if args.fight is None or mode in ("genso", "coc"):
        return
    setting = config.settings["play.mode"]
    if args.headless:
        raise DataError("--fight goes with --mode genso or coc, the fight tables, and "
                        "--headless plays a game: leave --fight out")
    said = f"--fight goes with --mode genso or coc, the fight tables, not {mode}"
    if setting.source is Source.COMMAND_LINE:
        # The mode typed is the one to change, not one to add (reviews71 NIT 7).
        raise DataError(f"{said}: use --mode genso or --mode coc instead of {setting.origin} "
                        f"{mode}, or leave --fight out")
    chose = ("play.mode's default" if setting.source is Source.DEFAULT
             else f"set by play.mode, {setting.origin}")
    raise DataError(f"{said} ({chose}): leave it out, or add --mode genso or --mode coc")


def refuse_idle_table_d100(args: argparse.Namespace, config: Config) -> None:
    """``--d100`` on the command line is refused unless the dice are the camera's, as coc's
    commands refuse it (:func:`refuse_idle_d100`): with typed or simulated dice it was taken
    and ignored (tables65 NIT 6). In any mode: a genso or dice table's run may switch to
    the coc fight (System menu), which takes it then. The setting ``dice.d100`` is a standing
    choice, not refused."""
    if args.d100 is None:
        return
    dice = argparse.Namespace(d100=args.d100, dice=config.text("dice.source"))
    setting = config.settings["dice.source"]
    refuse_idle_d100(dice, "" if setting.source is Source.COMMAND_LINE
                     else f"dice.source = {dice.dice} ({setting.origin})")


def switched(first: argparse.Namespace, home: str, mode: str) -> argparse.Namespace:
    """The command line ``first`` (whose mode is ``home``) switched to ``mode``: what a mode
    left is carried on when it comes back (``--resume``: never a new game or fight in its
    place); ``--state``, ``--fight`` and ``--seed`` are the mode's they were given for only.
    A game's ``--seed`` is its first game's: once a game is saved (the run's first, begun on
    it, saved at its start), a game over met back home draws a new wall, as Game over's New
    game does; the seed carried home replayed the same dungeon (modes74 DEFECT 3). With no
    save there yet (its game set aside before it began), nothing was played on it: kept.
    (Its config tells no notices: they were told as the run began.) Back home, the mode is
    the one ``first`` gave, none when config.toml chose it: the resume line said a
    ``--mode game`` nobody typed (reviewm74 NIT 6)."""
    own = mode == home
    seed = first.seed if own else None
    if own and mode == "game" and (first.state or default_save_path()).exists():
        seed = None  # an unfinished save is resumed as it is, its own seed kept in it
    return argparse.Namespace(**{**vars(first), "mode": first.mode if own else mode,
                                 "resume": True,
                                 "state": first.state if own else None,
                                 "fight": first.fight if own else None,
                                 "seed": seed})


def run_mode(args: argparse.Namespace, config: Config, among: Among) -> int:
    save_path: Path | None = args.state or default_save_path()
    if args.headless and args.state is None and not args.resume:
        save_path = None  # a headless game is saved only when asked
    # Before anything is read or the screen opens: a second companion on the same save
    # (the boot service and a --resume over SSH) is refused at once, in one line.
    wait = not among.switched and bool(service_name())
    mode = config.text("play.mode")
    if save_path is not None and mode == "game":
        refuse_missing_folder(save_path, args.state is not None, args.resume)
    if mode in ("genso", "coc"):
        refuse_missing_folder(table_files(args, mode)[1], args.state is not None, args.resume,
                              mode)
        if args.fight is not None:
            refuse_missing_fight_folder(args.fight)
    with held_for_run(held_files(args, config, save_path), config, wait):
        try:
            return play(args, config, save_path, among)
        except KeyboardInterrupt as stop:
            # Ctrl-C (or the service stopped) left the game or the table saved after its
            # last step: say where, and how to go on, rather than end in silence.
            said_where_saved(stop_line(args, config.text("play.mode"), save_path, stop))
            raise


def stop_line(args: argparse.Namespace, mode: str, save_path: Path | None,
              stop: KeyboardInterrupt | None, game: str = "the game") -> str:
    """What a stop (``stop``; None: a stop in another mode the run switched to) says of
    the ``mode`` played by the command line ``args``, saving in ``save_path``: where its
    game (named ``game``) or table is saved and the command that carries it on; "" when
    there is nothing to say (the dice tray, a table with no save yet). Its files are said
    absolute, as its command gives them (a78saves item 3)."""
    save_path = save_path and save_path.absolute()
    if mode in ("genso", "coc") and (table := table_files(args, mode)[1].absolute()).exists():
        return (f"stopped; the {mode} table is saved in {table}: "
                f"{resume_command(args, mode)} carries on")
    if mode == "game" and save_path is not None and isinstance(stop, StoppedBehind):
        return stopped_behind_note(save_path, args, stop)
    if mode == "game" and save_path is not None and save_path.exists():
        return stopped_note(save_path, args,
                            stop if isinstance(stop, StoppedAfterError) else None, game)
    if mode == "game" and save_path is None:
        return "stopped (a headless game without --state is not saved)"
    return ""


def said_where_saved(said: str) -> None:
    """Say ``said`` (:func:`stop_line`; "": nothing) where it can be: stopped because its
    terminal went away (TerminalGone), the run has no stderr left, and the stop stays a
    stop (env58 N6)."""
    with contextlib.suppress(OSError):
        if said:
            note(said)


#: How long the boot service waits between looks at a file another companion holds.
HELD_LOOK_SECONDS = 2.0


@contextlib.contextmanager
def held_for_run(files: list[tuple[Path, str]], config: Config, wait: bool) -> Iterator[None]:
    """Hold ``files`` (:func:`held_files`) while the block runs; :class:`FileInUse` when
    another companion holds one. With ``wait`` (the boot service's start) the run waits
    for them instead, saying so in the journal and on the screen, and takes them up once
    they are let go: refused, it exited, systemd started it again every 3 s and gave up
    after 20 starts (80 s), and the table stayed black after the game in the terminal that
    held the save had ended (concurrency58 F7)."""
    told = ""
    screen: Display | None = None
    try:
        while True:
            held = contextlib.ExitStack()
            try:
                for path, holder in files:
                    held.enter_context(holding(path, holder))
                break
            except FileInUse as exc:
                held.close()
                if not wait:
                    raise
                if str(exc) != told:
                    told = str(exc)
                    said = (f"In use 使用中: {exc}, or wait: this companion takes it up once "
                            "it is let go 空いたら始めます")
                    note(said)
                    screen = screen or waiting_screen(config)
                    if screen is not None:
                        screen.show(message_view(said))
                if screen is not None:
                    screen.poll()  # (its keys do nothing here; a closed window stops)
                time.sleep(HELD_LOOK_SECONDS)
    finally:
        if screen is not None:
            screen.close()
    if told:
        note("let go: taking it up")
    with held:
        yield


def waiting_screen(config: Config) -> Display | None:
    """The screen, for :func:`held_for_run`'s wait; None without one (a terminal's or no
    display, or a screen that does not open, which the run says once it plays)."""
    if config.text("display.kind") != "screen":
        return None
    try:
        return configured_display(config)[0]
    except (CompanionError, OSError):
        return None


def stopped_note(save_path: Path, args: argparse.Namespace,
                 after_error: StoppedAfterError | None = None, game: str = "the game") -> str:
    """What a run (its command line ``args``) stopped (Ctrl-C, the service stopped) says of
    the game in ``save_path``: an unfinished one is saved and the resume command, with the
    flags it was played with, carries it on (``after_error``, the stop came while the
    screen held the error that stopped the run: the command just failed, so the hint said
    with the error is pointed to, or the error is to be mended first); a finished one
    (stopped on Game over) is not
    carried on by anything, and ``--resume`` starts a new game: it is in the history, or
    goes there when the next game starts (the history could not take it, or the stop came
    before it was put there). An unfinished save of a game the history holds is behind
    the game's end, and is said to be over (:func:`in_history`). ``game`` names the game
    ("the game the run began with", when stopped in another mode)."""
    try:
        saved = load_game(save_path)
    except (CompanionError, OSError):  # (the next start says what is wrong with it)
        saved = None
    if (saved is None or not saved.finished) and after_error is not None:
        return (f"stopped; {game} is saved in {save_path}: "
                + ("the hint above says how to play on" if after_error.hinted else
                   f"{resume_as_played(args, saved)} carries on once the error above is "
                   "mended"))
    recorded = saved is not None and (saved.finished or bool(saved.inputs)) \
        and in_history(saved.game_id)
    if saved is None or not saved.finished:
        if recorded:
            # Its save is behind the game's end, the disk refusing its last writes: the
            # next start finds it over (saves.over_in_history, review65h RISK 1).
            return (f"stopped; {game} is over and in the history ({companion_line('history')}): "
                    "its "
                    f"save {save_path} is behind it (the disk refused its last moves), and "
                    "the next game replaces it")
        # As it was played: the simulated wall's --input sim (journey71 DEFECT 1).
        return (f"stopped; {game} is saved in {save_path}: {resume_as_played(args, saved)} "
                "carries on")
    if recorded:
        return f"stopped; {game} is over and in the history ({companion_line('history')})"
    return (f"stopped; {game} is over and kept in {save_path}: it goes in the history "
            f"({companion_line('history')}) when the next game starts "
            f"({resume_command(args, next_game=True)})")


def in_history(game_id: str) -> bool:
    """Whether the history holds ``game_id``, for a stop's note: looked up, not listed (a
    listing sets a history with a damaged page aside, review65h RISK 2), and what the
    history said of itself (a file that was none, kept aside) is said, on stderr, as the
    stop's note is; a history that cannot be asked now holds it not, as far as is known."""
    history = History()
    try:
        return history.holds(game_id)
    except (CompanionError, OSError):
        return False
    finally:
        with contextlib.suppress(OSError):  # its terminal gone (TerminalGone), as the note
            for notice in history.notices:
                note(notice)


def stopped_behind_note(save_path: Path, args: argparse.Namespace,
                        stop: StoppedBehind) -> str:
    """What a stop says while the save is behind the game, its last write refused (a full
    or read-only card) or not synced: how far the save is sure, and that the moves after
    that may be lost. It said "the game is saved", the one line the journal keeps, and the
    moves after the refusal were lost (env58 R2)."""
    if not stop.saved_moves:
        return (f"stopped; nothing of this game is saved for sure: {save_path} was refused "
                "or not synced (see above)")
    later = stop.moves - stop.saved_moves
    moves = "the move after it" if later == 1 else f"the {later} moves after it"
    return (f"stopped; the save {save_path} holds the game for sure up to move "
            f"{stop.saved_moves} only: {moves} may be lost (the save was refused or not "
            f"synced, see above). Free space or fix the folder; {resume_command(args)} "
            f"carries on from move {stop.saved_moves}")


HEADLESS = {"input": "sim", "choices": "auto", "display": "none", "mode": "game"}


def stop_on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def effective_config(args: argparse.Namespace, tell: bool = True) -> Config:
    """Flags over environment over config.toml over defaults; --headless fixes three of them.
    ``tell``: the settings' notices go to stderr (once a run: a mode switched to has none)."""
    if args.pace is not None and args.pace < 0:
        raise DataError("--pace must be 0 or more seconds")
    if args.headless:
        # The flags --headless sets, none typed: named by it where a setting's origin is said
        # ('using "game" from --headless', not "from --mode": modes74 NIT 7). Kept on args,
        # which the first call sets them in.
        if getattr(args, "headless_sets", None) is None:
            args.headless_sets = tuple(flag for flag in HEADLESS if getattr(args, flag) is None)
        for flag, wanted in HEADLESS.items():
            value = getattr(args, flag)
            if value not in (None, wanted):
                raise DataError(f"--headless plays with --{flag} {wanted}, not --{flag} {value}")
            setattr(args, flag, wanted)
    overrides: dict[str, object] = {}
    names: dict[str, str] = {}
    for flag, (key, name) in FLAG_KEYS.items():
        value = getattr(args, flag)
        if value is not None:
            overrides[key] = value
            names[key] = "--headless" if flag in (getattr(args, "headless_sets", None) or ()) \
                else name
    config = load_config(overrides=overrides, flag_names=names)
    if tell:
        config.tell_notices()
    # A display and choices that cannot go together, said by their settings and where they
    # came from, as config --show says them (setup73 DEFECT 1): before anything opens.
    for _, problem in pairing_problems(config):  # (one at most: the remedy is in it)
        raise DataError(problem)
    return config
