"""The camera dice source's logic beside its networks where mutation round 12 found no test
looking. Each test names what a player would see were it broken."""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.errors import DataError
from companion.hw.dice.calibrate import disagreeing, tune
from companion.hw.dice.enrol import WEIGHT, Enrolment
from companion.hw.dice.frames import take_frames
from companion.hw.dice.networks import CLASSES
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus
from companion.hw.dice.source import CameraDiceSource, Steadiness, UnsupportedDice
from tests.deadline import ends_within
from tests.dice_scenes import still_scene


def one_die(value: int, at: tuple[float, float] = (100.0, 100.0)) -> DiceRead:
    """A frame's sure read of one die showing ``value`` at ``at``."""
    return DiceRead((DieReading(value, 0.99, at, 40.0),), ReadStatus.OK, "ok")


def test_a_die_read_as_another_value_in_the_same_place_is_not_steady() -> None:
    """The same read over stable_frames frames: a die lying still whose value the reader
    reads 3, then 5, then 3 (a face it cannot settle on) is not a steady throw. Taken as
    one, the roll would return whichever value the last frame happened to read."""
    steady = Steadiness(frames=3, still_px=6.0)
    assert [steady.update(one_die(v)) for v in (3, 5, 3)] == [None, None, None]
    assert steady.update(one_die(3)) is None  # 3, 3: two frames alike
    last = one_die(3)
    assert steady.update(last) is last



def test_a_frame_doubting_a_die_as_cocked_starts_the_count_again() -> None:
    """A throw whose one unclear die the player may type (read_throw's may_type) is steady
    only over frames in a row that all offer it for typing. A frame between them that reads
    the same die as cocked (a re-roll, not a typed value) breaks the run; counted across it,
    the player would be asked to type a die the reader also took for cocked."""
    def throw(reason: str) -> DiceRead:
        doubted = DieReading(None, 0.5, (200.0, 100.0), 40.0, reason)
        return DiceRead((DieReading(3, 0.99, (100.0, 100.0), 40.0), doubted),
                        ReadStatus.UNSURE, "unsure")

    typeable, cocked = throw("a die's value is unclear"), throw("a die is tilted or cocked")
    assert typeable.to_type(2) and not cocked.to_type(2)
    steady = Steadiness(frames=3, still_px=6.0, usable=lambda read: bool(read.to_type(2)))
    assert [steady.update(r) for r in (typeable, typeable, cocked, typeable, typeable)] == \
        [None] * 5
    assert steady.update(typeable) is typeable


@pytest.mark.parametrize("sides", [4, 3])
def test_a_die_of_fewer_than_six_sides_is_refused_not_read_as_a_d6(sides: int) -> None:
    """The camera reads six-sided pip dice only. A D4 or D3 asked of it is refused at once
    (the player is told to use simulated or typed dice); read as a D6, `roll 1D4` would wait
    for a throw and could give a 5 or a 6."""
    with pytest.raises(UnsupportedDice, match="six-sided pip dice only"):
        CameraDiceSource(frames=[]).read_throw(1, sides)


def test_a_thresholds_file_of_the_earlier_reader_is_named_as_such(tmp_path: Path) -> None:
    """A dice.toml `calibrate dice` saved for the pip-counting reader of before the networks
    is refused saying so, so the player knows to calibrate again, not to hunt for a typo in
    a key they never wrote ("unknown key 'pip_contrast'")."""
    path = tmp_path / "dice.toml"
    path.write_text("[reader]\npip_contrast = 0.3\n", encoding="utf-8")
    with pytest.raises(DataError, match="tuned for the earlier dice reader"):
        ReaderConfig.load(path)


def test_saved_thresholds_hold_only_those_that_differ_from_the_packaged_ones(
        tmp_path: Path) -> None:
    """`calibrate dice` saves what it tuned; the rest keep following the packaged file, so a
    better packaged stability setting reaches a player who calibrated before. Saved whole,
    stable_frames and still_px would stay pinned to today's values."""
    packaged = ReaderConfig.load()
    path = tmp_path / "dice.toml"
    replace(packaged, min_confidence=packaged.min_confidence / 2).save(path)
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    # no [stability] table: none of its values changed (calib62 N4)
    assert saved == {"reader": {"min_confidence": packaged.min_confidence / 2}}
    replace(packaged, stable_frames=packaged.stable_frames + 1).save(path)
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["reader"] == {} and list(saved["stability"]) == ["frames"]


