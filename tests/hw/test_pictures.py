"""Picture files handed to the readers: read as camera frames, or named for what is wrong."""

from __future__ import annotations

import os
import tracemalloc
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


def _sides_written_over(path: Path, width: int, height: int) -> None:
    """``path``, a small picture OpenCV wrote, with its header saying ``width`` x ``height``:
    a picture that large, without the time and memory of writing one."""
    data = bytearray(path.read_bytes())
    if data[:4] == b"\x89PNG":
        data[16:24] = width.to_bytes(4, "big") + height.to_bytes(4, "big")
    elif data[:2] == b"BM":
        data[18:26] = width.to_bytes(4, "little") + height.to_bytes(4, "little")
    elif data[:2] == b"\xff\xd8":
        frame = data.find(b"\xff\xc0") + 5
        data[frame:frame + 4] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    else:  # a little-endian TIFF: ImageWidth (256) and ImageLength (257), as SHORTs
        entries = int.from_bytes(data[4:8], "little") + 2
        for at in range(entries, entries + 12 * int.from_bytes(data[entries - 2:entries],
                                                                "little"), 12):
            tag = int.from_bytes(data[at:at + 2], "little")
            if tag in (256, 257):
                data[at + 8:at + 10] = (width if tag == 256 else height).to_bytes(2, "little")
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".tif"])
def test_a_picture_of_too_many_bytes_is_refused_before_it_is_decoded(
        tmp_path: Path, suffix: str, mocker: MockerFixture) -> None:
    """a78tilecam DEFECT 1: a 1.2 MB PNG of 20000x20000 took 3.6 GB and a minute to read (20 GB
    with an alpha), on a Pi 4 of 2 GB. Its header's size is read; OpenCV never decodes it.
    (A WebP's sides stop at 16383: 1.07 GB with an alpha, under the limit.)"""
    path = tmp_path / f"poster{suffix}"
    cv2.imwrite(str(path), np.full((40, 48, 3), 200, np.uint8),
                [cv2.IMWRITE_TIFF_COMPRESSION, 1] if suffix == ".tif" else [])
    _sides_written_over(path, 20000, 20000)
    imread = mocker.spy(cv2, "imread")
    with pytest.raises(PictureError) as err:
        read_picture(path)
    assert err.value.problem == ("too large a picture to read (20000x20000 pixels, 1200 MB "
                                 "decoded, over the 1073 MB a picture may take): shrink it (a "
                                 "camera frame is 1280x720)")
    assert imread.call_count == 0


@pytest.mark.parametrize(("name", "picture", "sides", "refused"), [
    ("phone.jpg", np.full((40, 48, 3), 90, np.uint8), (12000, 9000), False),  # 108 MP: 324 MB
    ("phone.jpg", np.full((40, 48, 3), 90, np.uint8), (16320, 12240), False),  # 200 MP: 599 MB
    ("scan.png", np.full((40, 48, 3), 90, np.uint8), (12000, 12000), False),  # 432 MB
    ("art.png", np.full((40, 48, 4), 90, np.uint16), (12000, 12000), True),  # 16 bits, alpha
    ("grey.png", np.full((40, 48), 90, np.uint8), (20000, 20000), True),  # read as colour
])
def test_the_limit_counts_bytes_decoded_not_pixels(
        tmp_path: Path, mocker: MockerFixture, name: str, picture: np.ndarray,
        sides: tuple[int, int], refused: bool) -> None:
    """r78tilecam RISK 1: counted in pixels (2**26), a 108 or 200 MP phone photo, which a
    2 GB Pi holds decoded, was refused where it read before; a 16-bit picture with an
    alpha takes 8 bytes a pixel (1152 MB at 12000x12000), a grey one 3 as OpenCV reads it
    in colour. OpenCV's reading stands in for the decoding."""
    path = tmp_path / name
    cv2.imwrite(str(path), picture)
    _sides_written_over(path, *sides)
    mocker.patch("cv2.imread", return_value=np.full((40, 48, 3), 90, np.uint8))
    if refused:
        with pytest.raises(PictureError, match=rf"too large a picture to read "
                                               rf"\({sides[0]}x{sides[1]} pixels"):
            read_picture(path)
    else:
        assert read_picture(path).shape == (40, 48, 3)


