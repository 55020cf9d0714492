"""A run's flags that a saved game overrules are said to be ignored as the command begins,
once: a return to the game from another mode (the System menu's dice tray, then JongRogue)
said "--seed ignored: the saved game keeps its own" again, on stderr (the service's
journal), though the player typed nothing (screen66 NIT 2). Driven as
test_system_menu's runs are: `companion play` on a pty, a player typing."""

from __future__ import annotations

import os
from pathlib import Path

from tests.app.play_pty_helpers import Terminal
from tests.app.system_menu_helpers import SEED, SYSTEM, first_choice

IGNORED = "ignored: the saved game keeps its own"


def test_the_saved_game_s_note_is_said_at_the_command_s_start_only(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100",
           "COMPANION_DICE_SOURCE": "sim"}
    argv = ["--input", "sim", "--choices", "keyboard", "--display", "terminal",
            "--seed", str(SEED)]
    asked = first_choice()
    started = Terminal(argv, env)  # a game of the seed, saved at its first choice
    started.answer(asked, 1, b"")
    started.proc.terminate()
    started.finish()
    term = Terminal([*argv, "--resume"], env)
    term.answer(asked, 1, b"s")
    term.answer(SYSTEM, 1, b"3")  # Dice tray
    term.answer("roll dice, or an event table?", 1, b"s")
    term.answer(SYSTEM, 2, b"2")  # JongRogue
    term.answer(asked, 2, b"")  # the same game, carried on
    term.proc.terminate()
    term.finish()
    err = term.proc.stderr.read().decode() if term.proc.stderr else ""
    assert err.count(f"--seed {IGNORED}") == 1, err
