"""``companion play``: one game at the table, or headless on the simulated wall.

At the table the tiles come from the camera or the RFID tray (``--input``),
choices from the buttons, the keyboard or taps (``--choices``), and the game is
shown on the screen or in the terminal (``--display``). ``--headless`` is the
same session with the simulated wall, the auto-player and no display; it prints
the game turn by turn.

Every resolved step is saved (``--state``; at the table always, headless when
asked); ``--resume`` carries on exactly where a game stopped, even after a power
cut. ``--log`` appends the events as JSON Lines; a resumed game leaves the same
log as an uninterrupted one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import signal
import sys
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gpiozero.exc import GPIOZeroError, PinFactoryFallback

from companion.app.commands.events import load_user_rules
from companion.app.commands.rules import existing_file
from companion.app.config import Config, Source, load_config
from companion.app.history import History, HistoryError, Run
from companion.app.modes.dice_tray import DiceTrayMode, parse_expressions
from companion.app.modes.jongrogue import AutoChoices, JongRogueMode, SimTiles
from companion.app.paths import config_dir, data_dir
from companion.app.session.controls import Controls, MenuChoices, PressSource, choose
from companion.app.session.host import Session, replay
from companion.app.session.log import GameLog
from companion.app.session.mode import ChoiceFeed, RollFeed, TileFeed
from companion.app.session.reads import TableTiles, open_reader
from companion.app.session.rolls import CameraFrames, CameraRolls, SimRolls
from companion.app.session.save import (
    INPUT_KINDS,
    SEED_LIMIT,
    CorruptSave,
    SaveGame,
    default_save_path,
    load_save,
    profile_hash,
)
from companion.dice import SimulatedDice
from companion.errors import CompanionError, DataError, DeviceError
from companion.files import holding, kept_aside, move_aside
from companion.hw.buttons import Button, ButtonPanel, ButtonPins, WaitingSignal, optional_pin
from companion.hw.display import Display, open_display
from companion.hw.display.view import Option, message_view
from companion.hw.keyboard import KeyboardInput
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.autoplay import STRATEGIES, HeadlessPlayer, find_strategy
from companion.systems.jongrogue.events import Event
from companion.systems.jongrogue.game import Game, Outcome
from companion.systems.jongrogue.narration import describe, monster_name
from companion.systems.jongrogue.profile import PRESETS, Profile, load_profile

FLAG_KEYS = {
    "input": ("input.kind", "--input"),
    "rfid_kind": ("input.rfid_kind", "--rfid-kind"),
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
        "play", help="play a game at the table, or headless on the simulated wall",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("--mode", choices=("game", "dice", "genso", "coc"),
                        help="a game of JongRogue (default), the dice tray: event tables "
                             "and dice rolls with real dice, a genso fight or a coc fight "
                             "(--fight)")
    parser.add_argument("--fight", type=Path,
                        help="--mode genso or coc: the fight file `companion genso|coc fight "
                             "new` wrote (default: genso/fight.json or coc/fight.json in the "
                             "user data folder)")
    parser.add_argument("--dice", choices=("camera", "sim"),
                        help="the dice of --mode dice, genso and coc: thrown and read by the "
                             "camera, or thrown by the companion (simulated); setting "
                             "dice.source")
    parser.add_argument("--d100", choices=("typed", "sim"),
                        help="--mode coc with --dice camera: the dice the camera cannot read "
                             "(d100, d20, D4, ...): typed on a keypad menu, or simulated; "
                             "setting dice.d100")
    parser.add_argument("--headless", action="store_true",
                        help="simulated wall, auto-player, no display; print the game")
    parser.add_argument("--seed", type=seed_number,
                        help="the simulated wall's (or dice's) seed (default: random)")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="rules preset")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), help="auto-player strategy")
    parser.add_argument("--profile", type=existing_file,
                        help="a profile TOML with your own numbers (default: game.profile)")
    parser.add_argument("--log", type=Path, help="append the events as JSON Lines to FILE")
    parser.add_argument("--input", choices=INPUT_KINDS, help="where tiles come from")
    parser.add_argument("--rfid-kind", choices=("tray", "rdm6300"),
                        help="with --input rfid: the tray, or one RDM6300 under the draw slot")
    parser.add_argument("--choices", choices=("gpio", "keyboard", "auto"),
                        help="where choices come from")
    parser.add_argument("--display", choices=("screen", "terminal", "none"),
                        help="where the game is shown")
    parser.add_argument("--state", type=Path,
                        help="the save file (default: save.json in the user data folder)")
    parser.add_argument("--resume", action="store_true",
                        help="carry on the saved game (a new one if there is none)")
    parser.add_argument("--pace", type=float, metavar="SECONDS",
                        help="pause after each step, to watch a headless game")
    parser.set_defaults(func=run)


#: The modes that need a display and a player, by the name an error gives them.
TABLE_MODES = {"dice": "the dice tray", "genso": "a genso fight", "coc": "a coc fight"}


def run(args: argparse.Namespace) -> int:
    config = effective_config(args)
    # systemd stops the service with SIGTERM: leave like Ctrl-C (the terminal restored;
    # the game is already saved).
    signal.signal(signal.SIGTERM, stop_on_signal)
    save_path: Path | None = args.state or default_save_path()
    if args.headless and args.state is None and not args.resume:
        save_path = None  # a headless game is saved only when asked
    with contextlib.ExitStack() as held:
        # Before anything is read or the screen opens: a second companion on the same save
        # (the boot service and a --resume over SSH) is refused at once, in one line.
        for path, holder in held_files(args, config, save_path):
            held.enter_context(holding(path, holder))
        return play(args, config, save_path)


def held_files(args: argparse.Namespace, config: Config,
               save_path: Path | None) -> list[tuple[Path, str]]:
    """The files this run writes while it lasts, and who it is, for :func:`holding`: the
    game's save; a table's save and its fight file (which the fight commands then leave
    alone); nothing for the dice tray."""
    mode = config.text("play.mode")
    if mode in ("genso", "coc"):
        return [(path, f"the {mode} table, companion play --mode {mode}")
                for path in table_files(args, mode)]
    if mode == "dice" or save_path is None:
        return []
    return [(save_path, "companion play")]


def table_files(args: argparse.Namespace, mode: str) -> tuple[Path, Path]:
    """A ``mode`` table's fight file (``--fight``) and its save (``--state``), by default
    ``<mode>/fight.json`` and ``<mode>/table.json`` in the data folder."""
    return (args.fight or data_dir() / mode / "fight.json",
            args.state or data_dir() / mode / "table.json")


def play(args: argparse.Namespace, config: Config, save_path: Path | None) -> int:
    """The run, its files held: the screen and controls opened, the mode played."""
    display = None if config.text("display.kind") == "none" else open_display(
        config.text("display.kind"), config.text("display.size"),
        config.flag("display.fullscreen"), config.text("display.font"))
    sources = open_press_sources(config, display)
    controls = Controls(sources)
    session: Session | None = None
    try:
        if config.text("play.mode") in TABLE_MODES:
            assert display is not None  # effective_config refused a table mode with no display
            if config.text("play.mode") == "dice":
                run_dice_tray(config, display, controls, args.seed)
            elif config.text("play.mode") == "coc":
                run_coc(args, config, display, controls)
            else:
                run_genso(args, config, display, controls)
            return 0
        if args.resume and save_path is not None and kept_aside(save_path):
            done = record_kept(save_path, config, display, controls)
            if done is not None:
                return done
        saved = previous_game(save_path, args, config, display, controls)
        try:
            session, game = build_session(args, config, saved, save_path, display, controls)
        except CorruptSave as exc:  # raised before anything is opened or written
            if saved is None or save_path is None:
                raise
            kept = move_aside(save_path)
            offer_new_game(f"the save {save_path} cannot be resumed ({exc}); it was kept as "
                           f"{kept}", config, display, controls)
            saved = None
            session, game = build_session(args, config, saved, save_path, display, controls)
        if args.headless:
            if saved is None:
                print_events(game.events)
            else:
                print(f"--- resumed from {save_path}: {len(saved.inputs)} inputs replayed ---")
        session.show(session.next_prompt())
        session.run()
        assert session.save is not None
        # A save the disk refused is behind the game: it keeps nothing to put in later.
        if not record(game, session.save, display, controls) and save_path is not None \
                and not session.save_trouble:
            tell(f"the game is kept in {save_path}, and put in the history when the next "
                 "game starts", display, controls)
        farewell(session, game, config, display, controls, args.headless)
    finally:
        if session is not None:
            session.close()
        for source in sources:
            close = getattr(source, "close", None)
            if close is not None:
                close()
    return 0


def build_session(args: argparse.Namespace, config: Config, saved: SaveGame | None,
                  save_path: Path | None, display: Display | None,
                  controls: Controls) -> tuple[Session, Game]:
    """A new game, or the saved one replayed to where it stopped."""
    input_kind = config.text("input.kind")
    if saved is None:
        profile_file = args.profile or configured_profile(config)
        profile: Profile | None = load_profile(profile_file)
        saved = SaveGame(
            seed=args.seed if args.seed is not None else secrets.randbelow(2**31),
            preset=config.text("game.preset"),
            strategy=config.text("choices.strategy"),
            input_kind=input_kind,
            profile_path=str(profile_file.resolve()) if profile_file else None,
            profile_hash=profile_hash(profile_file) if profile_file else None,
            player_chose=config.text("choices.kind") != "auto",
        )
        resuming = False
    else:
        resuming = True
        ignored = [flag for flag, value in (("--seed", args.seed), ("--preset", args.preset),
                                             ("--strategy", args.strategy),
                                             ("--profile", args.profile)) if value is not None]
        if ignored:
            print(f"companion: {', '.join(ignored)} ignored: the saved game keeps its own",
                  file=sys.stderr)
        if config.settings["input.kind"].source is not Source.COMMAND_LINE:
            input_kind = saved.input_kind  # carry on as it was played
        elif saved.input_kind != input_kind and "sim" in (saved.input_kind, input_kind):
            # The simulated wall's order is part of a sim game; a table game has none.
            raise DataError(f"this game was played with --input {saved.input_kind}; "
                            f"resume it with --input {saved.input_kind}")
        saved.player_chose |= config.text("choices.kind") != "auto"
    mode = resumed_mode(saved, input_kind, config) if resuming \
        else jongrogue_mode(saved, profile, input_kind)
    game, sim = mode.game, mode.sim
    poll = config.number("input.poll_seconds")
    tiles: TileFeed
    if sim is not None:
        tiles = SimTiles(game, sim)
    else:
        rfid_kind = config.text("input.rfid_kind")
        reader = open_reader(input_kind, config.text("input.camera_source"),
                             config.text("input.rfid_port"), game.ledger, rfid_kind)
        tiles = TableTiles(reader, controls, config.number("input.accept_seconds"), poll,
                           one_slot=input_kind == "rfid" and rfid_kind == "rdm6300")
    choices: ChoiceFeed
    if config.text("choices.kind") == "auto":
        strategy = find_strategy(saved.strategy or config.text("choices.strategy"))
        choices = AutoChoices(game, strategy)
    else:
        choices = MenuChoices(controls, poll)
    log = None
    if args.log is not None:
        same = resuming and saved.log_path == str(args.log.resolve())
        log = GameLog(args.log, saved.log_start) if same else GameLog.begin(args.log)
        saved.log_path, saved.log_start = str(args.log.resolve()), log.start
    signal = None
    if config.text("choices.kind") == "gpio" and sim is None:
        signal = WaitingSignal(optional_pin(config.integer("buttons.led_pin")),
                               optional_pin(config.integer("buttons.buzzer_pin")))
    session = Session(
        mode, choices=choices, tiles=tiles, display=display,
        save=saved, save_path=save_path, log=log, log_header=log_header(saved),
        on_events=print_events if args.headless else (lambda events: None),
        pace=config.number("game.pace_seconds"), signal=signal,
    )
    saved.events = len(game.events)  # a new game has already entered floor 1
    session.keep_saved(starting=True)  # before the log, so the save knows where the log began
    session.start_log()
    return session, game


def jongrogue_mode(saved: SaveGame, profile: Profile | None, input_kind: str) -> JongRogueMode:
    """A fresh game of ``saved``'s rules, its tiles from the seeded wall when simulated."""
    game = Game(saved.preset, profile, revision=saved.rules)
    sim = HeadlessPlayer(saved.seed, saved.strategy or "cautious") if input_kind == "sim" \
        else None
    return JongRogueMode(game, sim, describe)


