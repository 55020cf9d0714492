"""The dice camera opened through ``open_source``, as the play session opens its own
(review64e NIT 2): a bad picture set as ``dice.camera_source`` was said without the
setting's name, and a picture was read twice at open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.hw.dice.frames import CameraStream, frame_iterator
from companion.hw.dice.render import SceneKind, Table, render_scene


def test_a_bad_picture_as_the_dice_camera_setting_is_named_by_the_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "dice.png"
    picture.write_text("not a picture")
    monkeypatch.setenv("COMPANION_DICE_CAMERA_SOURCE", str(picture))
    assert main(["roll", "1D6", "--dice", "camera"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith(f"companion: error: dice.camera_source (COMPANION_DICE_CAMERA_SOURCE): "
                          f"{picture}: not a picture that can be read")


def test_a_picture_is_read_once_at_open_and_then_again_and_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picture = tmp_path / "dice.png"
    cv2.imwrite(str(picture), render_scene(700, kind=SceneKind.LOOSE, count=1,
                                           table=Table.FELT).image)
    reads: list[str] = []
    imread = cv2.imread

    def counted(path: str, *flags: Any) -> Any:
        if not flags or flags[0] == cv2.IMREAD_COLOR:
            reads.append(path)
        return imread(path, *flags)

    monkeypatch.setattr(cv2, "imread", counted)
    stream = frame_iterator(load_config().dice_camera(str(picture)))
    try:
        assert reads == [str(picture)]  # the check at open, once
        assert isinstance(stream, CameraStream) and stream.still
        frames = [next(stream) for _ in range(3)]  # a photo's dice lie still: read again
    finally:
        stream.close()
    assert all(not isinstance(f, str) for f in frames)
