"""scripts/eval_dice_reader.py's other cameras (``--looks``) and enrolled sources
(``--enrol``): what they do to a photo, and the readers they make."""

from __future__ import annotations

import csv
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.render import SceneKind, Table, render_scene
from tests.scripts import load_script


@pytest.fixture(scope="module")
def evaluation() -> ModuleType:
    return load_script("eval_dice_reader")


def test_each_look_changes_the_photo_the_same_way_every_run(evaluation: ModuleType) -> None:
    rng = np.random.default_rng(5)
    photo = rng.integers(40, 200, (48, 64, 3), dtype=np.uint8)
    other = rng.integers(40, 200, (48, 64, 3), dtype=np.uint8)
    for name, look in evaluation.LOOKS.items():
        seen = look(photo.copy())
        assert seen.dtype == np.uint8 and seen.shape[2] == 3, name
        if seen.shape == photo.shape:
            assert not np.array_equal(seen, photo), name
        assert np.array_equal(seen, look(photo.copy())), name
    assert evaluation.LOOKS["quarter turn"](photo).shape == (64, 48, 3)
    assert evaluation.LOOKS["larger x1.6"](photo).shape == (77, 102, 3)
    assert evaluation.LOOKS["darker"](photo).mean() < photo.mean()
    assert evaluation.LOOKS["brighter"](photo).mean() > photo.mean()
    warmer = evaluation.LOOKS["warmer"](photo).astype(float)
    red_over_blue = [p[..., 2].mean() - p[..., 0].mean() for p in (photo, warmer)]
    assert red_over_blue[1] > red_over_blue[0]
    # The noise is the picture's own: another picture gets other noise.
    noisier = evaluation.LOOKS["noisier"]
    noise = [noisier(p).astype(int) - p for p in (photo, other)]
    assert not np.array_equal(*noise)


def test_enrol_gives_each_source_a_reader_of_its_own_dice(evaluation: ModuleType,
                                                          tmp_path: Path) -> None:
    """Two sources of labelled photos whose train part holds a throw: each source's reader
    has that source's dice enrolled, from its own throws only."""
    rows = []
    for number, source in enumerate(("felt-a", "felt-b")):
        for seed in range(40):
            name = f"{source}_{seed}.png"
            if evaluation.part(name) == "train":
                break
        scene = render_scene(24 + number, kind=SceneKind.LOOSE, count=2 + number,
                             table=Table.FELT)
        cv2.imwrite(str(tmp_path / name), scene.image)
        rows.append({"image": name, "dice": " ".join(str(d.value) for d in scene.dice),
                     "die_px": "30", "source": f"{source}/renders"})
    with (tmp_path / "labels.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["image", "dice", "die_px", "source"])
        writer.writeheader()
        writer.writerows(rows)
    readers = evaluation.enrolled_readers(ReaderConfig.load(), None, tmp_path, 4)
    assert sorted(readers) == ["felt-a", "felt-b"]
    enrolled = {source: r.networks.enrolment for source, r in readers.items()}
    assert all(e is not None for e in enrolled.values())
    # Every die of the source's one throw, in all eight turns of its window.
    assert [len(e.values) for e in enrolled.values()] == [2 * 8, 3 * 8]
    assert readers["felt-a"].networks is not readers["felt-b"].networks
