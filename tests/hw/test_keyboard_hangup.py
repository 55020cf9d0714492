"""A keyboard game whose terminal went away stops as on Ctrl-C (env58 N6): with SIGHUP
ignored (a shell's or a parent's ``trap '' HUP``; nohup is no such case, as it gives the
game no terminal to read keys from) it read the ended terminal as "no keys" for ever,
holding the save, and the next `play --resume` was refused as in use. The terminal is a
real pty whose master side is closed, as when an SSH session drops or a terminal window
goes. A live terminal is no such end (review58a N-1)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import termios
import time
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


def in_the_shells_settings(fd: int) -> None:
    """The terminal's settings as bash puts them back on a job it stopped (Ctrl-Z) and
    brings back (``fg``): lines, Ctrl-D their end."""
    settings = termios.tcgetattr(fd)
    settings[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, settings)


def polled_until_a_press(keys: KeyboardInput) -> list[Button | object]:
    """The first presses polled, within 5 s: the keyboard's reader thread takes the bytes
    as they come (keys68), so the test cannot wait on the terminal's fd for them."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        presses = keys.poll()
        if presses:
            return list(presses)
        time.sleep(0.01)
    return []


def test_brought_back_after_a_stop_the_keys_need_no_enter() -> None:
    """review58a N-1: after Ctrl-Z and ``fg`` the shell's settings stayed: keys waited for
    Enter, and Ctrl-D stopped the game. SIGCONT sets cbreak again; closed, the handler
    before it is back."""
    before = signal.getsignal(signal.SIGCONT)
    master, slave = os.openpty()
    try:
        keys = KeyboardInput(slave)
        in_the_shells_settings(slave)
        os.kill(os.getpid(), signal.SIGCONT)  # Python runs the handler before the next line
        assert not termios.tcgetattr(slave)[3] & termios.ICANON
        os.write(master, b"a")
        assert polled_until_a_press(keys) == [Button.ATTACK]  # no Enter
        keys.close()
        assert termios.tcgetattr(slave)[3] & termios.ICANON  # the terminal's own, back
        assert signal.getsignal(signal.SIGCONT) == before
    finally:
        os.close(master)
        os.close(slave)


def test_ctrl_d_on_a_live_terminal_is_no_stop() -> None:
    """review58a N-1: a terminal given its line settings back by anything else reads Ctrl-D
    as 0 bytes, which read as the terminal gone and stopped a live game, saved; it is a
    terminal not hung up, set to cbreak again."""
    master, slave = os.openpty()
    try:
        keys = KeyboardInput(slave)
        in_the_shells_settings(slave)
        os.write(master, b"\x04")
        deadline = time.monotonic() + 5
        while termios.tcgetattr(slave)[3] & termios.ICANON:  # cbreak again (it flushes)
            assert time.monotonic() < deadline and keys.poll() == []
            time.sleep(0.01)
        os.write(master, b"f")
        assert polled_until_a_press(keys) == [Button.FLEE]  # Ctrl-D nothing, and no stop
        keys.close()
    finally:
        os.close(master)
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
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))  # trap '' HUP
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
