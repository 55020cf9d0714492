"""Audit calib62 of `companion calibrate` (camera, rfid, dice): the fixes of fix62c."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.camera_settings import CALIBRATION_FILE, ENROLMENT_FILE, SLOT_LOOKS_FILE
from companion.app.cli import main
from companion.app.paths import config_dir
from companion.hw.camera.classifier import Enrolment
from tests.app.table_camera import table_camera
from tests.app.test_calibrate_camera import empty_mat
from tests.hw.test_camera_cli import tile_picture


def calibrate(*extra: str) -> int:
    return main(["calibrate", "camera", "--frames", "2", *extra])


@pytest.mark.parametrize("mend", ["typo", "deleted"])
def test_a_failing_frame_keeps_the_slot_looks_when_camera_toml_is_unreadable_or_gone(
        mend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """D1: one hand-edit typo in camera.toml (or deleting it to reset the [reader] settings)
    let a dark frame replace the good slots' empty looks without --force."""
    assert calibrate("--source", table_camera(monkeypatch)) == 0
    toml, looks = config_dir() / CALIBRATION_FILE, config_dir() / SLOT_LOOKS_FILE
    good = looks.read_bytes()
    if mend == "typo":
        toml.write_text(toml.read_text().replace("min_confidence = ", "min_confidence = 0,"))
    else:
        toml.unlink()
    edited = toml.read_bytes() if toml.exists() else None
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (empty_mat() * 0.2).astype(np.uint8))
    capsys.readouterr()
    assert calibrate("--source", str(dark)) == 1
    out = capsys.readouterr().out
    assert "not saved: this frame failed the checks above" in out and "--force" in out
    assert looks.read_bytes() == good
    assert (toml.read_bytes() if toml.exists() else None) == edited
    assert not list(config_dir().glob("*.corrupt-*"))
    assert calibrate("--source", str(dark), "--force") == 1  # meant: saved in their place
    assert looks.read_bytes() != good


def test_enrol_from_leaves_out_black_washed_out_and_flat_pictures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R2: a lens-cap-black or a blank grey picture was enrolled as its file's kind."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "5p.png", "5p")
    tile_picture(folder / "5z.png", "5z")  # the blank White: plain, but a tile
    cv2.imwrite(str(folder / "3m.png"), np.zeros((320, 240, 3), np.uint8))
    cv2.imwrite(str(folder / "4m.png"), np.full((320, 240, 3), 255, np.uint8))
    cv2.imwrite(str(folder / "6m.png"), np.full((320, 240, 3), 90, np.uint8))
    assert main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "  3m.png skipped: the picture is black: is the lens covered, or the light off?\n" \
        in out
    assert "  4m.png skipped: the picture is washed out" in out
    assert "  6m.png skipped: it is all one grey, with no tile's face in it; photograph the " \
        "tile's face\n" in out
    assert sorted(Enrolment.load(config_dir() / ENROLMENT_FILE).labels) == ["5p", "5z"]