def resumed_mode(saved: SaveGame, input_kind: str, config: Config) -> JongRogueMode:
    """The saved game replayed to where it stopped, before any hardware is opened; a save
    whose preset, profile or strategy cannot be had, or whose inputs do not replay, raises
    :class:`CorruptSave` (the caller keeps it aside and offers a new game, so a boot service
    is never stopped by it)."""
    try:
        if config.text("choices.kind") == "auto":
            find_strategy(saved.strategy or config.text("choices.strategy"))
        mode = jongrogue_mode(saved, saved_profile(saved), input_kind)
    except (CompanionError, ValueError) as exc:
        raise CorruptSave(str(exc)) from None
    replay(mode, saved.inputs, saved.events)
    return mode


def run_dice_tray(config: Config, display: Display, controls: Controls,
                  seed: int | None) -> None:
    """``--mode dice``: the dice tray until the player quits (nothing is saved)."""
    expressions = parse_expressions(config.text("dice.expressions"))
    rules = load_user_rules([])  # the user's events.toml Defaults, as `companion events` uses
    poll = config.number("input.poll_seconds")
    rolls: RollFeed
    if config.text("dice.source") == "sim":
        rolls = SimRolls(SimulatedDice.seeded(seed if seed is not None else secrets.randbits(32)))
        source_name = "simulated 仮想"
    else:
        rolls, source_name = camera_rolls(config, controls), "camera カメラ"
    tray = DiceTrayMode(expressions, source_name, rules)
    Session(tray, choices=MenuChoices(controls, poll), rolls=rolls, display=display).run()


