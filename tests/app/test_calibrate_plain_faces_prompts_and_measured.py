"""Review62b of the fix62c calibration fixes: the plain faces' pictures (R2), the prompts'
widths (R1), what a refused frame keeps (D1), [measured]'s words and floor (D2) and the
rfid count (fix62c2)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.calibrate.camera import confirm
from companion.app.camera_settings import (
    CALIBRATION_FILE,
    ENROLMENT_FILE,
    SLOT_LOOKS_FILE,
    load_settings,
)
from companion.app.cli import main
from companion.app.paths import config_dir
from companion.errors import DataError
from companion.hw.camera.classifier import Enrolment, TileClassifier
from companion.hw.camera.reader import ReaderSettings
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.rfid.tagmap import TAGMAP_FILENAME
from companion.systems.jongrogue.tiles import BACK
from tests.app.calibrate_camera_helpers import empty_mat
from tests.app.calibrate_enrol_helpers import every_kind_skipped
from tests.app.table_camera import WEBCAM, table_camera
from tests.tile_picture_helpers import tile_picture

#: The terminal a Pi's console or an SSH window opens at.
COLUMNS = 80


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal: a CJK character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def noisy(mean: float, spread: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(mean + rng.normal(0, spread, (320, 240, 3)), 0, 255).astype(np.uint8)


def test_a_bright_tight_crop_of_the_blank_white_and_of_bare_paper_is_enrolled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R2: a well-lit tight crop of a blank White was skipped as "washed out: too much light
    or glare on the mat" (a picture of one tile, no mat in it), or as all one grey; bare
    paper (empty) too. Of them only black and pure white are left out."""
    folder = tmp_path / "set"
    folder.mkdir()
    white = cv2.imread(str(tile_picture(tmp_path / "white.png", "5z"))).astype(np.float32)
    bright = np.clip(white * 1.05, 0, 255).astype(np.uint8)
    assert bright.mean() > 245  # washed out, by the mat's measure
    cv2.imwrite(str(folder / "5z.png"), bright)
    cv2.imwrite(str(folder / "5z_tight.png"), noisy(246, 3.0, 1))
    cv2.imwrite(str(folder / "5z_flat.png"), noisy(235, 1.5, 2))
    cv2.imwrite(str(folder / "empty.png"), noisy(247, 2.0, 3))
    cv2.imwrite(str(folder / "5z_blank.png"), np.full((320, 240, 3), 255, np.uint8))
    cv2.imwrite(str(folder / "empty_dark.png"), np.zeros((320, 240, 3), np.uint8))
    cv2.imwrite(str(folder / "7m.png"), noisy(248, 3.0, 4))
    assert main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "the mat" not in out
    for name in ("5z.png", "5z_tight.png", "5z_flat.png", "empty.png"):
        assert f"{name} skipped" not in out
    assert ("  5z_blank.png skipped: it is pure white, with no tile's edge in it; photograph "
            "the tile, its edge showing\n") in out
    assert "  empty_dark.png skipped: the picture is black" in out
    assert "  7m.png skipped: the picture is washed out: too much light or glare on the " \
        "tile\n" in out
    labels = Enrolment.load(config_dir() / ENROLMENT_FILE).labels
    assert sorted(labels) == ["5z", "5z", "5z", "empty"]


def test_every_prompt_of_the_enrolment_fits_80_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    """R1: the confirmation was 108 to 114 columns wide and the back's prompt 92: a prompt
    wider than the terminal wraps mid-word, the cursor on its second line. Each prompt
    leaves the cursor a column; a tile's back is not called "back" ("not back")."""
    prompts, ask = every_kind_skipped()
    assert len(prompts) == 35
    for label in ("1m", "7z", BACK):
        assert confirm(ask, "5p", label) == "s"
    out = capsys.readouterr().out
    assert "  the draw slot shows 5p, surely, not a tile's back\n" in out
    assert prompts[-1] == "  y keeps it as a back; or lay a tile face down and Enter " \
        "(s skip, q finish): "
    for text in [*prompts, *out.splitlines()]:
        assert width(text) < COLUMNS, text
        assert "not back" not in text and "as back" not in text


