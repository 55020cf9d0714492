"""camera.toml and dice.toml zeroed by a power cut (hist72 DEFECT 1): said as the power cut
it was, not in tomllib's words, and the whole copy the cut write left beside each is kept
under a name no save deletes, and named; dice_enrol.npz's too (dicecam73 NIT 4)."""

from __future__ import annotations

import calendar
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from companion.app.camera_settings import CALIBRATION_FILE, load_settings
from companion.app.paths import config_dir
from companion.errors import DataError
from companion.hw.camera.classifier import TileClassifier
from companion.hw.dice.enrol import ENROL_FILE, Enrolment
from companion.hw.dice.reader_config import ReaderConfig
from companion.toml_writing import write_toml

POWER_CUT = "the file is all zero bytes: a power cut as it was written?"


def zeroed_with_a_whole_copy(path: Path, whole: str) -> Path:
    """``path`` zeroed, and beside it the copy of ``whole`` a write cut short left (an hour
    old: no writer holds it; ``path`` a minute older, its last write before the cut one, as
    a rename the cut stopped leaves them); the copy is returned."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * 64)
    copy = path.parent / f".{path.name}.q7w2e9.tmp"
    copy.write_text(whole, encoding="utf-8")
    an_hour_ago = time.time() - 3600
    os.utime(copy, (an_hour_ago, an_hour_ago))
    os.utime(path, (an_hour_ago - 60, an_hour_ago - 60))
    return copy


def kept_copy(path: Path) -> Path:
    (kept,) = path.parent.glob(f"{path.name}.unwritten-*")
    return kept


def put_back_as_told(said: str, path: Path, kept: Path) -> None:
    """Run the put-back command ``said`` ends with, as the player would (in bash), and check
    it moved the damaged ``path`` aside first (reviewh72 NIT 3: camera.toml's and dice.toml's
    was a bare `mv COPY FILE`, the damaged file, maybe a hand edit with one typo, written
    over), then put the copy in its place."""
    damaged = path.read_bytes()
    command = said.rsplit("`", 2)[1]
    assert command.startswith(f"mv {shlex.quote(str(path))} ")
    assert command.endswith(f" && mv {shlex.quote(str(kept))} {shlex.quote(str(path))}")
    subprocess.run(["bash", "-c", command], check=True)
    (aside,) = path.parent.glob(f"{path.name}.corrupt-*")
    assert aside.read_bytes() == damaged
    assert not kept.exists()


def test_a_zeroed_camera_toml_names_the_power_cut_and_keeps_the_copy() -> None:
    path = config_dir() / CALIBRATION_FILE
    zeroed_with_a_whole_copy(path, "[reader]\nstable_frames = 3\n")
    with pytest.raises(DataError) as refused:
        load_settings(TileClassifier())
    said = str(refused.value)
    kept = kept_copy(path)
    assert said.startswith(f"{path}: not TOML: {POWER_CUT}; fix it or calibrate again; "
                           f"{kept.name}, kept beside it from a write cut short, reads as a "
                           "whole camera.toml: put it back instead with `mv ")
    # Calibrating again writes camera.toml: the kept copy is no temporary of it.
    path.unlink()
    write_toml(path, {"reader": {"stable_frames": 2}})
    assert kept.read_text(encoding="utf-8") == "[reader]\nstable_frames = 3\n"


def test_a_zeroed_dice_toml_names_the_power_cut_and_keeps_the_copy() -> None:
    path = config_dir() / "dice.toml"
    zeroed_with_a_whole_copy(path, "[reader]\n")
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    said = str(refused.value)
    kept = kept_copy(path)
    assert said.startswith(f"{path}: not valid TOML ({POWER_CUT}); mend it, or run ")
    assert f"; {kept.name}, kept beside it from a write cut short, reads as a whole dice.toml: " \
        "put it back instead with `mv " in said
    path.unlink()
    ReaderConfig.load().save(path)
    assert kept.exists()


def test_camera_toml_s_put_back_command_moves_the_damaged_file_aside_first() -> None:
    path = config_dir() / CALIBRATION_FILE
    zeroed_with_a_whole_copy(path, "[reader]\nstable_frames = 3\n")
    with pytest.raises(DataError) as refused:
        load_settings(TileClassifier())
    put_back_as_told(str(refused.value), path, kept_copy(path))
    assert load_settings(TileClassifier()).stable_frames == 3


def zeroed_dice_toml_with_a_whole_copy() -> tuple[Path, ReaderConfig]:
    """``dice.toml`` zeroed, and beside it the whole copy of the default settings a write
    cut short left (zeroed_with_a_whole_copy); gives the file and those settings."""
    path = config_dir() / "dice.toml"
    whole = ReaderConfig.load()
    whole.save(path)
    zeroed_with_a_whole_copy(path, path.read_text(encoding="utf-8"))
    return path, whole


def test_dice_toml_s_put_back_command_moves_the_damaged_file_aside_first() -> None:
    path, whole = zeroed_dice_toml_with_a_whole_copy()
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    put_back_as_told(str(refused.value), path, kept_copy(path))
    assert ReaderConfig.load(path) == whole


def zeroed_enrolment_with_a_whole_copy() -> tuple[Path, Enrolment]:
    """``dice_enrol.npz`` zeroed, and beside it the whole copy of an enrolment a write cut
    short left (an hour old: no writer holds it)."""
    from companion.hw.dice.calibrate import enrol
    from companion.hw.dice.render import SceneKind, Table, render_scene

    path = config_dir() / ENROL_FILE
    scene = render_scene(703, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    made = enrol([(scene.image, [d.value for d in scene.dice])], ReaderConfig.load())
    assert made.enrolment is not None
    made.enrolment.save(path)
    whole = path.read_bytes()
    zeroed_with_a_whole_copy(path, "")
    (path.parent / f".{path.name}.q7w2e9.tmp").write_bytes(whole)
    an_hour_ago = time.time() - 3600
    os.utime(path.parent / f".{path.name}.q7w2e9.tmp", (an_hour_ago, an_hour_ago))
    return path, made.enrolment


def test_a_zeroed_dice_enrolment_names_the_whole_copy_and_how_to_put_it_back(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dicecam73 NIT 4: a power cut's zeroed dice_enrol.npz, a whole copy beside it, said
    only "run `companion calibrate dice --enrol` again" (roll, the dice tray, `dice read`):
    the player threw their whole enrolment again, and its first save deleted the copy."""
    from companion.app import cli

    path, enrolment = zeroed_enrolment_with_a_whole_copy()
    with pytest.raises(DataError) as refused:
        Enrolment.load(path)
    said = str(refused.value)
    kept = kept_copy(path)
    assert said.startswith(f"{path}: cannot read the dice enrolled (not a file the companion "
                           "wrote, or one cut short or damaged); run `companion calibrate dice "
                           f"--enrol` again; {kept.name}, kept beside it from a write cut "
                           "short, reads as a whole dice_enrol.npz: put it back instead with "
                           "`mv ")
    # `companion roll --dice camera` says it so too
    assert cli.main(["roll", "--dice", "camera", "--source", "render:1", "1D6"]) == 2
    assert "put it back instead with" in capsys.readouterr().err
    put_back_as_told(said, path, kept_copy(path))
    again = Enrolment.load(path)
    assert again is not None and again.dice() == enrolment.dice()