def run_genso(args: argparse.Namespace, config: Config, display: Display,
              controls: Controls) -> None:
    """``--mode genso``: a genso fight at the table, saved after every answer (``--state``,
    default genso/table.json in the data folder; ``--resume`` replays it)."""
    from companion.app.commands.genso import load_user_rules as genso_rules
    from companion.app.modes.genso import table_session

    rolls = None if config.text("dice.source") == "sim" else camera_rolls(config, controls)
    session = table_session(
        genso_rules([]), *table_files(args, "genso"), resume=args.resume, seed=args.seed,
        choices=MenuChoices(controls, config.number("input.poll_seconds")),
        rolls=rolls, display=display, tell=lambda message: tell(message, display, controls))
    session.show(session.next_prompt())
    session.run()


def run_coc(args: argparse.Namespace, config: Config, display: Display,
            controls: Controls) -> None:
    """``--mode coc``: a coc fight at the table, saved after every answer (``--state``,
    default coc/table.json in the data folder; ``--resume`` replays it). With ``--dice
    camera`` the camera reads the d6-based dice and the rest are typed or simulated
    (``--d100``)."""
    from companion.app.modes.coc import table_session

    camera = None if config.text("dice.source") == "sim" else camera_rolls(config, controls)
    d100 = config.text("dice.d100")
    poll = config.number("input.poll_seconds")
    session = table_session(
        *table_files(args, "coc"), resume=args.resume, seed=args.seed,
        choices=MenuChoices(controls, poll), display=display,
        source_name=f"camera カメラ (d6) · d100 {'typed 入力' if d100 == 'typed' else 'sim 仮想'}",
        tell=lambda message: tell(message, display, controls), camera=camera,
        controls=controls, d100=d100, poll_seconds=poll)
    session.show(session.next_prompt())
    session.run()


