"""``companion classify`` and ``companion calibrate camera``, run as the user runs them."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.calibrate.camera import enrol_on_mat, find_mat
from companion.app.camera_settings import (
    CALIBRATION_FILE,
    ENROLMENT_FILE,
    SLOT_LOOKS_FILE,
    load_settings,
)
from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.commands.classify import read_pictures
from companion.app.paths import config_dir
from companion.errors import DeviceError
from companion.hw.camera.augment import render_crop
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import Enrolment, TileClassifier
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.sim_scene import render_scene
from companion.hw.camera.tile_faces import render_tile
from companion.hw.ports import Slot
from tests.app.table_camera import WEBCAM, table_camera
from tests.tile_picture_helpers import tile_picture


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_classify_pictures_as_json_lines(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    a = tile_picture(tmp_path / "a.png", "7z")
    b = tile_picture(tmp_path / "b.png", "2m")
    assert main(["classify", str(a), str(b), "--json"]) == 0
    records = json_lines(capsys.readouterr().out)
    assert [r["image"] for r in records] == [str(a), str(b)]
    assert [r["tile"] for r in records] == ["7z", "2m"]
    first = records[0]
    assert set(first) == {"image", "tile", "confidence", "top3"}
    assert isinstance(first["top3"], list) and len(first["top3"]) == 3


def test_a_picture_of_a_blank_white_is_never_read_as_an_empty_slot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tight picture of a blank White's face: the model alone takes it for bare paper."""
    tile = render_tile("5z", np.random.default_rng(0), vary=False)
    h, w = tile.shape[:2]
    face = tile[int(h * 0.08):int(h * 0.92), int(w * 0.08):int(w * 0.92), :3]
    path = tmp_path / "white.png"
    cv2.imwrite(str(path), face)
    assert TileClassifier().predict([face])[0].best.label == "empty"
    assert main(["classify", str(path), "--json"]) == 0
    record = json_lines(capsys.readouterr().out)[0]
    assert record["tile"] == "5z"
    assert "empty" not in [c["label"] for c in record["top3"]]


def test_a_picture_is_answered_at_the_picture_confidence_a_slot_at_min_confidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pictures of unseen sets were never answered wrong at 0.35 or above; slots keep 0.6."""
    classifier = TileClassifier()
    info = classifier.info
    picture = render_crop("7s", np.random.default_rng(20))  # read between the two
    best = read_pictures(classifier, [picture])[0].best
    assert best.label == "7s" and info.picture_confidence <= best.confidence < info.min_confidence
    path = tmp_path / "7s.png"
    cv2.imwrite(str(path), picture)
    assert main(["classify", str(path), "--json"]) == 0
    assert json_lines(capsys.readouterr().out)[0]["tile"] == "7s"


def test_a_plain_face_is_read_surely_as_the_white() -> None:
    """The model's ``empty`` is a face with nothing drawn on it: in a picture of a tile,
    the White's. Striking it and sharing it out left this picture below min_confidence."""
    classifier = TileClassifier()
    plain = np.full((96, 72, 3), (200, 220, 225), np.uint8)  # a blank White's face, close up
    alone = classifier.predict([plain])[0]
    assert alone.best.label == "empty"
    best = read_pictures(classifier, [plain])[0].best
    assert best.label == "5z" and best.confidence >= classifier.info.min_confidence


def test_classify_says_which_picture_is_unreadable_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 broken")
    good = tile_picture(tmp_path / "good.png", "1p")
    assert main(["classify", str(bad), str(good)]) == 1
    out = capsys.readouterr().out
    assert "bad.jpg: not a picture that can be read" in out
    assert "good.png: 1p 一筒 1 of dots" in out


