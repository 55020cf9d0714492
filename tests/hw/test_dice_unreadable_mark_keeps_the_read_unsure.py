"""dicecam69 RISK 2: told the count, a die-like mark the reader could not read keeps the
read unsure instead of being left out (placement._thrown), on the shared real photos."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.dice.placement import _thrown
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import _NOT_READ, DieReading, ReadStatus

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-photos"
needs_photos = pytest.mark.skipif(not PHOTOS.exists(), reason="the real photos are not here")


@cache
def reader() -> DiceReader:
    return DiceReader(ReaderConfig.load())


def photo(name: str) -> np.ndarray:
    image = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    assert image is not None
    return image


@needs_photos
@pytest.mark.parametrize(("name", "count"), [
    ("nb_IMG_20191209_100242.jpg", 5),  # six dice, 1 2 2 4 5 6: the 5 was left out
    ("mp_Train_dice_43.jpg", 4),  # five 1s, read "ok" as four
])
def test_a_die_in_view_it_cannot_read_keeps_a_throw_of_one_fewer_unsure(
        name: str, count: int) -> None:
    read = reader().read(photo(name), count)
    assert read.status is ReadStatus.UNSURE
    assert len(read.dice) == count + 1
    assert [d.reason for d in read.dice if d.value is None] == [_NOT_READ]


@needs_photos
@pytest.mark.parametrize("name", ["mp_Train_four_46.jpg", "mp_Train_six_48.jpg"])
def test_a_mark_unlike_the_dice_is_still_left_out_of_a_throw_of_its_count(name: str) -> None:
    """Smaller than the dice read (0.82 and 0.65 times the smallest) and away from them: a
    thing beside the dice, left out when all the dice thrown are read (as before)."""
    image = photo(name)
    alone = reader().read(image)
    truth = {"mp_Train_four_46.jpg": [4] * 5, "mp_Train_six_48.jpg": [6] * 5}[name]  # labels.csv
    assert alone.status is ReadStatus.UNSURE  # not told the count: the mark is doubted
    read = reader().read(image, len(truth))
    assert read.status is ReadStatus.OK and sorted(read.values) == truth


def die(value: int | None, x: float, y: float, side: float = 32.0) -> DieReading:
    return DieReading(value, 0.0 if value is None else 0.99, (x, y), side,
                      _NOT_READ if value is None else "")


@pytest.mark.parametrize(("mark", "left_out"), [
    (die(None, 140, 100, 29.8), False),  # a die's size, among the dice
    (die(None, 140, 100, 20.0), True),  # among them, but far smaller than any
    (die(None, 140, 100, 60.0), True),  # far larger
    (die(None, 400, 100, 32.0), True),  # a die's size, far off to the side of them
])
def test_only_a_mark_unlike_a_die_is_left_out(mark: DieReading, left_out: bool) -> None:
    tops = [die(2, 100, 100, 32.0), die(5, 180, 100, 34.0), die(6, 140, 160, 33.0)]
    kept = _thrown([*tops, mark], 3)
    assert kept == (tops if left_out else [*tops, mark])