def camera_rolls(config: Config, controls: Controls) -> CameraRolls:
    """Real dice on the dice camera, each read confirmed by the player."""
    from companion.hw.dice.source import CameraDiceSource, Motion, frame_iterator

    frames = CameraFrames(frame_iterator(config.dice_camera()), controls, Motion().moving)
    camera = CameraDiceSource(frames=frames, config_file=config_dir() / "dice.toml")
    return CameraRolls(camera, frames, controls, config.number("input.accept_seconds"),
                       config.number("input.poll_seconds"))


# The pins hardware/wiring.md says to avoid, and why: they work, but not as a plain pin.
PINS_TO_AVOID = {
    0: "the HAT ID EEPROM's data line (ID_SD)",
    1: "the HAT ID EEPROM's clock line (ID_SC)",
    2: "I²C SDA, with a fixed pull-up on the board",
    3: "I²C SCL, with a fixed pull-up on the board",
    14: "the serial console's TXD",
    15: "the serial console's RXD (and the RDM6300's)",
}


def check_pins(config: Config) -> None:
    """Two parts on one GPIO pin would fight: say which settings clash. A pin the wiring
    guide says to avoid is allowed (the player may have freed it) with a warning."""
    used: dict[int, str] = {}
    for key in ("attack_pin", "flee_pin", "ranged_pin", "item_pin", "led_pin", "buzzer_pin"):
        pin = config.integer(f"buttons.{key}")
        if pin < 0:
            continue
        if pin in used:
            raise DataError(f"buttons.{key} and buttons.{used[pin]} are both GPIO{pin}; "
                            "give each part its own pin (companion config --show)")
        used[pin] = key
        if pin in PINS_TO_AVOID:
            print(f"companion: warning: buttons.{key} is GPIO{pin}, {PINS_TO_AVOID[pin]}; "
                  "hardware/wiring.md says to avoid it", file=sys.stderr)


