"""The tile camera path (audit camera71).

DEFECT 3: a phone JPEG with data after its end-of-image marker (a Google motion photo's clip,
Samsung's trailer) was refused as "cut short" whenever those bytes held a start-of-scan
marker (0xFF 0xDA) after their last end-of-image one: about a third of motion photos.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.pictures import PictureError, read_picture

TILES = Path(__file__).resolve().parents[1] / "companion" / "assets" / "tiles"


def _tile_jpeg(progressive: bool) -> bytes:
    """Pin5's art on white, coded as a phone would (baseline or progressive), with an EXIF
    segment holding a thumbnail JPEG of its own (its own start, scans and end markers)."""
    art = read_picture(TILES / "Pin5.png")
    _, thumb = cv2.imencode(".jpg", cv2.resize(art, (40, 56)))
    _, coded = cv2.imencode(".jpg", art, [cv2.IMWRITE_JPEG_QUALITY, 92,
                                          cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])
    data = coded.tobytes()
    app1 = b"Exif\x00\x00" + thumb.tobytes()
    return data[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + data[2:]


@pytest.mark.parametrize("progressive", [False, True])
def test_a_motion_photos_clip_after_the_end_marker_is_no_part_of_the_picture(
        tmp_path: Path, progressive: bool) -> None:
    """The clip appended after the end-of-image marker may hold 0xFF 0xDA with no 0xFF 0xD9
    after it: the picture reads whole, the same as without the clip; the same picture cut
    short in its scans (a copy stopped before its end) is still refused as cut short."""
    data = _tile_jpeg(progressive)
    plain = tmp_path / "plain.jpg"
    plain.write_bytes(data)
    clip = (b"\x00\x00\x00\x1cftypisom" + bytes(range(256)) * 40
            + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + b"\x17" * 500)
    assert clip.rfind(b"\xff\xd9") < clip.rfind(b"\xff\xda")  # as 6 of 20 random clips did
    motion = tmp_path / "PXL_20261207_045500.MP.jpg"
    motion.write_bytes(data + clip)
    assert np.array_equal(read_picture(motion), read_picture(plain))
    assert read_picture(motion).shape[:2] == read_picture(TILES / "Pin5.png").shape[:2]
    rng = np.random.default_rng(71)
    for seed in range(20):  # random clips after the end marker, whatever their bytes
        motion.write_bytes(data + b"\x00\x00\x00\x1cftypisom"
                           + rng.integers(0, 256, 20_000, dtype=np.uint8).tobytes())
        assert np.array_equal(read_picture(motion), read_picture(plain)), seed
    last_scan = data.rfind(b"\xff\xda")
    for cut in (last_scan + 2, last_scan + 40, (last_scan + len(data)) // 2, len(data) - 2):
        motion.write_bytes(data[:cut])
        with pytest.raises(PictureError) as err:
            read_picture(motion)
        assert err.value.problem.startswith("the JPEG file is cut short"), cut
