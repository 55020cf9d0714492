"""The committed ONNX tile model, its metadata, and the enrolment layer."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from companion.errors import DataError, StaleEnrolment
from companion.hw.camera.augment import draw_index, paste, slot_background
from companion.hw.camera.classifier import (
    Enrolment,
    ModelInfo,
    TileClassifier,
    default_model_path,
)
from companion.hw.camera.photos import Photo, load_photos, photo_fold, photo_split
from companion.hw.camera.tile_faces import render_tile
from companion.systems.jongrogue.tiles import READER_LABELS
from tests.scripts import load_script

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "mahjong-photos"


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


def clean_crop(label: str, seed: int) -> np.ndarray:
    """A plain slot crop: the packaged art, upright or turned, on white paper."""
    rng = np.random.default_rng(seed)
    background = np.full((96, 72, 3), 238, np.float32)
    if label == "empty":
        return background.astype(np.uint8)
    image = paste(background, render_tile(label, rng, vary=False), rng, fill=(0.72, 0.8))
    return np.clip(image, 0, 255).astype(np.uint8)


def test_model_is_small_and_its_metadata_names_every_reader_label() -> None:
    path = default_model_path()
    assert path.stat().st_size <= 2_000_000
    info = ModelInfo.load(path.with_suffix(".json"))
    assert info.classes == READER_LABELS  # MPSZ order, then back and empty
    assert 0 < info.min_confidence < 1 and info.stable_frames >= 1
    assert 0 < info.picture_confidence < info.min_confidence
    assert info.measured["held_out_renders_top1"] >= 0.995


def test_metadata_without_a_picture_confidence_answers_pictures_as_slots(
        tmp_path: Path) -> None:
    """Models made before ``reader.picture_confidence`` keep one threshold for both."""
    data = json.loads(default_model_path().with_suffix(".json").read_text(encoding="utf-8"))
    del data["reader"]["picture_confidence"]
    path = tmp_path / "tile_classifier.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    info = ModelInfo.load(path)
    assert info.picture_confidence == info.min_confidence == data["reader"]["min_confidence"]


def test_every_label_in_the_packaged_art_is_named(classifier: TileClassifier) -> None:
    crops = [clean_crop(label, seed) for seed, label in enumerate(READER_LABELS)]
    got = [p.best.label for p in classifier.predict(crops)]
    assert got == list(READER_LABELS)


def test_upside_down_tiles_read_the_same(classifier: TileClassifier) -> None:
    crops = [clean_crop(label, 1)[::-1, ::-1].copy() for label in ("1z", "6m", "7s", "3p")]
    assert [p.best.label for p in classifier.predict(crops)] == ["1z", "6m", "7s", "3p"]


def test_predictions_are_probabilities_with_a_unit_embedding(
    classifier: TileClassifier,
) -> None:
    (prediction,) = classifier.predict([clean_crop("5s", 0)])
    confidences = [c.confidence for c in prediction.candidates]
    assert confidences == sorted(confidences, reverse=True)
    assert len(prediction.candidates) == classifier.info.top_k
    assert 0 < sum(confidences) <= 1.0001
    assert np.linalg.norm(prediction.embedding) == pytest.approx(1.0, abs=1e-4)
    assert classifier.predict([]) == []
    grey = cv2.cvtColor(clean_crop("5s", 0), cv2.COLOR_BGR2GRAY)
    assert classifier.predict([grey])[0].best.label in READER_LABELS


def test_corrupt_or_missing_model_is_a_data_error(tmp_path: Path) -> None:
    good = default_model_path()
    broken = tmp_path / "tile_classifier.onnx"
    broken.write_bytes(good.read_bytes()[:5000])
    (tmp_path / "tile_classifier.json").write_text(good.with_suffix(".json").read_text())
    with pytest.raises(DataError, match="cannot be loaded"):
        TileClassifier(broken)
    (tmp_path / "tile_classifier.json").write_text('{"classes": ["5p"]}')
    with pytest.raises(DataError, match="metadata is malformed"):
        TileClassifier(broken)
    (tmp_path / "alone.onnx").write_bytes(good.read_bytes())
    with pytest.raises(DataError, match="cannot read the model metadata"):
        TileClassifier(tmp_path / "alone.onnx")
    (tmp_path / "tile_classifier.json").write_text(good.with_suffix(".json").read_text())
    broken.unlink()
    with pytest.raises(DataError, match="the tile model is missing") as err:
        TileClassifier(broken)  # its metadata is there, the model itself is not
    assert str(broken) in str(err.value)
    with pytest.raises(DataError, match=r"nothing\.onnx: the tile model is missing"):
        TileClassifier(tmp_path / "nothing.onnx")  # a --model mistyped: that file is named


def test_a_model_file_that_is_empty_or_a_folder_is_said_so(tmp_path: Path) -> None:
    """camera75 NITs 3 and 4, for every ONNX model (the dice reader's too): an empty file
    was "cannot be loaded (InvalidArgument)", a folder "missing"."""
    from companion.hw.onnx_session import open_session

    (tmp_path / "cut.onnx").write_bytes(b"")
    with pytest.raises(DataError) as err:
        open_session(tmp_path / "cut.onnx", "dice judge model", "reinstall it")
    assert str(err.value) == (f"{tmp_path / 'cut.onnx'}: the dice judge model file is empty "
                              "(0 bytes: a cut copy?); reinstall it")
    with pytest.raises(DataError) as err:
        open_session(tmp_path, "dice judge model", "reinstall it")
    assert str(err.value) == f"{tmp_path}: a folder, not the dice judge model; reinstall it"


def test_enrolment_pulls_a_strange_set_towards_its_enrolled_kind(
    classifier: TileClassifier, tmp_path: Path
) -> None:
    """A picture enrolled as its kind is read as that kind more surely afterwards."""
    rng = np.random.default_rng(5)
    odd = slot_background(rng, (72, 96))
    odd[20:76, 14:58] = (40, 200, 40)  # a green blob no real tile looks like
    before = dict((c.label, c.confidence) for c in classifier.predict([odd])[0].candidates)
    enrolment = Enrolment(model=classifier.model_id)
    enrolment.add("6z", classifier.predict([odd])[0].embedding)
    enrolment.save(tmp_path / "enrol.npz")
    loaded = Enrolment.load(tmp_path / "enrol.npz")
    assert loaded.labels == ["6z"]
    adapted = TileClassifier(enrolment=loaded)
    best = adapted.predict([odd])[0].best
    assert best.label == "6z"
    assert best.confidence > before.get("6z", 0.0) + 0.3


def test_a_few_kinds_enrolled_leave_every_other_kind_read_as_before(
    classifier: TileClassifier
) -> None:
    """The player enrols 1m and stops: a 1z, a 5p, an empty slot are read as the model reads
    them (they were all pulled to 1m at 50% or more), and a 1m still leans to 1m."""
    enrolment = Enrolment(model=classifier.model_id)
    enrolment.add("1m", classifier.predict([clean_crop("1m", 1)])[0].embedding)
    adapted = TileClassifier(enrolment=enrolment)
    others = [clean_crop(label, 2) for label in ("1z", "5p", "empty")]
    for plain, enrolled in zip(classifier.predict(others), adapted.predict(others), strict=True):
        assert enrolled.best.label == plain.best.label != "1m"
        assert enrolled.best.confidence == pytest.approx(plain.best.confidence, abs=0.02)
    one = clean_crop("1m", 3)
    assert adapted.predict([one])[0].best.confidence >= classifier.predict([one])[0].best.confidence


def test_an_enrolment_another_model_made_is_refused(
    classifier: TileClassifier, tmp_path: Path
) -> None:
    """Embeddings mean something only to the model that made them: an enrolment made with
    another model, or saved before enrolments kept the model's fingerprint, is refused
    (the same width of embedding would otherwise let it steer reads by chance)."""
    crop = clean_crop("5p", 1)
    embedding = classifier.predict([crop])[0].embedding
    other = Enrolment(model="0123456789abcdef")
    other.add("5p", embedding)
    with pytest.raises(StaleEnrolment, match="calibrate camera --enrol"):
        classifier.enrol(other)
    old = tmp_path / "old.npz"
    np.savez(old, labels=np.array(["5p"]), embeddings=embedding.reshape(1, -1))
    with pytest.raises(StaleEnrolment):
        TileClassifier(enrolment=Enrolment.load(old))
    own = Enrolment(model=classifier.model_id)
    own.add("5p", embedding)
    own.save(tmp_path / "own.npz")
    assert TileClassifier(enrolment=Enrolment.load(tmp_path / "own.npz")).enrolment.labels \
        == ["5p"]


def test_bad_enrolment_file_and_label_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "enrol.npz"
    bad.write_bytes(b"not numpy")
    with pytest.raises(DataError, match="enrol"):
        Enrolment.load(bad)
    with pytest.raises(DataError, match="not a tile"):
        Enrolment().add("flower", np.zeros(4, np.float32))


@pytest.mark.skipif(not PHOTOS.exists(), reason="real photos live in ../shared (dev only)")
def test_held_out_real_photos_are_read(classifier: TileClassifier) -> None:
    test = [p for p in load_photos(PHOTOS) if p.split == "test"]
    assert all(photo_split(p.path.name) == "test" for p in test) and len(test) > 50
    images = [cv2.imread(str(p.path)) for p in test]
    got = [p.best.label for p in classifier.predict(images)]
    right = sum(g == p.label for g, p in zip(got, test, strict=True))
    assert right / len(test) >= 0.95


def eval_script() -> ModuleType:
    return load_script("eval_tile_classifier")


def test_a_validation_run_reads_and_enrols_no_held_out_photo() -> None:
    """``eval --fold val`` scored enrolment on the held-out photos; now on the val fold."""
    names = [f"images/{i}.jpg" for i in range(400)]
    photos = [Photo(Path(n), READER_LABELS[i % 3]) for i, n in enumerate(names)]
    assert {photo_fold(n) for n in names} == {"train", "val", "test"}
    read, enrolled = eval_script().enrolment_photos(photos, "val")
    assert read and all(p.fold == "val" for p in read)
    assert sorted(enrolled) == sorted(READER_LABELS[:3])
    assert all(p.fold == "train" for p in enrolled.values())
    read, enrolled = eval_script().enrolment_photos(photos, "test")
    assert read and all(p.split == "test" for p in read)
    assert all(p.split == "train" for p in enrolled.values())


def test_a_run_on_a_left_out_source_reads_its_whole_training_split_and_no_held_out_photo(
) -> None:
    names = [f"images/{i}.jpg" for i in range(400)]
    photos = [Photo(Path(n), READER_LABELS[i % 3]) for i, n in enumerate(names)]
    read = eval_script().photos_read(photos, "train")
    assert {p.fold for p in read} == {"train", "val"}
    assert len(read) == sum(p.split == "train" for p in photos)
    assert [p.fold for p in eval_script().photos_read(photos, "val")] == [
        p.fold for p in photos if p.fold == "val"]


def test_a_corner_index_is_drawn_in_a_corner_and_the_tile_keeps_its_shape() -> None:
    tile = render_tile("7p", np.random.default_rng(3))
    marked = draw_index(tile, "7p", np.random.default_rng(4))
    assert marked.shape == tile.shape and marked.dtype == np.uint8
    assert np.array_equal(marked[..., 3], tile[..., 3])  # same outline: only the face changes
    h, w = tile.shape[:2]
    changed = np.abs(marked[..., :3].astype(int) - tile[..., :3]).max(axis=2) > 40
    corners = [changed[: h // 4, : w // 3], changed[: h // 4, -w // 3 :],
               changed[-h // 4 :, : w // 3], changed[-h // 4 :, -w // 3 :]]
    assert max(c.sum() for c in corners) > 30  # a rank drawn in one corner
    white = draw_index(render_tile("5z", np.random.default_rng(3), vary=False), "5z",
                       np.random.default_rng(4))
    assert (white[..., :3] < 200).any(axis=2).sum() > 30  # a blank White gets its letter
