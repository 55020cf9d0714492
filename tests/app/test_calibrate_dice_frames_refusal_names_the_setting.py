"""r77dice (NIT on e9d385a2): ``calibrate dice --frames N`` with a picture set in
``dice.camera_source`` was refused as "… and /path.png is one picture, read once", never
naming where the picture came from: the player gave ``--frames`` alone."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from tests.dice_scenes import still_scene


def test_a_picture_set_as_the_dice_camera_names_its_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lay.png"
    cv2.imwrite(str(path), still_scene(700, 2).image)
    monkeypatch.setenv("COMPANION_DICE_CAMERA_SOURCE", str(path))
    assert cli.main(["calibrate", "dice", "--frames", "3"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"--frames is how many frames of one lay the thresholds are tuned on, and {path}, "
            "set in dice.camera_source (COMPANION_DICE_CAMERA_SOURCE), is one picture, read "
            "once: leave --frames out") in " ".join(err.split())
    assert not (config_dir() / "dice.toml").exists()