def test_a_dice_enrolment_set_aside_still_names_the_copy_a_cut_write_left(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where calibration sets the damaged file aside (``--enrol``), the copy is named as it
    was: kept by the set-aside, not by the load before it (a copy kept there was not); once,
    with its put-back, not in the set-aside line as well (reviewa74 N3)."""
    from companion.app.calibrate.dice import enrolled_before
    from companion.hw.dice.networks import DiceNetworks

    path, _ = zeroed_enrolment_with_a_whole_copy()
    assert enrolled_before(path, DiceNetworks()) is None
    err = capsys.readouterr().err
    kept = kept_copy(path)
    (aside,) = path.parent.glob(f"{ENROL_FILE}.corrupt-*")
    assert f"; it was kept as {aside.name} and calibration starts afresh\n" in err
    assert err.count(kept.name) == 2  # in the put-back's words: the name, the command
    # before any throw is saved over it, how to keep its dice (reviewb73 DEFECT 1)
    assert ("the throws taken now are enrolled without the dice enrolled before; to add them "
            "to those, stop now (Ctrl-C) and put a whole copy back first; "
            f"{kept.name}, kept beside it from a write cut short, reads as a whole "
            f"{ENROL_FILE}: put it back with `mv ") in " ".join(err.split())
    # nothing before it was another way: no "instead" (finalb73 NIT 7)
    assert "instead" not in err


def two_dice_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                   rolled_first: bool) -> Path:
    """A photo of two loose dice on felt, in ``tmp_path``. With ``rolled_first``, a camera
    ``roll`` of it first: the roll keeps the cut write's copy, names it, and refuses."""
    import cv2

    from companion.app import cli
    from companion.hw.dice.render import SceneKind, Table, render_scene

    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), render_scene(703, kind=SceneKind.LOOSE, count=2,
                                         table=Table.FELT).image)
    if rolled_first:
        assert cli.main(["roll", "--dice", "camera", "--source", str(photo), "2D6"]) == 2
        assert "put it back instead with" in capsys.readouterr().err
    return photo