def tell(message: str, display: Display | None, controls: Controls,
         ask: bool = False) -> bool:
    """Say something outside a game; with ``ask``, wait for A (True) or B (False)."""
    print(f"companion: {message}", file=sys.stderr)
    if display is None or not ask or not controls.sources:
        return True
    options = (Option("new", "New game 新しいゲーム", Button.ATTACK),
               Option("quit", "Quit 終了", Button.FLEE))

    def show(prompt: str, **kwargs: Any) -> None:
        display.show(message_view(prompt, kwargs.get("options", options)))

    return choose(controls, show, message, options, 0, 0.05) == 0


def previous_game(save_path: Path | None, args: argparse.Namespace, config: Config,
                  display: Display | None, controls: Controls) -> SaveGame | None:
    """The saved game to carry on, if any. A corrupt save is kept aside and a new game offered."""
    if save_path is None:
        return None
    if not args.resume:
        try:
            old = load_save(save_path)
        except CorruptSave as exc:  # kept aside, never overwritten unseen
            tell(f"{exc}; this new game is saved in {save_path}", display, controls)
            return None
        if old is not None and old.finished:
            record_saved(old, save_path, display, controls)
        elif old is not None and old.inputs:
            try:
                kept = move_aside(save_path, "replaced")
            except OSError as exc:  # a read-only folder: the new game must not replace it
                raise OSError(exc.errno, f"the unfinished game in it cannot be kept aside "
                              f"for a new one ({exc.strerror}): play it on with --resume, "
                              "or fix the folder", str(save_path)) from exc
            tell(f"the unfinished game saved in {save_path} is kept as {kept.name}; "
                 "this new game replaces it", display, controls)
        # A save with no inputs (a start that stopped at once: no camera, no tray) holds
        # nothing a player did: the new game's save replaces it, and no copy is kept.
        return None
    try:
        saved = load_save(save_path)
    except CorruptSave as exc:
        offer_new_game(str(exc), config, display, controls)
        return None
    if saved is None:
        tell(f"no saved game in {save_path}: starting a new one", display, controls)
    elif saved.finished:
        record_saved(saved, save_path, display, controls)
        tell("the saved game is over; starting a new one", display, controls)
        return None
    return saved


