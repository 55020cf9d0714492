"""camera.toml and dice.toml zeroed by a power cut (hist72 DEFECT 1): said as the power cut
it was, not in tomllib's words, and the whole copy the cut write left beside each is kept
under a name no save deletes, and named."""

from __future__ import annotations

import os
import shlex
import subprocess
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


def put_back_as_told(said: str, path: Path, kept: Path) -> None:
    """Run the put-back command ``said`` ends with, as the player would (in bash), and check
    it moved the damaged ``path`` aside first (reviewh72 NIT 3: camera.toml's and dice.toml's
    was a bare `mv COPY FILE`, the damaged file, maybe a hand edit with one typo, written
    over), then put the copy in its place."""
    damaged = path.read_bytes()
    command = said.rsplit("`", 2)[1]
    assert command.startswith(f"mv {shlex.quote(str(path))} ")
    assert command.endswith(f" && mv {shlex.quote(str(kept))} {shlex.quote(str(path))}")
    subprocess.run(["bash", "-c", command], check=True)
    (aside,) = path.parent.glob(f"{path.name}.corrupt-*")
    assert aside.read_bytes() == damaged
    assert not kept.exists()


def test_a_zeroed_camera_toml_names_the_power_cut_and_keeps_the_copy() -> None:
    path = config_dir() / CALIBRATION_FILE
    zeroed_with_a_whole_copy(path, "[reader]\nstable_frames = 3\n")
    with pytest.raises(DataError) as refused:
        load_settings(TileClassifier())
    said = str(refused.value)
    kept = kept_copy(path)
    assert said.startswith(f"{path}: not TOML: {POWER_CUT}; fix it or calibrate again; "
                           f"{kept.name}, kept beside it from a write cut short, reads as a "
                           "whole camera.toml: put it back instead with `mv ")
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
    assert f"; {kept.name}, kept beside it from a write cut short, reads as a whole dice.toml: " \
        "put it back instead with `mv " in said
    path.unlink()
    ReaderConfig.load().save(path)
    assert kept.exists()


def test_camera_toml_s_put_back_command_moves_the_damaged_file_aside_first() -> None:
    path = config_dir() / CALIBRATION_FILE
    zeroed_with_a_whole_copy(path, "[reader]\nstable_frames = 3\n")
    with pytest.raises(DataError) as refused:
        load_settings(TileClassifier())
    put_back_as_told(str(refused.value), path, kept_copy(path))
    assert load_settings(TileClassifier()).stable_frames == 3


def test_dice_toml_s_put_back_command_moves_the_damaged_file_aside_first() -> None:
    path = config_dir() / "dice.toml"
    whole = ReaderConfig.load()
    whole.save(path)
    zeroed_with_a_whole_copy(path, path.read_text(encoding="utf-8"))
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    put_back_as_told(str(refused.value), path, kept_copy(path))
    assert ReaderConfig.load(path) == whole
