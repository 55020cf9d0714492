"""A keyboard game whose terminal went away stops as on Ctrl-C (env58 N6): with its hangup
signal ignored (nohup) it read the ended terminal as "no keys" for ever, holding the save,
and the next `play --resume` was refused as in use. The terminal is a real pty whose master
side is closed, as when an SSH link or a terminal window goes."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from companion.file_locks import holding
from companion.hw.buttons import Button
from companion.hw.keyboard import KeyboardInput


def test_a_terminal_hung_up_is_a_stop_and_its_settings_need_no_restoring() -> None:
    from companion.hw.keyboard import TerminalGone

    master, slave = os.openpty()
    try:
        keys = KeyboardInput(slave)
        os.write(master, b"a")
        select.select([slave], [], [], 5)
        assert keys.poll() == [Button.ATTACK]
        os.close(master)
        with pytest.raises(TerminalGone):
            keys.poll()
        assert isinstance(TerminalGone(), KeyboardInterrupt)  # every stop's handling
        keys.close()  # its settings cannot go back to a terminal gone: no error
    finally:
        os.close(slave)


def test_a_pipe_that_ends_is_no_more_keys() -> None:
    read, write = os.pipe()
    try:
        keys = KeyboardInput(read)
        os.write(write, b"f")
        os.close(write)
        select.select([read], [], [], 5)
        assert keys.poll() == [Button.FLEE]
        assert keys.poll() == []
    finally:
        os.close(read)


def test_a_game_whose_terminal_went_away_with_sighup_ignored_stops_saved(
        tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100", "LINES": "40"}
    master, slave = os.openpty()
    game = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "keyboard",
         "--display", "terminal", "--seed", "5"], stdin=slave, stdout=slave, stderr=slave,
        env=env, start_new_session=True,  # the pty is its terminal, as a login's is
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))  # nohup
    os.close(slave)
    weakref.finalize(game, game.kill)
    shown = b""
    # The game waits for a key once its first menu is up and nothing more comes.
    while b"(a)" not in shown or select.select([master], [], [], 1.0)[0]:
        assert game.poll() is None, shown.decode(errors="replace")
        if select.select([master], [], [], 1.0)[0]:
            shown += os.read(master, 65536)
    os.close(master)  # the terminal goes
    assert game.wait(timeout=60) == 130  # a stop's status: the keys' end, not an error
    save = tmp_path / "data" / "save.json"
    saved = json.loads(save.read_text())
    assert saved["seed"] == 5 and not saved["finished"]
    with holding(save, "the next companion play --resume"):
        pass  # not in use
