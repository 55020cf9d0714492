"""camaudit69 RISK 2 and NITs 3-7: `calibrate camera` and `classify` say what to fix."""

from __future__ import annotations

import io
import re
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.paths import config_dir
from companion.hw.camera.classifier import Enrolment
from tests.tile_picture_helpers import tile_picture


def test_enrol_from_skips_a_picture_surely_read_as_another_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A 7z picture misnamed 2z_2.png is not filed as 2z with no terminal to ask (it pulled
    the real kind's reads towards 2z at the table): it is skipped, naming what it reads as,
    the rename that keeps its _2 (reviewc69 NIT 2), and how to take it as named (reviewc69
    RISK A). The well-named picture is enrolled."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "2z_2.png", "7z")
    tile_picture(folder / "3m.png", "3m")
    # No terminal, whatever pytest's capture does with stdin (pytest -s at a terminal
    # asked, reviewc69b RISK 1).
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "2z_2.png" in line)
    assert line.startswith("  2z_2.png skipped: it reads as 7z 中 (")
    assert line.endswith(
        "%), surely not 2z; if it is 7z, rename it 7z_2.png; if it is 2z (your set's look of "
        "it), run this at a terminal to be asked, or with --as-named")
    assert Enrolment.load(config_dir() / ENROLMENT_FILE).labels == ["3m"]


class Terminal(io.StringIO):
    """Typed answers at a terminal: the folder's enrolment asks only a terminal."""

    def isatty(self) -> bool:
        return True


def inverted(path: Path, label: str) -> Path:
    """A ``label`` tile in inverted colours, named after it: a set whose art the model
    surely reads as another kind (5z reads as a tile's back), hardware/camera.md's case for
    enrolling (reviewc69 RISK A)."""
    tile_picture(path, label)
    cv2.imwrite(str(path), 255 - cv2.imread(str(path)))
    return path


@pytest.mark.parametrize(("typed", "enrolled"), [("y\n", ["3m", "5z"]), ("n\n", ["3m"]),
                                                 ("\n", ["3m"]), ("maybe\ny\n", ["3m", "5z"]),
                                                 ("", ["3m"])])
def test_enrol_from_asks_a_terminal_about_a_picture_surely_read_as_another_kind(
    typed: str, enrolled: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewc69 RISK A: a correctly named 5z the model surely reads as a back was skipped
    with no way to take it; a terminal is now asked, as on the mat: y keeps it, n, Enter or
    the end of input skip it, anything else is asked again."""
    folder = tmp_path / "set"
    folder.mkdir()
    inverted(folder / "5z.png", "5z")
    tile_picture(folder / "3m.png", "3m")
    monkeypatch.setattr("sys.stdin", Terminal(typed))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  5z\.png: it reads as a tile's back \(\d+%\), surely not 5z \(if it "
                     r"is a tile's back, skip it and rename it back\.png\)$", out, re.M)
    assert out.count("  y keeps it as 5z; Enter skips it: ") == 1 + ("maybe" in typed)
    assert ("  5z.png skipped" in out) == ("5z" not in enrolled)
    if not typed:  # the end of input: "skipped" on a line of its own (reviewc69b NIT 1)
        assert "Enter skips it: \n  5z.png skipped\n" in out
    assert sorted(set(Enrolment.load(config_dir() / ENROLMENT_FILE).labels)) == enrolled


class StoppedTerminal(Terminal):
    """A terminal whose player answers ``y`` once, then presses Ctrl-C."""

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        if self.tell():
            raise KeyboardInterrupt
        return super().readline()


def test_enrol_from_stopped_at_a_question_says_nothing_of_the_folder_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewc69b NIT 2: Ctrl-C at the 2nd question dropped the 1st picture's y with only
    "^C" said. A folder is saved once all its pictures are looked at (the mat's kinds are
    saved as taken): it now says so, exit 130, and the kinds enrolled before are kept."""
    path = config_dir() / ENROLMENT_FILE
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    tile_picture(earlier / "9p.png", "9p")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(earlier)]) == 0
    capsys.readouterr()
    folder = tmp_path / "set"
    folder.mkdir()
    inverted(folder / "5z.png", "5z")
    inverted(folder / "5z_2.png", "5z")
    monkeypatch.setattr("sys.stdin", StoppedTerminal("y\n"))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 130
    out, err = capsys.readouterr()
    assert out.count("  y keeps it as 5z; Enter skips it: ") == 2
    assert err == (f"\nenrolment stopped; nothing of {folder} saved (a folder is saved once "
                   "all its pictures are looked at; the kinds enrolled before are kept as "
                   "they were)\n")
    assert Enrolment.load(path).labels == ["9p"]


