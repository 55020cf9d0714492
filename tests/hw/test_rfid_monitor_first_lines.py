"""newfix61: `companion rfid monitor`'s first lines on a normal start (newuser61 N10), and a
tag map cut short names its line (N7: tests/hw/test_rfid_tagmap.py)."""

from __future__ import annotations

import io
import time

from companion.app.commands.rfid import connecting, monitor, status_line
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import LinkState, TrayReader
from tests.hw.rfid_monitor_helpers import StepsTheTray
from tests.hw.rfid_sim_helpers import FIRMWARE_VERSION


def test_a_tray_saying_hello_is_connecting_not_a_problem() -> None:
    """Every normal start began with "-- problem: waiting for the tray … to say hello",
    and "(waiting for the reader …)" under it; a second later "-- ok". The wait for the
    hello is "-- connecting", and "problem" is kept for a real one."""
    out = io.StringIO()
    with TraySimulator(heartbeat_ms=50) as sim:
        reader = TrayReader(sim.port)
        monitor(reader, out, False, StepsTheTray(sim, lambda: "-- ok" in out.getvalue()))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"-- connecting: waiting for the tray on {sim.port} to say "
                               "hello トレイの応答待ち"), lines
    # A HELLO and its SNAP read apart (a loaded machine) add "-- connecting: … reading what
    # lies on it" between them, as the test below pins: still connecting, never a problem.
    ok = next(n for n, line in enumerate(lines) if line.startswith("-- ok: tray on "))
    assert all(line.startswith("-- connecting: ") for line in lines[:ok]), lines
    assert not any("problem" in line or "waiting for the reader" in line for line in lines)


def test_a_hello_read_a_poll_before_its_snapshot_is_still_connecting() -> None:
    """The tray's HELLO and SNAP came in two reads: the monitor printed "-- problem: …
    reading what lies on it" between them (a flaky run of the test above, fixf64b)."""
    with TraySimulator() as sim:
        reader = TrayReader(sim.port)
        reader.poll_events()  # opens the port and says HELLO; the tray stays silent
        sim.inject(encode(0, Kind.HELLO, FIRMWARE_VERSION, "5"))
        deadline = time.monotonic() + 10
        while reader.state is not LinkState.READY and time.monotonic() < deadline:
            reader.wait(0.01)
            reader.poll_events()
        line = status_line(reader.status(), False, connecting(reader))
        reader.close()
    assert line.startswith(f"-- connecting: tray on {sim.port}"), line
    assert line.endswith("reading what lies on it トレイの牌を確認中"), line
