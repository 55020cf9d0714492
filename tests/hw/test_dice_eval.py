"""scripts/eval_dice_reader.py's enrolled sources (``--enrol``): the readers they make."""

from __future__ import annotations

import csv
from pathlib import Path
from types import ModuleType

import cv2
import pytest

from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.render import SceneKind, Table, render_scene
from tests.scripts import load_script


@pytest.fixture(scope="module")
def evaluation() -> ModuleType:
    return load_script("eval_dice_reader")


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
