"""Picture files the player hands the readers (``classify``, ``dice read``, calibration and
picture sources): read as the camera's BGR frames, or a DataError naming what is wrong.

OpenCV's own reading returns None for every fault alike, raises on a picture over its pixel
limit, and reads a transparent part as black (a tile's art cut out of its background).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shlex
import stat
import struct
import termios
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NamedTuple

import cv2
import numpy as np

from companion.errors import DataError


class PictureError(DataError):
    """A picture that cannot be read: ``path`` and, apart, what is wrong with it (a listing
    of many pictures names each by its own path or name)."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


MIN_SIDE = 16  # pixels: less than a tile's or a die's face can be read from
# .m4v and .3gp: Apple's and older phones' exports, which OpenCV opens as it opens .mp4; read
# as pictures, they were refused as "not a picture that can be read" (camera71 NIT 7).
VIDEO_SUFFIXES = (".mp4", ".m4v", ".3gp", ".avi", ".mkv", ".mov", ".webm")
TRANSPARENT = (".png", ".webp", ".tif", ".tiff")  # formats that may hold an alpha channel
#: The most bytes a picture may take decoded (its pixels, times its channels, an alpha
#: counted, times its bytes a sample): a 20000x20000 PNG of 1.2 MB (1.2 GB decoded) is refused
#: before it is decoded, where it took 3.6 GB and a minute (20 GB with an alpha; the Pi 4 has
#: 2 GB) below OpenCV's own limit of 2**30 pixels (a78tilecam DEFECT 1). Counted in pixels
#: (2**26), a 108 or 200 MP phone photo (324 or 600 MB) was refused too (r78tilecam RISK 1).
MAX_BYTES = 2**30


class Declared(NamedTuple):
    """A picture's size as its header gives it, before it is decoded."""

    width: int
    height: int
    channels: int = 3  # as read: OpenCV's colour reading makes a grey picture three
    sample: int = 1  # bytes a sample: 2 for 16 bits

    @property
    def decoded(self) -> int:
        """The bytes OpenCV's reading of it takes."""
        return self.width * self.height * self.channels * self.sample


def read_picture(path: Path) -> np.ndarray:
    """The picture at ``path`` as 8-bit BGR, turned as its EXIF says, a transparent part on
    white paper; PictureError when it is missing, a folder, no picture OpenCV can read, too
    large for it, or too small to read, or no regular file (a pipe or a device)."""
    if not path.exists():
        raise PictureError(path, "no such file")
    if path.is_dir():
        raise PictureError(path, "a folder, not a picture")
    kind = not_regular(path, "picture")
    if kind is not None:
        raise PictureError(path, kind)
    if _cut_short_jpeg(path):
        raise PictureError(path, "the JPEG file is cut short (an unfinished copy or download?); "
                                 "its lower part would be grey, and dice or tiles there unseen")
    if (kind := _cut_short_kind(path)) is not None:
        # Said before OpenCV is called: libpng printed "libpng error: Read Error" and OpenCV
        # its own error lines over "not a picture that can be read" (a78tilecam NIT 4).
        raise PictureError(path, f"the {kind} file is cut short (an unfinished copy or "
                                 f"download?): copy it again")
    size = _declared_size(path)
    if size is not None and size.decoded > MAX_BYTES:
        raise PictureError(path, f"too large a picture to read ({size.width}x{size.height} "
                                 f"pixels, {size.decoded // 10**6} MB decoded, over the "
                                 f"{MAX_BYTES // 10**6} MB a picture may take): shrink it (a "
                                 f"camera frame is 1280x720)")
    try:
        with _decoders_quiet():
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            whole = (cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
                     if image is not None and path.suffix.lower() in TRANSPARENT else None)
        if image is not None and whole is not None and whole.ndim == 3 and whole.shape[2] == 4:
            image = _on_white(whole, image)
    except (cv2.error, MemoryError) as exc:
        # OpenCV raises on a picture over its own limit (2**30 pixels) in a kind whose size
        # is not read above, and on memory it cannot get, as numpy does: a 20000x20000 PNG
        # under ulimit was said to be over 2**30 pixels, or a traceback (a78tilecam DEFECT 1).
        if "CV_IO_MAX_IMAGE_PIXELS" in str(exc):
            raise PictureError(path, "too large a picture to read (over 2**30 pixels): shrink "
                                     "it (a camera frame is 1280x720)") from None
        if isinstance(exc, cv2.error) and not _out_of_memory(str(exc)):
            # Any other fault of OpenCV's was said as memory running out (r78tilecam NIT 2).
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else "no reason given"
            raise PictureError(path, f"not a picture that can be read (OpenCV: "
                                     f"{first})") from None
        sides = f"{size.width}x{size.height} " if size is not None else ""
        raise PictureError(path, f"not enough memory to read this {sides}picture: shrink it "
                                 f"(a camera frame is 1280x720)") from None
    if image is None and path.suffix.lower() in VIDEO_SUFFIXES:
        # A kind the program reads as a camera: "not a picture" left the player to wonder
        # whether the file was broken (camera75 NIT 6).
        # Quoted for the shell: "ffmpeg -i my clip.mp4" named two files (reviewcam75 NIT 5b).
        raise PictureError(path, f"a video, not a picture: take a frame from it (ffmpeg -i "
                                 f"{shlex.quote(path.name)} -frames:v 1 frame.png)")
    if image is None:
        raise PictureError(path, "not a picture that can be read")
    if min(image.shape[:2]) < MIN_SIDE:
        raise PictureError(path, f"too small a picture to read "
                                 f"({image.shape[1]}x{image.shape[0]} pixels)")
    return image


