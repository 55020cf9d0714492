"""The modes of ``companion play`` other than a game of JongRogue, which need a display
and a player: the dice tray, a genso fight and a coc fight, and the dice camera they read."""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from companion.app.commands.events import load_user_rules, user_lists
from companion.app.commands.play.telling import tell
from companion.app.config import Config
from companion.app.modes.dice_tray import DiceTrayMode, parse_expressions
from companion.app.paths import config_dir, data_dir
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.app.session.mode import RollFeed
from companion.app.session.rolls import CameraFrames, CameraRolls, SimRolls
from companion.dice import SimulatedDice
from companion.hw.display import Display

#: The modes that need a display and a player, by the name an error gives them.
TABLE_MODES = {"dice": "the dice tray", "genso": "a genso fight", "coc": "a coc fight"}


def table_files(args: argparse.Namespace, mode: str) -> tuple[Path, Path]:
    """A ``mode`` table's fight file (``--fight``) and its save (``--state``), by default
    ``<mode>/fight.json`` and ``<mode>/table.json`` in the data folder."""
    return (args.fight or data_dir() / mode / "fight.json",
            args.state or data_dir() / mode / "table.json")


def run_dice_tray(config: Config, display: Display, controls: Controls,
                  seed: int | None) -> None:
    """``--mode dice``: the dice tray until the player quits (nothing is saved but the
    poisons it tracks, the list ``companion events`` keeps)."""
    expressions = parse_expressions(config.text("dice.expressions"))
    rules = load_user_rules([])  # the user's events.toml Defaults, as `companion events` uses
    poll = config.number("input.poll_seconds")
    rolls: RollFeed
    if config.text("dice.source") == "sim":
        rolls = SimRolls(SimulatedDice.seeded(seed if seed is not None else secrets.randbits(32)))
        source_name = "simulated 仮想"
    else:
        rolls, source_name = camera_rolls(config, controls), "camera カメラ"
    tray = DiceTrayMode(expressions, source_name, rules, PoisonList(poisons_path()),
                        user_lists(None))
    Session(tray, choices=MenuChoices(controls, poll), rolls=rolls, display=display).run()


def run_genso(args: argparse.Namespace, config: Config, display: Display,
              controls: Controls) -> None:
    """``--mode genso``: a genso fight at the table, saved after every answer (``--state``,
    default genso/table.json in the data folder; ``--resume`` replays it)."""
    from companion.app.commands.genso import saved_fight_rules
    from companion.app.modes.genso import table_session

    rolls = None if config.text("dice.source") == "sim" else camera_rolls(config, controls)
    session = table_session(
        saved_fight_rules([]), *table_files(args, "genso"), resume=args.resume, seed=args.seed,
        choices=MenuChoices(controls, config.number("input.poll_seconds")),
        rolls=rolls, display=display, tell=lambda message: tell(message, display, controls))
    session.show_next()
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
    session.show_next()
    session.run()


def camera_rolls(config: Config, controls: Controls) -> CameraRolls:
    """Real dice on the dice camera, each read confirmed by the player."""
    from companion.hw.dice.source import CameraDiceSource, Motion, frame_iterator

    frames = CameraFrames(frame_iterator(config.dice_camera()), controls, Motion().moving)
    camera = CameraDiceSource(frames=frames, config_file=config_dir() / "dice.toml")
    return CameraRolls(camera, frames, controls, config.number("input.accept_seconds"),
                       config.number("input.poll_seconds"))
