"""``companion calibrate dice`` saves only a setting that reads the laid dice as they were
scored (reviewd71 RISK 1): the face sizes it fits move the finder's looks, and a setting
never read with handed the player wrong rolls. And scripts/eval_dice_calibration.py, which
measures the rolls read under the settings calibration saves, on the real photos."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.source import CameraDiceSource
from tests.scripts import SCRIPTS, load_script

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-photos"
needs_photos = pytest.mark.skipif(not PHOTOS.exists(), reason="the real photos are not here")


@needs_photos
def test_a_setting_that_reads_the_laid_dice_otherwise_is_not_saved(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Five 1s (mp_Train_dice_43), scored 1, 1, 1, 1, 1 at finder threshold 0.2: the face
    sizes fitted to them read the fifth as a 2, and that dice.toml rolled 6[1,1,1,1,2] on
    this very photo. The companion's own sizes, which the scoring read with, are kept."""
    photo = str(PHOTOS / "mp_Train_dice_43.jpg")
    assert cli.main(["calibrate", "dice", "--count", "5", "--source", photo]) == 0
    out = capsys.readouterr().out
    assert "read 5 dice (1, 1, 1, 1, 1) in the picture" in out and "Saved to" in out
    packaged = ReaderConfig.load()
    saved = ReaderConfig.load(config_dir() / "dice.toml")
    assert (saved.min_face_px, saved.max_face_px) == (packaged.min_face_px,
                                                      packaged.max_face_px)
    said = re.search(r"under the sizes fitted to these dice, [\d.]+-[\d.]+ px, they read "
                     r"([\d, ]+)\)", out)
    assert said is not None and said.group(1) != "1, 1, 1, 1, 1"
    source = CameraDiceSource(photo, config_file=config_dir() / "dice.toml")
    assert source.roll(5, 6) == [1, 1, 1, 1, 1]


@needs_photos
@pytest.mark.parametrize(("photo", "count", "values"), [
    ("mp_Train_six_48.jpg", 5, "6, 6, 6, 6, 6"), ("nb_IMG_20191209_100701.jpg", 4, "2, 3, 5, 5")])
def test_sizes_that_read_the_laid_dice_alike_are_still_fitted(
        photo: str, count: int, values: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The check keeps the fitted sizes wherever they read the lay as scored: those are what
    the face-size fit is for (a camera moved, other dice), and what the saved roll reads."""
    path = PHOTOS / photo
    assert cli.main(["calibrate", "dice", "--count", str(count), "--source", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"({values}) in the picture" in out and "the companion's own (" not in out
    saved = ReaderConfig.load(config_dir() / "dice.toml")
    assert saved.measured is not None and saved.max_face_px < ReaderConfig.load().max_face_px
    read = CameraDiceSource(str(path), config=saved).read_frame(
        cv2.imread(str(path), cv2.IMREAD_COLOR), count)
    assert ", ".join(map(str, read.values)) == values


@needs_photos
def test_the_evaluation_calibrates_with_the_command_and_counts_wrong_rolls(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/eval_dice_calibration.py calibrates through the command itself and reads the
    source's other photos under what it saved: the dice_43 calibration's dice.toml handed
    the player wrong rolls (mp_Train_three_42's five 3s read with a 6) before the check."""
    monkeypatch.syspath_prepend(str(SCRIPTS))  # it imports eval_dice_reader, beside it
    evaluation = load_script("eval_dice_calibration")
    evaluation.main(["--only", "mp_Train_dice_43.jpg", "--show-wrong"])
    out = capsys.readouterr().out
    assert out.startswith("$ scripts/eval_dice_calibration.py --only mp_Train_dice_43.jpg")
    assert "calibrations 1: saved 1, not saved 0" in out
    assert "finder thresholds saved: 0.2 x1 (ok-but-wrong 0)" in out
    calibrated = re.search(r"^calibrated +frames +(\d+) .* ok-but-wrong +[\d.]+% \((\d+)\)",
                           out, re.MULTILINE)
    assert calibrated is not None and int(calibrated.group(1)) > 40
    assert calibrated.group(2) == "0" and "under mp_Train_dice_43.jpg's" not in out
