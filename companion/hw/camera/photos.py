"""The labelled real tile photographs used to train and to report on the classifier.

The folder (``labels.csv`` with ``image,tile,source_label``) is a development
asset, never needed at run time. Its split is fixed by a hash of each file
name, so training and evaluation agree on which photos were never trained on.

>>> photo_split("images/5.jpg") in ("train", "test")
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


@dataclass(frozen=True, slots=True)
class Photo:
    """One labelled photograph; ``label`` is a READER_LABELS entry."""

    path: Path
    label: str

    @property
    def split(self) -> str:
        return photo_split(self.path.name)


def photo_split(name: str) -> str:
    """``"test"`` for the fixed held-out quarter of the photos, else ``"train"``."""
    digest = hashlib.sha1(Path(name).name.encode()).digest()
    return "test" if digest[0] % TEST_SHARE == 0 else "train"


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
            photos.append(Photo(folder / row["image"], row["tile"]))
    return photos
