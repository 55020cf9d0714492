"""Shared by the firmware's tray logic tests: the host end of the line (Wire), a tray on
simulated readers (make_tray), and run, which polls it step by step."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from companion.hw.rfid.protocol import LineReader, Message
from companion.hw.rfid.simulator import SimulatedReader


class Wire:
    """The host end: every line the tray sends, parsed with the host's own LineReader."""

    def __init__(self) -> None:
        self.reader = LineReader()
        self.messages: list[Message] = []

    def send(self, line: str) -> None:
        self.messages += self.reader.feed(line.encode())

    def take(self) -> list[tuple[str, tuple[str, ...]]]:
        taken = [(m.kind.value, m.args) for m in self.messages]
        self.messages.clear()
        return taken


def make_tray(
    logic: ModuleType, slots: int = 3, **options: Any
) -> tuple[Any, list[SimulatedReader], Wire]:
    readers = [SimulatedReader() for _ in range(slots)]
    wire = Wire()
    options.setdefault("heartbeat_ms", 10_000)
    tray = logic.Tray(readers, "1.0.0", wire.send, **options)
    return tray, readers, wire


def run(tray: Any, steps: int, now: int = 0) -> None:
    for _ in range(steps):
        tray.step(now)
