"""A picture source reads the picture it checked once (a78tilecam DEFECT 1): a 12-megapixel
photo, or one of many pixels, was decoded to check it and again for the first frame."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from pytest_mock import MockerFixture

from companion.hw.camera.capture import FileSource


def _decoded(imread: object, path: Path) -> int:
    return sum(1 for call in imread.call_args_list  # type: ignore[attr-defined]
               if call.args[0] == str(path))


def test_one_picture_is_decoded_once_for_its_check_and_first_frame(
        tmp_path: Path, mocker: MockerFixture) -> None:
    path = tmp_path / "table.jpg"
    picture = np.random.default_rng(2).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    cv2.imwrite(str(path), picture)
    imread = mocker.spy(cv2, "imread")
    source = FileSource(path, loop=True)
    first = source.read()
    assert first is not None and first.shape == (60, 80, 3)
    assert _decoded(imread, path) == 1
    again = source.read()  # a still picture looped: read afresh, the same frame
    assert again is not None and np.array_equal(again, first)
    assert _decoded(imread, path) == 2


def test_a_folders_first_readable_picture_is_decoded_once(
        tmp_path: Path, mocker: MockerFixture) -> None:
    """The folder's check reads on to its first picture that reads; the frames come in order,
    the unreadable one skipped as before, and the checked one is not decoded again."""
    (tmp_path / "frame1.png").write_text("not a picture")
    cv2.imwrite(str(tmp_path / "frame2.jpg"), np.full((40, 40, 3), 20, np.uint8))
    cv2.imwrite(str(tmp_path / "frame3.jpg"), np.full((40, 40, 3), 90, np.uint8))
    imread = mocker.spy(cv2, "imread")
    source = FileSource(tmp_path)
    assert source.read() is None and source.message.startswith("frame1.png: not a picture")
    second = source.read()
    assert second is not None and int(second[0, 0, 0]) == 20
    third = source.read()
    assert third is not None and int(third[0, 0, 0]) == 90
    assert _decoded(imread, tmp_path / "frame2.jpg") == 1
    assert _decoded(imread, tmp_path / "frame3.jpg") == 1
