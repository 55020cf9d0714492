"""``companion calibrate`` with a source that is no camera's view of the player's table
(new-user audit 55 #5): the rendered test source its --help offers and the docs' own drawing
of the mat left the real calibration alone; a photo calibrates, saying what it replaced."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.camera_settings import CALIBRATION_FILE, ENROLMENT_FILE, SLOT_LOOKS_FILE
from companion.app.cli import main
from companion.app.paths import config_dir
from companion.hw.camera.capture import RenderedSource, frame_problem, is_drawing
from tests.app.table_camera import WEBCAM, table_camera

DRAWING = Path(__file__).resolve().parents[2] / "docs" / "mat.png"  # the mat's print file


def calibrate(*extra: str) -> int:
    return main(["calibrate", "camera", "--frames", "2", *extra])


def saved() -> dict[str, bytes]:
    """The calibration's files as they are, by name."""
    return {name: (config_dir() / name).read_bytes()
            for name in (CALIBRATION_FILE, SLOT_LOOKS_FILE) if (config_dir() / name).exists()}


def test_the_rendered_test_source_leaves_the_cameras_calibration_as_it_is(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """It replaced camera.toml and the empty-slot looks the game loads, without a word."""
    assert calibrate("--source", table_camera(monkeypatch)) == 0
    before = saved()
    assert set(before) == {CALIBRATION_FILE, SLOT_LOOKS_FILE}
    capsys.readouterr()
    assert calibrate("--source", "render:draw=5p") == 0
    out = capsys.readouterr().out
    assert out.startswith("mat found; focus") and "  - " not in out
    assert out.endswith(f"a rendered mat: nothing calibrated; the calibration from {WEBCAM} "
                        f"({config_dir() / CALIBRATION_FILE}) is left as it is\n")
    assert "saved the empty look" not in out
    assert saved() == before


def test_the_rendered_test_source_writes_no_calibration_and_sets_nothing_aside(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert calibrate("--source", "render:") == 0
    assert capsys.readouterr().out.endswith(
        f"a rendered mat: nothing calibrated; {config_dir() / CALIBRATION_FILE} is not "
        "written\n")
    assert saved() == {}
    path = config_dir() / CALIBRATION_FILE
    path.parent.mkdir(parents=True)
    path.write_text("[reader]\nstable_frames = 0\n")  # the player's edit, to be put right
    assert calibrate("--source", "render:") == 0
    assert capsys.readouterr().err == ""
    assert path.read_text() == "[reader]\nstable_frames = 0\n"
    assert not list(config_dir().glob(f"{CALIBRATION_FILE}.corrupt-*"))


def test_a_photo_calibrates_and_says_which_calibration_it_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A photo taken at the table is a fair calibration; the camera's, silently replaced by
    it, was the trouble."""
    assert calibrate("--source", table_camera(monkeypatch)) == 0
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), RenderedSource({}).read())
    capsys.readouterr()
    assert calibrate("--source", str(photo)) == 0
    toml = config_dir() / CALIBRATION_FILE
    assert f"saved {toml}, in place of the calibration from {WEBCAM}\n" \
        in capsys.readouterr().out
    assert f'source = "{photo}"' in toml.read_text()
    assert calibrate("--source", str(photo)) == 0  # the same source again: nothing replaced
    assert f"saved {toml}\n" in capsys.readouterr().out


def test_enrolling_from_the_rendered_mat_is_refused_before_anything_is_asked(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Its Draw slot shows the tile its spec draws, whatever kind is asked for: 5p's look
    was enrolled as 1m, 2m, 3m … over the player's own set."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\nq\n"))
    assert calibrate("--source", "render:draw=5p", "--enrol") == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "companion: error: --enrol takes your own tiles from a camera or a photo; "
        "render:draw=5p draws the companion's own, the same tile whatever kind is asked for\n")
    assert not (config_dir() / ENROLMENT_FILE).exists() and saved() == {}


def test_the_docs_drawing_of_the_mat_is_named_as_one_not_called_washed_out(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/mat.png was "mat not found: the picture is washed out: too much light or glare
    on the mat": its paper is pure white, as a drawing's is, with no lamp to blame."""
    assert calibrate("--source", table_camera(monkeypatch)) == 0
    before = saved()
    capsys.readouterr()
    assert calibrate("--source", str(DRAWING)) == 1
    out = capsys.readouterr().out
    assert "washed out" not in out and "glare in" not in out and "mat found" in out
    problems = [line for line in out.splitlines() if line.startswith("  - ")]
    assert problems == [
        f"  - {DRAWING} is a drawing of the mat (paper pure white, markers pure black), such "
        "as its print file, not a camera's view of it: the mat is found in it, but it has "
        "none of your table's light to learn; calibrate with the camera, or a photo taken "
        "at the table"]
    assert out.endswith(f"a drawing: nothing calibrated; the calibration from {WEBCAM} "
                        f"({config_dir() / CALIBRATION_FILE}) is left as it is\n")
    assert saved() == before


def test_a_washed_out_photo_is_still_called_washed_out() -> None:
    """What tells a drawing from a burnt-out photo: the light that burns the paper out lifts
    the markers' black too."""
    drawing = cv2.imread(str(DRAWING))
    assert is_drawing(drawing) and frame_problem(drawing) is None
    burnt = np.clip(drawing.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    assert not is_drawing(burnt)
    assert frame_problem(burnt) == "the picture is washed out: too much light or glare on " \
        "the mat"
    assert not is_drawing(RenderedSource({}).read())


def test_calibrate_dice_refuses_the_rendered_mat_at_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    """It draws no dice: "could not read 2 dice in any setting: check the light" came after
    eight frames, and with --enrol only after each throw was typed."""
    for extra in ((), ("--enrol",)):
        assert main(["calibrate", "dice", "--source", "render:draw=5p", *extra]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == (
            "companion: error: render:draw=5p draws the mat with tiles on it, no dice: "
            "calibrate with the dice camera, or a photo of your dice lying still\n")
    assert not list(config_dir().glob("dice*"))
