"""Picture files handed to the readers: read as camera frames, or named for what is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from pytest_mock import MockerFixture

from companion.errors import DataError
from companion.hw.pictures import PictureError, read_picture
from tests.fifo_helpers import pipe_at


def test_a_transparent_part_is_white_paper_not_black(tmp_path: Path) -> None:
    """Tile art cut out of its background (the shipped Man1.png) reads on white."""
    picture = np.zeros((40, 30, 4), np.uint16)
    picture[10:30, 10:20] = (0, 0, 65535, 65535)  # an opaque red patch, 16-bit
    picture[:5, :5] = (0, 0, 0, 32768)  # black, half seen through
    cv2.imwrite(str(tmp_path / "art.png"), picture)
    image = read_picture(tmp_path / "art.png")
    assert image.dtype == np.uint8 and image.shape == (40, 30, 3)
    assert tuple(image[0, 29]) == (255, 255, 255)
    assert tuple(image[20, 15]) == (0, 0, 255)
    assert tuple(image[2, 2]) == (127, 127, 127)


@pytest.mark.parametrize(("name", "said"), [
    ("gone.png", "no such file"),
    ("folder", "a folder, not a picture"),
    ("notes.jpg", "not a picture that can be read"),
    ("tiny.png", "too small a picture to read (3x3 pixels)"),
])
def test_what_is_wrong_is_named(tmp_path: Path, name: str, said: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.jpg").write_text("not a picture")
    cv2.imwrite(str(tmp_path / "tiny.png"), np.full((3, 3, 3), 200, np.uint8))
    with pytest.raises(DataError) as err:
        read_picture(tmp_path / name)
    assert str(err.value) == f"{tmp_path / name}: {said}"
    assert isinstance(err.value, PictureError) and err.value.problem == said


def test_a_pipe_or_a_device_is_no_picture_and_is_not_waited_on(tmp_path: Path) -> None:
    """camera75 NIT 8: OpenCV waited for a writer on a named pipe (classify hung for ever);
    a device was called a picture that cannot be read."""
    with pipe_at(tmp_path / "5p.png") as pipe, pytest.raises(PictureError) as err:
        read_picture(pipe)
    assert err.value.problem == ("a pipe (FIFO), not a picture file: reading it would wait "
                                 "for a writer")
    with pytest.raises(PictureError) as err:
        read_picture(Path("/dev/null"))
    assert err.value.problem == "a device, not a picture file"


def test_a_pipe_with_a_writer_is_named_without_saying_it_would_wait(tmp_path: Path) -> None:
    """reviewcam75 NIT 5(a): /dev/stdin, <(…) or a named pipe with a writer at its other end
    was said to be one reading would wait on; it is refused as a pipe all the same, since
    pictures and videos are read from a file, and nothing is taken from it."""
    said = "a pipe, not a picture file: pictures are read from a file (save it first)"
    reader, writer = os.pipe()
    try:
        with pytest.raises(PictureError) as err:
            read_picture(Path(f"/dev/fd/{reader}"))  # as /dev/stdin and <(…) are
        assert err.value.problem == said
        os.write(writer, b"\x89PNG")
        with pytest.raises(PictureError) as err:
            read_picture(Path(f"/dev/fd/{reader}"))  # bytes waiting: left there
        assert err.value.problem == said and os.read(reader, 9) == b"\x89PNG"
    finally:
        os.close(reader)
        os.close(writer)
    fifo = tmp_path / "5p.png"
    os.mkfifo(fifo)
    held = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so the writer's open does not wait
    written = os.open(fifo, os.O_WRONLY)
    try:
        with pytest.raises(PictureError) as err:
            read_picture(fifo)
        assert err.value.problem == said
    finally:
        os.close(written)
        os.close(held)


def test_a_video_given_as_a_picture_gives_an_ffmpeg_command_to_paste(tmp_path: Path) -> None:
    """reviewcam75 NIT 5(b): "ffmpeg -i my clip.mp4 -frames:v 1 frame.png" named two files."""
    clip = tmp_path / "my clip.mp4"
    clip.write_bytes(b"\x00\x00\x00\x18ftypmp42")
    with pytest.raises(PictureError) as err:
        read_picture(clip)
    assert err.value.problem == ("a video, not a picture: take a frame from it (ffmpeg -i "
                                 "'my clip.mp4' -frames:v 1 frame.png)")


def test_a_picture_over_opencvs_limit_is_named(tmp_path: Path, mocker: MockerFixture) -> None:
    """OpenCV raises on a picture over 2**30 pixels (a 1.6 MB PNG may be one)."""
    path = tmp_path / "poster.png"
    cv2.imwrite(str(path), np.full((20, 20, 3), 200, np.uint8))
    mocker.patch("cv2.imread", side_effect=cv2.error("pixels <= CV_IO_MAX_IMAGE_PIXELS"))
    with pytest.raises(DataError, match=r"poster\.png: too large a picture to read"):
        read_picture(path)


@pytest.mark.parametrize("progressive", [False, True])
def test_a_jpeg_cut_short_is_refused_not_read_half_grey(tmp_path: Path, progressive: bool) -> None:
    """A JPEG cut anywhere in its scans is named, where OpenCV would paint the rest grey (and
    a die there would go unread); the whole file, and one with bytes after its end, read."""
    rng = np.random.default_rng(3)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), (5, 5), 0)
    _, coded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])
    data = coded.tobytes()
    whole = tmp_path / "whole.jpg"
    whole.write_bytes(data + b"trailer written by a phone")
    assert read_picture(whole).shape == (120, 160, 3)
    first_scan = data.find(b"\xff\xda")
    for cut in np.linspace(first_scan + 2, len(data) - 1, 12).astype(int):
        path = tmp_path / f"cut{cut}.jpg"
        path.write_bytes(data[:cut])
        with pytest.raises(PictureError) as err:
            read_picture(path)
        assert err.value.problem.startswith("the JPEG file is cut short")
