"""``companion calibrate camera`` on a disk that refuses one of its files (full): what is kept
is a calibration that goes together, and one line says what was not saved and what to do.

The disk's refusal is the world's edge: ``os.replace`` raising ENOSPC for one path.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from companion.app.calibrate.camera import CALIBRATION_FILE, SLOT_LOOKS_FILE, VIEW_FILE
from companion.app.cli import main
from companion.app.paths import config_dir, data_dir
from tests.hw.test_camera_cli import tile_picture

NO_SPACE = os.strerror(errno.ENOSPC)


def disk_full_for(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk refuses every write of ``path``; the other files are written."""
    real = os.replace

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        if Path(dst) == path:
            raise OSError(errno.ENOSPC, NO_SPACE)
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def calibrate(source: str) -> int:
    return main(["calibrate", "camera", "--frames", "2", "--source", source])




def test_a_full_data_folder_does_not_stop_the_calibration(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """camera_check.jpg is only a picture to look at, but a data folder full of logs stopped
    the calibration at it: nothing measured, nothing saved, and only the OS error said.
    Now one line says the picture was not saved, and the calibration is measured and saved."""
    view = data_dir() / VIEW_FILE
    disk_full_for(view, monkeypatch)
    assert calibrate("render:") == 0
    out, err = capsys.readouterr()
    assert out.startswith("mat found; focus") and str(view) not in out
    assert err == (f"companion: cannot save the check picture ({view}: {NO_SPACE}): the "
                   "calibration goes on without it; free space in the data folder to see it "
                   "next time\n")
    assert (config_dir() / CALIBRATION_FILE).exists() and (config_dir() / SLOT_LOOKS_FILE).exists()
    assert not view.exists()


def test_a_full_data_folder_without_the_mat_says_the_frame_was_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The mat not found: the camera's last frame is all there is to look at, and the full
    folder ended the command on the OS error before the reason the mat was not found."""
    picture = tile_picture(tmp_path / "tile.png", "1p")
    view = data_dir() / VIEW_FILE
    disk_full_for(view, monkeypatch)
    assert calibrate(str(picture)) == 1
    out, err = capsys.readouterr()
    assert "mat not found: mat not in view" in out and "saved the camera's last frame" not in out
    assert err.startswith(f"companion: cannot save the check picture ({view}: {NO_SPACE})")
