"""``calibrate camera --source`` of a video cut short (a half-finished copy) says so beside
why the mat was not found: its last frame was looked at, the rest never came."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import cli


def test_calibrating_on_a_video_cut_short_says_it_is_cut_short(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    whole = tmp_path / "whole.avi"
    table = np.random.default_rng(3).integers(90, 200, (480, 640, 3), dtype=np.uint8)
    writer = cv2.VideoWriter(str(whole), cv2.VideoWriter_fourcc(*"MJPG"), 5, (640, 480))
    for _ in range(6):
        writer.write(table)
    writer.release()
    clip = tmp_path / "table.avi"
    clip.write_bytes(whole.read_bytes()[:whole.stat().st_size * 2 // 3])
    cli.main(["calibrate", "camera", "--source", str(clip)])
    said = " ".join(capsys.readouterr().out.split())
    assert "mat not found" in said
    assert re.search(r"table\.avi: end of video after [1-5] frames: the file holds less than "
                     r"its header says, so it is cut short, as an unfinished copy or "
                     r"download is; copy it again", said)
