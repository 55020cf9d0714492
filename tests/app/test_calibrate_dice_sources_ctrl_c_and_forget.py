"""``companion calibrate dice`` and ``calibrate camera`` as events64 found them (N1–N5, N8):
on rendered photos and picture files, the player at a terminal being the edge of the world."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import cli
from companion.app.paths import config_dir
from companion.hw.dice.enrol import ENROL_FILE
from companion.hw.dice.render import SceneKind, Table, render_scene
from tests.app.calibrate_terminal_helpers import Terminal


def photo(tmp_path: Path) -> Path:
    path = tmp_path / "dice.png"
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    cv2.imwrite(str(path), scene.image)
    return path


@pytest.mark.parametrize("what", ["missing", "unreadable"])
def test_a_source_that_gives_no_picture_is_said_before_the_dice_are_asked_for(
        what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N1: "Lay 2 dice still in view, apart, then press Enter:", and only after Enter that
    --source was a file that is gone (the webcam's and Pi camera's check came first)."""
    source = tmp_path / "dice.png"
    if what == "unreadable":
        source.write_text("not a picture")
    terminal = Terminal()
    monkeypatch.setattr("sys.stdin", terminal)
    assert cli.main(["calibrate", "dice", "--source", str(source)]) == 1
    out, err = capsys.readouterr()
    assert "Lay" not in out and terminal.awaited == 0, out
    why = ("no such camera, picture, folder or video" if what == "missing"
           else "not a picture that can be read")
    assert err.startswith("companion: error: ") and why in err and str(source) in err
    assert not (config_dir() / "dice.toml").exists()