@pytest.mark.parametrize("rolled_first", [False, True])
def test_calibrate_setting_a_zeroed_dice_toml_aside_names_the_copy_kept_before(
        rolled_first: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fixcarry74: ``calibrate dice`` set a zeroed dice.toml aside and named no copy beside
    it, as the load before it (or a ``roll`` first) had kept it already and its words were
    cut off with the advice; dice_enrol.npz's and camera.toml's set-aside lines name such a
    copy. It is named, and still there after calibration writes dice.toml afresh."""
    from companion.app import cli

    path = config_dir() / "dice.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    ReaderConfig.load().save(path)
    whole = path.read_text(encoding="utf-8")
    zeroed_with_a_whole_copy(path, whole)
    photo = two_dice_photo(tmp_path, capsys, rolled_first)
    assert cli.main(["calibrate", "dice", "--count", "2", "--source", str(photo)]) == 0
    err = capsys.readouterr().err
    (aside,) = path.parent.glob("dice.toml.corrupt-*")
    kept = kept_copy(path)
    assert (f"it was kept as {aside.name}; a copy a write cut short left, which may hold the "
            f"last write whole, was kept as {kept.name} and calibration starts afresh") in err
    assert kept.read_text(encoding="utf-8") == whole
    ReaderConfig.load(path)  # the new one reads


@pytest.mark.parametrize("older", [1, 3])
def test_the_set_aside_line_names_only_copies_kept_since_the_file_was_written(
        older: int, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa74 R2: each set-aside line named every ``*.unwritten-*`` ever left beside the
    file, copies of long-gone incidents too, each one "which may hold the last write whole",
    a longer line at every incident. A copy kept before the damaged file was last written
    cannot hold its last write: those are counted, not named; the copy kept now is."""
    from companion.app.calibrate import set_aside

    path = config_dir() / "dice.toml"
    zeroed_with_a_whole_copy(path, "[reader]\n")
    an_hour_ago = time.time() - 3600
    os.utime(path, (an_hour_ago, an_hour_ago))  # zeroed an hour ago, as its copy was left
    stale = [path.with_name(f"dice.toml.unwritten-2025010{day}T000000Z")
             for day in range(1, older + 1)]
    for old in stale:
        old.write_text("[reader]\n", encoding="utf-8")
        two_hours_ago = an_hour_ago - 3600
        os.utime(old, (two_hours_ago, two_hours_ago))  # their cut writes, before its last
    set_aside(path, f"{path}: not TOML; run `companion calibrate dice`")
    err = capsys.readouterr().err
    (aside,) = path.parent.glob("dice.toml.corrupt-*")
    kept = [p for p in path.parent.glob("dice.toml.unwritten-*") if p not in stale]
    assert len(kept) == 1
    counted = ("an older copy, of a write cut short before dice.toml was last written, stays"
               if older == 1 else
               f"{older} older copies, of writes cut short before dice.toml was last written, "
               "stay")
    assert err == (f"companion: {path} cannot be read (not TOML); it was kept as {aside.name}"
                   "; a copy a write cut short left, which may hold the last write whole, was "
                   f"kept as {kept[0].name}; {counted} beside it (dice.toml.unwritten-*) and "
                   "calibration starts afresh\n")
    assert all(old.exists() for old in stale)


def test_the_copy_of_this_cut_is_named_when_the_clock_restarts_behind_the_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewfw74 R1: a Pi with no RTC comes back from a power cut with its clock behind
    (fake-hwclock's saved time, until NTP), so the copy of that very cut, kept at the first
    load, had a time in its name before the damaged file's last write and was counted as
    "an older copy" and not named: the one copy that may hold the last write whole. When a
    copy's write was cut is its own time, set by the clock that dated the file, whatever the
    clock says now; a copy from a cut before the file's last write is still counted."""
    from companion.app.calibrate import set_aside

    path = config_dir() / "dice.toml"
    cut = zeroed_with_a_whole_copy(path, "[reader]\n")
    written = time.time() + 20 * 60  # the cut came 20 min later than the clock restarted at
    os.utime(path, (written, written))
    os.utime(cut, (written, written))
    stale = path.with_name("dice.toml.unwritten-20250101T000000Z")
    stale.write_text("[reader]\n", encoding="utf-8")
    os.utime(stale, (written - 3600, written - 3600))  # a cut before the file's last write
    set_aside(path, f"{path}: not TOML; run `companion calibrate dice`")
    err = capsys.readouterr().err
    (aside,) = path.parent.glob("dice.toml.corrupt-*")
    (kept,) = (p for p in path.parent.glob("dice.toml.unwritten-*") if p != stale)
    assert kept.read_text(encoding="utf-8") == "[reader]\n"
    named = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(written))
    assert kept.name < f"dice.toml.unwritten-{named}"  # its name is before the file's write
    assert err == (f"companion: {path} cannot be read (not TOML); it was kept as {aside.name}"
                   "; a copy a write cut short left, which may hold the last write whole, was "
                   f"kept as {kept.name}; an older copy, of a write cut short before dice.toml "
                   "was last written, stays beside it (dice.toml.unwritten-*) and calibration "
                   "starts afresh\n")



def test_calibrate_dates_an_enrolment_copy_older_than_the_file_it_sets_aside(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewdice75b D1: calibrate sets dice_enrol.npz aside before naming the copies, so
    the file whose last write the copy predates was gone and the date never said: last
    month's enrolled dice were offered as ``roll`` dates them, unwarned. The kept file's
    time (a rename keeps it) is the file's last write."""
    from companion.app.calibrate.dice import enrolled_before
    from companion.hw.dice.networks import DiceNetworks

    path, _ = zeroed_enrolment_with_a_whole_copy()
    (copy,) = path.parent.glob(f".{path.name}.*.tmp")
    last_month = calendar.timegm((2026, 11, 1, 10, 0, 0, 0, 0, 0))
    os.utime(copy, (last_month, last_month))
    assert enrolled_before(path, DiceNetworks()) is None
    err = " ".join(capsys.readouterr().err.split())
    kept = kept_copy(path)
    assert (f"{kept.name}, kept beside it from a write cut short at 2026-11-01 10:00 UTC, "
            f"before {ENROL_FILE} was last written, reads as a whole {ENROL_FILE}: put it "
            "back with `mv ") in err, err


@pytest.mark.parametrize("rolled_first", [False, True])
def test_plain_calibrate_setting_a_zeroed_enrolment_aside_says_how_to_put_the_copy_back(
        rolled_first: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewb73 DEFECT 1: plain ``calibrate dice`` set a zeroed dice_enrol.npz aside with
    the whole copy of a cut write beside it, gave no command to put the copy back, and sent
    the player to enrol every die again; a copy a ``roll`` had kept before was not named at
    all, and the put-back that roll had said (which moves dice_enrol.npz aside first) no
    longer ran. The command said now runs as printed and the dice are enrolled again."""
    from companion.app import cli
    from companion.hw.dice.source import CameraDiceSource

    path, enrolment = zeroed_enrolment_with_a_whole_copy()
    photo = two_dice_photo(tmp_path, capsys, rolled_first)
    cli.main(["calibrate", "dice", "--count", "2", "--source", str(photo)])
    err = " ".join(capsys.readouterr().err.split())
    (aside,) = path.parent.glob(f"{ENROL_FILE}.corrupt-*")
    kept = kept_copy(path)
    # named once, with its put-back, not in the set-aside line too (reviewa74 N3)
    assert f"it was kept as {aside.name} and calibration starts afresh" in err
    assert err.count(kept.name) == 2 and not path.exists()  # its name, and in the command
    assert "enrols yours again" not in err
    assert ("the dice are read without enrolled dice 登録ダイスなし, here and in the dice tray, "
            f"until a whole copy is put back ({ENROL_FILE} is aside already") in err
    assert err.rstrip().endswith(f"{kept.name}, kept beside it from a write cut short, reads "
                                 f"as a whole {ENROL_FILE}: put it back with `mv "
                                 f"{shlex.quote(str(kept))} {shlex.quote(str(path))}`")
    subprocess.run(["bash", "-c", err.rsplit("`", 2)[1]], check=True)
    again = Enrolment.load(path)
    assert again is not None and again.dice() == enrolment.dice()
    assert CameraDiceSource(str(photo), config_file=path.with_name("dice.toml")).enrolled == 2



@pytest.mark.parametrize("folder", ["my cfg's dir", "cfg"])
def test_roll_s_put_back_command_runs_pasted_as_printed(
        folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """finalb73 RISK 3: roll's error, wrapped to 80 columns, broke its put-back command
    after ``mv`` and inside a quoted path, so the text between the backticks, pasted into
    bash as printed (lines and all), ran nothing it said ("mv: missing file operand")."""
    from companion.app import cli

    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "d sp" / folder))
    path, enrolment = zeroed_enrolment_with_a_whole_copy()
    assert cli.main(["roll", "--dice", "camera", "--source", "render:1", "1D6"]) == 2
    err = capsys.readouterr().err
    (command,) = re.findall(r"`(mv [^`]*)`", err)
    subprocess.run(["bash", "-c", command], check=True)
    again = Enrolment.load(path)
    assert again is not None and again.dice() == enrolment.dice()


def test_a_command_in_backticks_takes_a_line_of_its_own_unbroken() -> None:
    from companion.app.help_format import cell_wrap, wrap_kept

    command = "`mv '/a b/c'\"'\"'s dir/x' '/a b/y'`"
    for lines in (wrap_kept(f"put it back with {command}; or not", 20),
                  cell_wrap(f"put it back with {command}; or not", 20)):
        assert [line.strip() for line in lines if "`" in line] == [f"{command};"]


def an_older_whole_enrolment(path: Path) -> tuple[Path, Enrolment]:
    """Beside ``path``, the whole copy of another enrolment (3 dice) kept from a write cut
    short two months ago; named later than now, as a clock that was ahead names it, to show
    that the copy's own time orders the copies, not its name."""
    from companion.hw.dice.calibrate import enrol
    from companion.hw.dice.render import SceneKind, Table, render_scene

    scene = render_scene(704, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    made = enrol([(scene.image, [d.value for d in scene.dice])], ReaderConfig.load())
    assert made.enrolment is not None
    older = path.with_name(f"{ENROL_FILE}.unwritten-20991231T000000Z")
    made.enrolment.save(older)
    two_months_ago = time.time() - 60 * 86400
    os.utime(older, (two_months_ago, two_months_ago))
    return older, made.enrolment


def only_the_newest_put_back(err: str, path: Path, older: Path, put_back: str) -> str:
    """The one put-back command ``err`` gives, checked to put back the copy kept now (not
    ``older``, which is named as older and left): dicecam75 DEFECT 1."""
    (newest,) = (p for p in path.parent.glob(f"{ENROL_FILE}.unwritten-*") if p != older)
    commands = re.findall(r"`(mv [^`]*)`", err)
    assert len(commands) == 1, err
    assert commands[0].endswith(f"mv {shlex.quote(str(newest))} {shlex.quote(str(path))}")
    assert (f"; {older.name}, kept beside it from an older write cut short, reads whole too "
            f"and stays beside it; {newest.name}, the newest, kept beside it from a write cut "
            f"short, reads as a whole {ENROL_FILE}: {put_back} `") in err
    return commands[0]


@pytest.mark.parametrize("command", ["roll", "dice read"])
def test_a_zeroed_enrolment_offers_only_the_newest_whole_copy_back(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dicecam75 DEFECT 1: with a whole copy a month old beside today's, ``roll`` and ``dice
    read`` offered both, the old one first, so the first command printed put last month's
    enrolment back; and both moved the damaged file to the same ``.corrupt-<stamp>`` name,
    the second writing the first's kept original over. Now one command, today's copy's, and
    the older copy is named as older and stays."""
    from companion.app import cli

    path, enrolment = zeroed_enrolment_with_a_whole_copy()
    older, older_enrolment = an_older_whole_enrolment(path)
    photo = two_dice_photo(tmp_path, capsys, rolled_first=False)
    argv = (["roll", "--dice", "camera", "--source", str(photo), "2D6"] if command == "roll"
            else ["dice", "read", str(photo)])
    assert cli.main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    damaged = path.read_bytes()
    subprocess.run(["bash", "-c", only_the_newest_put_back(err, path, older,
                                                           "put it back instead with")],
                   check=True)
    again = Enrolment.load(path)
    assert again is not None and again.dice() == enrolment.dice() != older_enrolment.dice()
    (aside,) = path.parent.glob(f"{ENROL_FILE}.corrupt-*")
    assert aside.read_bytes() == damaged and older.exists()


def test_plain_calibrate_offers_only_the_newest_whole_enrolment_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dicecam75 DEFECT 1, as plain ``calibrate dice`` sets the zeroed enrolment aside: the
    newest whole copy alone is given with its put-back, the older one named as older; the
    set-aside line names neither (the words after it do)."""
    from companion.app import cli

    path, enrolment = zeroed_enrolment_with_a_whole_copy()
    older, _ = an_older_whole_enrolment(path)
    photo = two_dice_photo(tmp_path, capsys, rolled_first=False)
    cli.main(["calibrate", "dice", "--count", "2", "--source", str(photo)])
    err = " ".join(capsys.readouterr().err.split())
    (aside,) = path.parent.glob(f"{ENROL_FILE}.corrupt-*")
    assert f"it was kept as {aside.name} and calibration starts afresh" in err
    command = only_the_newest_put_back(err, path, older, "put it back with")
    subprocess.run(["bash", "-c", command], check=True)
    again = Enrolment.load(path)
    assert again is not None and again.dice() == enrolment.dice()
    assert older.exists()


def test_a_zeroed_dice_toml_offers_only_the_newest_whole_copy_back() -> None:
    """dicecam75 DEFECT 1 for dice.toml (roll, the dice tray, ``dice read``): last month's
    thresholds were offered first; the copy of today's cut is the one put back."""
    path, whole = zeroed_dice_toml_with_a_whole_copy()
    older = path.with_name("dice.toml.unwritten-20991231T000000Z")
    older.write_text("[reader]\nmax_face_px = 44.3\n", encoding="utf-8")
    two_months_ago = time.time() - 60 * 86400
    os.utime(older, (two_months_ago, two_months_ago))
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    said = str(refused.value)
    assert said.count("`mv ") == 1
    assert f"; {older.name}, kept beside it from an older write cut short, reads whole too" in said
    (newest,) = (p for p in path.parent.glob("dice.toml.unwritten-*") if p != older)
    put_back_as_told(said, path, newest)
    assert ReaderConfig.load(path) == whole and older.exists()


def test_a_whole_copy_older_than_the_damaged_file_s_last_write_is_said_so_with_its_date(
        ) -> None:
    """reviewdice75 R2: a zeroed dice.toml whose only whole copy beside it is last month's
    (today's cut .tmp no whole dice.toml) offered that copy with no word that it predates
    the file's last write, while calibrate's set-aside line called it "older": the player
    who ran the command got last month's thresholds back unwarned. It is said, with its
    date; still the one command, last."""
    path = config_dir() / "dice.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * 64)  # zeroed a minute ago
    now = time.time()
    os.utime(path, (now - 60, now - 60))
    cut = path.parent / f".{path.name}.q7w2e9.tmp"
    cut.write_bytes(b"[reader")  # today's cut: not whole
    os.utime(cut, (now - 3600, now - 3600))
    older = path.with_name("dice.toml.unwritten-20261101T100000Z")
    older.write_text("[reader]\nmax_face_px = 44.3\n", encoding="utf-8")
    last_month = calendar.timegm((2026, 11, 1, 10, 0, 0, 0, 0, 0))
    os.utime(older, (last_month, last_month))
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    said = " ".join(str(refused.value).split())
    assert said.count("`mv ") == 1
    assert (f"; {older.name}, kept beside it from a write cut short at 2026-11-01 10:00 UTC, "
            "before dice.toml was last written, reads as a whole dice.toml: put it back "
            "instead with `mv ") in said, said
    put_back_as_told(str(refused.value), path, older)
    assert ReaderConfig.load(path).max_face_px == 44.3


def test_a_whole_copy_cut_after_the_damaged_file_s_last_write_says_no_date() -> None:
    """reviewdice75 R2, the usual power cut: the copy was cut after the file's last write
    (the rename the cut stopped), so it is its newest content, and said as before."""
    path, _ = zeroed_dice_toml_with_a_whole_copy()
    with pytest.raises(DataError) as refused:
        ReaderConfig.load(path)
    said = " ".join(str(refused.value).split())
    assert ", kept beside it from a write cut short, reads as a whole dice.toml: put it back" \
        in said, said
    assert "was last written" not in said
