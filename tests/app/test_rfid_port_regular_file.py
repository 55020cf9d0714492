"""rfid71 NIT 3: ``--port`` naming a regular file (a saved capture) is refused at once,
naming the file and how a capture is replayed (``--port - < FILE``); it said "(25,
'Inappropriate ioctl for device')" and waited for ever. A game given one says the same
in its status."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import cli
from companion.hw.rfid.tray import TrayReader

HOW = "it is a file, not a serial port: a saved capture is replayed from stdin, with `--port - < "


@pytest.mark.parametrize("command", [["rfid", "monitor"], ["calibrate", "rfid", "--only", "5p"]])
def test_a_file_given_as_the_port_is_refused_saying_how_to_replay_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    capture = tmp_path / "cap.txt"
    capture.write_text("J1 0 HB 1 *0000\n", encoding="ascii")
    assert cli.main([*command, "--port", str(capture)]) == 1
    err = capsys.readouterr().err
    assert f"--port {capture}: {HOW}{capture}`" in err


def test_a_game_given_a_file_says_it_in_its_status(tmp_path: Path) -> None:
    capture = tmp_path / "cap.txt"
    capture.write_text("", encoding="ascii")
    reader = TrayReader(str(capture))
    try:
        reader.poll_events()
        message = reader.status().message
    finally:
        reader.close()
    assert message.startswith(f"cannot open {capture}: {HOW}{capture}`")
    assert "Inappropriate ioctl" not in message
