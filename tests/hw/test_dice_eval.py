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


def test_calibration_eval_with_enrol_calibrates_and_reads_with_the_sources_dice(
        evaluation: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewb73 NIT 3: scripts/eval_dice_calibration.py measured `calibrate dice` with no
    dice enrolled only, though it reads with the player's enrolled dice as the tray does
    (dicecam73 DEFECT 1). With ``--enrol N`` each calibration has its source's enrolment
    in its config folder, and says it read with it."""
    rows = []
    for seed in range(40):
        name = f"felt_{seed}.png"
        scene = render_scene(700 + seed, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
        cv2.imwrite(str(tmp_path / name), scene.image)
        rows.append({"image": name, "dice": " ".join(str(d.value) for d in scene.dice),
                     "die_px": "30", "source": "felt/renders"})
        parts = {evaluation.part(row["image"]) for row in rows}
        if len(rows) >= 3 and parts == {"train", "test"}:
            break
    with (tmp_path / "labels.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["image", "dice", "die_px", "source"])
        writer.writeheader()
        writer.writerows(rows)
    calibration = load_script("eval_dice_calibration")  # imports eval_dice_reader, loaded
    calibration.main(["--photos", str(tmp_path), "--part", "all", "--limit", "1",
                      "--enrol", "1"])
    out = capsys.readouterr().out
    assert "felt: enrolled 2 dice from 1 of 1 throw" in out
    assert "each source's dice enrolled from 1 train photos, calibrated and read with" in out
    assert "; read with the enrolled dice 1 of 1" in out
