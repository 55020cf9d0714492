"""reviewr71 NIT 1: ``--port -`` is stdin, never the file named ``-`` in the folder the
command runs in: with such a file there, the capture on stdin was refused as "a file, not a
serial port", in the very message that says to replay it with ``--port -``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.simulator import TraySimulator
from tests.hw.rfid_monitor_helpers import json_lines, replay, replayed

UID_5P = "04000005"
UID_7P = "04000009"


def test_port_dash_reads_stdin_beside_a_file_named_dash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "here"
    folder.mkdir()
    (folder / "-").write_text("x\n", encoding="ascii")
    monkeypatch.chdir(folder)
    replay(tmp_path, monkeypatch, encode(0, Kind.HELLO, "1.3.3", "5")
           + encode(1, Kind.SNAP, "04A1B2C3", *"----"))
    assert replayed(["rfid", "monitor", "--port", "-", "--json"]) == 0
    captured = capsys.readouterr()
    assert "it is a file" not in captured.err
    assert [(d["event"], d["slot"]) for d in json_lines(captured.out) if "uid" in d] \
        == [("placed", "draw")]


class StallsOnce:
    """``rfid monitor``'s stop flag, stepping the simulated tray at every look: once the
    monitor has shown the 5p laid on the draw slot, it stalls 1.2 s (Ctrl-Z and fg, a slow
    terminal) while a tile is laid on the top-left room slot and lifted; it stops when the
    monitor shows that lift, or after 10 s."""

    def __init__(self, sim: TraySimulator, capsys: pytest.CaptureFixture[str]) -> None:
        self.sim, self.capsys = sim, capsys
        self.out = ""
        self.stalled = False
        self.deadline = time.monotonic() + 10
        sim.place(0, UID_5P)

    def events(self) -> list[tuple[str, str]]:
        return [(d["event"], d["slot"]) for d in json_lines(self.out) if "uid" in d]

    @property
    def stopped(self) -> bool:
        self.sim.step()
        self.out += self.capsys.readouterr().out
        if not self.stalled and ("placed", "draw") in self.events():
            self.stalled = True
            self.sim.place(1, UID_7P)
            self.sim.settle()
            self.sim.remove(1)
            self.sim.settle()
            time.sleep(1.2)
        return ("removed", "room_tl") in self.events() or time.monotonic() > self.deadline

    def __enter__(self) -> StallsOnce:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_the_monitor_shows_every_move_it_received_after_a_stall(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewr71 RISK 2: the monitor reads the tray all the time, so a backlog after a stall
    is no stale news to it but moves its user is watching for: all are shown, as before
    catching up (rfid71 DEFECT 1) hid the lay and lift of a tile made during the stall."""
    from companion.app import cli
    from companion.app.commands import rfid

    with TraySimulator(heartbeat_ms=1000) as sim:
        stop = StallsOnce(sim, capsys)
        monkeypatch.setattr(rfid, "StopSignal", lambda: stop)
        cli.main(["rfid", "monitor", "--port", sim.port, "--kind", "tray", "--json"])
    stop.out += capsys.readouterr().out
    assert stop.stalled, stop.out
    assert stop.events()[:3] == [("placed", "draw"), ("placed", "room_tl"),
                                 ("removed", "room_tl")], stop.out
