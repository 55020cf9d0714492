"""The tile camera path (audit camera71).

DEFECT 1: `calibrate camera --enrol` filed the Draw slot's shots as the kind asked for without
a question when they were read as two other kinds, or one of them unsure as another kind.

DEFECT 2: `classify --mat A B C` read A only, and dropped B and C without a word (exit 0).

DEFECT 4: a tile the camera surely misread could never be given in play: rejected, it was
laid again and read the same, for ever, and no pick was offered.

RISK 5: a picture turned by its EXIF orientation, with a transparent part, had its alpha left
out (the transparent part black) or laid over the wrong pixels.

NIT 6: a folder none of whose files are pictures was taken as the camera.

NIT 7: a video in a container OpenCV opens (.m4v, .3gp) was refused as no picture.

NIT 8: the tile model's metadata missing a key was said as a Python repr, with no fix.

DEFECT 3: a phone JPEG with data after its end-of-image marker (a Google motion photo's clip,
Samsung's trailer) was refused as "cut short" whenever those bytes held a start-of-scan
marker (0xFF 0xDA) after their last end-of-image one: about a third of motion photos.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.calibrate.camera import confirm, enrol_on_mat, shots_read, surely_other
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.cli import main
from companion.app.session.controls import READ_OPTIONS, Confirm, Controls
from companion.app.session.reads import (
    MISREAD_REJECTS,
    ReadState,
    misread_picks,
    refused,
    wait_for_tile,
)
from companion.errors import DeviceError
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.augment import render_crop
from companion.hw.camera.capture import FileSource, RenderedSource
from companion.hw.camera.classifier import Enrolment, TileClassifier, default_model_path
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.sim_scene import render_scene
from companion.hw.display.view import View
from companion.hw.pictures import PictureError, read_picture
from companion.hw.ports import SLOT_NAMES, Candidate, Slot
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_pick_helpers import (
    MISREAD,
    MisreadingCamera,
    QuietScreen,
    play_to_first_tile,
    resumed_from_save,
    stop_at_first_tile,
)
from tests.app.session_helpers import StepClock

#: The eight turns EXIF's orientation names, as numpy moves (the test's own, not the code's).
TURNS = (lambda a: a, np.fliplr, np.flipud, lambda a: np.rot90(a, 2),
         lambda a: a.swapaxes(0, 1), lambda a: np.rot90(a, 1), lambda a: np.rot90(a, -1),
         lambda a: np.rot90(a, 2).swapaxes(0, 1))
SLOTS = list(SLOT_NAMES)  # the mat's slots, in the order a frame's lines give them
TILES = Path(__file__).resolve().parents[2] / "companion" / "assets" / "tiles"


def _tile_jpeg(progressive: bool) -> bytes:
    """Pin5's art on white, coded as a phone would (baseline or progressive), with an EXIF
    segment holding a thumbnail JPEG of its own (its own start, scans and end markers)."""
    art = read_picture(TILES / "Pin5.png")
    _, thumb = cv2.imencode(".jpg", cv2.resize(art, (40, 56)))
    _, coded = cv2.imencode(".jpg", art, [cv2.IMWRITE_JPEG_QUALITY, 92,
                                          cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])
    data = coded.tobytes()
    app1 = b"Exif\x00\x00" + thumb.tobytes()
    return data[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + data[2:]


@pytest.mark.parametrize("progressive", [False, True])
def test_a_motion_photos_clip_after_the_end_marker_is_no_part_of_the_picture(
        tmp_path: Path, progressive: bool) -> None:
    """The clip appended after the end-of-image marker may hold 0xFF 0xDA with no 0xFF 0xD9
    after it: the picture reads whole, the same as without the clip; the same picture cut
    short in its scans (a copy stopped before its end) is still refused as cut short."""
    data = _tile_jpeg(progressive)
    plain = tmp_path / "plain.jpg"
    plain.write_bytes(data)
    clip = (b"\x00\x00\x00\x1cftypisom" + bytes(range(256)) * 40
            + b"\xff\xda\x00\x0c\x03\x01\x00\x02\x11\x03\x11\x00\x3f\x00" + b"\x17" * 500)
    assert clip.rfind(b"\xff\xd9") < clip.rfind(b"\xff\xda")  # as 6 of 20 random clips did
    motion = tmp_path / "PXL_20261207_045500.MP.jpg"
    motion.write_bytes(data + clip)
    assert np.array_equal(read_picture(motion), read_picture(plain))
    assert read_picture(motion).shape[:2] == read_picture(TILES / "Pin5.png").shape[:2]
    rng = np.random.default_rng(71)
    for seed in range(20):  # random clips after the end marker, whatever their bytes
        motion.write_bytes(data + b"\x00\x00\x00\x1cftypisom"
                           + rng.integers(0, 256, 20_000, dtype=np.uint8).tobytes())
        assert np.array_equal(read_picture(motion), read_picture(plain)), seed
    last_scan = data.rfind(b"\xff\xda")
    for cut in (last_scan + 2, last_scan + 40, (last_scan + len(data)) // 2, len(data) - 2):
        motion.write_bytes(data[:cut])
        with pytest.raises(PictureError) as err:
            read_picture(motion)
        assert err.value.problem.startswith("the JPEG file is cut short"), cut


# --- DEFECT 1: `calibrate camera --enrol` files only what the player confirmed -------------

class TilesInTurn(RenderedSource):
    """A camera whose Draw slot shows ``kinds`` in turn, frame by frame: two tiles laid one
    after the other, or a folder of frames each showing another tile."""

    def __init__(self, *kinds: str) -> None:
        super().__init__({Slot.DRAW: kinds[0]}, seed=9)
        self.kinds = kinds

    def read(self) -> np.ndarray | None:
        self.place(Slot.DRAW, self.kinds[self._frames % len(self.kinds)])
        return super().read()


@pytest.mark.parametrize(("kinds", "said"), [
    (("9m", "1s"), "  the shots read 9m ({}) and 1s ({}), none 1m\n"),
    (("1m", "2m"), "  the shots read 1m ({}) and 2m ({}), not all 1m\n"),
    (("5p",), "  the draw slot shows 5p, surely, not 1m\n"),
])
def test_shots_read_as_any_other_kind_are_filed_only_when_the_player_says_y(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kinds: tuple[str, ...],
        said: str) -> None:
    """Two shots read as two other kinds (9m, then 1s), or one as the kind asked and one
    as another, were enrolled as 1m without a question: the game then read 9m and 1s as
    "maybe 1m". Now each such Draw slot is asked about: Enter looks again, q finishes with
    nothing filed; y files the shots as the kind asked for, as the player said."""
    classifier = TileClassifier()
    path = tmp_path / ENROLMENT_FILE
    for answers, filed in ((["", "", "q"], []), (["", "y", "q"], ["1m"])):
        enrolment = Enrolment(model=classifier.model_id)
        typed = iter(answers)
        prompts: list[str] = []

        def ask(prompt: str, typed: Iterator[str] = typed, prompts: list[str] = prompts
                ) -> str:
            prompts.append(prompt)
            return next(typed)

        taken = enrol_on_mat(TilesInTurn(*kinds), MatDetector(), classifier, ask,
                             enrolment, path)
        out = capsys.readouterr().out
        shown = [line + "\n" for line in out.splitlines() if line.startswith("  the ")]
        assert shown and all(re.fullmatch(re.escape(said).replace(r"\{\}", r"\d+%"), line)
                             for line in shown), out
        them = "it" if len(kinds) == 1 else "them"  # y files both shots (reviewc71 NIT 4)
        assert prompts[1] == f"  y keeps {them} as 1m; or lay 1m and Enter (s skip, q finish): "
        assert taken == filed and sorted(set(enrolment.labels)) == filed
        assert sorted(set(Enrolment.load(path).labels)) == filed if filed \
            else not path.exists()


@pytest.mark.parametrize(("read", "said"), [
    ([("2m", 0.95), ("2m", 0.40)], "the shots read 2m (95%) and 2m (40%, unsure), none 1m"),
    ([("1m", 0.90), ("2m", 0.40)], "the shots read 1m (90%) and 2m (40%, unsure), not all 1m"),
    ([("3m", 0.50), ("3m", 0.45)], "the shots read 3m (50%, unsure) and 3m (45%, unsure), "
                                   "none 1m"),
    ([("2m", 0.95), ("2m", 0.90)], "the draw slot shows 2m, surely, not 1m"),
    ([("1m", 0.40), ("1m", 0.95)], None),
])
def test_an_unsure_shot_of_another_kind_is_asked_about_too(
        read: list[tuple[str, float]], said: str | None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A shot read unsure as another kind (glare, the hand leaving the slot, 2m laid a step
    late) was filed as the kind asked for: surely_other asked only when every shot was read
    surely as one other kind. What is asked is what the mat's enrolment asks."""
    sure = TileClassifier().info.picture_confidence
    assert 0.50 < sure <= 0.90
    shots = [Candidate(label, p) for label, p in read]
    other, read_as = surely_other(shots, "1m", sure), shots_read(shots, "1m", sure)
    assert (other is not None or read_as is not None) == (said is not None)
    if said is not None:
        assert confirm(lambda prompt: "q", other, "1m", read_as) == "q"
        assert capsys.readouterr().out == f"  {said}\n"


