"""``python -m companion ...`` in a process of its own, for tests of a whole command that
answers keys, a tray or a signal while it runs."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


class CompanionProcess:
    """The command's stdout is read without blocking, so a test can wait for a prompt while
    it drives the world the command sees; the process is killed if the test fails."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", *args], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.out = b""

    def __enter__(self) -> CompanionProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def wait_for(self, marker: bytes, timeout: float = 60,
                 each: Callable[[bytes], None] | None = None, pause: float = 0.02) -> bytes:
        """Read stdout until ``marker`` is in it (asserted), calling ``each`` with what was
        read so far between reads; everything read."""
        deadline = time.monotonic() + timeout
        while marker not in self.out and time.monotonic() < deadline and self.proc.poll() is None:
            if each is not None:
                each(self.out)
            assert self.proc.stdout is not None
            self.out += self.proc.stdout.read() or b""
            time.sleep(pause)
        assert marker in self.out, self.out.decode(errors="replace")
        return self.out

    def send(self, keys: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(keys)
        self.proc.stdin.flush()

    def finish(self, signal: int | None = None, timeout: float = 30) -> tuple[str, str]:
        """Send ``signal`` (or nothing) and wait for the end: (all of stdout, stderr)."""
        if signal is not None:
            self.proc.send_signal(signal)
        rest, err = self.proc.communicate(timeout=timeout)
        return (self.out + rest).decode(), err.decode()

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode


def run_companion(*args: str, stdin: IO[bytes] | int = subprocess.DEVNULL,
                  timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``python -m companion ARGS`` to its end, its output captured."""
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, stdin=stdin,
                          capture_output=True, env=os.environ.copy(), timeout=timeout)
