"""Review reviewcal66's findings on fixcal66 (``companion calibrate camera|rfid``), run as
the maker runs them: ``--enrol-from`` with another tile model, a disk that refuses writes,
``classify`` as play loads the enrolment, the RFID enrolment's held first prompt."""

from __future__ import annotations

import errno
import io
from pathlib import Path

import cv2
import pytest

from companion.app import cli
from companion.app.calibrate.rfid import Enroller, parse_kinds
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.paths import config_dir
from companion.hw.camera.classifier import Enrolment, TileClassifier, default_model_path
from companion.hw.camera.sim_scene import Camera, render_scene
from companion.hw.ports import Slot
from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from tests.app.calibrate_camera_helpers import first_said
from tests.app.calibrate_model_helpers import another_model
from tests.app.table_camera import table_camera
from tests.disk import NO_SPACE, READ_ONLY, refuse_moving, refuse_writes
from tests.tile_picture_helpers import tile_picture


def tiles(folder: Path, *labels: str) -> Path:
    """A folder of one picture per tile of ``labels``, for ``--enrol-from``."""
    folder.mkdir()
    for label in labels:
        tile_picture(folder / f"{label}.png", label)
    return folder


def enrolment_files() -> list[str]:
    return sorted(p.name for p in config_dir().glob(f"{ENROLMENT_FILE}*"))


def enrol_from(folder: Path, model: Path | None = None) -> int:
    return cli.main(["calibrate", "camera", "--enrol-from", str(folder),
                     *(["--model", str(model)] if model is not None else [])])


def test_a_full_disk_enrolling_with_another_model_leaves_the_games_enrolment_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 DEFECT 1: the game's enrolment was renamed aside before the new file was
    written, and a full disk then left it there: play read without it and said nothing.
    The rename is undone (a rename needs no space) and the line says it is kept."""
    path = config_dir() / ENROLMENT_FILE
    assert enrol_from(tiles(tmp_path / "set", "3m", "5p")) == 0
    games = path.read_bytes()
    other = another_model(tmp_path)
    capsys.readouterr()
    refuse_writes(path, monkeypatch, failing=range(1, 2))  # the new file's write
    folder = tiles(tmp_path / "other", "1m")
    assert enrol_from(folder, other) == 1
    assert path.read_bytes() == games
    assert enrolment_files() == [ENROLMENT_FILE]
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        f"companion: cannot save {ENROLMENT_FILE} ({NO_SPACE}): the 1 picture of 1 kind "
        "enrolled now was not saved; the 2 kinds of another tile model in it are kept as "
        "they were; free space in the config folder and run `companion calibrate camera "
        f"--enrol-from {folder}` again")
    assert not any("kept as" in line and ".model-" in line for line in err)
    assert cli.main(["classify", str(tmp_path / "set" / "5p.png")]) == 0
    assert "enrolled set" not in capsys.readouterr().err


def test_a_folder_refusing_the_rename_aside_says_the_other_models_set_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 NIT 1: the rename aside refused (read-only), the line said "no kind is
    saved in it yet" of a file holding the game's set, and "pictures … was"."""
    path = config_dir() / ENROLMENT_FILE
    assert enrol_from(tiles(tmp_path / "set", "3m", "5p")) == 0
    games = path.read_bytes()
    capsys.readouterr()
    refuse_moving(path, monkeypatch, code=errno.EROFS)
    folder = tiles(tmp_path / "other", "1m", "2m")
    assert enrol_from(folder, another_model(tmp_path)) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"companion: cannot save {ENROLMENT_FILE} ({READ_ONLY}): the 2 pictures of 2 kinds "
        "enrolled now were not saved; the 2 kinds of another tile model in it are kept as "
        "they were; let the config folder be written and run `companion calibrate camera "
        f"--enrol-from {folder}` again")
    assert path.read_bytes() == games


