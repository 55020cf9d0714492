"""Audit cal66's findings on ``companion calibrate camera|rfid|dice``, run as the player runs
them: rendered frames as ``--source``, the tray simulator, a disk that refuses writes."""

from __future__ import annotations

import errno
import io
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.app import cli
from companion.app.calibrate.rfid import Enroller, Waiting, parse_kinds, run_enrolment
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.paths import config_dir
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import Enrolment, TileClassifier, default_model_path
from companion.hw.camera.quality import MIN_FOCUS
from companion.hw.camera.sim_scene import Camera
from companion.hw.camera.sim_scene import render_scene as render_scene_mat
from companion.hw.dice.enrol import ENROL_FILE
from companion.hw.dice.render import SceneKind, Table, render_scene
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from tests.app.calibrate_model_helpers import another_model
from tests.app.rfid_session_helpers import Uart
from tests.app.table_camera import table_camera
from tests.companion_process import CompanionProcess
from tests.deadline import ends_within
from tests.dice_scenes import on_the_mat, still_scene
from tests.disk import NO_SPACE, READ_ONLY, refuse_writes
from tests.hw.rfid_calibrate_helpers import (  # noqa: F401 (fixtures asked for as sim and tray)
    REPLAY_SECONDS,
    Keys,
    Player,
    calibrate_sim_fixture,
    calibrate_tray_fixture,
    session,
    sticker,
)
from tests.tile_picture_helpers import tile_picture


def two_dice_photo(tmp_path: Path) -> tuple[str, str]:
    """A photo of two dice, and their values as the player types them."""
    scene = render_scene(700, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    path = tmp_path / "dice.png"
    cv2.imwrite(str(path), scene.image)
    return str(path), " ".join(str(d.value) for d in scene.dice)


def test_dice_read_counts_the_dice_enrolled_not_their_turned_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 D1: two dice enrolled from one throw were said by `dice read` (the check line
    hardware/camera.md step 5 points to) to be "your 16 enrolled dice": each die is kept in
    8 turned views."""
    photo, typed = two_dice_photo(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\n{typed}\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", photo, "--throws", "1"]) == 0
    assert "enrolled 2 dice from 1 throw; 2 dice enrolled in all" in capsys.readouterr().out
    assert cli.main(["dice", "read", photo]) == 0
    assert capsys.readouterr().err.endswith(
        f"; your 2 enrolled dice ({config_dir() / ENROL_FILE})\n")


def calibrate_camera(*extra: str) -> int:
    return cli.main(["calibrate", "camera", "--frames", "2", *extra])


def test_a_disk_filling_during_camera_enrol_says_what_is_kept_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 D2: the second kind's write refused by a full disk stopped `--enrol` with the
    bare OS error. Now one line says the kind was not saved, the first one is kept, and
    what to do, as `calibrate rfid` and `calibrate dice --enrol` say it."""
    path = config_dir() / ENROLMENT_FILE
    refuse_writes(path, monkeypatch, failing=range(2, 99))
    # 1m, then 2m each kept with y: the reader surely sees the 5p lying there
    monkeypatch.setattr("sys.stdin", io.StringIO("\ny\n\ny\n\ny\nq\n"))
    assert calibrate_camera("--source", table_camera(monkeypatch, "draw=5p"), "--enrol") == 1
    assert capsys.readouterr().err.endswith(
        f"companion: cannot save {ENROLMENT_FILE} ({NO_SPACE}): 2m was not saved; 1 kind "
        f"enrolled before is kept in {path}; free space in the config folder and run "
        "`companion calibrate camera --enrol` again (s skips the kinds already taken)\n")
    assert Counter(Enrolment.load(path).labels) == {"1m": 2}


def test_a_read_only_disk_during_enrol_from_says_what_is_kept_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 D2, `--enrol-from`: the bare OS error, and "free space" is no fix for a folder
    mounted read-only."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "3m.png", "3m")
    path = config_dir() / ENROLMENT_FILE
    refuse_writes(path, monkeypatch, code=errno.EROFS)
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 1
    assert capsys.readouterr().err == (
        f"companion: cannot save {ENROLMENT_FILE} ({READ_ONLY}): the 1 picture of 1 kind "
        "enrolled now was not saved; no kind is saved in it yet; let the config folder be "
        f"written and run `companion calibrate camera --enrol-from {folder}` again\n")
    assert not path.exists()


def test_enrolling_with_another_model_keeps_the_games_enrolment_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 R1: `--enrol-from --model X` replaced every kind enrolled for the model the
    game reads with, and the game then blamed an update. Now the game's enrolment is kept
    aside, said, and read by that model again; the model's note says `--model` may be why."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "3m.png", "3m")
    tile_picture(folder / "5p.png", "5p")
    path = config_dir() / ENROLMENT_FILE
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    games = path.read_bytes()
    capsys.readouterr()
    other = another_model(tmp_path)
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder),
                     "--model", str(other)]) == 0
    err = capsys.readouterr().err
    aside = path.with_name(f"{ENROLMENT_FILE}.model-{TileClassifier().model_id}")
    assert aside.read_bytes() == games
    assert err == (
        f"companion: note: the game reads tiles with {default_model_path()}, not {other}: "
        f"the tiles enrolled now are for {other}, and the game uses them only with "
        f"COMPANION_TILE_MODEL={other}\n"
        "companion: the 2 kinds enrolled before were taught to another tile model; they are "
        f"kept as {aside.name}, which that model reads with again (the game, classify and "
        "--enrol with it), and this model's enrolment starts afresh\n")
    assert cli.main(["classify", str(folder / "5p.png")]) == 0  # the game's model, as play
    assert capsys.readouterr().err == (
        f"companion: tiles read with your enrolled set for this tile model, kept as {aside} "
        f"({ENROLMENT_FILE} holds another model's)\n")
    assert cli.main(["classify", "--model", str(other), str(folder / "5p.png")]) == 0
    assert "enrolled set" not in capsys.readouterr().err


