"""Audit calib62, `companion calibrate dice`: dice.toml says where and at what size the face
sizes were measured, and a frame of another size there has them scaled (fix62c)."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.reader_config import Measured, ReaderConfig
from tests.dice_scenes import on_the_mat, still_scene
from tests.hw.dice_reader_helpers import read_dice_toml


@pytest.fixture(scope="module")
def felt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, tuple[int, ...]]:
    """Two dice on felt, no mat (1280x720), the same picture at half size, and their values."""
    folder = tmp_path_factory.mktemp("felt")
    scene = still_scene(700, 2)
    cv2.imwrite(str(folder / "felt.png"), scene.image)
    cv2.imwrite(str(folder / "half.png"), cv2.resize(scene.image, None, fx=0.5, fy=0.5,
                                                     interpolation=cv2.INTER_AREA))
    cv2.imwrite(str(folder / "mat.png"), on_the_mat(scene))
    return folder / "felt.png", folder / "half.png", tuple(sorted(d.value for d in scene.dice))


def read(picture: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, ...] | str:
    """The values `companion dice read` reads in ``picture``, sorted; what it said if none."""
    capsys.readouterr()
    cli.main(["dice", "read", str(picture)])
    out = capsys.readouterr().out
    shown = out.split(": ", 1)[1].split(" (", 1)[0].split()
    return tuple(sorted(map(int, shown))) if shown and "-" not in shown else out


def test_whole_view_sizes_are_scaled_to_a_frame_of_another_size(
        felt: tuple[Path, Path, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """D2: tuned on a 1280x720 view, the same throw at 640x360 read "no dice in view"."""
    whole, half, values = felt
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "dice", "--source", str(whole)]) == 0
    saved = (config_dir() / "dice.toml").read_text()
    assert '[measured]' in saved and 'area = "view"' in saved
    assert "width = 1280" in saved and "height = 720" in saved
    tuned = ReaderConfig.load(config_dir() / "dice.toml")
    assert tuned.measured == Measured("view", 1280, 720)
    assert read(whole, capsys) == values
    assert read(half, capsys) == values


def test_sizes_scale_only_in_the_area_they_were_measured(tmp_path: Path) -> None:
    tuned = read_dice_toml(tmp_path, '[reader]\nmin_face_px = 30\nmax_face_px = 90\n\n'
                                     '[measured]\narea = "view"\nwidth = 1280\nheight = 720\n')
    assert tuned.for_frame((720, 1280, 3), on_mat=False) is tuned
    half = tuned.for_frame((360, 640, 3), on_mat=False)
    assert (half.min_face_px, half.max_face_px) == (15, 45)
    # 4:3 from a 16:9 view: cropped or squeezed, the sizes span both ratios
    squeezed = tuned.for_frame((480, 640, 3), on_mat=False)
    assert (squeezed.min_face_px, squeezed.max_face_px) == (15, 60)
    # the other area: its pixels say nothing of these, so the companion's own sizes
    packaged = ReaderConfig.load()
    other = tuned.for_frame((390, 255, 3), on_mat=True)
    assert (other.min_face_px, other.max_face_px) == (packaged.min_face_px,
                                                      packaged.max_face_px)
    assert other.find_threshold == tuned.find_threshold


def test_sizes_tuned_on_the_mat_do_not_hide_dice_in_the_whole_view(
        felt: tuple[Path, Path, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Tuned on the mat's dice area (pixels of its straightened crop), the mat out of view
    read "no dice in view" of dice of another size."""
    whole, half, values = felt
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["calibrate", "dice", "--source", str(whole.with_name("mat.png"))]) == 0
    assert 'area = "mat"' in (config_dir() / "dice.toml").read_text()
    assert read(half, capsys) == values


def test_a_dice_toml_saved_before_has_no_measured_and_reads_as_before(tmp_path: Path) -> None:
    tuned = read_dice_toml(tmp_path,
                           "[reader]\nmin_face_px = 30\nmax_face_px = 90\n\n[stability]\n")
    assert tuned.measured is None
    assert tuned.for_frame((360, 640, 3), on_mat=False) is tuned


@pytest.mark.parametrize(("measured", "message"), [
    ('area = "table"\nwidth = 1280\nheight = 720', 'area must be "view" or "mat"'),
    ('area = "view"\nwidth = 0\nheight = 720', "width must be a whole number of pixels"),
    ('area = "view"\nwidth = 1280\nheight = 7.5', "height must be a whole number of pixels"),
    ('area = "view"\nwidth = 1280', "height must be a whole number of pixels"),
    ('area = "view"\nwidth = 1280\nheight = 720\nwide = 3', "unknown key 'wide' in [measured]"),
])
def test_a_bad_measured_table_is_refused(measured: str, message: str, tmp_path: Path) -> None:
    from companion.errors import DataError

    path = tmp_path / "dice.toml"
    path.write_text(f"[measured]\n{measured}\n")
    with pytest.raises(DataError, match=None) as refused:
        ReaderConfig.load(path)
    assert message in str(refused.value)


def test_no_empty_stability_table_is_saved(tmp_path: Path) -> None:
    """N4: an empty [stability] header read as a value lost."""
    path = tmp_path / "dice.toml"
    ReaderConfig.load().save(path)
    assert "[stability]" not in path.read_text()


def test_the_input_ending_at_the_values_prompt_ends_the_run_not_a_throw_left_out(
        felt: tuple[Path, Path, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N2: the end of input at the values prompt was counted as a throw "left out by you"."""
    whole, _, _ = felt
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", str(whole),
                     "--throws", "1"]) == 1
    out = capsys.readouterr().out
    assert "left out" not in out
    assert out.endswith("No throw could be used: nothing new saved; nothing is enrolled.\n")


def test_a_throw_left_out_with_r_is_said_at_once(
        felt: tuple[Path, Path, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N3: after r the next prompt alone repeated the throw's number, saying nothing."""
    whole, _, _ = felt
    monkeypatch.setattr("sys.stdin", io.StringIO("\nr\n"))
    cli.main(["calibrate", "dice", "--enrol", "--source", str(whole), "--throws", "1"])
    out = capsys.readouterr().out
    assert "r: leave this throw out):\n  throw left out\nThrow 2 dice" in out
    assert "1 throw left out (left out by you)" in out


def test_a_misspelt_key_is_offered_the_key_meant(tmp_path: Path) -> None:
    """N5: `unknown key 'min_face_pix' in [reader]`, with no did-you-mean as camera.toml has."""
    from companion.errors import DataError

    path = tmp_path / "dice.toml"
    path.write_text("[reader]\nmin_face_pix = 30\n")
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    assert "unknown key 'min_face_pix' in [reader] (did you mean 'min_face_px'?)" in \
        str(refused.value)
