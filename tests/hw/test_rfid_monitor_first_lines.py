"""newfix61: `companion rfid monitor`'s first lines on a normal start (newuser61 N10), and a
tag map cut short names its line (N7: tests/hw/test_rfid_tagmap.py)."""

from __future__ import annotations

import io
import time

from companion.app.commands.rfid import connecting, monitor, status_line
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import LinkState, TrayReader
from tests.hw.rfid_monitor_helpers import StepsTheTray
from tests.hw.rfid_sim_helpers import FIRMWARE_VERSION
from tests.hw.rfid_tray_helpers import TtyPort


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


def test_the_tray_is_named_before_the_stickers_already_lying_on_it() -> None:
    """maker73 NIT 5: the tiles lying on the tray at its hello were printed before
    "-- ok: tray on …", which hardware/README.md says comes first."""
    out = io.StringIO()
    with TraySimulator(heartbeat_ms=50) as sim:
        sim.place(0, "04A1B2C3")
        sim.settle()
        reader = TrayReader(sim.port)
        assert reader.poll_events() == []  # opens the port and says HELLO
        # The tray's HELLO and its snapshot (the tile lying there) come in one read, as
        # from a tray plugged in with tiles on it.
        time.sleep(0.05)
        sim.settle()
        time.sleep(0.05)
        monitor(reader, out, False, StepsTheTray(sim, lambda: " lying " in out.getvalue()))
    lines = out.getvalue().splitlines()
    ok = next(n for n, line in enumerate(lines) if line.startswith("-- ok: tray on "))
    lying = next(n for n, line in enumerate(lines) if " lying " in line)
    assert ok < lying, lines


class LaysATagOnTheThirdLook:
    """The monitor's stop flag for an RDM6300 on ``port``: a tag's frame arrives after two
    polls, and the monitor stops once its line is printed."""

    def __init__(self, port: TtyPort, out: io.StringIO) -> None:
        self.port, self.out, self.looks = port, out, 0

    @property
    def stopped(self) -> bool:
        self.looks += 1
        if self.looks == 3:
            self.port.waiting += frame("0F00A1B2C3")
        return " lying " in self.out.getvalue() or self.looks > 50


def test_the_rdm6300_is_named_before_its_first_tag() -> None:
    """maker73 NIT 5: an RDM6300's first tag was printed before "-- ok: RDM6300 on …", the
    line that names the reader."""
    out = io.StringIO()
    port = TtyPort()
    reader = Rdm6300Reader("/dev/serial0", TagMap(), opener=lambda device, baud: port)
    monitor(reader, out, False, LaysATagOnTheThirdLook(port, out))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("-- ok: RDM6300 port /dev/serial0 open, no tag read yet"), lines
    named = lines.index("-- ok: RDM6300 on /dev/serial0 (draw slot)")
    # Within the reader's first second: a tag lying there as it came up.
    lying = next(n for n, line in enumerate(lines) if " lying " in line)
    assert named == lying - 1, lines
