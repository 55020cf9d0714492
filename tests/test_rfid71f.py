"""reviewr71 NIT 1: ``--port -`` is stdin, never the file named ``-`` in the folder the
command runs in: with such a file there, the capture on stdin was refused as "a file, not a
serial port", in the very message that says to replay it with ``--port -``."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hw.rfid.protocol import Kind, encode
from tests.hw.test_rfid_monitor import json_lines, replay, replayed


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