def test_an_enrolment_ended_before_any_kind_leaves_another_models_file_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 R1: the other model's enrolment is set aside only when this model's first kind
    is saved; `q` at once leaves it as it was."""
    folder = tmp_path / "set"
    folder.mkdir()
    tile_picture(folder / "3m.png", "3m")
    path = config_dir() / ENROLMENT_FILE
    assert cli.main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    games = path.read_bytes()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert calibrate_camera("--source", table_camera(monkeypatch, "draw=1m"), "--enrol",
                            "--model", str(another_model(tmp_path))) == 0
    assert path.read_bytes() == games
    assert list(config_dir().glob(f"{ENROLMENT_FILE}.*")) == []


def test_a_dim_but_sharp_mat_is_told_to_add_light_not_to_turn_the_lens_ring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 R2: the same sharp render, only dimmer, was told "the picture is soft ... turn
    the lens ring" (focus falls with contrast): turning a focused lens makes it worse. In dim
    light focus is not judged; in good light a soft picture still is (the same MIN_FOCUS)."""
    dim, soft = tmp_path / "dim.png", tmp_path / "soft.png"
    cv2.imwrite(str(dim), render_scene_mat({}, camera=Camera(brightness=0.4)))
    cv2.imwrite(str(soft), render_scene_mat({}, camera=Camera(blur=2.5)))
    assert calibrate_camera("--source", str(dim)) == 1
    out = capsys.readouterr().out
    focus = measured_focus(out)
    assert focus < MIN_FOCUS  # the frame the finding is about
    problems = [line for line in out.splitlines() if line.startswith("  - ")]
    assert problems == [f"  - the mat looks dark (paper grey {measured_paper(out)}): add "
                        f"light; its focus ({focus:.0f}) cannot be judged in this light: "
                        "calibrate again once it is lit"]
    assert calibrate_camera("--source", str(soft), "--force") == 1
    out = capsys.readouterr().out
    assert f"  - the picture is soft (focus {measured_focus(out):.0f} < {MIN_FOCUS:.0f}): " \
        "turn the lens ring" in out


def measured_focus(out: str) -> float:
    return float(re.search(r"; focus (\d+), paper grey", out)[1])  # type: ignore[index]


def measured_paper(out: str) -> str:
    return re.search(r", paper grey (\d+),", out)[1]  # type: ignore[index]


