"""Benchmark the RFID host driver: line-to-event latency and reconnect time.

Targets (issue 4): <= 5 ms from a line's arrival on the serial port to the tile
event on the host; reconnect <= 2 s after the tray is plugged back in. The latency is timed
from the line's write by the tray, so it holds the serial transport too; the host's own
share, from the read that finished the line (``TagEvent.arrived``) to the event in hand,
is printed beside it.

The tray is the simulator (real firmware logic) on a pseudo-terminal, running
in its own thread as a real tray runs on its own chip; the host polls the way
``companion rfid monitor`` does (``wait`` on the port, then ``poll_events``),
with the default settings.

Reconnect is timed from the replug to the host's handshake done, two ways, ``--replugs``
times each:

- the tray kept powered (its port comes back with the tray still running): the host's own
  reopen backoff and handshake, nothing else. A slower backoff shows here;
- the tray restarted, as a real replug does (the USB cable powers it): the simulator is
  power-cycled and boots ``--boot-seconds`` later. 1.3 s by default: PROTOCOL.md's worst
  power-up polls (0.8 s, with readers that do not answer) plus about 0.5 s for MicroPython's
  start and imports (``TraySimulator.power_cycle``). The host reopens the port and says
  HELLO while the tray boots, so its backoff hides under the boot here up to that length.

The kernel's USB enumeration is in neither (the simulator's port appears at once). Usage::

    .venv/bin/python scripts/bench_rfid.py [--events 300] [--replugs 10] [--boot-seconds 1.3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import positive_int
from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats import number_from, percentile  # a script beside this one

LATENCY_TARGET_MS = 5.0
RECONNECT_TARGET_S = 2.0
#: A real tray's restart after a replug, s: PROTOCOL.md's worst power-up polls (0.8 s) plus
#: about 0.5 s for MicroPython's start and imports (TraySimulator.power_cycle).
BOOT_SECONDS = 1.3
#: How long the tray stays unplugged, s (uniform): the host polls all along, and its
#: backoff grows.
AWAY_SECONDS = (0.2, 3.0)


@dataclass
class TrayFigures:
    latencies: list[float] = field(default_factory=list)  # ms, the tray's write -> event
    host: list[float] = field(default_factory=list)  # ms, the host's read -> event
    reopens: list[float] = field(default_factory=list)  # s, tray kept powered: the host's
    reconnects: list[float] = field(default_factory=list)  # s, the tray's restart included


class TimedSimulator(TraySimulator):
    """Notes when each line goes onto the wire, keyed by the UID it carries."""

    def __init__(self) -> None:
        self.written: dict[str, float] = {}
        self.lock = threading.RLock()
        self.running = True
        super().__init__()

    def inject(self, data: bytes) -> None:
        words = data.split()
        if len(words) > 4 and words[2] in (b"PLACE", b"REMOVE"):
            with self.lock:
                self.written[f"{words[2].decode()} {words[4].decode()}"] = time.perf_counter()
        super().inject(data)

    def run(self) -> None:
        while self.running:
            with self.lock:
                self.step()
            time.sleep(0.001)


def summary(name: str, values_ms: list[float]) -> str:
    return (f"{name}: n={len(values_ms)} median={statistics.median(values_ms):.3f} ms "
            f"p95={percentile(values_ms, 0.95):.3f} ms p99={percentile(values_ms, 0.99):.3f} ms "
            f"max={max(values_ms):.3f} ms")


def until_ready(tray: TrayReader, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tray.poll_events()
        if tray.status().ok:
            return True
        tray.wait(0.01)
    return False


def replug(tray: TrayReader, sim: TimedSimulator, rng: random.Random,
           away_seconds: tuple[float, float], boot_seconds: float | None) -> float:
    """Unplug the tray, keep it away a while, plug it back: the seconds from the replug to
    the host's handshake done. ``boot_seconds`` None keeps the tray powered (the port
    alone comes back); else it restarts and boots that much later."""
    with sim.lock:
        sim.unplug()
    deadline = time.monotonic() + 2
    while tray.status().ok and time.monotonic() < deadline:
        tray.poll_events()
        tray.wait(0.01)
    away = time.monotonic() + rng.uniform(*away_seconds)
    while time.monotonic() < away:
        tray.poll_events()
        tray.wait(0.01)
    with sim.lock:
        back = time.monotonic()  # the replug: the tray's boot counts from here
        if boot_seconds is None:
            sim.replug()
        else:  # the cable powers the tray: it restarts, and boots boot_seconds later
            sim.power_cycle(boot_seconds=boot_seconds)
    if not until_ready(tray, 10 + (boot_seconds or 0)):
        raise SystemExit(f"no reconnect: {tray.status().message}")
    return time.monotonic() - back


def bench_tray(events: int, replugs: int, boot_seconds: float = BOOT_SECONDS,
               away_seconds: tuple[float, float] = AWAY_SECONDS) -> TrayFigures:
    """Latencies over ``events`` tiles, then ``replugs`` replugs with the tray kept powered
    and as many with its restart."""
    sim = TimedSimulator()
    tray = TrayReader(lambda: sim.port if sim.plugged else None)
    worker = threading.Thread(target=sim.run, name="tray-simulator")
    worker.start()
    figures = TrayFigures()
    rng = random.Random(4)
    try:
        if not until_ready(tray, 5):
            raise SystemExit(f"the tray never connected: {tray.status().message}")
        for n in range(events):
            uid = f"04{n:06X}"
            with sim.lock:
                sim.place(n % 5, uid)
            got = None
            read = 0.0
            deadline = time.monotonic() + 2
            while got is None and time.monotonic() < deadline:
                tray.wait(0.1)
                for event in tray.poll_events():
                    if event.uid == uid and event.action.value == "placed":
                        got, read = time.perf_counter(), event.arrived
            if got is None:
                raise SystemExit(f"event {n} never arrived: {tray.status()}")
            figures.host.append((got - read) * 1000)
            with sim.lock:
                figures.latencies.append((got - sim.written[f"PLACE {uid}"]) * 1000)
                sim.remove(n % 5)
            time.sleep(rng.uniform(0.0, 0.004))
        for _ in range(replugs):
            figures.reopens.append(replug(tray, sim, rng, away_seconds, None))
            figures.reconnects.append(replug(tray, sim, rng, away_seconds, boot_seconds))
    finally:
        sim.running = False
        worker.join()
        tray.close()
        sim.close()
    return figures


def seconds(name: str, values: list[float]) -> str:
    return (f"{name}: n={len(values)} median={statistics.median(values):.3f} s "
            f"max={max(values):.3f} s")


def reconnect_lines(figures: TrayFigures, boot_seconds: float) -> list[str]:
    return [seconds("tray reopen after replug, tray kept powered (the host's backoff and "
                    "handshake)", figures.reopens),
            seconds(f"tray reconnect after replug, its restart ({boot_seconds:g} s boot) "
                    "included", figures.reconnects)]


def bench_rdm6300(events: int) -> tuple[list[float], list[float]]:
    """Write-to-event and read-to-event latencies (ms)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    reader = Rdm6300Reader(os.ttyname(slave))
    latencies: list[float] = []
    host: list[float] = []
    try:
        reader.poll_events()
        for n in range(events):
            uid = f"{n:010X}"
            sent = time.perf_counter()
            os.write(master, frame(uid))
            got = None
            read = 0.0
            while got is None:
                reader.wait(0.1)
                for event in reader.poll_events():
                    if event.uid == uid:
                        got, read = time.perf_counter(), event.arrived
            latencies.append((got - sent) * 1000)
            host.append((got - read) * 1000)
    finally:
        reader.close()
        os.close(master)
        os.close(slave)
    return latencies, host


