"""The camera dice reader on rendered scenes with fixed seeds (the bench covers hundreds)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from companion.errors import DataError
from companion.hw.dice.reader import DiceReader, ReaderConfig, ReadStatus
from companion.hw.dice.render import Grade, Scene, SceneKind, Table, grade, render_scene

SEEDS = range(100, 124)


@cache
def scene(seed: int, kind: SceneKind | None = None, table: Table | None = None) -> Scene:
    return render_scene(seed, kind=kind, table=table)


@cache
def reader() -> DiceReader:
    return DiceReader()


def _grade(s: Scene) -> Grade:
    read = reader().read(s.image)
    return grade(s, [(d.value, d.centre) for d in read.dice])


def test_varied_scenes_never_give_a_wrong_value_and_read_most_dice() -> None:
    total = sum((_grade(scene(seed)) for seed in SEEDS), Grade())
    dice = total.right + total.wrong + total.unsure + total.missed
    assert total.wrong == 0, total
    assert total.right >= 0.9 * dice, total


@pytest.mark.parametrize("kind", [SceneKind.TOUCHING, SceneKind.TILTED])
def test_touching_and_tilted_dice_are_read_or_reported_unsure(kind: SceneKind) -> None:
    total = sum((_grade(scene(seed, kind)) for seed in range(200, 206)), Grade())
    dice = total.right + total.wrong + total.unsure + total.missed
    assert total.wrong == 0, total
    assert total.right >= 0.75 * dice, total


@pytest.mark.parametrize("kind", [SceneKind.TOUCHING, SceneKind.TILTED])
def test_a_read_called_ok_has_every_die_and_value(kind: SceneKind) -> None:
    """Never a wrong count: when a die cannot be made out, the read is not OK."""
    oks = 0
    for seed in range(200, 206):
        s = scene(seed, kind)
        read = reader().read(s.image)
        if read.status is ReadStatus.OK:
            oks += 1
            assert read.values == sorted(d.value for d in s.dice), seed
    assert oks >= 2


@pytest.mark.parametrize("table", list(Table))
def test_every_table_pattern_gives_no_wrong_value(table: Table) -> None:
    total = sum((_grade(scene(seed, SceneKind.LOOSE, table)) for seed in (300, 301)), Grade())
    assert total.wrong == 0, total


def test_a_frame_without_dice_reports_nothing() -> None:
    for seed in (400, 401, 402, 403):
        read = reader().read(scene(seed, SceneKind.EMPTY).image)
        assert read.status is ReadStatus.NO_DICE
        assert read.dice == ()


def test_a_blurred_throw_is_never_read_as_values() -> None:
    for seed in (500, 501, 502):
        read = reader().read(scene(seed, SceneKind.BLURRED).image)
        assert read.status is not ReadStatus.OK, read


def test_a_unsure_read_asks_for_a_re_roll() -> None:
    statuses = []
    for seed in SEEDS:
        read = reader().read(scene(seed).image)
        statuses.append(read.status)
        if read.status is ReadStatus.UNSURE:
            assert "re-roll" in read.message
            assert any(d.value is None and d.confidence == 0.0 for d in read.dice)
    assert ReadStatus.UNSURE in statuses and ReadStatus.OK in statuses


def test_grey_frames_are_accepted() -> None:
    image = scene(100).image
    grey = image.mean(axis=2).astype(np.uint8)
    assert reader().read(grey).status in set(ReadStatus)


def test_thresholds_load_and_round_trip(tmp_path: Path) -> None:
    base = ReaderConfig.load()
    assert base.stable_frames >= 2 and 0 < base.min_face_px < base.max_face_px
    tuned = ReaderConfig.load(None)
    path = tmp_path / "dice.toml"
    from dataclasses import replace
    replace(tuned, flood_tolerance=17.0, stable_frames=6).save(path)
    loaded = ReaderConfig.load(path)
    assert loaded.flood_tolerance == 17.0 and loaded.stable_frames == 6
    assert loaded.max_aspect == base.max_aspect


@pytest.mark.parametrize("text, what", [
    ("[reader]\nflood_tollerance = 3\n", "flood_tollerance"),
    ("[reader]\nflood_tolerance = -3\n", "positive"),
    ("[stability]\nframes = 2.5\n", "whole"),
    ("[extra]\n", "extra"),
    ("[reader\n", "TOML"),
])
def test_a_bad_thresholds_file_is_named_with_its_fault(tmp_path: Path, text: str,
                                                        what: str) -> None:
    path = tmp_path / "dice.toml"
    path.write_text(text)
    with pytest.raises(DataError, match=what) as err:
        ReaderConfig.load(path)
    assert str(path) in str(err.value)