def test_a_dim_frame_with_no_mat_found_is_told_to_add_light_not_to_focus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 R2, where no mat is found: a dim frame of a camera with little noise measured
    soft and was told "focus the camera first (turn its lens ring ...)"."""
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), render_scene_mat({}, camera=Camera(brightness=0.3, noise=0.0),
                                           hide_markers=[0, 1, 2, 3]))
    assert calibrate_camera("--source", str(dim)) == 1
    out = capsys.readouterr().out
    assert out.startswith("mat not found: the picture is dark (paper grey about ")
    assert "cannot be judged in this light: calibrate again once it is lit; if it is lit: " \
        "mat not in view" in out
    assert "lens ring" not in out


def test_camera_enrolment_names_each_kind_in_japanese_and_english(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 N1: the camera asked for "1z" alone, where `calibrate rfid` asks for "7z 中 (Red
    dragon)": a maker new to MPSZ did not know which honour to lay. The name is a line of
    its own, which keeps the prompt under 80 columns (review62b R1)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("s\n" * 34 + "q\n"))
    assert calibrate_camera("--source", table_camera(monkeypatch), "--enrol") == 0
    out = capsys.readouterr().out  # piped: each prompt's answer is not echoed
    for name in ("1z 東 (East)", "7z 中 (Red dragon)", "1m 一萬 (1 of characters)"):
        assert f"{name}\nPut {name[:2]} on the draw slot (引き牌の枠), then Enter (s skip, " \
            "q finish): " in out
    # Each of the 34 kinds is named; a tile's back is asked for in words already.
    assert len(re.findall(r"\d[mpsz] \S+ \([^)]+\)\nPut \d[mpsz] on ", out)) == 34
    assert "q finish): Put a tile face down on the draw slot, then Enter" in out



def skip_while_lifting(enroller: Enroller, keys: Keys, player: Player) -> Callable[[], None]:
    """The player's part of a run: `s` typed once while the tile just read is still to be
    lifted (read before the player lifts it), `q` when 9p is asked for, else ``player``."""
    typed = False

    def idle() -> None:
        nonlocal typed
        if enroller.waiting is Waiting.LIFT and not typed:
            keys.queue.append("s")
            typed = True
            return
        if enroller.waiting is Waiting.TILE and enroller.plan[0] is Tile.from_notation("9p"):
            keys.queue.append("q")
            return
        player()

    return idle


def test_s_typed_before_the_tile_is_lifted_skips_the_kind_once_it_is_lifted(
    sim: TraySimulator, tray: TrayReader,
) -> None:
    """cal66 N2: a maker with one 8p of two asked for reads its sticker and types `s` at
    once: the skip was dropped ("Keys: s = skip ...") and 8p asked for again after the
    lift. On the tray simulator, as `calibrate rfid` runs."""
    enroller, player, keys, out = session(sim, tray)
    enroller.enrol(parse_kinds("8p 9p"), copies=2)
    with ends_within(REPLAY_SECONDS, "calibrate rfid on the simulator"):
        run_enrolment(enroller, tray, keys, idle=skip_while_lifting(enroller, keys, player))
    text = out.getvalue()
    eight = Tile.from_notation("8p")
    assert f"  {sticker(eight, 0)} = 8p\n  Lift it off.\n  Skipped 8p once it is lifted.\n" \
        "[3/4] Place a 9p 九筒 (9 of dots) (copy 1 of 2).\n" in text
    assert "Keys:" not in text.split("Lift it off.", 1)[1]
    assert TagMap.load(config_dir() / TAGMAP_FILENAME).uids(eight) == [sticker(eight, 0)]


def test_s_typed_while_lifting_the_last_of_a_kind_skips_no_other(
    sim: TraySimulator, tray: TrayReader,
) -> None:
    """cal66 N2: `s` while lifting the last 8p asked for skips nothing more: the next kind,
    not asked for yet, is still asked for."""
    enroller, player, keys, out = session(sim, tray)
    enroller.enrol(parse_kinds("8p 9p"), copies=1)
    with ends_within(REPLAY_SECONDS, "calibrate rfid on the simulator"):
        run_enrolment(enroller, tray, keys, idle=skip_while_lifting(enroller, keys, player))
    assert "  Lift it off.\n  No more 8p is asked for: lift the tile to go on.\n" \
        "[2/2] Place a 9p 九筒 (9 of dots) (copy 1 of 1).\n" in out.getvalue()


def test_calibrate_dice_on_a_read_only_folder_is_not_told_to_free_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 N4: a config folder mounted read-only was told "free space in …", which no
    space freed would mend; the camera's calibration tells the two apart."""
    photo, _ = two_dice_photo(tmp_path)
    tuned = config_dir() / "dice.toml"
    refuse_writes(tuned, monkeypatch, code=errno.EROFS)
    assert cli.main(["calibrate", "dice", "--source", photo]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: cannot save {tuned} ({READ_ONLY}): what was just measured was "
        "not saved; the dice reader keeps the companion's own thresholds; let "
        f"{config_dir()} be written and run `companion calibrate dice` again\n")