def offer_new_game(reason: str, config: Config, display: Display | None,
                   controls: Controls) -> None:
    """Tell why the saved game cannot go on; a player (not the auto-player) is asked
    whether to start a new game, and quitting leaves (KeyboardInterrupt)."""
    interactive = config.text("choices.kind") != "auto"
    if not tell(f"{reason}. Start a new game?" if interactive
                else f"{reason}; starting a new game", display, controls, ask=interactive):
        raise KeyboardInterrupt from None


def seed_number(text: str) -> int:
    """``--seed``: a whole number the history can keep (SQLite's 64-bit integers)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"{text} is too large: a seed is below 2**63")
    return seed


def configured_profile(config: Config) -> Path | None:
    """config.toml's ``game.profile``: the profile a new game plays with when no
    ``--profile`` is given (None: the built-in one)."""
    text = config.text("game.profile")
    if not text:
        return None
    path = Path(text).expanduser()
    if not path.is_file():
        setting = config.settings["game.profile"]
        raise DataError(f"game.profile ({setting.origin}): {path}: no such file")
    return path


def saved_profile(saved: SaveGame) -> Profile | None:
    """The profile a saved game was played with, as it was then (or the DataError why not)."""
    if saved.profile_path is None:
        return None
    path = Path(saved.profile_path)
    if not path.is_file():
        raise DataError(f"this game was played with the profile {path}, which is missing")
    profile = load_profile(path)
    if profile_hash(path) != saved.profile_hash:
        raise DataError(f"the profile {path} changed since this game was saved")
    return profile


def record_saved(saved: SaveGame, save_path: Path, display: Display | None,
                 controls: Controls) -> None:
    """Put a finished save's game into the history: a cut may have come between the
    game's last save and its history entry (recording twice records once). One that no
    longer replays (its profile edited or gone), or that the history cannot take now, is
    told of and kept aside (``.unrecorded-…``), never in the way of the next game."""
    if record_finished(saved, save_path, display, controls):
        return
    # The next game's save would overwrite it: keep it for a later look.
    kept = move_aside(save_path, "unrecorded")
    tell(f"the finished game is kept as {kept}", display, controls)


def record_finished(saved: SaveGame, save_path: Path, display: Display | None,
                    controls: Controls) -> bool:
    """Replay a finished save and put it in the history; False, told why, when it does not
    replay (its profile edited or gone) or the history cannot take it now."""
    try:
        game = Game.replay([input_from_notation(i) for i in saved.inputs], saved.preset,
                           saved_profile(saved), revision=saved.rules)
    except (CompanionError, ValueError) as exc:
        tell(f"the finished game in {save_path} could not be put in the history: {exc}",
             display, controls)
        return False
    return record(game, saved, display, controls)


def record_kept(path: Path, config: Config, display: Display | None,
                controls: Controls) -> int | None:
    """``--resume --state`` of a file a game was kept in (``save.json.unrecorded-…``): a
    finished game is put in the history and the file removed (the history holds the game
    now; the file was kept only for this), and the run stops: its exit code. None when the
    kept game is not over (it plays on, in that file), or cannot be read (it is kept aside
    again and a new game offered, as for any save)."""
    try:
        saved = load_save(path)
    except CorruptSave as exc:
        offer_new_game(str(exc), config, display, controls)
        return None
    if saved is None or not saved.finished:
        return None
    if not record_finished(saved, path, display, controls):
        tell(f"the finished game stays in {path}; try again later", display, controls)
        return 1
    try:
        path.unlink()
        after = "that file is removed"
    except OSError as exc:
        after = f"that file could not be removed ({exc.strerror}) and holds nothing more"
    tell(f"the finished game in {path} is in the history now (companion history); {after}",
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
            input_kind=saved.input_kind,
        ))
    except HistoryError as exc:
        tell(f"the game could not be put in the history: {exc}", display, controls)
        return False
    finally:
        for notice in history.notices:
            tell(notice, display, controls)
    return True


HEADLESS = {"input": "sim", "choices": "auto", "display": "none", "mode": "game"}


def stop_on_signal(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def effective_config(args: argparse.Namespace) -> Config:
    """Flags over environment over config.toml over defaults; --headless fixes three of them."""
    if args.pace is not None and args.pace < 0:
        raise DataError("--pace must be 0 or more seconds")
    if args.headless:
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
            names[key] = name
    config = load_config(overrides=overrides, flag_names=names)
    config.tell_notices()
    mode = config.text("play.mode")
    if mode in TABLE_MODES and (
            config.text("display.kind") == "none" or config.text("choices.kind") == "auto"):
        raise DataError(f"{TABLE_MODES[mode]} needs a display and a player: use --display "
                        "screen or terminal and --choices gpio or keyboard")
    if config.text("display.kind") == "none" and config.text("choices.kind") != "auto":
        raise DataError("with --display none nothing shows the choices: use --display "
                        "terminal or screen, or --choices auto")
    return config


def open_press_sources(config: Config, display: Display | None) -> list[PressSource]:
    """The buttons or the keyboard, plus the display's own keys and taps."""
    sources: list[PressSource] = []
    kind = config.text("choices.kind")
    if kind == "gpio":
        check_pins(config)
        pins = ButtonPins(config.integer("buttons.attack_pin"), config.integer("buttons.flee_pin"),
                          config.integer("buttons.ranged_pin"), config.integer("buttons.item_pin"))
        try:
            with warnings.catch_warnings():
                # Off a Pi, gpiozero warns about each backend it tries; the error says it all.
                warnings.simplefilter("ignore", PinFactoryFallback)
                sources.append(ButtonPanel(pins, config.number("buttons.long_press_seconds")))
        except GPIOZeroError as exc:
            raise DeviceError(f"the buttons cannot be used here ({exc}); "
                              "play with --choices keyboard") from None
    elif kind == "keyboard" and sys.stdin.isatty():
        sources.append(KeyboardInput())
    elif kind == "keyboard" and config.text("display.kind") != "screen":
        # Nothing else would take a key: the game would wait for ever.
        raise DataError("--choices keyboard reads keys from a terminal, and standard input "
                        "is not one (a pipe, or ssh without -t): run it in a terminal, or "
                        "use --choices auto")
    if display is not None:
        sources.append(display)
    return sources


