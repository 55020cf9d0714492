"""newfix61: `companion rfid monitor`'s first lines on a normal start (newuser61 N10), and a
tag map cut short names its line (N7: tests/hw/test_rfid_tagmap.py)."""

from __future__ import annotations

import io

from companion.app.commands.rfid import monitor
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader
from tests.hw.test_rfid_monitor import StepsTheTray


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
    assert lines[1].startswith("-- ok: tray on "), lines
    assert not any("problem" in line or "waiting for the reader" in line for line in lines)
