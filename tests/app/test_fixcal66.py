"""Audit cal66's findings on ``companion calibrate camera|rfid|dice``, run as the player runs
them: rendered frames as ``--source``, the tray simulator, a disk that refuses writes."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.enrol import ENROL_FILE
from companion.hw.dice.render import SceneKind, Table, render_scene


def two_dice_photo(tmp_path: Path) -> tuple[str, str]:
    """A photo of two dice, and their values as the player types them."""
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    path = tmp_path / "dice.png"
    cv2.imwrite(str(path), scene.image)
    return str(path), " ".join(str(d.value) for d in scene.dice)


def test_dice_read_counts_the_dice_enrolled_not_their_turned_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 D1: two dice enrolled from one throw were said by `dice read` (the check line
    hardware/camera.md step 5 points to) to be "your 16 enrolled dice": each die is kept in
    8 turned views."""
    photo, typed = two_dice_photo(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\n{typed}\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", photo, "--throws", "1"]) == 0
    assert "enrolled 2 dice from 1 throw; 2 dice enrolled in all" in capsys.readouterr().out
    assert cli.main(["dice", "read", photo]) == 0
    assert capsys.readouterr().err.endswith(
        f"; your 2 enrolled dice ({config_dir() / ENROL_FILE})\n")
