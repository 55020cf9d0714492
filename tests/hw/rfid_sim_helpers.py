"""The tray simulator and the host's reader of it: settings, stickers, the firmware's version and
the pump that reads what the tray said (the tray tests and tests/hw/conftest.py; tidy72c: no
test module imports another)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from companion.hw.ports import ReaderStatus, Slot
from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.link import Backoff
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader, TraySettings

#: For the tests of the link's timeouts, which they make quick to reach.
FAST = TraySettings(hello_timeout=0.2, heartbeat_timeout=0.25,
                    backoff=Backoff(initial=0.01, maximum=0.1))


#: For the tests that feed the host lines by hand (the simulator not stepped, so no
#: heartbeat comes) and are not about timeouts: with FAST's, a stall of 0.2 s on a loaded
#: machine took the link for silent, and the reopening threw the injected lines away
#: (flaky64 T2). The ``patient_tray`` fixture reads with these.
PATIENT = TraySettings(hello_timeout=30, heartbeat_timeout=30, backoff=FAST.backoff)


UID_5P = "04A1B2C3"


UID_7Z = "04112233445566"


#: What firmware/main.py sets, whose logic the simulator runs (maker audit 56 #11: it said
#: 1.0.0 while running 1.1's, with ERR COLLISION).
FIRMWARE_VERSION = re.search(r'^FIRMWARE_VERSION = "([^"]+)"', (
    Path(__file__).resolve().parents[2] / "firmware" / "main.py").read_text(encoding="utf-8"),
    re.MULTILINE).group(1)  # type: ignore[union-attr]


#: How long a wait for what must come may take: it ends as soon as it comes, so only a
#: failing test waits this long. A loaded machine stalls a test for 100s of ms (flaky64).
PATIENCE = 5.0


def pump(sim: TraySimulator, tray: TrayReader,
         until: Callable[[list[TagEvent]], bool] = lambda events: False,
         timeout: float = PATIENCE) -> list[TagEvent]:
    """Step the tray and poll the host until ``until(events)`` or ``timeout`` seconds, at
    least once (a stall before the first step does not leave the host unpolled)."""
    events: list[TagEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        sim.step()
        events += tray.poll_events()
        if until(events) or time.monotonic() >= deadline:
            return events
        tray.wait(0.002)


def host_only(tray: TrayReader, timeout: float,
              until: Callable[[list[TagEvent]], bool] = lambda events: False) -> list[TagEvent]:
    """Poll the host alone (the tray not stepped: only injected lines come) until
    ``until(events)`` or ``timeout`` seconds, at least once."""
    events: list[TagEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        tray.wait(0.005)
        events += tray.poll_events()
        if until(events) or time.monotonic() >= deadline:
            return events


def ready(sim: TraySimulator, tray: TrayReader, timeout: float = PATIENCE) -> ReaderStatus:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not tray.status().ok:
        pump(sim, tray, timeout=0.01)
    return tray.status()


def connect_with_two_tiles(sim: TraySimulator, tray: TrayReader) -> None:
    """5p on the draw slot and 7z top left, both reported; then the tray unplugged."""
    sim.place(0, UID_5P)
    sim.place(1, UID_7Z)
    sim.settle()
    assert len(pump(sim, tray, until=lambda e: len(e) == 2)) == 2
    sim.unplug()
    pump(sim, tray, until=lambda e: not tray.status().ok)
    assert not tray.status().ok


def placed(events: list[TagEvent]) -> list[tuple[Slot, str, str | None]]:
    return [(e.slot, e.uid, e.label) for e in events if e.action is TagAction.PLACED]


def removed(events: list[TagEvent]) -> list[tuple[Slot, str]]:
    return [(e.slot, e.uid) for e in events if e.action is TagAction.REMOVED]
