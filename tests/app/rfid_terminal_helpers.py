"""The RFID commands typed in a shell on a terminal with scripts/bootstrap.sh's bare PATH, and a
simulated tray that runs by itself (rfid67's and rfid69's tests; tidy72c: no test module
imports another): import ``tray_fixture`` into a test module to ask for ``tray`` there (named
apart so a test's argument does not shadow the import; tidy74)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.hw.rfid.simulator import TraySimulator

BARE_PATH = "/usr/bin:/bin"  # scripts/bootstrap.sh's: no companion on it
ENROLLED = "04000500000000"  # the 5p sticker: a game needs one enrolled
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
#: The checkout this file is in: its code is the code under test, run from a worktree too
#: (reviewr67 NIT 2: ``-m companion`` from /work/main ran /work/main's).
REPO = Path(__file__).resolve().parents[2]
HERE = {"PATH": BARE_PATH, "PYTHONPATH": str(REPO)}


def on_a_terminal(command: str, cwd: Path, until: tuple[str, ...], keys: bytes = b"",
                  timeout: float = 90) -> str:
    """``command`` typed in a shell on a terminal (a pty) with the bare PATH, until its
    screen shows one of ``until`` (or it ends, or ``timeout``): then ``keys`` typed, or
    Ctrl-C.
    What it showed, the terminal's codes left out."""
    master, slave = os.openpty()
    proc = subprocess.Popen(["sh", "-c", command], stdin=slave, stdout=slave, stderr=slave,
                            cwd=cwd, env={**os.environ, **HERE},
                            start_new_session=True)
    os.close(slave)
    shown = b""

    def text() -> str:
        return ANSI.sub("", shown.decode("utf-8", "replace"))

    def read(seconds: float) -> None:
        nonlocal shown
        if select.select([master], [], [], seconds)[0]:
            try:
                shown += os.read(master, 65536)
            except OSError:  # the terminal closed: the command ended
                time.sleep(seconds)

    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None \
                and not any(word in text() for word in until):
            read(0.1)
        if proc.poll() is None:
            if keys:
                os.write(master, keys)
            else:
                os.killpg(proc.pid, signal.SIGINT)  # its own group: started just above
        end = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < end:
            read(0.1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        os.close(master)
    return text()


class SteppedTray:
    """A simulated tray that runs by itself (stepped by a thread), as a plugged tray does:
    the commands in this process and typed in a shell alike read it."""

    def __init__(self) -> None:
        self.sim = TraySimulator(heartbeat_ms=50)
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while self.running:
            with self.lock:
                self.sim.step()
            time.sleep(0.005)

    def do(self, act: Callable[[TraySimulator], object]) -> None:
        with self.lock:
            act(self.sim)


@pytest.fixture(name="tray")
def tray_fixture() -> Iterator[SteppedTray]:
    """The simulated tray, running by itself as a plugged one."""
    stepped = SteppedTray()
    with stepped.sim:
        stepped.thread.start()
        try:
            yield stepped
        finally:
            stepped.running = False
            stepped.thread.join(timeout=10)
