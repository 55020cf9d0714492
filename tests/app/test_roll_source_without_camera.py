"""a77dice DEFECT 1: ``--source`` without ``--dice camera`` was taken and ignored: the photo
of a throw never opened, a simulated (or typed) roll printed in its place, exit 0."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.hw.dice.render import SceneKind, Table, render_scene


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    """A photo of a throw of two dice, as a player gives it."""
    picture = tmp_path / "throw.png"
    cv2.imwrite(str(picture), render_scene(700, kind=SceneKind.LOOSE, count=2,
                                           table=Table.FELT).image)
    return picture


@pytest.mark.parametrize(("command", "dice", "every"), [
    (["roll", "2D6"], [], "simulated"),
    (["roll", "2D6"], ["--dice", "sim"], "simulated"),
    (["roll", "2D6"], ["--dice", "typed"], "typed"),
    (["coc", "roll", "CC<=50"], [], "simulated"),
    (["events", "poison"], [], "simulated"),
])
def test_a_source_with_dice_no_camera_reads_is_refused_before_any_roll(
        command: list[str], dice: list[str], every: str, photo: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*command, *dice, "--source", str(photo)]) != 0
    out, err = capsys.readouterr()
    assert out == ""  # no roll printed, nor a typed die asked
    said = " ".join(err.split())  # within 80 columns
    kind = dice[1] if dice else "sim"
    assert (f"--source names the camera of --dice camera: with --dice {kind} the dice are "
            f"{every}, not read from {photo}; add --dice camera, or leave --source out") in said


def test_the_same_photo_with_the_camera_is_read(photo: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    assert cli.main(["roll", "2D6", "--dice", "camera", "--source", str(photo)]) == 0
    values = sorted(die.value for die in scene.dice)
    assert capsys.readouterr().out.startswith(f"(2D6) ＞ {sum(values)}[")


def test_an_empty_source_is_said_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    """r77dice NIT on 71c9eb2c: `--source ''` was said "not read from ;"."""
    assert cli.main(["roll", "2D6", "--source", ""]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "the dice are simulated, not read from ''; add --dice camera" in said
