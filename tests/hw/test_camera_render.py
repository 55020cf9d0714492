"""The synthetic renderer and the printable mat it shares geometry with."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from companion.hw.camera import tile_faces
from companion.hw.camera.augment import render_crop
from companion.hw.camera.mat import MatDetector, MatStatus
from companion.hw.camera.tile_faces import render_tile
from companion.systems.jongrogue.tiles import READER_LABELS, Tile
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


@pytest.mark.parametrize("under", ["", "sub"])
def test_render_tiles_out_a_file_is_a_usage_error_not_a_traceback(
        under: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """camera75 NIT 7: --out naming a file (or a folder under one) stopped with
    FileExistsError (NotADirectoryError) and its traceback."""
    render_tiles = load_script("render_tiles")
    afile = tmp_path / "afile"
    afile.write_text("x")
    out = afile / under if under else afile
    with pytest.raises(SystemExit) as stop:
        render_tiles.main(["--out", str(out), "--per-class", "1"])
    where = f"{afile} is " if under else ""
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        f": error: argument --out: {out}: {where}a file, not a folder; give a folder to write "
        "into")
    assert afile.read_text() == "x"


def test_a_font_named_like_cjk_that_draws_no_kanji_is_not_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Noto Sans Gothic (the Gothic alphabet) matched "Gothic" and drew every kanji as a box.
    sans = Path(pygame.__file__).parent / "freesansbold.ttf"
    shutil.copy(sans, tmp_path / "NotoSansGothic-Regular.ttf")
    monkeypatch.setattr(tile_faces, "FONT_DIRS", (str(tmp_path),))
    tile_faces.find_cjk_fonts.cache_clear()
    try:
        assert tile_faces.find_cjk_fonts() == ()
    finally:
        tile_faces.find_cjk_fonts.cache_clear()


def test_each_kind_has_its_own_mahjong_tile_character() -> None:
    names = {"m": "CHARACTERS", "p": "CIRCLES", "s": "BAMBOOS"}
    ranks = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
    honours = ("EAST WIND", "SOUTH WIND", "WEST WIND", "NORTH WIND",
               "WHITE DRAGON", "GREEN DRAGON", "RED DRAGON")
    for label in READER_LABELS[:34]:
        rank, suit = int(label[0]), label[1]
        expected = honours[rank - 1] if suit == "z" else f"{ranks[rank - 1]} OF {names[suit]}"
        code = tile_faces.mahjong_code_point(Tile.from_notation(label))
        assert unicodedata.name(chr(code)) == f"MAHJONG TILE {expected}"


@pytest.mark.needs_tile_font
@pytest.mark.parametrize("font", tile_faces.find_tile_fonts(), ids=lambda p: p.stem)
def test_a_tile_font_face_is_the_drawing_inked_without_the_fonts_outline(font: Path) -> None:
    def inked(label: str) -> np.ndarray:
        tile = render_tile(label, np.random.default_rng(5), vary=False, tile_font=font)
        body = render_tile("5z", np.random.default_rng(5), vary=False)  # the packaged blank
        return np.abs(tile[..., :3].astype(int) - body[..., :3]).sum(axis=2) > 60

    bird = inked("1s")
    assert bird.mean() > 0.02
    # The font draws a tile's outline round its picture; only the picture is kept, so
    # the body's rim stays bare.
    rim = np.zeros_like(bird)
    rim[:8], rim[-8:], rim[:, :8], rim[:, -8:] = True, True, True, True
    assert not (bird & rim).any()
    # Characters: the rank in a dark ink over a red 萬.
    tile = render_tile("1m", np.random.default_rng(5), vary=False, tile_font=font)
    ink = inked("1m")
    rows = np.nonzero(ink.any(axis=1))[0]
    cut = rows.min() + (rows.max() - rows.min()) // 4
    rank, man = ink.copy(), ink.copy()
    rank[cut:], man[:cut + 10] = False, False
    b, g, r = (tile[..., c][rank].mean() for c in range(3))
    assert r < 120 and g < 120  # the rank: black, blue or navy
    b, g, r = (tile[..., c][man].mean() for c in range(3))
    assert r > b + 60 and r > g + 60  # 萬: red