@pytest.mark.parametrize("tuned_before", [False, True])
def test_ctrl_c_says_nothing_was_saved_and_what_is_kept(
        tuned_before: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N2: Ctrl-C at "press Enter" ended with exit 130 and not a word, where `calibrate
    camera` and `--enrol` say what was kept."""
    source = photo(tmp_path)
    path = config_dir() / "dice.toml"
    if tuned_before:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert cli.main(["calibrate", "dice", "--source", str(source)]) == 0
        capsys.readouterr()
    before = path.read_bytes() if tuned_before else None
    monkeypatch.setattr("sys.stdin", Terminal(ctrl_c=True))
    assert cli.main(["calibrate", "dice", "--source", str(source)]) == 130
    err = capsys.readouterr().err
    kept = (f"the tuned thresholds in {path} are kept as they were" if tuned_before
            else "the dice reader keeps the companion's own thresholds")
    assert err == f"\ncalibration stopped: nothing was saved; {kept}\n"
    assert (path.read_bytes() if path.exists() else None) == before


@pytest.mark.parametrize(("options", "named"), [
    (["--enrol", "--forget", "enrolled", "--throws", "1"], "--enrol and --throws"),
    (["--forget", "--count", "3"], "--count"),
    (["--forget", "thresholds", "--source", "x.png", "--frames", "2", "--enrol"],
     "--enrol, --source and --frames"),
])
def test_forget_with_an_option_that_calibrates_is_refused_and_forgets_nothing(
        options: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    """N3: `--enrol --forget enrolled` forgot the dice and enrolled none, exit 0: a player
    meaning to enrol afresh was left with no enrolment."""
    config_dir().mkdir(parents=True)
    saved = {name: config_dir() / name for name in ("dice.toml", ENROL_FILE)}
    for path in saved.values():
        path.write_bytes(b"kept")
    assert cli.main(["calibrate", "dice", *options]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"--forget deletes what calibration saved and calibrates nothing, so it takes "
            f"no {named}") in err
    assert all(path.read_bytes() == b"kept" for path in saved.values())


@pytest.mark.parametrize(("options", "said"), [
    (["--throws", "5", "--count", "2"],
     "--throws is how many throws --enrol enrols, and this calibration enrols none: add "
     "--enrol to enrol your dice (`"),
    (["--enrol", "--frames", "3"],
     "--frames is how many frames of one lay the thresholds are tuned on, and --enrol reads "
     "each throw as it settles: leave --frames out"),
])
def test_an_option_of_the_other_calibration_is_refused_naming_it(
        options: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """dicecam75 NIT 6: `calibrate dice --throws 5` tuned the thresholds, exit 0, with no
    word of --throws (the player meant --enrol --throws 5); --frames did nothing with
    --enrol. Each is refused before anything is read or saved."""
    photo = tmp_path / "two.png"
    cv2.imwrite(str(photo), render_scene(703, kind=SceneKind.LOOSE, count=2,
                                         table=Table.FELT).image)
    assert cli.main(["calibrate", "dice", "--source", str(photo), *options]) == 2
    assert said in " ".join(capsys.readouterr().err.split())
    assert not (config_dir() / "dice.toml").exists()
    assert not (config_dir() / ENROL_FILE).exists()


def test_the_throws_refusal_s_command_keeps_the_source_and_count_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewdice75 N2: `calibrate dice --throws 5 --count 3 --source P` advised
    `… calibrate dice --enrol --throws 5`, which, pasted as printed, read the configured
    camera for the default count, not P's 3 dice. The --count and --source given are kept,
    quoted for the shell."""
    import shlex

    from companion.app.command_name import companion_line

    photo = tmp_path / "my dice" / "three.png"
    photo.parent.mkdir()
    cv2.imwrite(str(photo), render_scene(703, kind=SceneKind.LOOSE, count=2,
                                         table=Table.FELT).image)
    assert cli.main(["calibrate", "dice", "--throws", "5", "--count", "3",
                     "--source", str(photo)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    advised = companion_line("calibrate", "dice", "--enrol", "--throws", "5", "--count", "3",
                             "--source", str(photo))
    assert f"add --enrol to enrol your dice (`{advised}`)" in err, err
    assert shlex.split(advised)[-1] == str(photo)


def test_forget_alone_still_forgets(capsys: pytest.CaptureFixture[str]) -> None:
    config_dir().mkdir(parents=True)
    (config_dir() / ENROL_FILE).write_bytes(b"gone")
    assert cli.main(["calibrate", "dice", "--forget", "enrolled"]) == 0
    assert not (config_dir() / ENROL_FILE).exists()
    assert "Forgotten: the enrolled dice" in capsys.readouterr().out


def test_calibrate_dice_help_says_where_it_saves_and_what_to_run_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    """N8: `calibrate camera --help` says where it saves; `calibrate dice --help` said
    nothing of dice.toml, dice_enrol.npz, calibrating the camera first or the dice area."""
    with pytest.raises(SystemExit) as done:
        cli.main(["calibrate", "dice", "--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("Run `companion calibrate camera` first. Lay the dice apart in the mat's dice "
            f"area. It saves dice.toml (and {ENROL_FILE}, with --enrol) in the config "
            "folder; a read that fails saves nothing and keeps the calibration there.") in said


MAT_DRAWING = Path(__file__).parents[2] / "docs" / "mat.png"


@pytest.mark.parametrize(("files", "said"), [
    ({"5p.png": b"not a picture", "1m.png": MAT_DRAWING},
     "none of the 2 pictures named after a tile could be enrolled (each skipped above)"),
    ({"5p.png": b"not a picture"},
     "the picture named after a tile could not be enrolled (skipped above)"),
    ({"notes.txt": b"tiles"}, "no pictures named after a tile (e.g. 5p.jpg, 1z_2.png)"),
])
def test_enrol_from_says_pictures_named_after_a_tile_were_all_skipped(
        files: dict[str, bytes | Path], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N4: a folder whose 5p.png could not be read and whose 1m.png showed the mat said
    "no pictures named after a tile", as if it held none."""
    folder = tmp_path / "tiles"
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_bytes(content.read_bytes() if isinstance(content, Path)
                                    else content)
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == f"companion: error: {folder}: {said}\n"
    assert all(f"{name} skipped" in out for name in files if name != "notes.txt")
    assert not config_dir().exists() or not any(config_dir().iterdir())


@pytest.mark.parametrize("content", [b"not a picture", b"\x89PNG\r\n\x1a\n" + b"\0" * 40])
def test_calibrate_camera_names_an_unreadable_picture_as_the_dice_one_does(
        content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N5: "no picture from the camera: bad.png: not a picture that can be read; skipped":
    the source is one picture, not a camera, and nothing was skipped."""
    bad = tmp_path / "bad.png"
    bad.write_bytes(content)
    assert cli.main(["calibrate", "camera", "--source", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err == f"companion: error: --source: {bad}: not a picture that can be read\n"
    assert not config_dir().exists() or not any(config_dir().iterdir())
    assert cli.main(["calibrate", "dice", "--source", str(bad)]) == 1
    assert capsys.readouterr().err == err  # worded alike


def test_a_picture_source_that_cannot_be_read_is_refused_when_opened(tmp_path: Path) -> None:
    from companion.errors import DeviceError
    from companion.hw.camera.capture import FileSource

    bad = tmp_path / "bad.jpg"
    bad.write_text("not a picture")
    with pytest.raises(DeviceError, match=rf"^{bad}: not a picture that can be read$"):
        FileSource(bad)
    folder = tmp_path / "shots"  # a folder's pictures are read one by one: one bad is skipped
    folder.mkdir()
    (folder / "a.jpg").write_text("not a picture")
    cv2.imwrite(str(folder / "b.png"), np.full((48, 64, 3), 128, np.uint8))
    source = FileSource(folder)
    assert source.read() is None and source.read() is not None
    (folder / "b.png").unlink()  # none of them a picture: refused too (camera71 NIT 6)
    with pytest.raises(DeviceError, match=r": its one picture cannot be read \(a\.jpg: "):
        FileSource(folder)

