"""A stand-in for the firmware's ``mfrc522`` module: tags are set per chip-select pin."""

from __future__ import annotations

from typing import Any

TAGS: dict[int, bytes | None] = {}  # CS pin id -> the tag lying on that reader
DEAD: set[int] = set()  # CS pin ids whose chip does not answer
BUILT: list[MFRC522] = []
POLL_MS = 0  # the board's time each init or read takes (machine.elapse, its watchdog)


class MFRC522:
    def __init__(self, spi: Any, cs: Any, rst: Any = None) -> None:
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.init()
        BUILT.append(self)

    def init(self) -> None:
        spend()
        if self.cs.id in DEAD:
            raise OSError("MFRC522 does not answer")

    def read_uid(self) -> bytes | None:
        spend()
        if self.cs.id in DEAD:
            raise OSError("MFRC522 does not answer")
        return TAGS.get(self.cs.id)


def spend() -> None:
    if POLL_MS:
        import machine  # the fake's, in sys.modules (conftest.load_main)

        machine.elapse(POLL_MS)