def test_going_back_to_the_games_model_carries_on_with_its_own_set_kept_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 DEFECT 2: after an enrolment with `--model X`, play said to enrol again,
    and `--enrol` for the game's model started afresh beside its own set, unnamed; each
    round trip added a `-2` copy. Now play reads the game's model's set where it is kept,
    `--enrol` carries on with it, and each model keeps one file."""
    path = config_dir() / ENROLMENT_FILE
    games_id = TileClassifier().model_id
    other = another_model(tmp_path)
    other_id = TileClassifier(other).model_id
    assert enrol_from(tiles(tmp_path / "set", "3m", "5p")) == 0
    assert enrol_from(tiles(tmp_path / "x", "1m"), other) == 0
    games_aside = f"{ENROLMENT_FILE}.model-{games_id}"
    assert enrolment_files() == [ENROLMENT_FILE, games_aside]
    capsys.readouterr()

    # Play (classify loads the enrolment as play does) reads with the game's own set.
    assert cli.main(["classify", str(tmp_path / "set" / "5p.png")]) == 0
    err = capsys.readouterr().err
    assert "without your enrolled set" not in err
    assert err == (f"companion: tiles read with your enrolled set for this tile model, kept "
                   f"as {config_dir() / games_aside} ({ENROLMENT_FILE} holds another "
                   "model's)\n")

    # Back to the game's model: its 2 kinds are carried on with, X's are kept aside.
    assert enrol_from(tiles(tmp_path / "more", "7z")) == 0
    out, err = capsys.readouterr()
    assert "(3 kinds in all)" in out
    assert err == (
        f"companion: carrying on with this tile model's 2 kinds enrolled before, kept as "
        f"{games_aside} while {ENROLMENT_FILE} held another model's\n"
        f"companion: the 1 kind enrolled before was taught to another tile model; it is "
        f"kept as {ENROLMENT_FILE}.model-{other_id}, which that model reads with again (the "
        f"game, classify and --enrol with it), and this model's enrolment is back in "
        f"{ENROLMENT_FILE}\n")
    assert enrolment_files() == [ENROLMENT_FILE, f"{ENROLMENT_FILE}.model-{other_id}"]
    assert sorted(set(Enrolment.load(path).labels)) == ["3m", "5p", "7z"]

    # And round again: one file per model, no -2 copy.
    assert enrol_from(tmp_path / "more", other) == 0
    assert "(2 kinds in all)" in capsys.readouterr().out
    assert enrolment_files() == [ENROLMENT_FILE, games_aside]
    assert sorted(set(Enrolment.load(config_dir() / games_aside).labels)) == ["3m", "5p", "7z"]


def enroller_holding(kinds: str) -> tuple[Enroller, io.StringIO]:
    """``calibrate rfid --only KINDS --copies 1`` as it starts on an RDM6300: its first
    prompt held until the reader is up."""
    out = io.StringIO()
    enroller = Enroller(TagMap(), config_dir() / TAGMAP_FILENAME, out)
    enroller.enrol(parse_kinds(kinds), copies=1, hold=True)
    return enroller, out


def laid(uid: str, at_start: bool = False) -> TagEvent:
    return TagEvent(TagAction.PLACED, Slot.DRAW, uid, None, at_start=at_start)


def test_s_typed_while_the_first_prompt_is_held_asks_for_the_next_kind_not_the_skipped(
) -> None:
    """reviewcal66 RISK 2: `s` typed while an RDM6300 was unplugged (the first prompt held)
    skipped 9s, then the held prompt came once it was plugged in: "Place a 9s", and the 9s
    laid at it was enrolled as 8s. The prompt said is the one for now, once the reader is
    up."""
    enroller, out = enroller_holding("9s 8s")
    enroller.on_key("s")
    enroller.ready()
    enroller.on_event(laid("0F00A1B2C3"))
    text = out.getvalue()
    assert "Place a 9s" not in text.split("Skipped 9s.", 1)[1]
    assert text.count("Place a 8s") == 1
    assert text.endswith("  Skipped 9s.\n[2/2] Place a 8s 八索 (8 of bamboo) (copy 1 of 1).\n"
                         "  0F00A1B2C3 = 8s\n  Lift it off.\n")


def test_a_tile_lying_there_at_the_start_is_told_to_be_lifted_after_the_prompt() -> None:
    """reviewcal66 NIT 2: an RDM6300's tile lying there at the start was told "lift it
    off" before the first prompt, which came a second later while it lay there."""
    enroller, out = enroller_holding("9s")
    enroller.on_event(laid("0F00A1B2C3", at_start=True))
    text = out.getvalue()
    assert text.index("[1/1] Place a 9s") < text.index("A tile was already on the draw slot")
    assert text.count("Place a 9s") == 1
    enroller.ready()
    assert out.getvalue() == text  # said once


