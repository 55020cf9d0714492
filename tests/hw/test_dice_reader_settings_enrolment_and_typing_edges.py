"""The camera dice reader's logic beside its networks where mutation round 11 found no test
looking: the thresholds file, the enrolment file, the dice offered to type, one die's faces
and the grading the bench and reader tests rely on. Each test names what a player would see
were it broken."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.app.paths import config_dir
from companion.errors import DataError
from companion.hw.dice.calibrate import typed_values
from companion.hw.dice.enrol import ENROL_FILE
from companion.hw.dice.grading import grade
from companion.hw.dice.placement import _one_per_die
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus
from companion.hw.dice.render import SceneKind, render_scene
from companion.hw.dice.source import CameraDiceSource

# Why a die is doubted, as the reader's message names it (DieReading.reason).
VALUE_UNCLEAR = "a die's value is unclear"
COCKED = "a die is tilted or cocked"
TWO_FACES = "a die leaning on another shows two faces"


def thresholds(tmp_path: Path, text: str) -> ReaderConfig:
    path = tmp_path / "dice.toml"
    path.write_text(text, encoding="utf-8")
    return ReaderConfig.load(path)


# -- the thresholds file (reader_config.py) -----------------------------------------------


@pytest.mark.parametrize("value", ["0", "0.0", "nan"])
def test_a_confidence_threshold_of_zero_or_nan_is_refused(tmp_path: Path, value: str) -> None:
    """Every threshold is a positive number. A dice.toml with min_confidence = 0 (or nan,
    which no comparison stops) taken as given, the reader would accept any guess for a
    die's value."""
    with pytest.raises(DataError, match="min_confidence must be a positive number"):
        thresholds(tmp_path, f"[reader]\nmin_confidence = {value}\n")


def test_a_face_size_past_1000_pixels_is_refused(tmp_path: Path) -> None:
    """A die face's side is 10 to 1000 pixels: max_face_px = 5000 is a slip (no throw fits
    in view at that size), which would let the reader look for dice at any size."""
    with pytest.raises(DataError, match="max_face_px must be from 10 to 1000 pixels"):
        thresholds(tmp_path, "[reader]\nmax_face_px = 5000\n")


def test_an_endless_still_distance_is_refused(tmp_path: Path) -> None:
    """still_px = inf would count every die as lying still, however far it rolled, so a
    throw could be read while the dice still move."""
    with pytest.raises(DataError, match="still_px must be a number of pixels"):
        thresholds(tmp_path, "[stability]\nstill_px = inf\n")


def test_a_misspelt_table_is_named_not_ignored(tmp_path: Path) -> None:
    """A misspelt [readers] table ignored in silence: the player believes the reader tuned,
    and none of its thresholds is used."""
    with pytest.raises(DataError, match=r"unknown table \[readers\]"):
        thresholds(tmp_path, "[readers]\nmin_confidence = 0.9\n")


def test_stable_frames_under_reader_is_an_unknown_key(tmp_path: Path) -> None:
    """stable_frames belongs in [stability] (as frames). Under [reader] it would be taken
    without its whole-number check (2.5 frames) and moved to [stability] by the next save."""
    with pytest.raises(DataError, match=r"unknown key 'stable_frames' in \[reader\]"):
        thresholds(tmp_path, "[reader]\nstable_frames = 2.5\n")


# -- the enrolment file (enrol.py) --------------------------------------------------------


def test_an_enrolment_of_another_judge_and_width_reads_the_dice_without_it() -> None:
    """After an update brings a judge of another width, an old dice_enrol.npz is stale, not
    broken: the camera dice start and say they read without the enrolled dice. Taken for a
    broken file, it would stop the camera dice from starting ("cannot read the dice
    enrolled")."""
    path = config_dir() / ENROL_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, embeddings=np.ones((16, 10), np.float32), values=np.full(16, 3, np.int8),
             judge=np.array("0123456789abcdef"))
    said: list[str] = []
    source = CameraDiceSource(frames=[], config_file=config_dir() / "dice.toml",
                              on_status=said.append)
    assert source.reader.networks.enrolment is None
    assert len(said) == 1 and "without your enrolled dice" in said[0]


# -- typed values (calibrate.py) and the dice offered to type (readings.py) ---------------


def test_a_zero_typed_for_a_die_is_refused_at_once() -> None:
    """`calibrate dice --enrol` takes 1 to 6 for a die. A 0 taken there would fail the whole
    enrolment at its end, every throw of it lost."""
    assert typed_values("0 5", 2) == ([], "0 is not a die's value (1 to 6)")
    assert typed_values("6 1", 2) == ([6, 1], "")


def test_no_die_is_offered_to_type_while_another_doubted_die_may_be_cocked() -> None:
    """The player may type a die's value only when every die doubted is a flat top whose
    value alone is unclear. With a cocked die beside it, the throw is re-rolled; offered to
    type, the player would give the cocked die a value the rules say to re-roll."""
    unclear = DieReading(None, 0.0, (50.0, 50.0), 30.0, VALUE_UNCLEAR)
    cocked = DieReading(None, 0.0, (150.0, 50.0), 30.0, COCKED)
    read = DiceRead((unclear, cocked), ReadStatus.UNSURE, "unsure")
    assert read.to_type(2) == ()
    alone = DiceRead((unclear, DieReading(3, 0.99, (150.0, 50.0), 30.0)), ReadStatus.UNSURE,
                     "unsure")
    assert alone.to_type(2) == (unclear,)


# -- one die's faces (placement.py) --------------------------------------------------------


def test_a_cocked_face_beside_a_value_read_less_than_surely_is_one_die_with_two_faces() -> None:
    """A face doubted as cocked half a side from a value read only 0.7 sure is one die
    showing two faces (unsure: re-roll). Taken for that value's own side, the value would
    be accepted, though it may be a leaning die's side."""
    top = DieReading(3, 0.7, (100.0, 100.0), 40.0)
    cocked = DieReading(None, 0.0, (100.0, 120.0), 40.0, COCKED)
    [one] = _one_per_die([top, cocked])
    assert (one.value, one.reason) == (None, TWO_FACES)
    sure = DieReading(3, 0.99, (100.0, 100.0), 40.0)
    assert _one_per_die([sure, cocked]) == [sure]  # a surely read top: its own side, below


# -- grading, the bench's and the reader tests' oracle (grading.py) ------------------------


def test_a_value_read_in_a_blurred_scene_is_graded_wrong() -> None:
    """In a blurred scene the dice are moving: a value read there, even the die's true one,
    is wrong. Graded right, the bench and the reader tests would pass a reader that reads
    dice still rolling, and the player would get throws read mid-roll."""
    scene = render_scene(7, kind=SceneKind.BLURRED, count=1)
    [die] = scene.dice
    assert grade(scene, [(die.value, die.centre)]).wrong == 1
    assert grade(scene, [(None, die.centre)]).unsure == 1
