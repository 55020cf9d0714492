"""rfid71 NIT 5: a replayed two-way capture (``--port -``) holds the host's own lines as
well as the tray's, as PROTOCOL.md's "A session" does. They are not the tray's: its
numbering is not theirs, so they no longer make ``lost`` or ``out_of_order`` of the
tray's next line, and a host's argument-less SNAP is no empty snapshot."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hw.rfid.protocol import Kind, encode
from tests.hw.rfid_monitor_helpers import json_lines, replay, replayed

TRAY = "04A1B2C3"


def counters_and_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str], lines: list[bytes],
                        ) -> tuple[dict[str, int], list[tuple[str, str]]]:
    replay(tmp_path, monkeypatch, b"".join(lines))
    assert replayed(["rfid", "monitor", "--port", "-", "--json"]) == 0
    out = json_lines(capsys.readouterr().out)
    return out[-1]["counters"], [(d["event"], d["slot"]) for d in out if "uid" in d]


def test_the_hosts_lines_in_a_capture_are_not_the_trays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    counters, events = counters_and_events(tmp_path, monkeypatch, capsys, [
        encode(0, Kind.HELLO),  # host
        encode(40, Kind.HELLO, "1.3.3", "5"),
        encode(41, Kind.SNAP, TRAY, *"----"),
        encode(1, Kind.SNAP),  # host: the tray's 42 and 43 follow
        encode(42, Kind.SNAP, TRAY, "04000001", *"---"),
        encode(2, Kind.PING),  # host
        encode(43, Kind.HB, "7"),
        encode(44, Kind.REMOVE, "0", TRAY),
    ])
    assert (counters["lost"], counters["out_of_order"], counters["duplicates"]) == (0, 0, 0)
    assert events == [("placed", "draw"), ("placed", "room_tl"), ("removed", "draw")]


def test_a_hosts_snap_first_in_a_capture_is_no_empty_snapshot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    counters, events = counters_and_events(tmp_path, monkeypatch, capsys, [
        encode(7, Kind.SNAP),  # host, mid-session: the tray's lines follow
        encode(12, Kind.PLACE, "0", TRAY),
        encode(13, Kind.SNAP, TRAY, *"----"),
    ])
    assert counters["lost"] == 0 and counters["out_of_order"] == 0
    assert events == [("placed", "draw")]