def test_enrol_from_as_named_takes_every_picture_as_its_name_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewc69 RISK A: with no terminal, --as-named enrols the 5z the model reads as a
    back, as 5z, saying so in one line (reviewc69b NIT 4: a misnamed file went in without a
    word); the well-read picture is not named; without --enrol-from it is refused."""
    folder = tmp_path / "set"
    folder.mkdir()
    inverted(folder / "5z.png", "5z")
    tile_picture(folder / "3m.png", "3m")
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder), "--as-named"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^  5z\.png: .*$", out, re.M) == [
        re.search(r"^  5z\.png: it reads as a tile's back \(\d+%\), taken as 5z "
                  r"\(--as-named\)$", out, re.M)[0]]  # type: ignore[index]
    assert "3m.png" not in out
    assert sorted(Enrolment.load(config_dir() / ENROLMENT_FILE).labels) == ["3m", "5z"]
    assert cli.main(["calibrate", "camera", "--source", "render:", "--as-named"]) == 2
    assert capsys.readouterr().err == (
        "companion: error: --as-named goes with --enrol-from (pictures named after their "
        "tile), not a camera\n")


def test_enrol_from_takes_a_named_picture_the_model_is_unsure_of_without_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """An 8s in inverted colours, which the model reads as 1s but unsure: enrolled as named,
    nothing asked (only a sure other kind is asked about)."""
    from companion.hw.camera.classifier import TileClassifier
    from companion.hw.pictures import read_picture

    folder = tmp_path / "set"
    folder.mkdir()
    inverted(folder / "8s.png", "8s")
    # The premise (reviewc69b NIT 5): read as another kind, below the sure line.
    classifier = TileClassifier(None)
    best = classifier.predict([read_picture(folder / "8s.png")])[0].best
    assert best.label != "8s" and best.confidence < classifier.info.picture_confidence
    monkeypatch.setattr("sys.stdin", Terminal(""))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "8s.png" not in out and "keeps it" not in out
    assert Enrolment.load(config_dir() / ENROLMENT_FILE).labels == ["8s"]


def test_enrol_with_a_folder_of_one_picture_is_refused_before_the_calibration_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewc69 NIT 3: a folder holding one picture replaced the calibration, then stopped
    at 1m ("no more pictures"), as one picture did (camaudit69 NIT 5)."""
    from companion.hw.camera.capture import RenderedSource
    from companion.hw.ports import Slot

    folder = tmp_path / "one"
    folder.mkdir()
    cv2.imwrite(str(folder / "draw5p.png"), RenderedSource({Slot.DRAW: "5p"}).read())
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert cli.main(["calibrate", "camera", "--source", str(folder), "--enrol"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        f"companion: error: --enrol takes your tiles one by one from a camera, or a folder or "
        f"video of them; {folder} holds one picture: enrol pictures named after their tile")
    assert not list(config_dir().glob("camera.toml*"))


@pytest.mark.parametrize("command", [["classify"], ["calibrate", "camera", "--enrol-from"]])
def test_a_wrong_model_path_says_to_check_model_not_the_install(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """camaudit69 NIT 3: `--model` missing, or given without its .json beside it, names
    --model to fix, not COMPANION_TILE_MODEL or a reinstall the player never asked for."""
    from companion.hw.camera.classifier import default_model_path

    picture = tile_picture(tmp_path / "3m.png", "3m")
    alone = tmp_path / "alone.onnx"
    alone.write_bytes(default_model_path().read_bytes())
    for model, problem in ((tmp_path / "nope.onnx", "the tile model is missing"),
                           (alone, "cannot read the model metadata")):
        target = str(tmp_path) if "--enrol-from" in command else str(picture)
        assert cli.main([*command, target, "--model", str(model)]) != 0
        err = capsys.readouterr().err
        assert problem in err
        assert err.rstrip().endswith(
            "check --model's path (a tile_classifier.onnx with its .json beside it)")
        assert "COMPANION_TILE_MODEL" not in err


def test_enrol_with_one_picture_is_refused_before_the_calibration_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """camaudit69 NIT 5: finding the mat used up the picture's one frame, so no kind could
    be taken, after the calibration was replaced all the same. Now it is refused first,
    pointing to --enrol-from."""
    import io

    import cv2

    from companion.hw.camera.capture import RenderedSource
    from companion.hw.ports import Slot

    picture = tmp_path / "draw5p.png"
    cv2.imwrite(str(picture), RenderedSource({Slot.DRAW: "5p"}).read())
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert cli.main(["calibrate", "camera", "--source", str(picture), "--enrol"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "companion: error: --enrol takes your tiles one by one from a camera, or a folder or "
        f"video of them; {picture} is one picture: enrol pictures named after their tile "
        "(5p.jpg, 1z_2.png) with --enrol-from FOLDER\n")
    assert not list(config_dir().glob("camera.toml*"))


@pytest.mark.parametrize("line", ["edge", "diag"])
def test_classify_mat_says_a_covered_slot_with_no_outline_is_covered(
    line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """camaudit69 NIT 6: a hard shadow across the empty draw slot (judged covered, no
    tile's outline: every confidence 0) was "unsure (maybe 5z at 0%); take a clearer
    picture"."""
    import cv2

    from companion.hw.camera.capture import RenderedSource
    from companion.hw.camera.mat import MatDetector
    from tests.app.camera_shadow_helpers import shadow_edge

    path = tmp_path / "shadow.png"
    cv2.imwrite(str(path), shadow_edge(RenderedSource({}, seed=3).read(), MatDetector(), line))
    cli.main(["classify", "--mat", str(path)])
    draw = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("  draw:"))
    assert draw == ("  draw: something covers it but no tile's outline is seen (a tile across "
                    "two slots, a hand or a shadow?)")


PIPE_SAID = "a pipe (FIFO), not a picture file: reading it would wait for a writer"


def test_a_pipe_given_as_a_picture_is_named_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """camera75 NIT 8: OpenCV read a named pipe by waiting for a writer, so classify, `classify
    --mat`, `calibrate camera --source` (a picture or a video) and `--enrol-from` with a FIFO
    named 5p.png hung for ever. Each names it for what it is at once."""
    from tests.fifo_helpers import pipe_at

    folder = tmp_path / "tiles"
    folder.mkdir()
    tile_picture(folder / "3m.png", "3m")
    with pipe_at(tmp_path / "pipe.png") as pipe, pipe_at(folder / "5p.png"), \
            pipe_at(tmp_path / "clip.mp4") as clip:
        assert cli.main(["classify", str(pipe)]) == 1
        assert capsys.readouterr().out == f"{pipe}: {PIPE_SAID}\n"
        assert cli.main(["classify", "--mat", str(pipe)]) == 1
        assert capsys.readouterr().err == f"companion: {pipe}: {PIPE_SAID}\n"
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert cli.main(["calibrate", "camera", "--source", str(pipe)]) == 1
        assert capsys.readouterr().err == f"companion: error: --source: {pipe}: {PIPE_SAID}\n"
        assert cli.main(["calibrate", "camera", "--source", str(clip)]) == 1
        assert capsys.readouterr().err == (f"companion: error: --source: {clip}: "
                                           f"{PIPE_SAID.replace('picture', 'video')}\n")
        cli.main(["calibrate", "camera", "--enrol-from", str(folder)])
        assert f"  {PIPE_SAID}: 5p.png skipped\n" in capsys.readouterr().out


CHECK_MODEL = "check --model's path (a tile_classifier.onnx with its .json beside it)"


@pytest.mark.parametrize(("spoil", "said"), [
    ({"tile_classifier.json": b"{bad"}, "{json}: model metadata is not JSON (line 1, column 2: "
     "Expecting property name enclosed in double quotes)"),
    ({"tile_classifier.json": b""}, "{json}: the file is empty (0 bytes: a cut copy?)"),
    ({"tile_classifier.json": b"  \n"}, "{json}: the file holds only blank space, no metadata"),
    ({"tile_classifier.json": "{\"é\": 1}".encode("latin-1")},
     "{json}: model metadata is not text (not UTF-8), so not the model's .json"),
    ({"tile_classifier.onnx": b""}, "{onnx}: the tile model file is empty (0 bytes: a cut copy?)"),
])
def test_a_spoilt_model_or_metadata_file_is_named_in_words(
    spoil: dict[str, bytes], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """camera75 NIT 3: metadata that is not JSON, or empty, was said as Python's repr
    ("malformed (JSONDecodeError('Expecting value: line 1 column 1 (char 0)'))"), and an empty
    .onnx as "cannot be loaded (InvalidArgument)"."""
    from companion.hw.camera.classifier import default_model_path

    model = tmp_path / "tile_classifier.onnx"
    model.write_bytes(default_model_path().read_bytes())
    model.with_suffix(".json").write_bytes(default_model_path().with_suffix(".json").read_bytes())
    for name, data in spoil.items():
        (tmp_path / name).write_bytes(data)
    picture = tile_picture(tmp_path / "5p.png", "5p")
    assert cli.main(["classify", "--model", str(model), str(picture)]) == 2
    assert capsys.readouterr().err == "companion: error: {}; {}\n".format(
        said.format(json=model.with_suffix(".json"), onnx=model), CHECK_MODEL)


def test_a_folder_given_as_the_model_names_the_model_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """camera75 NIT 4: `--model models` or COMPANION_TILE_MODEL=models was "the tile model is
    missing; reinstall it", with the model there in the folder."""
    from companion.hw.camera.classifier import default_model_path

    models = default_model_path().parent
    inside = models / "tile_classifier.onnx"
    picture = tile_picture(tmp_path / "5p.png", "5p")
    assert cli.main(["classify", "--model", str(models), str(picture)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {models}: a folder, not the tile model: the model is {inside} in "
        f"it; give --model {inside}\n")
    assert cli.main(["classify", "--model", str(tmp_path), str(picture)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {tmp_path}: a folder, not the tile model, and no "
        "tile_classifier.onnx in it; point --model at a tile_classifier.onnx (with its .json "
        "beside it)\n")
    monkeypatch.setenv("COMPANION_TILE_MODEL", str(models))
    assert cli.main(["classify", str(picture)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {models}: a folder, not the tile model: the model is {inside} in "
        "it; point COMPANION_TILE_MODEL at it\n")


def test_a_video_given_as_a_picture_is_called_a_video_and_enrol_from_names_the_kinds_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """camera75 NIT 6: `classify --mat clip.mp4` said "not a picture that can be read" of a
    kind the program reads as a camera, and `--enrol-from` skipped a phone's 1m.heic with no
    word on the kinds it reads."""
    clip = tmp_path / "clip.mp4"
    frame = cv2.imread(str(tile_picture(tmp_path / "5p.png", "5p")))
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"mp4v"), 5,
                             (frame.shape[1], frame.shape[0]))
    for _ in range(3):
        writer.write(frame)
    writer.release()
    said = "a video, not a picture: take a frame from it (ffmpeg -i clip.mp4 -frames:v 1 frame.png)"
    assert cli.main(["classify", "--mat", str(clip)]) == 1
    assert capsys.readouterr().err == f"companion: {clip}: {said}\n"
    assert cli.main(["classify", str(clip)]) == 1
    assert capsys.readouterr().out == f"{clip}: {said}\n"
    folder = tmp_path / "tiles"
    folder.mkdir()
    tile_picture(folder / "5p.png", "5p")
    (folder / "1m.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    assert ("  not a picture that can be read (pictures read: .png, .jpg, .jpeg, .bmp, .webp, "
            ".tif, .tiff; a phone's .heic: save it as JPEG): 1m.heic skipped\n"
            in capsys.readouterr().out)
