"""``companion calibrate dice`` with a video OpenCV cannot open, or a folder none of whose
pictures can be read (review64e NIT 1): it asked for the dice to be laid, and only after
Enter said "no frames from …: the source ended". Both are now said first."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.calibrate.dice import source_missing
from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.errors import DeviceError
from companion.hw.camera.capture import FileSource
from companion.hw.dice.render import SceneKind, Table, render_scene
from tests.app.calibrate_terminal_helpers import Terminal

#: What a file named as a video whose bytes are text is said to be (camera75 NIT 5).
NOT_VIDEO_START = " (it does not begin as a video does: another kind of file?)"


def _not_a_picture(path: Path) -> Path:
    path.write_text("not a picture")
    return path


def _bad_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "throws"
    folder.mkdir()
    for name in ("a.png", "b.png"):
        _not_a_picture(folder / name)
    return folder


@pytest.mark.parametrize("what", ["video", "folder"])
def test_an_unreadable_video_or_folder_is_said_before_the_dice_are_asked_for(
        what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = (_not_a_picture(tmp_path / "throws.avi") if what == "video"
              else _bad_folder(tmp_path))
    terminal = Terminal()
    monkeypatch.setattr("sys.stdin", terminal)
    assert cli.main(["calibrate", "dice", "--source", str(source)]) == 1
    out, err = capsys.readouterr()
    assert "Lay" not in out and terminal.awaited == 0, out
    why = (f"--source: {source}: not a video that can be read{NOT_VIDEO_START}"
           if what == "video" else
           f"--source: {source}: none of its 2 pictures can be read (a.png: not a picture "
           "that can be read; …)")
    assert err == f"companion: error: {why}\n"
    assert not (config_dir() / "dice.toml").exists()


def test_a_folder_whose_first_picture_is_bad_is_not_refused(tmp_path: Path) -> None:
    """A bad picture in a folder is skipped, as it always was: the folder gives frames."""
    folder = tmp_path / "throws"
    folder.mkdir()
    _not_a_picture(folder / "a.png")
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    cv2.imwrite(str(folder / "b.png"), scene.image)
    assert source_missing(load_config().dice_camera(str(folder))) is None


def test_a_setting_s_folder_is_named_by_the_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _bad_folder(tmp_path)
    monkeypatch.setenv("COMPANION_DICE_CAMERA_SOURCE", str(folder))
    why = source_missing(load_config().dice_camera(None))
    assert why is not None and why.startswith("dice.camera_source (COMPANION_DICE_CAMERA_"
                                              f"SOURCE): {folder}: none of its 2 pictures")


def test_a_video_opencv_cannot_open_is_refused_at_open(tmp_path: Path) -> None:
    path = _not_a_picture(tmp_path / "clip.mp4")
    with pytest.raises(DeviceError) as err:
        FileSource(path)
    assert str(err.value) == f"{path}: not a video that can be read{NOT_VIDEO_START}"
