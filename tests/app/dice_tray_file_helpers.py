"""The dice tray's table file refused by the disk, and a game with its System menu, for the
tray table tests."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from companion.app.commands.play import session as play_session
from companion.app.commands.play.sim_sources import SimTiles
from companion.app.config import load_config
from companion.app.modes import dice_tray
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from tests.app.system_menu_helpers import SEED
from tests.app.table import PlayerAtTheScreen


def refuse_the_tray_s_file(monkeypatch: pytest.MonkeyPatch, *, after: int = 0,
                           err: int = errno.ENOSPC, unlink_too: bool = False) -> list[bool]:
    """The disk refuses the dice tray's table file after ``after`` writes, as
    atomic_write_text's would (ENOSPC: full; with ``unlink_too`` its removal too, as a
    read-only disk does). The list returned: set its one item False to free the disk again.
    (One helper for this module, test_camera_dice_double_reject_table_across_modes_and_rethrow
    and test_dice_tray_table_part_thrown_saved: reviewd67b NIT 10.)"""
    real, written, refusing = dice_tray.atomic_write_text, [], [True]

    def write(path: Path, text: str) -> None:
        if refusing[0] and len(written) >= after:
            raise OSError(err, os.strerror(err), str(path))
        written.append(text)
        real(path, text)

    real_unlink = Path.unlink

    def unlink(path: Path, missing_ok: bool = False) -> None:
        if unlink_too and refusing[0] and path == dice_tray.table_path():
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(dice_tray, "atomic_write_text", write)
    monkeypatch.setattr(Path, "unlink", unlink)
    return refusing


def game_with_its_menu(screen: PlayerAtTheScreen, shutdown: str = "") -> Session:
    """A game of JongRogue, the run's mode now, with the System menu `companion play`
    builds for it (play.session.system_menu)."""
    config = load_config(overrides={"play.mode": "game", "input.poll_seconds": 0.005,
                                    "play.shutdown_command": shutdown})
    controls = Controls([screen], clock=screen.time_at_the_table)
    menu = play_session.system_menu(config, screen, controls, lambda mode: "")
    assert menu is not None
    menu.sleep = lambda s: None
    game = Game("plus")
    mode = JongRogueMode(game, HeadlessPlayer(SEED), describe)
    return Session(mode, choices=MenuChoices(controls, 0.0, lambda s: None),
                   tiles=SimTiles(game, mode.sim), display=screen, system_menu=menu)
