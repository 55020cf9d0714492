"""The printed mat: geometry data, marker detection, rectified slot and dice crops."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import DataError
from companion.hw.camera.mat import MatDetector, MatGeometry, MatStatus, dice_crop, rectify
from companion.hw.camera.sim_scene import Camera, draw_mat, render_scene
from companion.hw.camera.tile_faces import find_cjk_fonts
from companion.hw.ports import ROOM_SLOTS, SLOT_NAMES_JA, Slot
from tests.scripts import load_script


@pytest.fixture(scope="module")
def detector() -> MatDetector:
    return MatDetector()


def test_packaged_geometry_has_every_slot_and_a_dice_area() -> None:
    g = MatGeometry.load()
    assert {s.slot for s in g.slots} == {Slot.DRAW, *ROOM_SLOTS}
    assert len(g.markers) == 4
    inside = [s.rect for s in g.slots] + [g.dice]
    for r in inside:
        assert 0 < r.x_mm and r.x_mm + r.width_mm < g.width_mm
        assert 0 < r.y_mm and r.y_mm + r.height_mm < g.height_mm
    assert all(s.label_ja for s in g.slots) and g.dice_label_ja == "ダイス"


def test_the_printed_slots_are_named_as_the_prompts_name_them() -> None:
    """A room slot printed "Room 3" read as the dungeon's room 3 of the header; the mat
    names each by its place, in the prompts' Japanese and the terminal's TL/TR/BL/BR. The
    draw slot, printed ツモ, is the prompts' 引き牌の枠 too (review61c F6)."""
    slots = {s.slot: s for s in MatGeometry.load().slots}
    for slot, short in zip(ROOM_SLOTS, ("TL", "TR", "BL", "BR"), strict=True):
        assert slots[slot].label_ja == SLOT_NAMES_JA[slot]
        assert slots[slot].label_en == f"Room {short}"
    assert slots[Slot.DRAW].label_ja == SLOT_NAMES_JA[Slot.DRAW] == "引き牌の枠"
    assert slots[Slot.DRAW].label_en == "Draw"


def test_broken_geometry_file_names_file_and_field(tmp_path: Path) -> None:
    text = (files("companion.hw.camera") / "mat.toml").read_text(encoding="utf-8")
    bad = tmp_path / "mat.toml"
    bad.write_text(text.replace('name = "draw"', 'name = "kitchen"'))
    with pytest.raises(DataError, match=r"slots\[0\].*'name' must be one of"):
        MatGeometry.load(bad)
    bad.write_text("[mat\n")
    with pytest.raises(DataError, match="cannot read the mat geometry"):
        MatGeometry.load(bad)


def test_a_mat_number_of_the_wrong_kind_is_worded_as_every_reader_words_it(
        tmp_path: Path) -> None:
    """Review 54 #7: "<what> must be <kind>, found <value>", as the other readers say it
    (this one said "got")."""
    text = (files("companion.hw.camera") / "mat.toml").read_text(encoding="utf-8")
    bad = tmp_path / "mat.toml"
    mat_width = next(line for line in text.splitlines() if line.startswith("width_mm"))
    bad.write_text(text.replace(mat_width, 'width_mm = "wide"', 1))
    with pytest.raises(DataError, match=r"\[mat\]: 'width_mm' must be a number, found 'wide'$"):
        MatGeometry.load(bad)


def test_mat_found_and_every_slot_cropped_upright(detector: MatDetector) -> None:
    frame = render_scene({Slot.DRAW: "5p"}, np.random.default_rng(3))
    detection = detector.detect(frame)
    assert detection.status is MatStatus.FOUND
    assert detection.markers_seen == (0, 1, 2, 3)
    crops = detector.slot_crops(frame, detection)
    g = detector.geometry
    assert set(crops) == {s.slot for s in g.slots}
    for slot, crop in crops.items():
        assert crop.shape[:2][::-1] == g.size_px(g.slot_spec(slot).rect)
    # the tile makes the draw slot busy; the empty slots are plain paper
    assert crops[Slot.DRAW].std() > 2 * crops[Slot.ROOM_TL].std()