@pytest.mark.parametrize("state", ["deleted", "typo", "no looks"])
def test_a_refused_frame_names_only_the_files_kept_and_why_one_cannot_be_read(
        state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """D1: a deleted camera.toml (or a missing camera_slots.npz) was said kept, and a typo in
    camera.toml never said: the player kept it, each calibration refused. camera73 NIT 6: a
    typo is what play refuses, saying "calibrate again", and the calibration it advised was
    then refused: that camera.toml is set aside and written anew, the looks kept."""
    assert main(["calibrate", "camera", "--frames", "2",
                 "--source", table_camera(monkeypatch)]) == 0
    toml, looks = config_dir() / CALIBRATION_FILE, config_dir() / SLOT_LOOKS_FILE
    if state == "deleted":
        toml.unlink()
    elif state == "typo":
        toml.write_text(toml.read_text().replace("min_confidence = ", "min_confidnce = "))
    else:
        looks.unlink()
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (empty_mat() * 0.2).astype(np.uint8))
    capsys.readouterr()
    kept_looks = looks.read_bytes() if looks.exists() else None
    assert main(["calibrate", "camera", "--frames", "2", "--source", str(dark)]) == 1
    out = capsys.readouterr().out
    if state == "typo":
        assert "not saved" not in out
        assert out.endswith(f"saved {toml}, in place of the calibration from {WEBCAM}\n"
                            f"the slots' empty looks ({SLOT_LOOKS_FILE}) are "
                            "kept as they were: this frame failed the checks above; fix what "
                            "is listed and calibrate again, or add --force to save this "
                            "frame's looks in their place\n")
        assert looks.read_bytes() == kept_looks
        assert load_settings(TileClassifier()) == ReaderSettings.from_classifier(
            TileClassifier())  # read again, as play reads it
        assert [p.name for p in toml.parent.glob("camera.toml.corrupt-*")]
        return
    line = next(line for line in out.splitlines() if line.startswith("not saved"))
    tail = ("fix what is listed and calibrate again, or add --force to save this frame's "
            "calibration in its place")
    if state == "deleted":
        assert line == ("not saved: this frame failed the checks above, so the slots' empty "
                        f"looks ({SLOT_LOOKS_FILE}) are kept as they were; "
                        + tail.replace("its place", "their place"))
    else:
        assert line.endswith(f"({toml}) is kept as it was; {tail}")
        assert SLOT_LOOKS_FILE not in line


@pytest.mark.parametrize(("measured", "message"), [
    ('width = 1280\nheight = 720', '[measured] area must be "view" or "mat", but it is '
                                   "missing"),
    ('area = "view"\nwidth = 1280', "[measured] height must be a whole number of pixels "
                                    "from 64 to 20000, but it is missing"),
    ('area = "view"\nwidth = true\nheight = 720', "[measured] width must be a whole number "
                                                  "of pixels from 64 to 20000, found true"),
    ('area = "view"\nwidth = "1280"\nheight = 720', 'found "1280"'),
    ('area = "view"\nwidth = 1\nheight = 1', "[measured] width must be a whole number of "
                                             "pixels from 64 to 20000, found 1"),
    ('area = "view"\nwidth = 1280\nheight = 63', "height must be a whole number of pixels "
                                                 "from 64 to 20000, found 63"),
])
def test_measured_is_refused_in_a_files_words_and_a_picture_too_small_to_measure_in(
        measured: str, message: str, tmp_path: Path) -> None:
    """D2: a missing key read "found None", a boolean "found True"; width = 1, height = 1
    was taken, the face sizes scaled x640 past any face: "no dice in view" with no why."""
    path = tmp_path / "dice.toml"
    path.write_text(f"[measured]\n{measured}\n")
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    assert message in str(refused.value)
    assert "None" not in str(refused.value) and "True" not in str(refused.value)


def test_the_smallest_measured_picture_is_taken(tmp_path: Path) -> None:
    path = tmp_path / "dice.toml"
    path.write_text('[measured]\narea = "mat"\nwidth = 64\nheight = 64\n')
    measured = ReaderConfig.load(path).measured
    assert measured is not None and (measured.width, measured.height) == (64, 64)


def test_nothing_left_to_enrol_counts_the_kinds_asked_for_not_the_whole_map(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RFID: "(N stickers in …)" counted every kind's stickers in the map."""
    path = config_dir() / TAGMAP_FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('version = 1\n\n[tags]\n"04A1B2C3" = "5p"\n"04A1B2C4" = "5p"\n'
                    '"04A1B2C5" = "1m"\n"04A1B2C6" = "2m"\n', encoding="utf-8")
    assert main(["calibrate", "rfid", "--only", "5p", "--copies", "2",
                 "--port", "loop://"]) == 0
    assert capsys.readouterr().out == (
        f"Every sticker of this kind is enrolled already (2 stickers of 5p in {path}).\n")
