"""The real photos' own dice boxes, which label every die of the real training windows
(scripts/data/dice_boxes.csv: the tray's; dice_boxes_webcam.csv: the webcam's; read by
scripts/make_dice_real_data.py --boxes)."""

from __future__ import annotations

from types import ModuleType

import pytest

from companion.hw.dice.networks import Spot
from tests.scripts import SCRIPTS, load_script


@pytest.fixture(scope="module")
def real_data() -> ModuleType:
    return load_script("make_dice_real_data")


# A webcam box may hold only a die's pips: a 1's is as small as its pip.
@pytest.mark.parametrize(("name", "width", "height", "photos", "smallest"),
                         [("dice_boxes.csv", 640, 640, 80, 10),
                          ("dice_boxes_webcam.csv", 640, 480, 140, 5)])
def test_the_boxes_are_of_train_photos_only_and_hold_their_labels(
        real_data: ModuleType, name: str, width: int, height: int, photos: int,
        smallest: float) -> None:
    """No held-out photo teaches the networks, and every photo's boxes are its label's dice."""
    evaluation = load_script("eval_dice_reader")
    boxes = real_data.read_boxes(SCRIPTS / "data" / name)
    assert len(boxes) > photos
    assert all(evaluation.part(image) == "train" for image in boxes)
    if not evaluation.PHOTOS.exists():
        pytest.skip("real photos live in ../shared (dev only)")
    labels = {p.image: p.dice for p in evaluation.photos(which="train")}
    assert all(sorted(b.value for b in photo) == list(labels[image])
               for image, photo in boxes.items())
    assert all(0 < b.x < width and 0 < b.y < height and smallest < b.side < 80
               for photo in boxes.values() for b in photo)


def test_a_boxed_die_is_cut_at_its_mark_or_else_at_its_box_as_big_as_the_marked_ones(
        real_data: ModuleType) -> None:
    box = real_data.Box
    boxes = [box(100.0, 100.0, 40.0, 3), box(200.0, 100.0, 40.0, 5), box(300.0, 300.0, 50.0, 1)]
    # The first box's own mark, a fainter one nearby, the second box's mark, and a mark
    # far from every box; the third box is not marked at all.
    marks = [Spot(104.0, 98.0, 32.0, 0.9), Spot(112.0, 100.0, 30.0, 0.4),
             Spot(195.0, 103.0, 36.0, 0.8), Spot(500.0, 500.0, 30.0, 0.7)]
    dice = real_data._boxed(marks, boxes)
    assert dice[:2] == [marks[0], marks[2]]
    # Unmarked: at the box's centre, its face the marked boxes' median share of a box.
    assert (dice[2].x, dice[2].y) == (300.0, 300.0)
    assert dice[2].side == pytest.approx(50.0 * (32 / 40 + 36 / 40) / 2)
    # A mark is one die's only; a photo with no marks sizes faces by FACE_OF_BOX.
    twice = real_data._boxed([marks[0]], [boxes[0], box(101.0, 101.0, 40.0, 2)])
    assert twice[0] == marks[0] and twice[1] == Spot(101.0, 101.0, 32.0, 0.0)
    unmarked = real_data._boxed([], boxes[:1])
    assert unmarked == [Spot(100.0, 100.0, 40.0 * real_data.FACE_OF_BOX, 0.0)]


def test_a_box_smaller_than_the_face_reaches_the_mark_on_its_face(
        real_data: ModuleType) -> None:
    """A webcam's 1 is boxed as small as its pip: its mark, off the pip by more than half
    the box but less than half a face, is still its die's."""
    pip = real_data.Box(100.0, 100.0, 12.0, 1)
    marks = [Spot(109.0, 104.0, 40.0, 0.9), Spot(300.0, 100.0, 40.0, 0.8)]
    assert real_data._boxed(marks, [pip])[0] == marks[0]
