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
from companion.hw.camera.capture import (
    BRIGHT_MEAN,
    DARK_MEAN,
    RenderedSource,
    frame_problem,
    is_drawing,
    open_source,
)
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader
from companion.hw.camera.sim_scene import Camera
from tests.app.table_camera import WEBCAM, table_camera, webcam_showing

DRAWING = Path(__file__).resolve().parents[2] / "docs" / "mat.png"  # the mat's print file
WASHED_OUT = "the picture is washed out: too much light or glare on the mat"


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
        "companion: error: --enrol takes your own tiles from a camera, or a folder or video "
        "of them; "
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
    assert is_drawing(drawing) and frame_problem(drawing, picture_file=True) is None
    assert is_drawing(cv2.resize(drawing, (800, 566), interpolation=cv2.INTER_AREA))
    burnt = np.clip(drawing.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    assert not is_drawing(burnt)
    assert frame_problem(burnt, picture_file=True) == WASHED_OUT
    assert not is_drawing(RenderedSource({}).read())


def burnt_out(mat_fraction: float) -> np.ndarray:
    """The rendered mat under a lamp three times too bright, spanning ``mat_fraction`` of
    the view's width: its paper clipped white, its markers still black."""
    camera = Camera(mat_fraction=mat_fraction, nudge_px=4.0, tilt=0.01, brightness=3.0)
    return RenderedSource({}, camera=camera).read()


def test_a_burnt_out_view_given_as_a_picture_is_washed_out_not_a_drawing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Paper clipped white with the markers and the table's dark edge still dark was "a
    drawing of the mat … not a camera's view of it": the light to blame went unsaid."""
    frame = burnt_out(0.95)  # the table shows at the mat's sides
    assert frame.mean() > BRIGHT_MEAN and np.percentile(frame, 1) <= DARK_MEAN
    assert not is_drawing(frame)
    assert frame_problem(frame, picture_file=True) == WASHED_OUT
    photo = tmp_path / "lamp.png"
    cv2.imwrite(str(photo), frame)
    assert calibrate("--source", str(photo)) == 1
    out = capsys.readouterr().out
    assert f"mat not found: {WASHED_OUT}\n" in out and "drawing" not in out
    assert saved() == {}


def test_a_webcam_is_never_called_a_drawing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A drawing can only be a file. A webcam's view burnt out until only the markers are
    left dark looks like one (the mat filling the view), and so does the print file held up
    to it: both are too much light, in calibration and in the game's reader alike."""
    for frame in (burnt_out(1.0), cv2.imread(str(DRAWING))):
        assert is_drawing(frame)
        assert calibrate("--source", webcam_showing(monkeypatch, [frame])) == 1
        out = capsys.readouterr().out
        assert out == f"mat not found: {WASHED_OUT}\n"
        reader = CameraTileReader(open_source(WEBCAM), TileClassifier())
        assert reader.poll() == []
        assert reader.status().message.startswith(WASHED_OUT)
    assert saved() == {}
    drawn = CameraTileReader(open_source(str(DRAWING)), TileClassifier())
    drawn.poll()
    assert not drawn.status().message.startswith(WASHED_OUT)


@pytest.mark.parametrize("through", ["picture", "webcam"])
def test_a_lamp_lit_view_is_calibrated_with_its_lights_problems_not_called_a_drawing(
        through: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Half the view clipped white (mean under the washed-out line) with black markers was
    named "a drawing … such as its print file" and not calibrated, from a webcam too."""
    frame = np.clip(RenderedSource({}).read() * 1.5, 0, 255).astype(np.uint8)
    assert np.median(frame) == 255 and np.percentile(frame, 1) <= DARK_MEAN
    photo = tmp_path / "lamp.png"
    cv2.imwrite(str(photo), frame)
    source = str(photo) if through == "picture" else webcam_showing(monkeypatch, [frame])
    assert calibrate("--source", source) == 1
    out = capsys.readouterr().out
    assert "drawing" not in out
    assert "\n  - the mat looks washed out (paper grey 255): less light or lower exposure\n" in out
    assert f"saved {config_dir() / CALIBRATION_FILE}\n" in out
    assert set(saved()) == {CALIBRATION_FILE, SLOT_LOOKS_FILE}


def test_calibrating_a_drawing_leaves_an_unreadable_camera_toml_where_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    """It calibrates nothing, as the rendered mat does: the player's file was set aside as
    camera.toml.corrupt-… all the same."""
    path = config_dir() / CALIBRATION_FILE
    path.parent.mkdir(parents=True)
    path.write_text("[reader]\nstable_frames = 0\n")
    assert calibrate("--source", str(DRAWING)) == 1
    out, err = capsys.readouterr()
    assert out.endswith(f"a drawing: nothing calibrated; {path} is not written\n")
    assert err == ""
    assert path.read_text() == "[reader]\nstable_frames = 0\n"
    assert not list(config_dir().glob(f"{CALIBRATION_FILE}.corrupt-*"))


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
