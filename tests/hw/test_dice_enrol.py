"""Enrolling the player's own dice (``companion calibrate dice --enrol``): a
nearest-neighbour layer on the judge's embedding, saved in the config folder."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.errors import DataError, StaleEnrolment
from companion.hw.dice.calibrate import enrol
from companion.hw.dice.enrol import ENROL_FILE, Enrolment, pair_values
from companion.hw.dice.networks import CLASSES, DiceNetworks, Spot, models_dir
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import ReadStatus
from companion.hw.dice.render import Scene, SceneKind, Table, render_scene
from companion.hw.dice.source import CameraDiceSource

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-photos"


@cache
def networks() -> DiceNetworks:
    return DiceNetworks()


@cache
def three_dice() -> Scene:
    return render_scene(24, kind=SceneKind.LOOSE, count=3, table=Table.FELT)


def test_the_judge_gives_an_embedding_of_every_turn_of_every_window() -> None:
    s = three_dice()
    spots = [Spot(d.centre[0], d.centre[1], d.side_px, 1.0) for d in s.dice]
    probs, embedded = networks().embed(s.image, spots)
    assert probs.shape == (8 * 3, len(CLASSES))
    assert embedded.shape[0] == 8 * 3 and embedded.shape[1] >= 64


def test_values_named_are_paired_with_the_dice_the_judge_is_surest_of() -> None:
    probs = np.zeros((3, len(CLASSES)))
    probs[0, 5], probs[0, 3] = 0.6, 0.4  # a die likelier 5 than 3
    probs[1, 5] = 0.9  # surely 5
    probs[2, 2] = 0.5
    assert pair_values(probs, [5, 3, 2]) == [3, 5, 2]  # the surer 5 takes the only 5
    assert pair_values(probs, [5, 5]) == [5, 5, None]


def test_a_window_like_an_enrolled_one_leans_to_its_value_and_others_stay() -> None:
    stored = np.eye(4, 8, dtype=np.float32)
    enrolment = Enrolment(stored, np.array([4, 4, 2, 6]), networks().judge_id)
    probs = np.full((2, len(CLASSES)), 1 / len(CLASSES), np.float32)
    like_first = np.array([[1, 0.1, 0, 0, 0, 0, 0, 0]], np.float32)
    unlike = np.array([[0, 0, 0, 0, 0, 0, 0, 1]], np.float32)
    out = enrolment.adjust(probs, np.concatenate([like_first, unlike]))
    assert int(out[0].argmax()) == 4 and out[0, 4] > 0.5
    np.testing.assert_allclose(out[1], probs[1])
    with pytest.raises(DataError, match="another judge"):
        enrolment.adjust(probs, np.zeros((2, 5), np.float32))


def test_an_enrolment_round_trips_and_a_broken_file_is_named(tmp_path: Path) -> None:
    s = three_dice()
    truth = sorted(d.value for d in s.dice)
    made = enrol([(s.image, truth)], ReaderConfig.load(), networks())
    assert made.enrolment is not None and made.throws_used == 1
    path = tmp_path / ENROL_FILE
    made.enrolment.save(path)
    loaded = Enrolment.load(path)
    assert loaded is not None and sorted(loaded.values[:3]) == truth
    assert len(loaded.values) == 8 * 3  # every die in its eight turns
    assert loaded.judge == networks().judge_id
    assert Enrolment.load(tmp_path / "none.npz") is None
    (tmp_path / "bad.npz").write_bytes(b"not numpy")
    with pytest.raises(DataError, match="enrol"):
        Enrolment.load(tmp_path / "bad.npz")


def test_an_enrolment_another_judge_made_is_not_used() -> None:
    """Embeddings mean something only to the judge that made them: after the companion's
    judge is updated, an enrolment of the old one (or of before enrolments named their
    judge) would steer reads by chance. It is refused by the networks, read without by the
    camera source (which says so), and started again by a new enrolment."""
    s = three_dice()
    truth = sorted(d.value for d in s.dice)
    made = enrol([(s.image, truth)], ReaderConfig.load(), networks())
    assert made.enrolment is not None
    old = replace(made.enrolment, judge="0123456789abcdef")
    with pytest.raises(StaleEnrolment, match="calibrate dice --enrol"):
        DiceNetworks(enrolment=old)
    path = config_dir() / ENROL_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, embeddings=old.embeddings, values=old.values)  # no judge kept
    said: list[str] = []
    source = CameraDiceSource(frames=[], config_file=config_dir() / "dice.toml",
                              on_status=said.append)
    assert source.reader.networks.enrolment is None
    assert len(said) == 1 and "without your enrolled dice" in said[0]
    again = enrol([(s.image, truth)], ReaderConfig.load(), networks(), earlier=old)
    assert again.enrolment is not None and len(again.enrolment.values) == 8 * 3
    assert again.enrolment.judge == networks().judge_id and "enrolled again" in again.message


def test_a_throw_whose_dice_are_not_all_found_is_left_out() -> None:
    s = three_dice()
    made = enrol([(s.image, [1, 2])], ReaderConfig.load(), networks())
    assert made.enrolment is None and "3 dice found, 2 named" in made.message


@pytest.mark.skipif(not PHOTOS.exists(), reason="the shared real dice photos are not here")
def test_real_dice_the_judge_doubts_are_read_once_enrolled() -> None:
    """Two white 4s on a webcam's wood table (matteop65, MIT): the judge trained on renders
    only leaves both values unclear; enrolled from this throw, it reads both 4s surely."""
    image = cv2.imread(str(PHOTOS / "mp_Train_four_11.jpg"), cv2.IMREAD_COLOR)
    v1 = models_dir() / "dice_v1"  # the judge trained on renders only doubts these dice
    config = replace(ReaderConfig.load(), min_top=0.75, min_confidence=0.85, min_crowded=0.8,
                     min_nothing=0.5)  # the thresholds the v1 judge was tuned with
    plain = DiceReader(config, DiceNetworks(v1)).read(image)
    assert plain.status is not ReadStatus.OK or plain.values != [4, 4]
    made = enrol([(image, [4, 4])], config, DiceNetworks(v1))
    assert made.enrolment is not None
    read = DiceReader(config, DiceNetworks(v1, made.enrolment)).read(image)
    assert read.status is ReadStatus.OK and read.values == [4, 4]


def test_calibrate_enrol_saves_the_dice_and_the_camera_source_uses_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    s = three_dice()
    truth = sorted(d.value for d in s.dice)
    folder = tmp_path / "throws"  # two photos: a still picture gives one throw only
    folder.mkdir()
    photo = folder / "throw.png"
    cv2.imwrite(str(photo), s.image)
    cv2.imwrite(str(folder / "throw2.png"), s.image)
    typed = " ".join(map(str, truth))
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\n7 7 7\n{typed}\n\n{typed}\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", str(folder), "--count", "3",
                     "--throws", "2"]) == 0
    out = capsys.readouterr().out
    assert "7 is not a die's value" in out and "enrolled 6 dice from 2 throws" in out
    saved = config_dir() / ENROL_FILE
    assert saved.exists()
    source = CameraDiceSource(frames=[], config_file=config_dir() / "dice.toml")
    assert source.reader.networks.enrolment is not None
    assert cli.main(["dice", "read", str(photo), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["status"] == "ok" and sorted(row["dice"]) == truth
    assert cli.main(["calibrate", "dice", "--forget"]) == 0
    assert not saved.exists()


@pytest.mark.parametrize(("embeddings", "values", "why"), [
    (np.ones((16, 1600)), np.full(16, 9), "its values are not all 1 to 6"),
    (np.ones((16, 10)), np.full(16, 3), "its windows are 10 numbers wide, the dice judge's 1600"),
    (np.full((16, 1600), np.nan), np.full(16, 3),
     "its windows hold numbers that are not finite or too large"),
])
def test_an_enrolment_file_that_cannot_be_used_is_named_before_any_roll(
        embeddings: np.ndarray, values: np.ndarray, why: str) -> None:
    """A dice_enrol.npz with values out of 1..6 stopped the tray with "enrolled values must
    be 1 to 6", naming no file; one whose windows were of another width passed, to stop the
    first roll with "made with another judge"."""
    path = config_dir() / ENROL_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, embeddings=embeddings.astype(np.float16), values=values.astype(np.int8),
             judge=np.array(networks().judge_id))
    with pytest.raises(DataError) as raised:
        CameraDiceSource(frames=[], config_file=config_dir() / "dice.toml")
    assert str(raised.value) == (f"{path}: cannot read the dice enrolled ({why}); run "
                                 "`companion calibrate dice --enrol` again")


def test_an_enrolment_beyond_float32_is_refused_before_any_roll() -> None:
    """Windows of float64 1e300 are finite, so they passed the check, then became inf as the
    float32 they are read as: each roll's vote was NaN (RuntimeWarnings, a roll read anyway)."""
    path = config_dir() / ENROL_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, embeddings=np.full((16, 1600), 1e300), values=np.full(16, 3, np.int8),
             judge=np.array(networks().judge_id))
    with pytest.raises(DataError) as raised:
        CameraDiceSource(frames=[], config_file=config_dir() / "dice.toml")
    assert str(raised.value) == (f"{path}: cannot read the dice enrolled (its windows hold "
                                 "numbers that are not finite or too large); run "
                                 "`companion calibrate dice --enrol` again")
