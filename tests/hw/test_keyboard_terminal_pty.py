"""keys71 RISK 2, NIT 1: the terminal a game is played in, on a real pty.

Ctrl-S is a key, not XOFF: it froze the game's output until Ctrl-Q. A hangup (SIGHUP)
puts the terminal's settings back as SIGTERM does: it was left in cbreak with ICRNL off.
Ctrl-\\ (SIGQUIT) stops the run as Ctrl-C does (keys75 NIT 3)."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.hw.keyboard import KeyboardInput

ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """``companion`` run on a pty, what it draws read as it comes; the pty's far end is
    kept open here, so the terminal's settings can be read after the process ends."""

    def __init__(self, tmp_path: Path, *args: str, ctty: bool = False) -> None:
        """``ctty``: the pty is the process's controlling terminal (as a login's is), so the
        keys the terminal turns into signals (Ctrl-C, Ctrl-\\) reach it."""
        self.master, self.slave = os.openpty()
        self.before = termios.tcgetattr(self.slave)
        env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
               "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "80",
               "TERM": "xterm"}
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", *args], cwd=ROOT,
                                     stdin=self.slave, stdout=self.slave,
                                     stderr=subprocess.PIPE, env=env,
                                     start_new_session=ctty,
                                     preexec_fn=_controlling_terminal if ctty else None)
        self.seen = bytearray()
        self.lock = threading.Lock()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.seen.extend(chunk)

    def text(self) -> str:
        with self.lock:
            return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", self.seen.decode("utf-8", "replace"))

    def wait_for(self, marker: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker in self.text():
                return True
            time.sleep(0.05)
        return False

    def clear(self) -> None:
        with self.lock:
            self.seen.clear()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.slave)
        os.close(self.master)


def _controlling_terminal() -> None:
    """In the child, its own session already (start_new_session): its stdin, the pty, made
    its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@contextmanager
def dice_tray(tmp_path: Path, ctty: bool = False) -> Iterator[Terminal]:
    terminal = Terminal(tmp_path, "play", "--mode", "dice", "--dice", "sim", "--choices",
                        "keyboard", "--display", "terminal", ctty=ctty)
    try:
        assert terminal.wait_for("Roll", 30), terminal.text()
        yield terminal
    finally:
        terminal.close()


def test_ctrl_s_does_not_freeze_the_game(tmp_path: Path) -> None:
    """Ctrl-S then 2 (roll 2D6): the roll is drawn at once, not when Ctrl-Q comes."""
    with dice_tray(tmp_path) as terminal:
        terminal.clear()
        os.write(terminal.master, b"\x13")
        time.sleep(0.3)
        os.write(terminal.master, b"2")
        assert terminal.wait_for("2D6: total", 5), terminal.text()
        terminal.proc.send_signal(signal.SIGTERM)
        assert terminal.proc.wait(timeout=10) == 130
        # The terminal's own flow control is given back with the rest.
        assert termios.tcgetattr(terminal.slave) == terminal.before


def test_a_hangup_puts_the_terminal_back(tmp_path: Path) -> None:
    """kill -HUP with the terminal still open (no job-control shell to mend it): it was
    left in cbreak, ICRNL off, the process gone unsaid."""
    with dice_tray(tmp_path) as terminal:
        assert termios.tcgetattr(terminal.slave) != terminal.before  # cbreak, while it runs
        terminal.proc.send_signal(signal.SIGHUP)
        assert terminal.proc.wait(timeout=10) == 130
        assert termios.tcgetattr(terminal.slave) == terminal.before


def test_a_hangup_ignored_stays_ignored() -> None:
    """Under ``trap '' HUP`` the game plays on (the terminal gone is found by its read,
    TerminalGone); the keyboard takes no hangup of its own then, and puts back what was."""
    master, slave = os.openpty()
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        keyboard = KeyboardInput(slave)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGHUP)  # ignored: nothing raised
        keyboard.close()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)
        os.close(slave)
        os.close(master)


def test_alt_arrows_on_the_dice_tray_do_not_close_it(tmp_path: Path) -> None:
    """keys73 RISK 1, the real CLI: macOS Terminal's ⌥← (ESC b) asked to close the tray
    (Esc, flee), and PuTTY's Alt+← (ESC ESC [ D) did so before moving the highlight. ⌥←
    now does nothing, Alt+← moves the highlight back onto Quit, and Esc alone still asks."""
    with dice_tray(tmp_path) as terminal:
        terminal.clear()
        os.write(terminal.master, b"\x1bb")
        time.sleep(1)
        os.write(terminal.master, b"\x1b\x1b[D")
        assert terminal.wait_for("▶(f) Quit", 5), terminal.text()
        assert "Close the dice tray?" not in terminal.text()
        time.sleep(0.5)
        os.write(terminal.master, b"\x1b")
        assert terminal.wait_for("Close the dice tray?", 5), terminal.text()
        terminal.proc.send_signal(signal.SIGTERM)
        assert terminal.proc.wait(timeout=10) == 130


def test_ctrl_backslash_stops_as_ctrl_c_does(tmp_path: Path) -> None:
    """keys75 NIT 3: Ctrl-\\ (SIGQUIT; cbreak keeps the terminal's signal keys) ended the run
    with a bare "Quit", exit -3 (131 under a shell), and with no job-control shell to mend
    it the terminal was left in cbreak. Now it is a stop, as Ctrl-C is: 130, the terminal's
    settings put back."""
    with dice_tray(tmp_path, ctty=True) as terminal:
        os.write(terminal.master, b"2")
        assert terminal.wait_for("2D6: total", 5), terminal.text()
        os.write(terminal.master, b"\x1c")
        assert terminal.proc.wait(timeout=10) == 130
        assert termios.tcgetattr(terminal.slave) == terminal.before
