"""camaudit69 RISK 2 and NITs 3-7: `calibrate camera` and `classify` say what to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import cli
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.paths import config_dir
from companion.hw.camera.classifier import Enrolment
from tests.hw.test_camera_cli import tile_picture


def test_enrol_from_skips_a_picture_surely_read_as_another_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A 7z picture misnamed 2z.png is not filed as 2z (it pulled the real kind's reads
    towards 2z at the table): it is skipped, naming what it reads as and what to do, as
    enrolling on the mat asks first (surely_other). The well-named picture is enrolled."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "2z.png", "7z")
    tile_picture(folder / "3m.png", "3m")
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "2z.png" in line)
    assert line.startswith("  2z.png skipped: it reads as 7z 中 (")
    assert line.endswith("%), surely not 2z; rename it 7z.png if it is 7z")
    assert Enrolment.load(config_dir() / ENROLMENT_FILE).labels == ["3m"]


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


def test_enrol_from_one_picture_is_refused_before_the_calibration_is_replaced(
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
    from tests.app.test_camera_shadow66 import shadow_edge

    path = tmp_path / "shadow.png"
    cv2.imwrite(str(path), shadow_edge(RenderedSource({}, seed=3).read(), MatDetector(), line))
    cli.main(["classify", "--mat", str(path)])
    draw = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("  draw:"))
    assert draw == ("  draw: something covers it but no tile's outline is seen (a tile across "
                    "two slots, a hand or a shadow?)")
