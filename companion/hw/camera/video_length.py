"""Whether a video file holds fewer bytes than its own header declares: a copy or a download
that did not finish. Told from the container's sizes, not from the frames read against
OpenCV's frame count, which for a Matroska or WebM file is the duration times the frame
rate: a whole phone video of a varying frame rate, or whose sound runs on after the
picture, counted far more frames than it held (r76lead DEFECT 1)."""

from __future__ import annotations

import struct
from pathlib import Path

#: Matroska's (and WebM's) first element, and its Segment's: the one whose size is the
#: whole of the file after it.
_EBML = b"\x1a\x45\xdf\xa3"
_SEGMENT = b"\x18\x53\x80\x67"


def _vint(data: bytes, at: int) -> tuple[int, int, bool]:
    """The EBML variable-size integer at ``at``: its value, its length in bytes, and whether
    it is the "unknown" size (all ones: a live stream's, which declares no length)."""
    first = data[at]
    length, mask = 1, 0x80
    while length <= 8 and not first & mask:
        length, mask = length + 1, mask >> 1
    if length > 8 or at + length > len(data):
        raise ValueError("no EBML size")
    value = first & (mask - 1)
    for byte in data[at + 1:at + length]:
        value = value << 8 | byte
    return value, length, value == (1 << 7 * length) - 1


def _boxes_past_end(path: Path, size: int) -> bool:
    """An MP4 or QuickTime file: does a top-level box run past the file's end?"""
    with path.open("rb") as handle:
        at = 0
        while at < size:
            handle.seek(at)
            head = handle.read(16)
            if len(head) < 8:
                return True
            box = struct.unpack(">I", head[:4])[0]
            if box == 1:  # a 64-bit size follows the box's type
                if len(head) < 16:
                    return True
                box = struct.unpack(">Q", head[8:16])[0]
            elif box == 0:  # the last box, to the file's end
                return False
            if box < 8:
                return False  # not boxes: nothing is declared
            at += box
        return at > size


def declared_past_end(path: Path) -> bool:
    """Does the video at ``path`` declare more bytes than it holds: an AVI's RIFF size, a
    Matroska or WebM Segment's size, or an MP4's top-level box running past the file's end?
    False for a container it does not know, a live stream's unknown size, or a file it
    cannot read."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(4096)
        if head[:4] == b"RIFF" and len(head) >= 8:
            riff: int = struct.unpack("<I", head[4:8])[0]
            return riff + 8 > size
        if head[:4] == _EBML:
            header, length, _ = _vint(head, 4)
            at = 4 + length + header
            if head[at:at + 4] != _SEGMENT:
                return False
            segment, length, unknown = _vint(head, at + 4)
            return not unknown and at + 4 + length + segment > size
        if head[4:8] in (b"ftyp", b"moov", b"mdat", b"wide", b"free"):
            return _boxes_past_end(path, size)
    except (OSError, ValueError, IndexError):
        pass
    return False