def farewell(session: Session, game: Game, config: Config, display: Display | None,
             controls: Controls, headless: bool) -> None:
    """The end of a game: the summary, and on a screen a press before the next game."""
    if headless:
        assert session.save is not None
        print_summary(game, session.save)
        return
    if display is None or config.text("choices.kind") == "auto":
        return
    options = (Option("next", "New game 新しいゲーム", Button.ATTACK),)
    choose(controls, session.show, session.next_prompt(), options, 0,
           config.number("input.poll_seconds"))


def log_header(saved: SaveGame) -> list[str]:
    """The first line of a game in the log: what is needed to play it again."""
    return [json.dumps({
        "log": "jongrogue-companion", "version": 2, "game_id": saved.game_id,
        "seed": saved.seed, "preset": saved.preset, "strategy": saved.strategy,
        "input": saved.input_kind, "profile": saved.profile_path,
        "choices": "player" if saved.player_chose else "auto", "rules": saved.rules,
    }, ensure_ascii=False, sort_keys=True)]


def print_events(events: Sequence[Event]) -> None:
    for event in events:
        print(describe(event))


def print_summary(game: Game, saved: SaveGame) -> None:
    outcome = game.outcome()
    pc = game.pc
    print()
    if outcome is not None and outcome.won:
        print(f"Result: 生還 survived, left floor {outcome.floor}")
    elif outcome is not None:
        print(f"Result: died on floor {outcome.floor}, {cause_of_death(outcome)}")
    print(f"Level {pc.level}, XP {pc.xp}, gold {pc.gold}; {len(game.inputs)} inputs, "
          f"{len(game.events)} events; preset {saved.preset}, seed {saved.seed}, "
          f"strategy {saved.strategy}")


def cause_of_death(outcome: Outcome) -> str:
    if outcome.cause == "frozen":
        return "frozen to death (凍死)"
    if outcome.cause:
        return monster_name(outcome.cause)
    return "the wall ran out of tiles (山牌切れ)"