@contextmanager
def _decoders_quiet() -> Iterator[None]:
    """OpenCV's log kept quiet (its level set to silent, and set back after) while a picture
    is decoded: a damaged TIFF printed its "[ERROR:…] imread_" lines over the words "not a
    picture that can be read" (r78tilecam NIT 4). libpng's own "libpng error: …" line is
    left: it writes to fd 2 itself, and quieting fd 2 would drop whatever another thread
    (the game's notices, a traceback) said in that time, each frame of a folder source.
    OpenCV 4, the Pi's, has its level as cv2.getLogLevel/setLogLevel, 5 as
    cv2.utils.logging's (see capture.quiet_opencv)."""
    logging = getattr(getattr(cv2, "utils", None), "logging", cv2)
    get_level, set_level = (getattr(logging, "getLogLevel", None),
                            getattr(logging, "setLogLevel", None))
    level = None
    if callable(get_level) and callable(set_level):
        level = get_level()
        set_level(0)  # LOG_LEVEL_SILENT, in OpenCV 4 and 5 alike
    try:
        yield
    finally:
        if level is not None and callable(set_level):
            set_level(level)


def _out_of_memory(said: str) -> bool:
    """Whether OpenCV's error text ``said`` is of memory it could not get: its
    OutOfMemoryError says "(-4:Insufficient memory) Failed to allocate N bytes"."""
    return "insufficient memory" in said.lower() or "allocate" in said.lower()


def _on_white(whole: np.ndarray, image: np.ndarray) -> np.ndarray:
    """``image`` (OpenCV's 8-bit colour reading) with the transparent part of ``whole`` (the
    same picture read with its alpha, unturned) on white paper. A picture opaque all over is
    ``image`` as it is; the blend is one channel at a time with one float alpha, where float
    copies of the whole colour took a 4032x3024 PNG with an opaque alpha to 694 MB and a
    20000x20000 one to 20 GB (a78tilecam DEFECT 1)."""
    opaque = {np.dtype(np.uint8): 255.0, np.dtype(np.uint16): 65535.0}.get(whole.dtype, 1.0)
    if float(whole[..., 3].min()) >= opaque:
        return image
    turn = _turn_of(whole[..., :3], opaque, image)
    if turn is None:
        return image
    alpha = turn(whole[..., 3]).astype(np.float32)
    alpha *= 1.0 / opaque
    np.clip(alpha, 0, 1, out=alpha)
    channel = np.empty_like(alpha)  # one for the three: 255 + (colour - 255) * alpha
    for c in range(3):
        np.subtract(image[..., c], 255, out=channel, dtype=np.float32)
        channel *= alpha
        channel += 255
        image[..., c] = np.rint(channel, out=channel)
    return image