def test_a_picture_under_the_limit_reads_as_large_as_it_is(tmp_path: Path) -> None:
    """A 12-megapixel phone photo (4032x3024) reads whole."""
    path = tmp_path / "phone.jpg"
    cv2.imwrite(str(path), np.full((3024, 4032, 3), 90, np.uint8))
    assert read_picture(path).shape == (3024, 4032, 3)


def test_memory_running_out_is_said_so_not_as_over_opencvs_limit(
        tmp_path: Path, mocker: MockerFixture) -> None:
    """a78tilecam DEFECT 1: under a memory limit, a 4e8-pixel PNG was said to be "over 2**30
    pixels", and the alpha's float copy ended in numpy's traceback."""
    path = tmp_path / "big.png"
    cv2.imwrite(str(path), np.full((40, 48, 4), 200, np.uint8))
    mocker.patch("cv2.imread", side_effect=cv2.error("OpenCV(5.1.0) alloc.cpp:73: error: "
                                                     "(-4:Insufficient memory) Failed to "
                                                     "allocate 1200000000 bytes"))
    with pytest.raises(PictureError) as err:
        read_picture(path)
    assert err.value.problem == ("not enough memory to read this 48x40 picture: shrink it "
                                 "(a camera frame is 1280x720)")
    mocker.patch("cv2.imread", side_effect=[np.full((40, 48, 3), 200, np.uint8),
                                            MemoryError("Unable to allocate 4.47 GiB")])
    with pytest.raises(PictureError, match="not enough memory to read this 48x40 picture"):
        read_picture(path)


def test_another_opencv_error_is_not_said_as_memory_running_out(
        tmp_path: Path, mocker: MockerFixture) -> None:
    """r78tilecam NIT 2: every error OpenCV raised while reading was said as "not enough
    memory to read this 48x40 picture"; one that is not of memory is said with its first
    line."""
    path = tmp_path / "odd.png"
    cv2.imwrite(str(path), np.full((40, 48, 3), 200, np.uint8))
    mocker.patch("cv2.imread", side_effect=cv2.error(
        "OpenCV(5.1.0) grfmt_png.cpp:300: error: (-215:Assertion failed) bit_depth <= 16\n"
        "in function 'readData'\n"))
    with pytest.raises(PictureError) as err:
        read_picture(path)
    assert err.value.problem == ("not a picture that can be read (OpenCV: OpenCV(5.1.0) "
                                 "grfmt_png.cpp:300: error: (-215:Assertion failed) "
                                 "bit_depth <= 16)")