# --- DEFECT 2: `classify --mat A B C` reads every frame --------------------------------------

def test_classify_mat_reads_every_frame_it_is_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`classify --mat frames/*.png` read the first frame only: the rest, handed in as
    IMAGEs, were dropped without a word, exit 0. Each is read now, under a line naming it;
    one that shows no mat (a tile's crop) is said so, and the exit is 1."""
    tiles = ({Slot.DRAW: "4s", Slot.ROOM_BL: "1z"}, {Slot.DRAW: "9m"}, {Slot.ROOM_TR: "7z"})
    frames = []
    for n, placed in enumerate(tiles):
        frames.append(tmp_path / f"frame_{n}.png")
        cv2.imwrite(str(frames[-1]), render_scene(placed, np.random.default_rng(n), vary=False))
    assert main(["classify", "--json", "--mat", *map(str, frames)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["frame"], r["slot"]) for r in records] == [
        (str(frame), slot.value) for frame in frames for slot in SLOTS]
    read = {(r["frame"], r["slot"]): r["tile"] for r in records}
    for frame, placed in zip(frames, tiles, strict=True):
        assert {slot: read[str(frame), slot.value] for slot in SLOTS} == {
            slot: placed.get(slot, "empty") for slot in SLOTS}
    crop = tmp_path / "5p.png"
    cv2.imwrite(str(crop), render_crop("5p", np.random.default_rng(5)))
    assert main(["classify", "--mat", str(frames[1]), str(crop), str(frames[2])]) == 1
    captured = capsys.readouterr()
    heads = [line for line in captured.out.splitlines() if not line.startswith("  ")]
    assert len(heads) == 2 and heads[0].startswith(f"{frames[1]}: mat found") \
        and heads[1].startswith(f"{frames[2]}: mat found"), heads
    assert "  draw: 9m" in captured.out and "  top-right room: 7z" in captured.out
    assert captured.err == (f"companion: {crop}: mat not in view: 0 of 4 corner markers "
                            "seen; point the camera at the whole mat and keep its corners "
                            "uncovered\n")


# --- DEFECT 4: a tile the camera keeps misreading can be given all the same ------------------

class Player:
    """Rejects the camera's read of 3m with B (then lifts the tile and lays it again), and
    taps 8m once it is offered to pick; what the screen showed is kept."""

    def __init__(self, camera: MisreadingCamera) -> None:
        self.camera = camera
        self.shown: list[tuple[str, str | None, tuple[str, ...]]] = []
        self.judged = 0  # the offers of 3m judged (each once)

    def show(self, status: str, tile: str | None, picks: tuple[str, ...]) -> None:
        self.shown.append((status, tile, picks))

    def poll(self) -> list[Press]:
        _, tile, picks = self.shown[-1] if self.shown else ("", None, ())
        if "8m" in picks:
            return [Pick(picks.index("8m"))]
        tiles = [None, *(shown for _, shown, _ in self.shown)]
        offers = sum(1 for was, now in pairwise(tiles) if was != "3m" and now == "3m")
        if tile == "3m" and offers > self.judged:  # a new offer of 3m
            self.judged = offers
            self.camera.relay()
            return [Button.FLEE]
        return []


def test_a_tile_the_camera_keeps_misreading_is_picked_after_the_second_reject() -> None:
    """An 8m read as 3m on every lay: B rejected it, and laid again it read 3m again, for
    ever, and no pick was offered (the likeliest three, had it been unsure, left out a tile
    ranked 4th or not at all). After the second reject every legal tile is offered, the
    reader's other candidates first, and the status says how the camera is taught the
    tile (calibrate camera --enrol)."""
    camera, clock = MisreadingCamera(), StepClock()
    player = Player(camera)
    ledger = TileLedger()

    def sleep(seconds: float) -> None:
        assert clock.now < 60, f"no tile was counted: {player.shown[-3:]}"
        clock.sleep(seconds)

    tile = wait_for_tile(camera, ReadState(startup=True, clock=clock), Slot.DRAW, ledger,
                         Controls([player]), Confirm(3.0, clock),
                         lambda status, t, picks, lit, guided: player.show(
                             status, str(t) if t else None, tuple(map(str, picks))),
                         poll_seconds=0.1, sleep=sleep)
    assert tile == Tile.from_notation("8m") and player.judged == MISREAD_REJECTS == 2
    status, _, picks = player.shown[-1]
    assert picks[:4] == ("6m", "9m", "2m", "1m")  # the camera's other candidates first
    assert sorted(picks) == sorted(str(t) for t in ALL_KINDS)  # 3m too: it may be laid
    # what to do first, then how, the enrol advice last: one row at 800x480 (reviewc71 NIT 6)
    assert status == ("read 3m 三萬 again: pick the tile laid 置いた牌を選んで; I moves, A takes; "
                      "enrol it later 後で登録")
    first = next(n for n, (_, _, p) in enumerate(player.shown) if p)
    assert all(t is None for _, t, _ in player.shown[first:])  # 3m offered to count no more


def test_the_picks_after_rejects_leave_out_the_tiles_the_wall_refuses() -> None:
    """Every copy of 9m out (JR-WALL-1): it is no pick."""
    ledger = TileLedger()
    for _ in range(4):
        ledger.draw(Tile.from_notation("9m"), Place.DISCARDS)
    picks = [str(t) for t in misread_picks(MISREAD, ledger, "3m")]
    assert refused(Tile.from_notation("9m"), ledger) and "9m" not in picks
    assert picks[:3] == ["6m", "2m", "1m"] and len(picks) == len(ALL_KINDS) - 1


class Screen(QuietScreen):
    """The session's display, as the player reads it: the read on offer, or the picks."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def show(self, view: View) -> None:
        if view.options == READ_OPTIONS:
            self.player.show(view.status, view.prompt_tile, ())
        else:
            self.player.show(view.status, None, tuple(o.choice for o in view.options))


def test_a_tile_picked_after_rejects_is_saved_and_replayed_on_resume(tmp_path: Path) -> None:
    """The pick is the player's word for the tile drawn: the save holds it as it holds a
    read, so `play --resume` replays the game with the 8m picked, not the 3m misread."""
    camera, clock = MisreadingCamera(), StepClock()
    player = Player(camera)
    game, save_path = Game("plus"), tmp_path / "game.json"
    sleep = stop_at_first_tile(game, clock, 60, lambda: player.shown)
    play_to_first_tile(game, save_path, camera, player, Screen(player), sleep, clock)
    assert player.judged == MISREAD_REJECTS and str(game.inputs[0]) == "8m"
    resumed = resumed_from_save(game, save_path, "8m")
    assert [str(t) for t in resumed.inputs] == ["8m"]


# --- NIT 6: a folder none of whose pictures read is refused at once -------------------------

def test_a_folder_none_of_whose_pictures_read_is_refused_as_the_camera(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was taken as the camera: play showed "junk: no more pictures" for good, and
    calibration named only the last file. Now it is refused naming the first one's fault,
    as one such picture is; a folder whose first picture is bad still gives frames."""
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "a.jpg").write_text("a")
    (junk / "b.png").write_text("b")
    said = (f"{junk}: none of its 2 pictures can be read (a.jpg: not a picture that can be "
            "read; …)")
    with pytest.raises(DeviceError) as err:
        FileSource(junk)
    assert str(err.value) == said
    assert main(["calibrate", "camera", "--source", str(junk)]) == 1
    assert capsys.readouterr().err == f"companion: error: --source: {said}\n"
    (junk / "b.png").unlink()
    with pytest.raises(DeviceError, match=r": its one picture cannot be read \(a\.jpg: not a "):
        FileSource(junk)
    cv2.imwrite(str(junk / "c.png"), render_scene({}, np.random.default_rng(1), vary=False))
    source = FileSource(junk)
    assert source.read() is None and source.message.startswith("a.jpg: not a picture")
    assert source.read() is not None