def main(argv: list[str] | None = None) -> None:
    # --help shows the whole docstring: what is measured, how to run it, the targets.
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=positive_int, default=300,
                        help="tag events timed of each reader (default %(default)s)")
    parser.add_argument("--replugs", type=positive_int, default=10,
                        help="replugs of each kind, tray kept powered and restarted "
                             "(default %(default)s)")
    parser.add_argument("--boot-seconds", type=number_from(0), default=BOOT_SECONDS,
                        help="the tray's restart after a replug, s (default %(default)s)")
    args = parser.parse_args(argv)
    tray = bench_tray(args.events, args.replugs, args.boot_seconds)
    rdm_latencies, rdm_host = bench_rdm6300(args.events)
    print(summary("tray line -> event", tray.latencies))
    print(summary("tray line read -> event (host)", tray.host))
    print(summary("rdm6300 frame -> event", rdm_latencies))
    print(summary("rdm6300 frame read -> event (host)", rdm_host))
    for line in reconnect_lines(tray, args.boot_seconds):
        print(line)
    ok_latency = percentile(tray.latencies, 0.99) <= LATENCY_TARGET_MS
    ok_reconnect = max(tray.reconnects) <= RECONNECT_TARGET_S
    print(f"target latency p99 <= {LATENCY_TARGET_MS} ms: {'met' if ok_latency else 'MISSED'}")
    print(f"target reconnect <= {RECONNECT_TARGET_S} s: {'met' if ok_reconnect else 'MISSED'}")


if __name__ == "__main__":
    main()
