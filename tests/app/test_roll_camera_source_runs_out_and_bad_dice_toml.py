"""dicecam69: ``roll --dice camera --source FOLDER`` (or a video) that runs out is named,
not taken for a missing camera (NIT 3), and a bad ``dice.toml`` is said within 80 columns
on ``roll --dice camera`` and ``dice read`` (NIT 4), on rendered photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.render import SceneKind, Table, render_scene


def widest(text: str) -> int:
    """The widest line of ``text`` that could be wrapped (a path alone on its line cannot)."""
    return max(len(line) for line in text.splitlines() if " " in line.strip())


def test_a_folder_that_runs_out_is_named_and_no_camera_is_blamed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder of one picture of a throw: "the camera stopped giving frames before the dice
    were read; no camera? throw your own dice …", as if no camera were there."""
    folder = tmp_path / "throws"
    folder.mkdir()
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    cv2.imwrite(str(folder / "a1.png"), scene.image)
    code = cli.main(["roll", "2D6", "--dice", "camera", "--source", str(folder)])
    err = capsys.readouterr().err
    assert code == 1
    said = " ".join(err.split())
    assert (f"{folder}: its pictures ran out before the dice lay still in 4 of them in a row "
            "(a folder is read as a camera's frames, in name order, not one throw per "
            "picture); give one picture of the throw as --source for a single roll, or, for "
            "several throws (an events walk), a folder holding the frames of each throw in "
            "turn, the dice seen moving between them") in said
    assert "no camera?" not in said and "camera stopped" not in said
    assert widest(err) <= 80


def test_a_video_that_ends_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "throw.avi"
    frames = [render_scene(seed, kind=SceneKind.LOOSE, count=2, table=Table.FELT).image
              for seed in (700, 701)]
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    assert cli.main(["roll", "2D6", "--dice", "camera", "--source", str(video)]) == 1
    said = " ".join(capsys.readouterr().err.split())
    assert f"{video}: the video ended before the dice lay still for 4 frames in a row" in said
    assert "no camera?" not in said


def test_a_video_cut_short_is_said_so(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A half-copied video ended as a whole one does, and only the dice were blamed; its
    RIFF header declares more bytes than it holds, as the tile camera tells."""
    whole = tmp_path / "whole.avi"
    frames = [render_scene(seed, kind=SceneKind.LOOSE, count=2, table=Table.FELT).image
              for seed in (700, 701, 702)]
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(whole), cv2.VideoWriter_fourcc(*"MJPG"), 5, (width, height))
    for frame in frames:
        writer.write(frame)
    writer.release()
    video = tmp_path / "throw.avi"
    video.write_bytes(whole.read_bytes()[:whole.stat().st_size * 2 // 3])
    assert cli.main(["roll", "2D6", "--dice", "camera", "--source", str(video)]) == 1
    said = " ".join(capsys.readouterr().err.split())
    assert (f"{video}: the video ended where it is cut short (the file holds less than its "
            "header says, as an unfinished copy or download does: copy it again) before the "
            "dice lay still for 4 frames in a row") in said


def test_roll_help_says_how_a_folder_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["roll", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "a folder of pictures (read as a camera's frames in name order, like a video" in said


@pytest.mark.parametrize("command", [
    ["roll", "2D6", "--dice", "camera"],
    ["dice", "read"],
])
def test_a_bad_dice_toml_is_said_within_80_columns(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One 232-column line before (dicecam69 NIT 4); the exit status is the data error's."""
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    picture = tmp_path / "dice.png"
    cv2.imwrite(str(picture), scene.image)
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "dice.toml").write_text("[reader]\nfind_threshold = 2.0\n")
    args = [*command, "--source", str(picture)] if command[0] == "roll" else \
        [*command, str(picture)]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    said = " ".join(err.split())
    assert "dice.toml: [reader] find_threshold must be below 1 (it is a probability), " \
           "found 2.0; mend it" in said
    assert widest(err) <= 80
