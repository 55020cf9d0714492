"""An RFID capture replayed on stdin to `companion` in this process, its JSON lines, and a stop
flag that steps the simulated tray, for the rfid monitor tests."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.app import cli
from companion.hw.rfid.simulator import TraySimulator
from tests.deadline import ends_within

#: A capture replayed (``--port -``) ends the monitor with it, in well under a second.
REPLAY_SECONDS = 20


def replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    capture = tmp_path / "capture.bin"
    capture.write_bytes(data)
    stream = capture.open("r", encoding="latin-1")
    monkeypatch.setattr(sys, "stdin", stream)


def replayed(args: list[str]) -> int:
    """``companion ARGS`` in this process, on the capture ``replay`` put on stdin: it ends
    with the capture, so a regression that waits on for more fails the test within
    seconds instead of hanging the suite."""
    with ends_within(REPLAY_SECONDS, f"companion {' '.join(args)} on a capture"):
        return cli.main(args)


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


class StepsTheTray:
    """The monitor's stop flag: steps the simulated tray on every look, and stops once
    ``until`` holds (or after 10 s: the work takes about 0.3 s, on a loaded machine more)."""

    def __init__(self, sim: TraySimulator, until: Any) -> None:
        self.sim, self.until = sim, until
        self.deadline = time.monotonic() + 10

    @property
    def stopped(self) -> bool:
        self.sim.step()
        return bool(self.until()) or time.monotonic() > self.deadline
