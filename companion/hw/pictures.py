"""Picture files the player hands the readers (``classify``, ``dice read``, calibration and
picture sources): read as the camera's BGR frames, or a DataError naming what is wrong.

OpenCV's own reading returns None for every fault alike, raises on a picture over its pixel
limit, and reads a transparent part as black (a tile's art cut out of its background).
"""

from __future__ import annotations

import errno
import fcntl
import os
import shlex
import stat
import struct
import termios
from collections.abc import Callable
from pathlib import Path

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
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        whole = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) \
            if image is not None and path.suffix.lower() in TRANSPARENT else None
    except cv2.error:
        raise PictureError(path, "too large a picture to read (over 2**30 pixels)") from None
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
    if whole is not None and whole.ndim == 3 and whole.shape[2] == 4:
        opaque = {np.dtype(np.uint8): 255.0, np.dtype(np.uint16): 65535.0}.get(whole.dtype, 1.0)
        colour = np.clip(whole[..., :3].astype(np.float32) * (255.0 / opaque), 0, 255)
        alpha = _turned_as(np.clip(whole[..., 3:].astype(np.float32) / opaque, 0, 1),
                           colour, image)
        if alpha is not None:
            image = np.round(image * alpha + 255 * (1 - alpha)).astype(np.uint8)
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


def _turned_as(alpha: np.ndarray, colour: np.ndarray, image: np.ndarray) -> np.ndarray | None:
    """``alpha`` turned as OpenCV turned ``image`` by the picture's EXIF orientation: the one
    of the eight turns that brings ``colour`` (read with the alpha, which OpenCV leaves
    unturned) onto ``image``; None when none does. The alpha of a turned picture was left out
    when its sides differed (the transparent part read black) and laid over the wrong pixels
    when square (camera71 RISK 5)."""
    for turn in _TURNS:
        turned = turn(colour)
        if turned.shape == image.shape \
                and float(np.mean(np.abs(turned - image))) <= _SAME_TURN:
            return turn(alpha)
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
