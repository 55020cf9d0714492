"""`companion play` in a child process on a pty, as a player at a terminal reads and types it."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import weakref


class Terminal:
    """`companion play` in a child process on a pty: the player reads the screen and types."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.env = env
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "play", *argv],
                                     stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env)
        os.close(slave)
        # A test that fails while the child waits for a key leaves no companion running.
        weakref.finalize(self, self.proc.kill)
        self.seen = bytearray()

    def text(self) -> str:
        return self.seen.decode("utf-8", errors="replace")

    def answer(self, marker: str, times: int, key: bytes, pause: float = 0.1) -> None:
        """Wait until ``marker`` has been shown ``times`` times, then ``pause`` seconds (a
        player reading it), then type ``key``."""
        deadline = time.monotonic() + 30
        while self.text().count(marker) < times:
            assert time.monotonic() < deadline and self.proc.poll() is None, self.text()[-2000:]
            if select.select([self.master], [], [], 0.1)[0]:
                self.seen.extend(os.read(self.master, 65536))
        time.sleep(pause)  # the menu drops presses made before it was shown
        os.write(self.master, key)

    def finish(self) -> int:
        code = self.proc.wait(timeout=30)
        os.close(self.master)
        return code
