"""camera.toml and dice.toml zeroed by a power cut (hist72 DEFECT 1): said as the power cut
it was, not in tomllib's words, and the whole copy the cut write left beside each is kept
under a name no save deletes, and named."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from companion.app.camera_settings import CALIBRATION_FILE, load_settings
from companion.app.paths import config_dir
from companion.errors import DataError
from companion.hw.camera.classifier import TileClassifier
from companion.hw.dice.reader_config import ReaderConfig
from companion.toml_writing import write_toml

POWER_CUT = "the file is all zero bytes: a power cut as it was written?"


def zeroed_with_a_whole_copy(path: Path, whole: str) -> Path:
    """``path`` zeroed, and beside it the copy of ``whole`` a write cut short left (an hour
    old: no writer holds it); the copy is returned."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * 64)
    copy = path.parent / f".{path.name}.q7w2e9.tmp"
    copy.write_text(whole, encoding="utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(copy, (an_hour_ago, an_hour_ago))
    return copy


def kept_copy(path: Path) -> Path:
    (kept,) = path.parent.glob(f"{path.name}.unwritten-*")
    return kept


def test_a_zeroed_camera_toml_names_the_power_cut_and_keeps_the_copy() -> None:
    path = config_dir() / CALIBRATION_FILE
    zeroed_with_a_whole_copy(path, "[reader]\nstable_frames = 3\n")
    with pytest.raises(DataError) as refused:
        load_settings(TileClassifier())
    said = str(refused.value)
    kept = kept_copy(path)
    assert said == (f"{path}: not TOML: {POWER_CUT}; fix it or calibrate again; {kept.name}, "
                    "kept beside it from a write cut short, reads as a whole camera.toml: put "
                    f"it back instead with `mv {kept} {path}`")
    # Calibrating again writes camera.toml: the kept copy is no temporary of it.
    path.unlink()
    write_toml(path, {"reader": {"stable_frames": 2}})
    assert kept.read_text(encoding="utf-8") == "[reader]\nstable_frames = 3\n"


def test_a_zeroed_dice_toml_names_the_power_cut_and_keeps_the_copy() -> None:
    path = config_dir() / "dice.toml"
    zeroed_with_a_whole_copy(path, "[reader]\n")
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    said = str(refused.value)
    kept = kept_copy(path)
    assert said.startswith(f"{path}: not valid TOML ({POWER_CUT}); mend it, or run ")
    assert said.endswith(f"; {kept.name}, kept beside it from a write cut short, reads as a "
                         f"whole dice.toml: put it back instead with `mv {kept} {path}`")
    path.unlink()
    ReaderConfig.load().save(path)
    assert kept.exists()
