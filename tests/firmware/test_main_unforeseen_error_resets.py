"""firmware/main.py's watchdog and catch-all (audit hw61 N1), under CPython with the fake
``machine``: an unforeseen exception used to leave the tray at the REPL until it was
replugged, while the host said "no hello … running our firmware?"."""

from __future__ import annotations

import sys
import time
from types import ModuleType

import pytest

from tests.firmware.main_helpers import FailingLink


@pytest.fixture
def board_time(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """MicroPython's time.ticks_ms and time.sleep_ms; the sleeps are recorded."""
    clock = iter(range(0, 1_000_000, 3))
    slept: list[int] = []
    monkeypatch.setattr(time, "ticks_ms", lambda: next(clock), raising=False)
    monkeypatch.setattr(time, "sleep_ms", slept.append, raising=False)
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico with RP2040",
                        raising=False)
    return slept


def test_an_unforeseen_error_is_reported_and_the_board_resets(
        firmware_main: ModuleType, board_time: list[int]) -> None:
    import machine

    link = FailingLink(MemoryError("memory allocation failed"), after=25)
    firmware_main.main(link, firmware_main.make_readers())
    assert link.out[0][0] == "HELLO"
    assert link.out[-1] == ("ERR", ("CRASH", "MemoryError"))
    assert board_time == [100]  # USB carries the line out before the reset
    assert machine.RESETS == ["reset"]


def test_ctrl_c_leaves_the_repl_to_mpremote_without_the_watchdog(
        firmware_main: ModuleType, board_time: list[int]) -> None:
    """The RP2040's watchdog cannot be stopped through machine.WDT: left running, it reset
    the board 8 s into an mpremote update."""
    import machine

    link = FailingLink(KeyboardInterrupt(), after=5)
    with pytest.raises(KeyboardInterrupt):
        firmware_main.main(link, firmware_main.make_readers())
    assert not machine.mem32[machine.WATCHDOG_CTRL] & 1 << 30
    assert machine.RESETS == []
    assert all(kind != "ERR" for kind, _ in link.out)