def test_only_enrolled_windows_alike_enough_vote_on_a_die() -> None:
    """A window much like one enrolled 3 (likeness 0.89) leans to 3 alone. The other
    enrolled windows are among its nearest but hardly like it (0.27): let them vote too and
    the player's enrolled 5s would pull a plain 3 towards 5."""
    stored = np.eye(4, 8, dtype=np.float32)
    enrolment = Enrolment(stored, np.array([3, 5, 5, 5]), "judge")
    probs = np.full((1, len(CLASSES)), 1 / len(CLASSES), np.float32)
    window = np.array([[1, 0.3, 0.3, 0.3, 0, 0, 0, 0]], np.float32)
    out = enrolment.adjust(probs, window)
    np.testing.assert_allclose(out[0, 5], (1 - WEIGHT) * probs[0, 5], rtol=1e-5)
    np.testing.assert_allclose(out[0, 3], (1 - WEIGHT) * probs[0, 3] + WEIGHT, rtol=1e-5)


def test_calibration_frames_from_a_camera_with_no_picture_give_up_at_the_deadline() -> None:
    """`calibrate dice` with its camera unplugged takes no frames for its few seconds and
    says why. Without the deadline it would wait for a picture for ever (and this test would
    hang the suite rather than fail)."""
    now = itertools.count()
    with ends_within(60, "take_frames from a camera with no picture"):
        frames, why = take_frames("camera:7", 8, wait_s=3, clock=lambda: float(next(now)),
                                  sleep=lambda seconds: None)
    assert frames == [] and why.startswith("no camera at camera:7")


def test_calibration_keeps_the_saved_find_threshold_among_those_that_read_as_well() -> None:
    """`calibrate dice` tries each finder threshold; among those that read the dice equally
    well it keeps the one nearest the threshold saved before, so calibrating again on the
    same throw does not move the setting (to the first that read as well, 0.15)."""
    scene = still_scene(200, 2)
    base = ReaderConfig.load()
    for saved in (0.3, 0.4):
        tuning = tune([scene.image] * 2, 2, replace(base, find_threshold=saved))
        assert tuning.frames_read == 2
        assert tuning.config.find_threshold == saved


def test_the_values_disagreeing_are_those_the_reader_read_that_were_not_typed() -> None:
    """`calibrate dice --enrol`: a throw whose sure reads the player's typed values do not
    hold is named by the values the reader read (read 3 and 5, typed 3 and 4: the 5), so
    the player can see which die it took for what; a die read unsurely is no disagreement."""
    read = DiceRead((DieReading(3, 0.99, (50.0, 50.0), 40.0),
                     DieReading(5, 0.99, (150.0, 50.0), 40.0),
                     DieReading(None, 0.4, (250.0, 50.0), 40.0, "a die's value is unclear")),
                    ReadStatus.UNSURE, "unsure")
    assert disagreeing(read, [3, 4, 6]) == [5]
    assert disagreeing(read, [5, 3, 1]) == []


# -- ThrowFrames: which frame of a video is a throw (CA7, CA8) ---------------------------


def test_a_videos_first_throw_is_the_frame_after_settle_still_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A video (not live, not a folder) of dice already lying still: its first throw needs
    no motion before it (CA8: it waited for one and found no throw at all), and is the frame
    after ``settle`` still ones (CA7: one frame early). Each frame carries its number in one
    pixel, far too little for the motion check to see."""
    from companion.hw.dice import calibrate
    from companion.hw.dice.frames import CameraStream

    class StillVideo(CameraStream):
        def __init__(self) -> None:
            self.still, self.live = False, False
            frames = []
            for n in range(10):
                frame = np.full((48, 64, 3), 120, np.uint8)
                frame[0, 0] = 120 + n
                frames.append(frame)
            self._frames = iter(frames)

        def close(self) -> None:
            pass

    monkeypatch.setattr(calibrate, "frame_iterator", lambda spec: StillVideo())
    throws = calibrate.ThrowFrames("throws.mp4", 3, 5.0)
    first = throws.next()
    assert isinstance(first, np.ndarray), first
    assert int(first[0, 0, 0]) - 120 == 3  # frames 0-3 still: the 4th is past settle = 3
