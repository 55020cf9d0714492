"""Tiles lying upside down or sideways read as well as upright ones (real photos as the camera)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import DataError
from companion.hw.camera.classifier import ModelInfo, TileClassifier, default_model_path
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.reader import frame_readings
from companion.hw.ports import Slot
from tests.hw.mat_picture_helpers import mat_with_photo

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
# Held-out photos (never trained on) of two sources: (folder, file, tile)
PHOTOS = (
    ("mahjong-photos", "images/64.jpg", "1z"),
    ("mahjong-photos", "images/17.jpg", "3p"),
    ("mahjong-photos", "images/69.jpg", "2s"),
    ("mahjong-photos", "images/87.jpg", "5p"),
    ("tile-photos-more", "rfcm_58121dbc20_27.jpg", "1m"),
    ("tile-photos-more", "rfcm_10c14dc711_08.jpg", "1s"),
    ("tile-photos-more", "rfcm_1639744711_25.jpg", "1z"),
)
pytestmark = pytest.mark.skipif(not DATASETS.exists(), reason="the real photos are not here")


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


def photo(folder: str, name: str) -> np.ndarray:
    image = cv2.imread(str(DATASETS / folder / name))
    assert image is not None, name
    return image


@pytest.mark.parametrize(("folder", "name", "tile"), PHOTOS)
def test_a_tile_reads_the_same_at_every_turn(classifier: TileClassifier, folder: str, name: str,
                                             tile: str) -> None:
    image = photo(folder, name)
    turns = [np.ascontiguousarray(np.rot90(image, -k)) for k in range(4)]
    for k, prediction in enumerate(classifier.predict(turns)):
        assert prediction.best.label == tile, f"{k} quarter turns"
        assert prediction.best.confidence >= classifier.info.min_confidence, f"{k} quarter turns"


@pytest.mark.parametrize(("folder", "name", "tile"), PHOTOS)
def test_a_tile_lying_across_a_mat_slot_reads_right(classifier: TileClassifier, folder: str,
                                                    name: str, tile: str) -> None:
    detector = MatDetector()
    margin = 0.07 if folder == "tile-photos-more" else 0.0
    sideways = np.ascontiguousarray(np.rot90(photo(folder, name), -1))
    frame = mat_with_photo(detector, sideways, Slot.ROOM_BL, margin=margin)
    predictions, message = frame_readings(frame, classifier, detector)
    assert predictions, message
    assert predictions[Slot.ROOM_BL].best.label == tile
    assert predictions[Slot.DRAW].best.label == "empty"


def test_the_turns_read_come_from_the_model_metadata(tmp_path: Path) -> None:
    info = ModelInfo.load(default_model_path().with_suffix(".json"))
    assert info.turns == (0, 2) and info.portrait  # as it is and upside down; sideways turned
    meta = json.loads(default_model_path().with_suffix(".json").read_text())
    meta["input"]["turns"] = [2]
    bad = tmp_path / "tile_classifier.json"
    bad.write_text(json.dumps(meta))
    with pytest.raises(DataError, match="turns"):
        ModelInfo.load(bad)
