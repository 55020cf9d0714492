"""The synthetic renderer and the printable mat it shares geometry with."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from companion.hw.camera import render
from companion.hw.camera.mat import MatDetector, MatStatus
from companion.hw.camera.render import render_crop, render_tile
from companion.systems.jongrogue.tiles import READER_LABELS
from tests.scripts import load_script


def test_same_seed_same_pictures() -> None:
    a = render_crop("5m", np.random.default_rng(11))
    b = render_crop("5m", np.random.default_rng(11))
    assert np.array_equal(a, b) and a.shape == (96, 72, 3)
    assert not np.array_equal(a, render_crop("5m", np.random.default_rng(12)))


def test_every_label_renders_and_empty_is_transparent() -> None:
    rng = np.random.default_rng(0)
    for label in READER_LABELS:
        tile = render_tile(label, rng)
        assert tile.shape == (200, 150, 4) and tile.dtype == np.uint8
        assert (tile[..., 3].max() == 0) == (label == "empty")


def test_printed_mat_is_found_by_the_reader(tmp_path: Path) -> None:
    make_mat = load_script("make_mat")
    assert make_mat.main(["--out", str(tmp_path / "mat"), "--dpi", "60"]) == 0
    pdf = (tmp_path / "mat.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and b"/MediaBox [0 0 841.89 595.28]" in pdf
    image = cv2.imread(str(tmp_path / "mat.png"))
    photo = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(60, 90, 120))
    assert MatDetector().detect(photo).status is MatStatus.FOUND


def test_render_tiles_writes_crops_named_by_label(tmp_path: Path) -> None:
    render_tiles = load_script("render_tiles")
    assert render_tiles.main(["--out", str(tmp_path), "--per-class", "1"]) == 0
    names = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert names == sorted(f"{label}_0" for label in READER_LABELS)


def test_a_font_named_like_cjk_that_draws_no_kanji_is_not_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Noto Sans Gothic (the Gothic alphabet) matched "Gothic" and drew every kanji as a box.
    sans = Path(pygame.__file__).parent / "freesansbold.ttf"
    shutil.copy(sans, tmp_path / "NotoSansGothic-Regular.ttf")
    monkeypatch.setattr(render, "FONT_DIRS", (str(tmp_path),))
    render.find_cjk_fonts.cache_clear()
    try:
        assert render.find_cjk_fonts() == ()
    finally:
        render.find_cjk_fonts.cache_clear()