def test_rectified_slot_lands_where_the_mat_says_under_a_nudged_camera(
    detector: MatDetector,
) -> None:
    """The slot outline printed at the slot's edge shows up at the crop's edge."""
    for seed in range(3):
        camera = Camera(nudge_px=60.0, tilt=0.1)
        frame = render_scene({}, np.random.default_rng(seed), camera=camera)
        detection = detector.detect(frame)
        assert detection.found
        crop = detector.slot_crops(frame, detection)[Slot.DRAW].mean(axis=2)
        h, w = crop.shape
        # the grey outline sits on the border; the middle is white paper
        assert crop[h // 2, :4].min() < crop[h // 2, w // 2] - 40
        assert crop[:4, w // 2].min() < crop[h // 2, w // 2] - 40


def test_hidden_corners_still_locate_the_mat(detector: MatDetector) -> None:
    frame = render_scene({}, np.random.default_rng(4), hide_markers=(1, 2))
    detection = detector.detect(frame)
    assert detection.status is MatStatus.PARTIAL
    # named by the corners the player sees, not by the markers' ids printed nowhere
    assert "the top-right and bottom-right corner markers hidden" in detection.message
    frame = render_scene({}, np.random.default_rng(4), hide_markers=(0, 1, 2))
    detection = detector.detect(frame)
    assert detection.status is MatStatus.LOST and not detection.found
    assert "1 of 4" in detection.message


def test_a_slot_the_frame_cuts_off_is_out_of_view_and_not_cropped(
    detector: MatDetector,
) -> None:
    """Its crop was black where the frame ends, and black reads as a face-down tile."""
    frame = render_scene({Slot.DRAW: "5p"}, np.random.default_rng(3),
                         camera=Camera(nudge_px=4, tilt=0.01))
    half = np.ascontiguousarray(frame[:, :660])
    detection = detector.detect(half)
    assert detection.found and detection.frame_size == (half.shape[1], half.shape[0])
    assert detector.out_of_view(detection) == (Slot.ROOM_TR, Slot.ROOM_BR)
    assert set(detector.slot_crops(half, detection)) == {Slot.DRAW, Slot.ROOM_TL, Slot.ROOM_BL}
    assert detection.in_view(detector.geometry.slot_spec(Slot.DRAW).rect)
    inside = detector.in_frame(detection, None)
    assert inside[:, :10].all() and not inside[:, -10:].any()
    whole = detector.detect(frame)
    assert detector.out_of_view(whole) == () and whole.in_view(detector.geometry.dice)


def test_a_mirrored_picture_is_said_to_be_mirrored(detector: MatDetector) -> None:
    """A webcam's mirror setting: "mat not in view: 0 of 4 corner markers seen" with the
    whole mat in the picture."""
    frame = render_scene({Slot.DRAW: "5p"}, np.random.default_rng(3))
    detection = detector.detect(np.ascontiguousarray(frame[:, ::-1]))
    assert detection.status is MatStatus.LOST
    assert detection.message == ("the picture is mirrored (left and right swapped): turn off "
                                 "the camera's mirror or flip setting")


@pytest.mark.parametrize(
    "frame",
    [np.zeros((720, 1280, 3), np.uint8), np.full((480, 640), 255, np.uint8),
     np.zeros((0, 0, 3), np.uint8)],
    ids=["black", "white-grey", "empty-array"],
)
def test_no_mat_in_view_is_a_status_not_an_error(detector: MatDetector,
                                                 frame: np.ndarray) -> None:
    detection = detector.detect(frame)
    assert detection.status is MatStatus.LOST
    assert detector.slot_crops(frame, detection) == {}
    assert detection.message


def test_rectify_and_dice_crop_for_the_dice_reader() -> None:
    g = MatGeometry.load()
    frame = render_scene({}, np.random.default_rng(5))
    warped, detection = rectify(frame)
    assert detection.found and warped is not None
    assert warped.shape[:2][::-1] == g.size_px()
    dice, detection = dice_crop(frame)
    assert dice is not None and dice.shape[:2][::-1] == g.size_px(g.dice)
    none, detection = dice_crop(np.zeros((720, 1280, 3), np.uint8))
    assert none is None and detection.status is MatStatus.LOST


def test_each_printed_japanese_name_fits_beside_its_english_one(tmp_path: Path) -> None:
    """scripts/make_mat.py right-aligns each Japanese name under its box, the English one
    (draw_mat's) at the box's left: a longer name (部屋の左上, 引き牌の枠) must keep clear of
    the English and within the box's width, and so of the next slot (review61c F6)."""
    if not find_cjk_fonts():
        pytest.skip("no CJK font (apt-get install fonts-noto-cjk): the mat is printed with "
                    "its English names only")
    dpi = 150
    assert load_script("make_mat").main(["--out", str(tmp_path / "mat"), "--dpi", str(dpi)]) == 0
    px_per_mm = dpi / 25.4
    g = MatGeometry.load()
    printed = cv2.imread(str(tmp_path / "mat.png"), cv2.IMREAD_GRAYSCALE)
    english = cv2.cvtColor(draw_mat(g, px_per_mm), cv2.COLOR_BGR2GRAY)
    japanese = np.abs(printed.astype(int) - english.astype(int)) > 40
    boxes = [(s.rect, s.label_ja) for s in g.slots] + [(g.dice, g.dice_label_ja)]
    found = 0
    for rect, name in boxes:
        x0, x1 = round(rect.x_mm * px_per_mm), round((rect.x_mm + rect.width_mm) * px_per_mm)
        top = round((rect.y_mm + rect.height_mm + 1) * px_per_mm)  # under its outline
        band = slice(top, top + round(6 * px_per_mm))
        ink_en = np.flatnonzero((english[band, x0 - 5:x1 + 5] < 200).any(axis=0)) + x0 - 5
        ink_ja = np.flatnonzero(japanese[band, x0 - 5:x1 + 5].any(axis=0)) + x0 - 5
        assert ink_en.size and ink_ja.size, name
        gap_mm = (ink_ja.min() - ink_en.max()) / px_per_mm
        assert gap_mm >= 3, (name, round(gap_mm, 1))
        assert ink_ja.max() <= x1, name
        found += 1
    # all the Japanese ink is in those bands: none ran into a slot or the next label
    bands = np.zeros_like(japanese)
    for rect, _ in boxes:
        x0, x1 = round(rect.x_mm * px_per_mm), round((rect.x_mm + rect.width_mm) * px_per_mm)
        top = round((rect.y_mm + rect.height_mm + 1) * px_per_mm)  # under its outline
        bands[top:top + round(6 * px_per_mm), x0:x1 + 1] = True
    assert not (japanese & ~bands).any() and found == len(g.slots) + 1
