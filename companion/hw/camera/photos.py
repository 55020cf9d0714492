"""The labelled real tile photographs used to train and to report on the classifier.

A folder (``labels.csv`` with at least ``image,tile``) is a development
asset, never needed at run time. Its split is fixed by a hash of the
photograph each picture comes from, so training and evaluation agree on which
photos were never trained on, and crops cut from one photo stay on one side:
a folder with an ``origin`` column (``<photo path>#<box>``, as in
``tile-photos-more``) is split by that photo, with Roboflow's ``.rf.<hash>``
export suffix taken off so two exports of one picture count as one; a folder
without one (``mahjong-photos``, one tile a photo) is split by file name.

>>> photo_split("images/5.jpg") in ("train", "test")
True
>>> photo_group("data/test/images/hand_006_jpg.rf.0d0b8f.jpg#13", "x.jpg")
'hand_006_jpg'

A validation part is carved out of the training photos the same way (by
photograph, another byte of the hash): a model trained with it held back can
have its recipe and its confidence calibration chosen on it, so the 'test'
photos are only read to report.

>>> photo_fold("images/5.jpg") in ("train", "val", "test")
True
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from pathlib import Path

from companion.errors import DataError
from companion.systems.jongrogue.tiles import READER_LABELS

TEST_SHARE = 4  # one photo in TEST_SHARE is held out (by file-name hash)
VALIDATION_SHARE = 5  # one training photo in VALIDATION_SHARE is the validation part


@dataclass(frozen=True, slots=True)
class Photo:
    """One labelled photograph; ``label`` is a READER_LABELS entry."""

    path: Path
    label: str
    group: str = ""  # the photograph it was cut from; the file name if empty

    @property
    def split(self) -> str:
        return photo_split(self.group or self.path.name)

    @property
    def fold(self) -> str:
        """``"test"``, ``"val"`` (a part of the training split) or ``"train"``."""
        return photo_fold(self.group or self.path.name)


def photo_group(origin: str, image: str) -> str:
    """The source photograph of a crop: ``origin`` without its box index and export hash."""
    if not origin:
        return Path(image).name
    photo = Path(origin.rsplit("#", 1)[0]).name
    return photo.split(".rf.", 1)[0] if ".rf." in photo else photo


def photo_split(name: str) -> str:
    """``"test"`` for the fixed held-out quarter of the photos, else ``"train"``."""
    digest = hashlib.sha1(Path(name).name.encode()).digest()
    return "test" if digest[0] % TEST_SHARE == 0 else "train"


def photo_fold(name: str) -> str:
    """:func:`photo_split`, with one training photo in VALIDATION_SHARE called ``"val"``."""
    if photo_split(name) == "test":
        return "test"
    digest = hashlib.sha1(Path(name).name.encode()).digest()
    return "val" if digest[1] % VALIDATION_SHARE == 0 else "train"


def load_photos(folder: Path) -> list[Photo]:
    """The riichi-tile photos in ``folder`` (rows outside READER_LABELS, e.g. flowers, skipped)."""
    index = folder / "labels.csv"
    try:
        with index.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as exc:
        raise DataError(f"{index}: cannot read the photo labels: {exc}") from exc
    photos = []
    for n, row in enumerate(rows, start=2):
        if "image" not in row or "tile" not in row:
            raise DataError(f"{index} line {n}: needs 'image' and 'tile' columns")
        if row["tile"] in READER_LABELS:
            group = photo_group(row.get("origin") or "", row["image"])
            photos.append(Photo(folder / row["image"], row["tile"], group))
    return photos