def not_regular(path: Path, what: str) -> str | None:
    """What ``path``, given as a ``what`` ("picture", "video"), is when it is no regular file
    (a named pipe, a device), in words as companion.app.arg_types.not_a_file says them; None
    for a regular file or a link to one. OpenCV reads a pipe by waiting for a writer:
    classify, ``--enrol-from``, or a picture, a video or a folder used as the camera, with a
    FIFO named 5p.png or clip.mp4, hung for ever (camera75 NIT 8), as save.json did before
    :func:`companion.files.read_regular`."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None  # gone or not to be looked at: OpenCV's reading says it cannot be read
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode) and not _has_writer(path):
        return f"a pipe (FIFO), not a {what} file: reading it would wait for a writer"
    if stat.S_ISFIFO(mode):
        # /dev/stdin or <(…), a writer at its other end: no wait to speak of (reviewcam75
        # NIT 5a), but OpenCV reads a picture or a video from a file by its name.
        return f"a pipe, not a {what} file: {what}s are read from a file (save it first)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return f"a device, not a {what} file"
    return f"not a regular file, so not a {what}"


def _has_writer(fifo: Path) -> bool:
    """Whether the pipe ``fifo`` has a writer: bytes wait in it, or a read finds none yet
    (EAGAIN) where a pipe with no writer ends (EOF). Opened for reading without waiting,
    and nothing is taken from it: a byte is read only when FIONREAD says none is there."""
    try:
        handle = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        waiting = struct.unpack("i", fcntl.ioctl(handle, termios.FIONREAD, bytes(4)))[0]
        return waiting > 0 or os.read(handle, 1) != b""
    except OSError as exc:
        return exc.errno == errno.EAGAIN
    finally:
        os.close(handle)


#: The eight ways EXIF's orientation tag turns a picture (1 to 8), as numpy moves: none first.
_TURNS: tuple[Callable[[np.ndarray], np.ndarray], ...] = (
    lambda a: a, np.fliplr, lambda a: np.rot90(a, 2), np.flipud,
    lambda a: a.swapaxes(0, 1), lambda a: np.rot90(a, -1),
    lambda a: np.rot90(a, 2).swapaxes(0, 1), lambda a: np.rot90(a, 1),
)
#: How far (grey levels, on average) the colour read with the alpha may be from OpenCV's own
#: 8-bit reading of it (16 bits brought to 8, rounded otherwise) and still be the same turn.
_SAME_TURN = 2.0


def _turn_of(colour: np.ndarray, opaque: float,
             image: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | None:
    """The turn OpenCV gave ``image`` by the picture's EXIF orientation, which it leaves
    undone on the reading with the alpha: the one of the eight that brings ``colour`` (that
    reading's colour, ``opaque`` its full scale) onto ``image``; None when none does. The
    alpha of a turned picture was left out when its sides differed (the transparent part
    read black) and laid over the wrong pixels when square (camera71 RISK 5)."""
    if colour.dtype != np.uint8:
        colour = np.clip(colour * (255.0 / opaque), 0, 255).round().astype(np.uint8)
    for turn in _TURNS:
        turned = turn(colour)
        if turned.shape == image.shape and float(np.mean(
                cv2.mean(cv2.absdiff(np.ascontiguousarray(turned), image))[:3])) <= _SAME_TURN:
            return turn
    return None


def _cut_short_jpeg(path: Path) -> bool:
    """A JPEG whose scans end with no end-of-image marker after them. libjpeg decodes such a
    file with a warning and paints what is missing grey, so a roll read from it could be short
    of dice. The file's marker segments are walked from its start (each one's length given);
    a scan's coded data runs to the next marker (a 0xFF byte in it is followed by 0x00, or by
    a restart marker). The picture is whole once an end-of-image marker follows its scans:
    bytes after it are no part of it (a phone's motion photo appends its clip there, Samsung
    its trailer), and could hold anything, a start-of-scan marker too (camera71 DEFECT 3)."""
    try:
        data = path.read_bytes()
    except OSError:
        return False  # OpenCV's reading says what is wrong
    if data[:2] != b"\xff\xd8":
        return False
    scanned, at, size = False, 2, len(data)
    while True:
        if at >= size:
            return scanned
        if data[at] != 0xFF:
            # Stray bytes where a marker must be: libjpeg skips them to the next 0xFF with a
            # warning ("extraneous bytes before marker") and decodes on, so the walk does too.
            # Giving up here took such a file cut short in its scans for whole (reviewc71
            # RISK 3).
            at = data.find(b"\xff", at)
            if at < 0:
                return scanned
        while at < size and data[at] == 0xFF:  # the marker, after fill bytes 0xFF if any
            at += 1
        if at >= size:
            return scanned
        marker, at = data[at], at + 1
        if marker == 0x00:
            continue  # 0xFF 0x00 outside a scan: stray bytes too, skipped as libjpeg does
        if marker == 0xD9:  # end of image
            return False
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # no length follows these
            continue
        if at + 2 > size:
            return scanned or marker == 0xDA
        at += int.from_bytes(data[at:at + 2], "big")
        if marker != 0xDA:
            continue
        scanned = True
        while True:  # the scan's coded data, to the next marker
            at = data.find(b"\xff", at)
            if at < 0 or at + 1 >= size:
                return True
            follows = data[at + 1]
            if follows == 0x00 or 0xD0 <= follows <= 0xD7 or follows == 0xFF:
                at += 1 if follows == 0xFF else 2
                continue
            break


def _declared_size(path: Path) -> Declared | None:
    """The size a picture's header gives, read without decoding it, for the kinds a camera or
    a phone writes (PNG, JPEG, BMP, WebP, TIFF, PNM), known by their first bytes as OpenCV
    knows them; None for another kind or a header that cannot be read, which OpenCV's
    reading then judges. A picture's pixels may be many times its file: a 1.2 MB PNG of
    20000x20000 pixels (a78tilecam DEFECT 1). An alpha is counted where the header may
    have one (a PNG's palette may, by a tRNS chunk), and 16 bits as two bytes."""
    try:
        with path.open("rb") as file:
            head = file.read(64)
            if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
                sides = _pair(head, 16, ">II")
                return None if sides is None or len(head) < 26 else Declared(
                    *sides, 4 if head[25] in (3, 4, 6) else 3, 2 if head[24] == 16 else 1)
            if head[:2] == b"BM" and len(head) >= 26:
                if struct.unpack_from("<I", head, 14)[0] == 12:  # OS/2's header: 16-bit sides
                    sides = _pair(head, 18, "<HH")
                    return None if sides is None else Declared(*sides)
                width, height = struct.unpack_from("<ii", head, 18)
                bits = struct.unpack_from("<H", head, 28)[0] if len(head) >= 30 else 24
                # a height under 0: rows stored top first
                return Declared(abs(width), abs(height), 4 if bits == 32 else 3)
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return _webp_size(head)
            if head[:4] in (b"II*\x00", b"MM\x00*"):
                return _tiff_size(file, ">" if head[:1] == b"M" else "<")
            if head[:1] == b"P" and head[1:2] in b"123456" and len(head) > 2:
                words = re.sub(rb"#[^\n]*", b" ", head[2:]).split()
                if len(words) < 2:
                    return None
                deep = head[1:2] not in b"14" and len(words) >= 3 and int(words[2]) > 255
                return Declared(int(words[0]), int(words[1]), 3, 2 if deep else 1)
            if head[:2] == b"\xff\xd8":
                sides = _jpeg_size(file)
                return None if sides is None else Declared(*sides)
    except (OSError, ValueError, struct.error):
        return None
    return None


def _pair(data: bytes, at: int, layout: str) -> tuple[int, int] | None:
    """Two numbers at ``at`` in ``data`` laid out as ``layout`` (struct's), None when cut."""
    if len(data) < at + struct.calcsize(layout):
        return None
    first, second = struct.unpack_from(layout, data, at)
    return int(first), int(second)


def _webp_size(head: bytes) -> Declared | None:
    """The canvas of a WebP file from its first chunk: VP8X (extended), VP8L (lossless) or
    VP8 (lossy), each laying its sides, and whether it has an alpha, out its own way."""
    chunk = head[12:16]
    if chunk == b"VP8X" and len(head) >= 30:
        return Declared(int.from_bytes(head[24:27], "little") + 1,
                        int.from_bytes(head[27:30], "little") + 1, 4 if head[20] & 0x10 else 3)
    if chunk == b"VP8L" and len(head) >= 25 and head[20] == 0x2F:
        bits = int.from_bytes(head[21:25], "little")
        return Declared((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1,
                        4 if bits >> 28 & 1 else 3)
    if chunk == b"VP8 " and len(head) >= 30:
        width, height = struct.unpack_from("<HH", head, 26)
        return Declared(width & 0x3FFF, height & 0x3FFF)
    return None


def _tiff_size(file: BinaryIO, order: str) -> Declared | None:
    """ImageWidth (256), ImageLength (257), BitsPerSample (258, the first sample's) and
    SamplesPerPixel (277, 1 unless given) from a TIFF's first directory."""
    file.seek(4)
    file.seek(struct.unpack(order + "I", file.read(4))[0])
    count = struct.unpack(order + "H", file.read(2))[0]
    entries = file.read(12 * count)
    tags: dict[int, int] = {258: 8, 277: 1}
    for at in range(0, len(entries) - 11, 12):
        tag, kind, many = struct.unpack_from(order + "HHI", entries, at)
        if tag in (256, 257, 258, 277):
            value = struct.unpack_from(order + ("H" if kind == 3 else "I"), entries, at + 8)[0]
            if tag == 258 and many > 2:  # the samples' bits are elsewhere, at this offset
                file.seek(struct.unpack_from(order + "I", entries, at + 8)[0])
                value = struct.unpack(order + "H", file.read(2))[0]
            tags[tag] = value
    if 256 not in tags or 257 not in tags:
        return None
    return Declared(tags[256], tags[257], min(max(tags[277], 3), 4), max(1, (tags[258] + 7) // 8))


def _jpeg_size(file: BinaryIO) -> tuple[int, int] | None:
    """The sides in a JPEG's start-of-frame marker, its segments walked from the file's start
    (a phone's EXIF and its thumbnail come first, each with its length)."""
    file.seek(2)
    while True:
        marker = file.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            return None
        if marker[1] == 0xFF:  # fill bytes before a marker
            file.seek(-1, os.SEEK_CUR)
            continue
        if marker[1] in (0x01, *range(0xD0, 0xD8)):  # no length follows these
            continue
        segment = file.read(2)
        if len(segment) < 2:
            return None
        length = int.from_bytes(segment, "big")
        if 0xC0 <= marker[1] <= 0xCF and marker[1] not in (0xC4, 0xC8, 0xCC):
            frame = file.read(5)  # the sample precision, then the height and the width
            height, width = struct.unpack(">HH", frame[1:5])
            return (width, height) if height else None  # no height: given after the scan
        file.seek(length - 2, os.SEEK_CUR)


def _cut_short_kind(path: Path) -> str | None:
    """"PNG", "WebP" or "BMP" for such a file that holds less than it declares: a PNG whose
    chunks, each with its length and a type of four letters, run past the file's end
    before its IEND chunk; a WebP
    whose RIFF size, a BMP whose header's file size, is more than the file holds. None for
    a whole one, another kind, or a file that cannot be read (OpenCV's reading says why)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(34)
            if head[:8] == b"\x89PNG\r\n\x1a\n":
                at = 8
                while True:
                    file.seek(at)
                    chunk = file.read(8)
                    if len(chunk) < 8:
                        return "PNG"
                    if not chunk[4:].isalpha():  # no chunk's type: damaged, not cut short
                        return None
                    at += 12 + int.from_bytes(chunk[:4], "big")  # length, type, data, CRC
                    if at > size:
                        return "PNG"
                    if chunk[4:] == b"IEND":
                        return None
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return "WebP" if 8 + int.from_bytes(head[4:8], "little") > size else None
            if head[:2] == b"BM" and len(head) >= 6:
                return "BMP" if min(int.from_bytes(head[2:6], "little"),
                                    _bmp_rows_end(head)) > size else None
    except OSError:
        return None
    return None


def _bmp_rows_end(head: bytes) -> int:
    """Where an uncompressed BMP's last row ends, from its info header (``head``, its first 34
    bytes): rows all there are a whole picture whatever its bfSize says, which writers set
    loosely and OpenCV ignores (a whole one was refused as cut short, r78tilecam). Compressed,
    or with a header too short to tell, as large as any file (bfSize judges alone)."""
    if len(head) < 34 or int.from_bytes(head[14:18], "little") < 40:
        return 2**64
    width, height = struct.unpack_from("<ii", head, 18)
    bits, compression = struct.unpack_from("<HI", head, 28)
    if compression not in (0, 3, 6):  # RGB, BITFIELDS, ALPHABITFIELDS: rows as they are
        return 2**64
    row = (abs(int(width)) * int(bits) + 31) // 32 * 4
    return int.from_bytes(head[10:14], "little") + row * abs(int(height))