def test_classify_reads_cut_out_art_on_white(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped art is cut out of its background: read on white, not on black."""
    art = Path(__file__).resolve().parents[2] / "companion" / "assets" / "tiles"
    assert main(["classify", str(art / "Man1.png"), str(art / "Chun.png")]) == 0
    out = capsys.readouterr().out
    assert "Man1.png: 1m 一萬" in out and "Chun.png: 7z 中" in out


def test_classify_a_whole_mat_frame(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    frame = render_scene({Slot.DRAW: "4s", Slot.ROOM_BL: "1z"}, np.random.default_rng(2),
                         vary=False)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame)
    assert main(["classify", "--mat", str(path), "--json"]) == 0
    records = {r["slot"]: r["tile"] for r in json_lines(capsys.readouterr().out)}
    assert records == {"draw": "4s", "room_tl": "empty", "room_tr": "empty",
                       "room_bl": "1z", "room_br": "empty"}


def test_classify_a_mat_half_out_of_the_picture_names_the_slots_not_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The right-hand room slots, outside the picture, were read "back face down (裏)"."""
    frame = render_scene({Slot.DRAW: "4s"}, np.random.default_rng(2), vary=False)
    path = tmp_path / "half.png"
    cv2.imwrite(str(path), frame[:, :620])
    assert main(["classify", "--mat", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: the top-right room and bottom-right room slots are outside the " \
        "camera's view" in out
    assert "  top-right room: outside the camera's view, not read" in out
    assert "  draw: 4s" in out and "裏" not in out
    assert main(["classify", "--mat", str(path), "--json"]) == 1
    records = {r["slot"]: r for r in json_lines(capsys.readouterr().out)}
    assert records["room_br"]["error"] == "outside the camera's view, not read"
    assert records["draw"]["tile"] == "4s"


def test_classify_a_mat_frame_reads_at_the_calibrations_confidence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """classify --mat read at the model's min_confidence, not camera.toml's: "what will the
    game read?" was answered otherwise than the game reads."""
    frame = render_scene({Slot.DRAW: "4s"}, np.random.default_rng(2), vary=False)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), frame)
    settings = config_dir() / CALIBRATION_FILE
    settings.parent.mkdir(parents=True)
    settings.write_text("[reader]\nmin_confidence = 0.9999\n")
    assert main(["classify", "--mat", str(path)]) == 0
    assert "  draw: unsure (maybe 4s at" in capsys.readouterr().out


def test_classify_a_mat_frame_as_json_gives_its_error_as_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a plain line on stderr, nothing on stdout, for a script reading JSON."""
    wall = tmp_path / "wall.png"
    cv2.imwrite(str(wall), np.full((720, 1280, 3), 128, np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_text("not a picture")
    for path, problem in ((wall, "mat not in view: 0 of 4 corner markers seen"),
                          (broken, "not a picture that can be read")):
        assert main(["classify", "--mat", str(path), "--json"]) == 1
        (record,) = json_lines(capsys.readouterr().out)
        assert record["frame"] == str(path) and str(record["error"]).startswith(problem)


def test_classify_a_frame_without_the_mat(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wall.png"
    cv2.imwrite(str(path), np.full((720, 1280, 3), 128, np.uint8))
    assert main(["classify", "--mat", str(path)]) == 1
    assert "mat not in view" in capsys.readouterr().err


def test_corrupt_model_is_a_clear_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(b"garbage")
    (tmp_path / "m.json").write_text("{")
    assert main(["classify", "--model", str(model), "x.png"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error:") and "Traceback" not in err


def test_calibrate_camera_saves_quality_and_reader_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """The test source --help names passes its own checks (its white mat was burnt out on
    one side: "washed out", exit 1), and a camera's calibration is saved."""
    code = main(["calibrate", "camera", "--source", "render:draw=5p", "--frames", "2"])
    out = capsys.readouterr().out
    assert "mat found" in out and "focus" in out
    assert code == 0 and "  - " not in out, out
    assert main(["calibrate", "camera", "--source", table_camera(monkeypatch, "draw=5p"),
                 "--frames", "2"]) == 0
    saved = tomllib.loads((config_dir() / CALIBRATION_FILE).read_text())
    assert saved["source"] == WEBCAM
    assert saved["quality"]["markers_seen"] == [0, 1, 2, 3]
    # the [reader] values are the user's to edit, and the reader then uses them
    path = config_dir() / CALIBRATION_FILE
    path.write_text(path.read_text().replace("stable_frames = 3", "stable_frames = 5"))
    assert load_settings(TileClassifier()).stable_frames == 5


def test_calibrate_camera_checks_the_games_camera_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --source it looks through input.camera_source, the camera play will use."""
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", table_camera(monkeypatch, "draw=5p"))
    main(["calibrate", "camera", "--frames", "2"])
    assert "mat found" in capsys.readouterr().out
    saved = tomllib.loads((config_dir() / CALIBRATION_FILE).read_text())
    assert saved["source"] == WEBCAM


@pytest.mark.parametrize(("games", "env", "fix"), [
    ("camera:1", False, 'camera_source = "camera:0" under [input] in {config}'),
    ("picamera", True, "COMPANION_INPUT_CAMERA_SOURCE=camera:0 (the environment sets "
                       "input.camera_source, over config.toml; or unset it)"),
    ("/dev/video0", False, None),  # the same camera, written another way
])
def test_calibrate_camera_source_says_when_the_game_reads_another_camera(
    games: str, env: bool, fix: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """camera75 NIT 9: `--source camera:0` learnt the slots' looks from a camera the game
    does not read (input.camera_source) without a word, where --model says so of the model.
    The fix is said where the game's value came from: the environment wins over config.toml.
    A picture (a photo taken at the table) is no other camera: nothing is said of it."""
    source = table_camera(monkeypatch, "draw=5p")
    config = config_dir() / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    if env:
        config.write_text('[input]\ncamera_source = "camera:0"\n')
        monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", games)
    else:
        config.write_text(f'[input]\ncamera_source = "{games}"\n')
        monkeypatch.delenv("COMPANION_INPUT_CAMERA_SOURCE")
    assert main(["calibrate", "camera", "--source", source, "--frames", "2"]) == 0
    err = capsys.readouterr().err
    origin = "COMPANION_INPUT_CAMERA_SOURCE" if env else str(config)
    assert err == ("" if fix is None else (
        f"companion: note: the game reads the tiles with {games}, from input.camera_source "
        f"({origin}), not camera:0: the slots' looks learnt now are of camera:0's view; if it "
        f"is the table's camera, set {fix.format(config=config)}\n"))
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), RenderedSource({Slot.DRAW: "5p"}).read())
    assert main(["calibrate", "camera", "--source", str(picture)]) == 0
    assert "note" not in capsys.readouterr().err


def test_calibrate_camera_sources_note_says_first_why_config_toml_is_not_used(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcam75 NIT 6: with a config.toml that cannot be read, the note spoke for the
    built-in camera and sent the player to set the camera in that file, never saying it was
    not read. The config's notice comes first."""
    source = table_camera(monkeypatch, "draw=5p")
    monkeypatch.delenv("COMPANION_INPUT_CAMERA_SOURCE")
    config = config_dir() / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[input\n")
    assert main(["calibrate", "camera", "--source", source, "--frames", "2"]) == 0
    notice, note = capsys.readouterr().err.splitlines()
    assert notice.startswith(f"companion: {config} is not a valid TOML file (")
    assert notice.endswith("); the defaults are used until it is mended")
    assert note.startswith("companion: note: the game reads the tiles with picamera, from "
                           "input.camera_source (built in), not camera:0: ")


def test_calibrate_camera_without_a_mat_says_why(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cv2.imwrite(str(tmp_path / "black.png"), np.zeros((720, 1280, 3), np.uint8))
    assert main(["calibrate", "camera", "--source", str(tmp_path / "black.png"),
                 "--frames", "1"]) == 1
    assert "mat not found: the picture is black" in capsys.readouterr().out
    assert main(["calibrate", "camera", "--source", str(tmp_path / "none.png")]) == 1
    assert "no such camera, picture" in capsys.readouterr().err
    tile_picture(tmp_path / "tile.png", "1p")  # a picture, but not of the mat: that is said
    assert main(["calibrate", "camera", "--source", str(tmp_path / "tile.png")]) == 1
    assert "mat not found: mat not in view: 0 of 4 corner markers seen" in \
        capsys.readouterr().out


def test_calibration_that_gives_up_does_not_say_retrying() -> None:
    """A camera that never sent a picture is said to be so, not a mat out of view."""

    class Unplugged:
        message = "no camera at camera:0: check the cable; retrying"

        def read(self) -> None:
            return None

        def close(self) -> None:
            pass

    said: list[str] = []
    with pytest.raises(DeviceError) as refused:
        find_mat(Unplugged(), MatDetector(), 3, said.append)
    assert str(refused.value) == ("no picture from the camera: no camera at camera:0: check "
                                  "the cable")
    assert said == []


def test_enrol_from_a_folder_then_classify_uses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "3m.png", "3m")
    tile_picture(folder / "back_1.png", "back")
    (folder / "readme.txt").write_text("not a tile")
    assert main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    assert "enrolled 2 pictures of 2 kinds" in capsys.readouterr().out
    enrolment = Enrolment.load(config_dir() / ENROLMENT_FILE)
    assert sorted(enrolment.labels) == ["3m", "back"]
    assert main(["classify", str(folder / "3m.png"), "--json"]) == 0
    assert json_lines(capsys.readouterr().out)[0]["tile"] == "3m"


MALFORMED_ENROLMENTS = {
    # what np.savez wrote, with this model's fingerprint: -> the problem named
    "wrong width": ({"labels": np.array(["1m"]), "embeddings": np.ones((1, 7), np.float32)},
                    "their embeddings have 7 numbers each, not the 256 this tile model gives"),
    "one row": ({"labels": np.array(["1m", "2m"]), "embeddings": np.ones(2, np.float32)},
                "its tiles and their embeddings do not match up"),
    "labels in rows": ({"labels": np.array([["1m"]]),
                        "embeddings": np.ones((1, 256), np.float32)},
                       "its tiles and their embeddings do not match up"),
    "text": ({"labels": np.array(["1m"]), "embeddings": np.array([["a"] * 256])},
             "its embeddings are not numbers"),
    "nan": ({"labels": np.array(["1m"]), "embeddings": np.full((1, 256), np.nan, np.float32)},
            "some of its embeddings are not numbers (NaN), infinite or too large"),
    # Finite as float64, inf as the float32 it is read as: every tile was "unsure (maybe 1z
    # at nan%)".
    "beyond float32": ({"labels": np.array(["1m"]), "embeddings": np.full((1, 256), 1e300)},
                       "some of its embeddings are not numbers (NaN), infinite or too large"),
}


@pytest.mark.parametrize("name", list(MALFORMED_ENROLMENTS))
def test_a_malformed_enrolment_is_named_and_enrolling_again_repairs_it(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """classify, play and the very --enrol-from the message advises crashed with a traceback
    (a matmul of the wrong size), or read every tile "unsure (maybe 1z at nan%)"."""
    arrays, problem = MALFORMED_ENROLMENTS[name]
    path = config_dir() / ENROLMENT_FILE
    path.parent.mkdir(parents=True)
    np.savez(path, model=np.array(TileClassifier().model_id), **arrays)
    picture = tile_picture(tmp_path / "3m.png", "3m")
    assert main(["classify", str(picture)]) == 2
    err = capsys.readouterr().err
    assert err == (f"companion: error: {path}: cannot read the enrolled tiles ({problem}); "
                   "run `companion calibrate camera --enrol` again\n")
    folder = tmp_path / "set"
    folder.mkdir()
    picture.rename(folder / "3m.png")
    assert main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    assert "kept as" in capsys.readouterr().err
    assert Enrolment.load(path).labels == ["3m"]
    assert main(["classify", str(folder / "3m.png"), "--json"]) == 0
    assert json_lines(capsys.readouterr().out)[0]["tile"] == "3m"


def test_enrol_on_the_mat_asks_for_each_kind(classifier_source: RenderedSource) -> None:
    answers = iter(["", "s", "q"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    classifier = TileClassifier()
    enrolment = Enrolment(model=classifier.model_id)
    path = config_dir() / ENROLMENT_FILE
    taken = enrol_on_mat(classifier_source, MatDetector(), classifier, ask, enrolment, path,
                         shots=2)
    assert taken == ["1m"]
    assert enrolment.labels == ["1m", "1m"]
    assert Enrolment.load(path).labels == ["1m", "1m"]  # saved as it was taken
    assert prompts[0].startswith("Put 1m on the draw slot (引き牌の枠)")
    assert len(prompts) == 3


@pytest.fixture
def classifier_source() -> RenderedSource:
    return RenderedSource({Slot.DRAW: "1m"}, seed=9)


# -- camera73 NITs 3-5 ---------------------------------------------------------------------


def test_the_camera_files_hints_name_the_command_as_typed_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 3: "run 'companion calibrate camera --enrol' again" (and the slots' looks'
    "run 'companion calibrate camera' again") named a bare ``companion``, not found in a
    checkout scripts/bootstrap.sh made (no companion on the PATH): in backticks, they are
    named as typed here, as the other hints are."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # bootstrap.sh's: no companion on it
    monkeypatch.chdir(Path(sys.executable).parents[2])  # the checkout holding the venv
    here = companion_command()
    assert here != "companion"
    folder = config_dir()
    folder.mkdir(parents=True)
    (folder / ENROLMENT_FILE).write_bytes(b"junk")
    picture = tile_picture(tmp_path / "5p.png", "5p")
    assert main(["classify", str(picture)]) == 2
    assert capsys.readouterr().err.endswith(f"run `{here} calibrate camera --enrol` again\n")
    (folder / ENROLMENT_FILE).unlink()
    (folder / SLOT_LOOKS_FILE).write_bytes(b"junk")
    frame = RenderedSource({Slot.DRAW: "5p"}, seed=3).read()
    assert frame is not None
    cv2.imwrite(str(tmp_path / "mat.png"), frame)
    assert main(["classify", "--mat", str(tmp_path / "mat.png")]) == 2
    assert capsys.readouterr().err.endswith(f"run `{here} calibrate camera` again\n")


def test_enrol_from_a_picture_says_it_is_not_a_folder_and_camera_options_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 4: a picture given to --enrol-from was "no such folder" (it is there), and
    --force and --frames beside it were dropped without a word."""
    picture = tile_picture(tmp_path / "5p.png", "5p")
    assert main(["calibrate", "camera", "--enrol-from", str(picture)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {picture}: a picture, not a folder; put your tile pictures in a "
        "folder, each named after its tile (5p.jpg, back.png ...), and give the folder\n")
    folder = tmp_path / "set"
    folder.mkdir()
    picture.rename(folder / "5p.png")
    for stray, words in (("--force", "--force goes with a calibration"),
                         ("--frames=3", "--frames goes with a camera")):
        assert main(["calibrate", "camera", "--enrol-from", str(folder), stray]) == 2
        assert f"companion: error: {words}" in capsys.readouterr().err
    assert not (config_dir() / ENROLMENT_FILE).exists()


def test_a_camera_toml_that_is_not_text_is_said_in_our_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 5: garbage after a cut write's zeros was "'utf-8' codec can't decode byte 0xff in
    position 2: invalid start byte", the codec's words."""
    path = config_dir() / CALIBRATION_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00\x00\xff\xfe garbage")
    frame = RenderedSource({Slot.DRAW: "5p"}, seed=3).read()
    assert frame is not None
    cv2.imwrite(str(tmp_path / "mat.png"), frame)
    assert main(["classify", "--mat", str(tmp_path / "mat.png")]) == 2
    assert capsys.readouterr().err == (f"companion: error: {path}: not UTF-8 text (byte 3 "
                                       "cannot be read); fix it or calibrate again\n")