@pytest.mark.parametrize("suffix", [".png", ".tif"])
def test_a_damaged_picture_is_said_in_words_alone(
        tmp_path: Path, suffix: str, capfd: pytest.CaptureFixture[str]) -> None:
    """r78tilecam NIT 4: a damaged picture (a PNG damaged in its pixels, a TIFF of 7
    channels) printed OpenCV's "[ERROR:0@0.07] global loadsave.cpp:577 imread_ …" lines
    over "not a picture that can be read". OpenCV's log level is as it was after."""
    path = tmp_path / f"damaged{suffix}"
    rng = np.random.default_rng(1)
    cv2.imwrite(str(path), rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
    data = bytearray(path.read_bytes())
    if suffix == ".png":
        at = data.find(b"IDAT") + len(data) // 3
        data[at:at + 50] = bytes(b ^ 0x5A for b in data[at:at + 50])
    else:  # SamplesPerPixel (277) said as 7, in the first directory
        entries = int.from_bytes(data[4:8], "little") + 2
        at = next(entries + 12 * n for n in range(20)
                  if int.from_bytes(data[entries + 12 * n:entries + 12 * n + 2], "little") == 277)
        data[at + 8:at + 10] = (7).to_bytes(2, "little")
    path.write_bytes(bytes(data))
    level = cv2.utils.logging.getLogLevel()
    capfd.readouterr()
    with pytest.raises(PictureError) as err:
        read_picture(path)
    assert err.value.problem == "not a picture that can be read"
    out, said = capfd.readouterr()
    # libpng's own line stays (fd 2 is not quieted: another thread's words would go too)
    assert out == "" and "[ERROR" not in said and "imread_" not in said
    assert cv2.utils.logging.getLogLevel() == level


@pytest.mark.parametrize(("seen_through", "most"), [(False, 8), (True, 16)])
def test_an_alpha_takes_no_float_copies_of_the_colour(
        tmp_path: Path, seen_through: bool, most: int) -> None:
    """a78tilecam DEFECT 1: a 4032x3024 PNG whose alpha is opaque all over took 694 MB to read
    (float copies of its colour, and of its differences from each turn), 20000x20000 20 GB.
    Opaque, it reads in OpenCV's two readings (3 + 4 bytes a pixel); seen through in part,
    with one float alpha (4) beside them and one channel at a time in floats (4)."""
    path = tmp_path / "art.png"
    picture = np.random.default_rng(5).integers(0, 255, (1000, 1200, 4), dtype=np.uint8)
    picture[..., 3] = 255
    if seen_through:
        picture[:100, :100, 3] = 0
    cv2.imwrite(str(path), picture)
    tracemalloc.start()
    try:
        image = read_picture(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < most * 1000 * 1200
    if seen_through:
        assert tuple(image[50, 50]) == (255, 255, 255)
    assert np.array_equal(image[500:], picture[500:, :, :3])


@pytest.mark.parametrize(("suffix", "kind"), [(".png", "PNG"), (".webp", "WebP"),
                                              (".bmp", "BMP")])
def test_a_png_webp_or_bmp_cut_short_is_named_so_with_no_decoders_lines(
        tmp_path: Path, suffix: str, kind: str, capfd: pytest.CaptureFixture[str]) -> None:
    """a78tilecam NIT 4: cut anywhere, each was "not a picture that can be read" under
    libpng's "libpng error: Read Error" or OpenCV's own error lines, where a JPEG cut short
    was named so; the whole file, and one with bytes after its end, read."""
    rng = np.random.default_rng(4)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), (5, 5), 0)
    _, coded = cv2.imencode(suffix, picture)
    data = coded.tobytes()
    whole = tmp_path / f"whole{suffix}"
    whole.write_bytes(data + b"trailer")
    assert read_picture(whole).shape == (120, 160, 3)
    capfd.readouterr()
    for cut in np.linspace(20, len(data) - 1, 9).astype(int):
        path = tmp_path / f"cut{cut}{suffix}"
        path.write_bytes(data[:cut])
        with pytest.raises(PictureError) as err:
            read_picture(path)
        assert err.value.problem == (f"the {kind} file is cut short (an unfinished copy or "
                                     "download?): copy it again")
    assert capfd.readouterr().err == ""


def test_a_whole_bmp_whose_header_overstates_its_file_size_reads(tmp_path: Path) -> None:
    """r78tilecam: a BMP whose bfSize says more than the file holds, its rows all there (many
    writers set bfSize loosely; OpenCV ignores it), read before 5d004f05 and was then refused
    as cut short; one whose rows are cut is still named so."""
    picture = np.random.default_rng(6).integers(0, 255, (30, 41, 3), dtype=np.uint8)
    data = bytearray(cv2.imencode(".bmp", picture)[1].tobytes())
    data[2:6] = (len(data) + 2).to_bytes(4, "little")
    loose = tmp_path / "loose.bmp"
    loose.write_bytes(bytes(data))
    assert np.array_equal(read_picture(loose), picture)
    cut = tmp_path / "cut.bmp"
    cut.write_bytes(bytes(data[:-50]))
    with pytest.raises(PictureError) as err:
        read_picture(cut)
    assert err.value.problem.startswith("the BMP file is cut short")