# --- RISK 5: a turned picture's transparent part is white paper, where it is ----------------

def _png_turned(picture: np.ndarray, orientation: int, path: Path) -> None:
    """``picture`` (BGRA) as a PNG whose EXIF (an eXIf chunk) says to turn it so."""
    png = cv2.imencode(".png", picture)[1].tobytes()
    exif = (b"MM\x00*\x00\x00\x00\x08" + (1).to_bytes(2, "big")
            + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + b"\x00\x00\x00\x00")
    chunk = (len(exif).to_bytes(4, "big") + b"eXIf" + exif
             + zlib.crc32(b"eXIf" + exif).to_bytes(4, "big"))
    at = png.index(b"IDAT") - 4
    path.write_bytes(png[:at] + chunk + png[at:])


@pytest.mark.parametrize("shape", [(60, 100), (80, 80)])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_turned_picture_s_transparent_part_is_turned_with_it(
        tmp_path: Path, shape: tuple[int, int], orientation: int) -> None:
    """OpenCV turns the colour as EXIF says but not the alpha read apart: a picture whose
    sides differ lost its alpha (the transparent part read black), a square one had it laid
    over the wrong pixels. Each of the eight turns reads as the picture laid on white paper,
    turned."""
    rows, cols = shape
    picture = np.full((rows, cols, 4), (20, 20, 20, 0), np.uint8)  # dark, see-through
    picture[: rows // 2, : cols // 3] = (0, 0, 255, 255)  # an opaque red corner
    picture[rows // 2:, cols // 2:] = (255, 0, 0, 255)  # an opaque blue one, apart
    on_paper = np.where(picture[..., 3:] == 255, picture[..., :3], 255).astype(np.uint8)
    _png_turned(picture, orientation, tmp_path / "art.png")
    unturned = cv2.imread(str(tmp_path / "art.png"), cv2.IMREAD_IGNORE_ORIENTATION
                          | cv2.IMREAD_COLOR)
    turned = cv2.imread(str(tmp_path / "art.png"), cv2.IMREAD_COLOR)
    assert orientation == 1 or not np.array_equal(turned, unturned)  # OpenCV turns it
    expected = next(turn(on_paper) for turn in TURNS
                    if np.array_equal(turn(unturned), turned))
    assert np.array_equal(read_picture(tmp_path / "art.png"), expected)


# --- NIT 7: a phone's .m4v or .3gp video is a video --------------------------------------

@pytest.mark.parametrize("suffix", [".m4v", ".3gp"])
def test_a_video_exported_as_m4v_or_3gp_is_read_as_a_video(tmp_path: Path, suffix: str) -> None:
    """OpenCV opens them as it opens .mp4; they were refused as "not a picture that can be
    read". A kind of file taken neither way is refused naming the kinds that are."""
    frame = render_scene({Slot.DRAW: "5p"}, np.random.default_rng(1), vary=False)
    coded = tmp_path / "clip.mp4"
    writer = cv2.VideoWriter(str(coded), cv2.VideoWriter_fourcc(*"mp4v"), 5,
                             (frame.shape[1], frame.shape[0]))
    for _ in range(3):
        writer.write(frame)
    writer.release()
    clip = coded.rename(tmp_path / f"clip{suffix}")
    source = FileSource(clip)
    frames = [source.read() for _ in range(4)]
    assert [f is not None for f in frames] == [True, True, True, False]
    assert not source.pictures and source.message == f"clip{suffix}: end of video"
    odd = tmp_path / "clip.xyz"
    odd.write_bytes(clip.read_bytes())
    with pytest.raises(DeviceError) as err:
        FileSource(odd)
    assert str(err.value) == (f"{odd}: not a picture that can be read (pictures: .png, .jpg, "
                              ".jpeg, .bmp, .webp, .tif, .tiff; videos: .mp4, .m4v, .3gp, "
                              ".avi, .mkv, .mov, .webm)")


# --- NIT 8: tile model metadata missing a key names it, and says what to do ------------------

@pytest.mark.parametrize(("spoil", "named"), [
    (lambda data: data.pop("enrolment"), "'enrolment' is missing"),
    (lambda data: data["reader"].pop("top_k"), "'reader.top_k' is missing"),
    (lambda data: data["input"].pop("channels"), "'input.channels' is missing"),
    (lambda data: data.pop("classes"), "'classes' is missing"),
])
def test_metadata_missing_a_key_names_it_and_the_fix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        spoil: Callable[[dict[str, Any]], object], named: str) -> None:
    """It said "model metadata is malformed (KeyError('enrolment'))": a Python repr, no
    dotted key, and nothing to do about it."""
    model = tmp_path / "tile_classifier.onnx"
    shutil.copyfile(default_model_path(), model)
    data = json.loads(default_model_path().with_suffix(".json").read_text(encoding="utf-8"))
    spoil(data)
    meta = model.with_suffix(".json")
    meta.write_text(json.dumps(data), encoding="utf-8")
    crop = tmp_path / "5p.png"
    cv2.imwrite(str(crop), render_crop("5p", np.random.default_rng(5)))
    assert main(["classify", "--model", str(model), str(crop)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {meta}: model metadata is malformed: {named}; check --model's "
        "path (a tile_classifier.onnx with its .json beside it)\n")