def refuse_deleting(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder of ``path`` is mounted read-only: ``path`` cannot be deleted."""
    real, target = os.unlink, path.resolve()

    def unlink(name: Any, *args: Any, **kwargs: Any) -> None:
        if Path(name).resolve() == target:
            raise OSError(errno.EROFS, READ_ONLY, str(name))
        real(name, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)


def test_forget_on_a_read_only_folder_says_what_is_still_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 N4: `--forget` on a read-only folder ended with the bare OS error."""
    photo, typed = two_dice_photo(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"\n{typed}\n"))
    assert cli.main(["calibrate", "dice", "--enrol", "--source", photo, "--throws", "1"]) == 0
    assert cli.main(["calibrate", "dice", "--source", photo]) == 0
    tuned, enrolled = config_dir() / "dice.toml", config_dir() / ENROL_FILE
    capsys.readouterr()
    refuse_deleting(enrolled, monkeypatch)
    assert cli.main(["calibrate", "dice", "--forget"]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: cannot delete {enrolled} ({READ_ONLY}): the enrolled dice are "
        f"still there; the tuned thresholds ({tuned}) were deleted; let {config_dir()} be "
        "written and run `companion calibrate dice --forget` again\n")
    assert enrolled.exists() and not tuned.exists()
    assert cli.main(["calibrate", "dice", "--forget", "enrolled"]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: cannot delete {enrolled} ({READ_ONLY}): the enrolled dice are "
        f"still there; nothing else was changed; let {config_dir()} be written and run "
        "`companion calibrate dice --forget enrolled` again\n")


class UnpluggedWebcam:
    """What ``cv2.VideoCapture`` opens for a webcam that sends ``frames`` pictures of the
    empty mat, then is pulled out: every read after fails, and every reopen."""

    sent = 0

    def __init__(self, device: Any, frames: int = 3) -> None:
        self.frames = frames

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        UnpluggedWebcam.sent += 1
        if UnpluggedWebcam.sent > self.frames:
            return False, None
        return True, RenderedSource({}).read()

    def release(self) -> None:
        pass


def test_a_webcam_unplugged_while_enrolling_is_not_said_to_be_retried(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 N5: "camera 0 stopped sending pictures (unplugged?); retrying; 1m not taken
    yet", while the enrolment was back at its prompt, retrying nothing."""
    monkeypatch.setattr(UnpluggedWebcam, "sent", 0)
    monkeypatch.setattr(cv2, "VideoCapture", UnpluggedWebcam)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nq\n"))
    assert calibrate_camera("--source", "camera:0", "--enrol") == 0
    out = capsys.readouterr().out
    assert "  camera:0 stopped sending pictures (unplugged?); 1m not taken yet\n" in out
    assert "retrying" not in out


def test_dice_read_says_when_the_tuned_face_sizes_do_not_apply_to_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """cal66 N6: calibrated without the mat in view, dice.toml holds face sizes of the whole
    view, which say nothing of the mat's dice area: a picture of the mat was read with the
    companion's own, while the check line said "your tuned thresholds" alone."""
    scene = still_scene(700, 2)
    loose, mat = tmp_path / "loose.png", tmp_path / "mat.png"
    cv2.imwrite(str(loose), scene.image)
    cv2.imwrite(str(mat), on_the_mat(scene))
    assert cli.main(["calibrate", "dice", "--source", str(loose)]) == 0
    assert 'area = "view"' in (config_dir() / "dice.toml").read_text()
    capsys.readouterr()
    assert cli.main(["dice", "read", str(loose)]) == 0
    assert "face sizes" not in capsys.readouterr().err  # the area they were measured in
    assert cli.main(["dice", "read", str(mat), str(mat)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("companion: dice read with your tuned thresholds (")
    assert err[1:] == [f"companion: {mat}: read in the mat's dice area with the companion's "
                       "own face sizes, not yours: dice.toml measured them in the whole view; "
                       "calibrate again with the mat in view"]  # said once


def test_the_rdm6300s_first_tile_laid_at_the_prompt_is_enrolled(tmp_path: Path) -> None:
    """cal66 N7: the first "Place a 9s" was said before the RDM6300's port was opened, and
    a tag read in its first second is taken as lying there at the start: the tile laid at
    once was refused ("A tile was already on the draw slot"). On a raw pty, as the module's
    UART; the tag is held from the moment the prompt shows."""
    from companion.hw.rfid.rdm6300 import frame

    uart = Uart()
    try:
        with CompanionProcess("calibrate", "rfid", "--kind", "rdm6300", "--port", uart.port,
                              "--only", "9s", "--copies", "1") as proc:
            proc.wait_for(b"Place a 9s", timeout=30)

            def hold_the_tag(_: bytes) -> None:
                os.write(uart.master, frame("0F00A1B2C3"))

            proc.wait_for(b"Lift it off.", timeout=10, each=hold_the_tag, pause=0.1)
            proc.wait_for(b"Done:", timeout=10)  # lifted: no more frames
            out, _ = proc.finish()
    finally:
        uart.close()
    assert "already on the draw slot" not in out
    assert TagMap.load(config_dir() / TAGMAP_FILENAME).tile("0F00A1B2C3") \
        is Tile.from_notation("9s")
