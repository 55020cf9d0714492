"""dicecam69 DEFECT 1: ``calibrate dice`` with a ``--count`` other than the dice laid saves
nothing and says the count found, on a real photo and a rendered one. reviewd69 RISK A: a
die too faint for the companion's own threshold, the right count laid, is saved at a lower
threshold that reads it; RISK B: a die found but not read at the own threshold, left out
under the higher threshold saved, is said after saving, with the --count to use, and
(reviewx69 RISK 1) where the marks beyond --count lie; RISK 2: a lower threshold that
surely reads more dice than --count is said too."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.readings import DieReading, place_of
from companion.hw.dice.render import Scene, SceneKind, Table, render_scene
from companion.hw.dice.source import CameraDiceSource

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-photos"
needs_photos = pytest.mark.skipif(not PHOTOS.exists(), reason="the real photos are not here")


@needs_photos
def test_three_dice_calibrated_as_two_save_nothing_and_say_the_count_to_use(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Three clear 2s, ``--count`` left at 2: the highest finder threshold, under which one
    die is not found, was saved ("read 2 dice (2, 2) in 8 of 8 frames; finder threshold
    0.5"), and the next roll of three dice read only two of them."""
    assert cli.main(["calibrate", "dice", "--source",
                     str(PHOTOS / "mp_Train_two_25.jpg")]) == 1
    out = capsys.readouterr().out
    assert "found 3 dice" in out and "--count says 2" in out
    assert "Not saved: lay 2 dice in view, or run again with --count 3." in out
    assert "Saved" not in out
    assert not (config_dir() / "dice.toml").exists()


