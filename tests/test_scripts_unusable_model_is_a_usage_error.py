"""An unusable --model, --models, --config or --frame given to the camera scripts is a usage
line naming the file, as bench_dice's is, not a DataError's traceback (a78tilecam DEFECT 3)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.scripts import load_script


def _files(tmp: Path) -> None:
    cv2.imwrite(str(tmp / "six.jpg"), np.full((40, 40, 3), 200, np.uint8))
    (tmp / "emptymodels").mkdir()
    (tmp / "bad.toml").write_text("x = [")
    (tmp / "empty.png").write_bytes(b"")
    frame = tmp / "frame.jpg"
    cv2.imwrite(str(frame), np.full((720, 1280, 3), 200, np.uint8))
    data = frame.read_bytes()
    frame.write_bytes(data[:data.find(b"\xff\xda") + 40])  # cut short in its scan


@pytest.mark.parametrize(("script", "argv", "said"), [
    ("bench_camera", ["--model", "{tmp}/six.jpg", "--repeats", "4"],
     "{tmp}/six.json: cannot read the model metadata (No such file or directory)"),
    ("bench_camera", ["--frame", "{tmp}/empty.png", "--repeats", "4"],
     "{tmp}/empty.png: not a picture that can be read"),
    ("bench_camera", ["--frame", "{tmp}/frame.jpg", "--repeats", "4"],
     "{tmp}/frame.jpg: the JPEG file is cut short"),
    ("eval_tile_classifier", ["--model", "{tmp}/six.jpg", "--sources"],
     "{tmp}/six.json: cannot read the model metadata (No such file or directory)"),
    ("eval_dice_reader", ["--models", "{tmp}/emptymodels"],
     "{tmp}/emptymodels/dice_finder.onnx: the dice finder model is missing"),
    ("eval_dice_reader", ["--config", "{tmp}/bad.toml"], "{tmp}/bad.toml: not valid TOML"),
    # r78tilecam: the same --models in the script cutting the real photos' windows
    ("make_dice_real_data", ["--out", "{tmp}/out", "--models", "{tmp}/emptymodels"],
     "{tmp}/emptymodels/dice_finder.onnx: the dice finder model is missing"),
])
def test_an_unusable_file_is_a_usage_error(
        script: str, argv: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    _files(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        load_script(script).main([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ")
    assert f"error: {said.replace('{tmp}', str(tmp_path))}" in err