def no_mat_found(tmp_path: Path, capsys: pytest.CaptureFixture[str], brightness: float) -> str:
    """What `calibrate camera` says of a sharp picture at ``brightness``, a camera with no
    noise (whose focus falls with the light), every corner marker hidden."""
    picture = tmp_path / f"dim{brightness}.png"
    cv2.imwrite(str(picture), render_scene({}, camera=Camera(brightness=brightness, noise=0.0),
                                           hide_markers=[0, 1, 2, 3]))
    assert cli.main(["calibrate", "camera", "--frames", "2", "--source", str(picture)]) == 1
    return first_said(capsys.readouterr().out)


def test_a_dim_sharp_frame_with_no_mat_found_is_not_told_only_to_turn_the_lens_ring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 RISK 1: with no mat found, the frame's 90th percentile read the paper
    about 10 greys above the exposure check's median on the mat found, so a sharp frame
    in light the mat found is told to add light in (paper grey 104) was told "turn its
    lens ring". The paper is guessed as the exposure check measures it, and near the floor
    both causes are given, light first."""
    line = no_mat_found(tmp_path, capsys, 0.45)  # found, the exposure check says 104
    assert line.startswith("mat not found: the picture is dark (paper grey about 10")
    assert "lens ring" not in line
    line = no_mat_found(tmp_path, capsys, 0.5)  # found: 116, just over the floor
    assert line.startswith("mat not found: the picture is soft (focus ")
    assert ") or too dim for its focus to be judged (paper grey about 12" in line
    assert line.index("add light first") < line.index("if it is lit and still soft, turn "
                                                        "the camera's lens ring")


def test_the_model_note_names_the_whole_path_of_a_model_named_as_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 NIT 3: "the tiles enrolled now are for tile_classifier.onnx" of a
    downloaded model that kept the game's model's name read as the game's own."""
    other = another_model(tmp_path)
    assert other.name == default_model_path().name
    assert enrol_from(tiles(tmp_path / "set", "3m"), other) == 0
    assert capsys.readouterr().err.startswith(
        f"companion: note: the game reads tiles with {default_model_path()}, not {other}: the "
        f"tiles enrolled now are for {other}, and the game uses them only with "
        f"COMPANION_TILE_MODEL={other}\n")


def test_a_full_disk_at_the_first_kind_of_enrol_with_another_model_renames_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """reviewcal66 DEFECT 1, in `--enrol`: the first kind's save refused left the game's
    enrolment renamed aside; and "(s skips the kinds already taken)" was said with none
    taken."""
    path = config_dir() / ENROLMENT_FILE
    assert enrol_from(tiles(tmp_path / "set", "3m", "5p")) == 0
    games = path.read_bytes()
    capsys.readouterr()
    refuse_writes(path, monkeypatch, failing=range(1, 2))
    monkeypatch.setattr("sys.stdin", io.StringIO("\ny\nq\n"))  # 1m, kept as 1m
    assert cli.main(["calibrate", "camera", "--frames", "2", "--enrol", "--model",
                     str(another_model(tmp_path)), "--source",
                     table_camera(monkeypatch, "draw=5p")]) == 1
    assert path.read_bytes() == games
    assert enrolment_files() == [ENROLMENT_FILE]
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"companion: cannot save {ENROLMENT_FILE} ({NO_SPACE}): 1m was not saved; the 2 kinds "
        "of another tile model in it are kept as they were; free space in the config folder "
        "and run `companion calibrate camera --enrol` again")