@needs_photos
def test_the_same_three_dice_with_their_count_are_saved_at_a_threshold_that_finds_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["calibrate", "dice", "--source", str(PHOTOS / "mp_Train_two_25.jpg"),
                     "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert "read 3 dice (2, 2, 2)" in out and "Note:" not in out
    source = CameraDiceSource(str(PHOTOS / "mp_Train_two_25.jpg"),
                              config_file=config_dir() / "dice.toml")
    assert source.roll(3, 6) == [2, 2, 2]


def test_a_rendered_throw_of_three_calibrated_as_two_names_both_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scene = render_scene(703, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    picture = tmp_path / "three.png"
    cv2.imwrite(str(picture), scene.image)
    assert cli.main(["calibrate", "dice", "--source", str(picture), "--count", "2"]) == 1
    out = capsys.readouterr().out
    assert ("found 3 dice in most frames at the companion's own finder threshold (0.3), "
            "but --count says 2") in out
    assert "run again with --count 3" in out
    assert not (config_dir() / "dice.toml").exists()


def dimmed(scene: Scene, die: int, blur: float, fade: float) -> np.ndarray:
    """``scene`` with one die's square blurred (``blur`` of its side) and its contrast faded
    to ``fade``: a die dim or out of focus on the table (the review's probes)."""
    image = scene.image.copy()
    d = scene.dice[die]
    half, (x, y) = int(d.side_px * 0.75), map(int, d.centre)
    square = image[y - half:y + half, x - half:x + half].astype(np.float32)
    blurred = cv2.GaussianBlur(square, (0, 0), d.side_px * blur)
    mean = blurred.mean(axis=(0, 1))
    image[y - half:y + half, x - half:x + half] = \
        (mean + fade * (blurred - mean)).clip(0, 255).astype(np.uint8)
    return image


def test_three_dice_one_faint_with_their_count_are_saved_at_a_lower_threshold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd69 RISK A: the own threshold (0.3) surely reads two of these three dice, 0.2
    reads all three. The right --count was refused ("run again with --count 2"), and
    following that advice saved a calibration of two dice of the three."""
    picture = tmp_path / "faint.png"
    scene = render_scene(708, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    cv2.imwrite(str(picture), dimmed(scene, 1, 0.03, 0.4))
    assert cli.main(["calibrate", "dice", "--source", str(picture), "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert "read 3 dice (1, 3, 5) in the picture; finder threshold 0.2" in out
    assert "Not saved" not in out and "Note:" not in out
    source = CameraDiceSource(str(picture), config_file=config_dir() / "dice.toml")
    assert sorted(source.roll(3, 6)) == sorted(d.value for d in scene.dice)


def test_three_dice_one_faint_told_two_are_saved_with_the_lower_threshold_that_reads_three(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewx69 RISK 2: the faint die's throw told --count 2 saved the own threshold (0.3),
    which reads the two clear dice, and said nothing, though 0.2 reads all three surely.
    It is saved still, with a note naming where the third die lies and --count 3."""
    picture = tmp_path / "faint.png"
    scene = render_scene(708, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    cv2.imwrite(str(picture), dimmed(scene, 1, 0.03, 0.4))
    assert cli.main(["calibrate", "dice", "--source", str(picture), "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert "read 2 dice (3, 5) in the picture; finder threshold 0.3" in out
    where = place_of(DieReading(None, 0.0, scene.dice[1].centre, scene.dice[1].side_px),
                     scene.image.shape)
    assert (f"Note: at finder threshold 0.2 a 3rd die was read surely {where}: if a die lies "
            "there, run again with --count 3.") in out
    assert out.index("Saved to") < out.index("Note:")


def test_a_die_found_but_unread_left_out_by_the_threshold_saved_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd69 RISK B: three dice, one blurred: the own threshold finds it but doubts it,
    so no count is sure to refuse by; 0.5, under which it is not found, was saved with
    --count 2 and nothing said. It is saved still (told their true count, 12 of the 252 real
    photos save past such a mark), but said, with the --count to give."""
    picture = tmp_path / "unread.png"
    scene = render_scene(700, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    cv2.imwrite(str(picture), dimmed(scene, 0, 0.08, 0.4))
    assert cli.main(["calibrate", "dice", "--source", str(picture), "--count", "2"]) == 0
    out = capsys.readouterr().out
    # dicecam71 DEFECT 1: scored on the read given --count (as the tray reads), the own
    # threshold (0.3) reads the two clear dice and is saved; the note is said still.
    assert "finder threshold 0.3" in out and "Saved to" in out
    # reviewx69 RISK 1: where the third mark lies, as the reader's doubts say it
    where = place_of(DieReading(None, 0.0, scene.dice[0].centre, scene.dice[0].side_px),
                     scene.image.shape)
    assert ("Note: at the companion's own finder threshold (0.3) a 3rd mark was found "
            f"{where}: if a die lies there, run again with --count 3.") in out
    assert out.index("Saved to") < out.index("Note:")


@needs_photos
def test_the_audits_three_fives_calibrated_as_two_are_saved_with_a_note(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd69 RISK B on the audit's own photo: three 5s, --count left at 2, saved at 0.5
    with nothing said of the third die."""
    assert cli.main(["calibrate", "dice", "--source",
                     str(PHOTOS / "mp_Train_five_24.jpg")]) == 0
    out = capsys.readouterr().out
    assert "read 2 dice (5, 5)" in out and "Saved to" in out
    # 0.4, below the 0.5 saved, reads the third die surely: the firmer note (reviewx69 RISK 2)
    assert ("Note: at finder threshold 0.4 a 3rd die was read surely at the top: if a die "
            "lies there, run again with --count 3.") in out


@needs_photos
def test_a_right_count_saved_past_marks_names_where_they_lie(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewx69 RISK 1: three dice beside a laptop, told --count 3, saved at 0.4 with "5
    marks were found: if 5 dice lie there": the player sees 3 dice and nothing says what
    the other marks are. The note names where each lies (a key of the laptop at the top
    left), so the player can look there; the middle die's own side is no die to look for
    (reviewd71 NIT 1, tests/app/test_calibrate_dice_marks_beyond_count.py)."""
    assert cli.main(["calibrate", "dice", "--source", str(PHOTOS / "mp_Train_dice_26.jpg"),
                     "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert "read 3 dice (1, 1, 1)" in out and "finder threshold 0.4" in out
    assert ("Note: at the companion's own finder threshold (0.3) a 4th mark was found at the "
            "top left: if a die lies there, run again with --count 4.") in out


@needs_photos
def test_a_second_mark_on_a_die_read_is_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    """reviewx69 RISK 1: two dice told --count 2, saved at 0.4, noted "a 3rd mark was found"
    with no place to look: the own threshold (0.3) found one of the dice as two marks, both
    lying on that die as read. Every mark lying on a die read, there is nothing to note."""
    assert cli.main(["calibrate", "dice", "--source",
                     str(PHOTOS / "mp_Train_dice_19.jpg")]) == 0
    out = capsys.readouterr().out
    assert "read 2 dice (1, 1)" in out and "finder threshold 0.4" in out
    assert "Saved to" in out and "Note:" not in out


@needs_photos
def test_an_eighth_die_told_seven_is_noted_with_its_article(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewx69 RISK 1: eight dice told --count 7 are saved at 0.4 past an eighth mark."""
    assert cli.main(["calibrate", "dice", "--source",
                     str(PHOTOS / "nb_IMG_20191208_112957.jpg"), "--count", "7"]) == 0
    out = capsys.readouterr().out
    assert ("Note: at the companion's own finder threshold (0.3) an 8th mark was found at "
            "the top: if a die lies there, run again with --count 8.") in out
