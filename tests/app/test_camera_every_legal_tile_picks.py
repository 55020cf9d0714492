"""The tile camera's picks: 'Other tile…' opens every legal tile; JPEG walk; enrol, classify.

reviewc71 findings on the tile camera fixes (fixcam71): every legal tile reachable from an
unsure, face-down, empty or 5th-copy read (DEFECT 2); the JPEG walk over stray bytes (RISK 3);
the enrol question's wording, classify's frame order and the picks screen (NITs)."""

from __future__ import annotations

import json
from collections import deque
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.calibrate.camera import confirm, shots_read, surely_other
from companion.app.cli import main
from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import (
    MISREAD_HINT,
    OTHER,
    ReadState,
    misread_picks,
    rejected_again,
    wait_for_tile,
)
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.sim_scene import render_scene
from companion.hw.display.screen import ScreenDisplay
from companion.hw.pictures import PictureError, read_picture
from companion.hw.ports import Candidate, Slot, SlotReading
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_pick_helpers import (
    MisreadingCamera,
    PickScreen,
    ScriptedReader,
    play_to_first_tile,
    resumed_from_save,
    stop_at_first_tile,
)
from tests.app.session_helpers import StepClock
from tests.app.status_fit_helpers import fits

TILES = Path(__file__).resolve().parents[2] / "companion" / "assets" / "tiles"

# --- DEFECT 2: an unsure read's picks end with "Other tile…", which opens every legal tile --

#: An 8m the camera cannot settle on: 8m is none of its likeliest three.
UNSURE = SlotReading(Slot.DRAW, None, 0.4, (Candidate("3m", 0.4), Candidate("6m", 0.3),
                                            Candidate("9m", 0.2), Candidate("2m", 0.1)))


class Camera(ScriptedReader):
    """Every slot empty at start-up, then ``then`` on the draw slot (nothing if None)."""

    def __init__(self, then: SlotReading | None) -> None:
        self.script = deque(
            [[SlotReading(slot, "empty", 1.0) for slot in Slot], [then] if then else []])


class Picker:
    """Taps "other" when offered, then ``want`` once it is among the picks."""

    def __init__(self, want: str) -> None:
        self.want = want
        self.shown: list[tuple[str, tuple[str, ...]]] = []

    def show(self, status: str, picks: tuple[str, ...]) -> None:
        self.shown.append((status, picks))

    def poll(self) -> list[Press]:
        picks = self.shown[-1][1] if self.shown else ()
        if self.want in picks:
            return [Pick(picks.index(self.want))]
        if OTHER in picks:
            return [Pick(picks.index(OTHER))]
        return []


def _wait(reading: SlotReading | None, want: str,
          ledger: TileLedger) -> tuple[Tile, Picker, StepClock]:
    clock, player = StepClock(), Picker(want)

    def sleep(seconds: float) -> None:
        assert clock.now < 30, f"no tile was counted: {player.shown[-3:]}"
        clock.sleep(seconds)

    tile = wait_for_tile(Camera(reading), ReadState(startup=True, clock=clock), Slot.DRAW,
                         ledger, Controls([player]), Confirm(3.0, clock),
                         lambda status, t, picks, lit, guided: player.show(
                             status, tuple(map(str, picks))),
                         poll_seconds=0.1, sleep=sleep)
    return tile, player, clock


def _offered(player: Picker) -> list[tuple[str, ...]]:
    """Each set of picks shown, in turn (repeats dropped)."""
    out: list[tuple[str, ...]] = []
    for _, picks in player.shown:
        if picks and (not out or out[-1] != picks):
            out.append(picks)
    return out


def test_an_unsure_read_offers_other_tile_after_its_three_which_opens_every_legal_tile() -> None:
    """An 8m read unsure as 3m/6m/9m: its three picks left 8m no way to be given, and an
    unsure read has no reject to reach the full list by (reviewc71 DEFECT 2)."""
    ledger = TileLedger()
    tile, player, _ = _wait(UNSURE, "8m", ledger)
    assert tile == Tile.from_notation("8m")
    first, full = _offered(player)
    assert first == ("3m", "6m", "9m", OTHER)
    # the same list, in the same order, as after a read rejected twice
    assert full == tuple(str(t) for t in misread_picks(UNSURE, ledger, ""))
    assert full[:4] == ("3m", "6m", "9m", "2m") and sorted(full) == sorted(map(str, ALL_KINDS))


@pytest.mark.parametrize(("reading", "status"), [
    (SlotReading(Slot.DRAW, "back", 0.9), "the tile on the draw slot is face down"),
    (SlotReading(Slot.DRAW, "5m", 0.9, (Candidate("5m", 0.9), Candidate("6m", 0.05))),
     "5m 五萬 on the draw slot: a 5th copy"),
])
def test_face_down_and_fifth_copy_reads_offer_other_tile_too(reading: SlotReading,
                                                              status: str) -> None:
    """A tile read face down, or as a kind whose every copy is out, had no pick at all for a
    tile the camera misreads so; its picks end with "Other tile…" too."""
    ledger = TileLedger()
    for _ in range(4):
        ledger.draw(Tile.from_notation("5m"), Place.DISCARDS)
    tile, player, _ = _wait(reading, "8m", ledger)
    assert tile == Tile.from_notation("8m")
    first, full = _offered(player)
    assert first[-1] == OTHER and "8m" not in first
    assert player.shown[0][0].startswith(status) or any(
        s.startswith(status) for s, _ in player.shown)
    assert full == tuple(str(t) for t in misread_picks(reading, ledger, ""))
    assert "5m" not in full and len(full) == len(ALL_KINDS) - 1  # the wall refuses 5m


def test_a_tile_picked_through_other_tile_is_saved_and_replayed_on_resume(
        tmp_path: Path) -> None:
    """The tile picked after "Other tile…" is the player's word: the save holds it, and
    `play --resume` replays the game with it."""
    clock, player = StepClock(), Picker("8m")
    game, save_path = Game("plus"), tmp_path / "game.json"
    sleep = stop_at_first_tile(game, clock, 30, lambda: player.shown)
    play_to_first_tile(game, save_path, Camera(UNSURE), player, PickScreen(player), sleep,
                       clock)
    assert str(game.inputs[0]) == "8m"
    resumed_from_save(game, save_path, "8m")

# --- RISK 3: stray bytes between a JPEG's header segments do not stop the walk -------------

@pytest.mark.parametrize("stray", [b"\x00\x00", b"\x12\x34\x56", b"\xff\x00"])
@pytest.mark.parametrize("progressive", [False, True])
def test_a_jpeg_with_stray_bytes_between_its_segments_cut_short_is_still_refused(
        tmp_path: Path, progressive: bool, stray: bytes) -> None:
    """libjpeg decodes a JPEG with stray bytes before a header segment's marker, warning of
    "extraneous bytes"; the walk gave up there and took such a file cut short in its scans
    for whole: read, its lower part grey (reviewc71 RISK 3). Whole, it still reads."""
    art = read_picture(TILES / "Pin5.png")
    _, coded = cv2.imencode(".jpg", art, [cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])
    data = coded.tobytes()
    at = data.find(b"\xff\xdb")  # before the quantisation table
    data = data[:at] + stray + data[at:]
    picture = tmp_path / "stray.jpg"
    picture.write_bytes(data)
    assert read_picture(picture).shape[:2] == art.shape[:2]
    last_scan = data.rfind(b"\xff\xda")
    for cut in (last_scan + 40, (last_scan + len(data)) // 2, len(data) - 2):
        picture.write_bytes(data[:cut])
        assert cv2.imread(str(picture)) is not None  # OpenCV paints the rest grey
        with pytest.raises(PictureError) as err:
            read_picture(picture)
        assert err.value.problem.startswith("the JPEG file is cut short"), cut

# --- NIT 4: the enrol question says "none 1m" when no shot read 1m, and y keeps "them" ------

@pytest.mark.parametrize(("read", "said", "them"), [
    ([("9m", 0.78), ("1s", 0.93)], "the shots read 9m (78%) and 1s (93%), none 1m", "them"),
    ([("1m", 0.90), ("2m", 0.40)], "the shots read 1m (90%) and 2m (40%, unsure), not all 1m",
     "them"),
    ([("2m", 0.95), ("2m", 0.90)], "the draw slot shows 2m, surely, not 1m", "it"),
])
def test_the_enrol_question_says_none_when_no_shot_read_the_kind_and_y_keeps_them(
        read: list[tuple[str, float]], said: str, them: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Shots read 9m and 1s were said to be "not all 1m", as though one were; y files both
    shots as 1m, and the prompt said "keeps it"."""
    sure = TileClassifier().info.picture_confidence
    shots = [Candidate(label, p) for label, p in read]
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "q"

    confirm(ask, surely_other(shots, "1m", sure), "1m", shots_read(shots, "1m", sure))
    assert capsys.readouterr().out == f"  {said}\n"
    assert prompts == [f"  y keeps {them} as 1m; or lay 1m and Enter (s skip, q finish): "]

# --- NIT 5: classify --mat reads the frames in the command line's order ---------------------

def test_classify_mat_reads_the_frames_in_the_order_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`classify scene_001.png --mat scene_000.png` read scene_000 first: output lines did
    not follow the arguments."""
    frames = []
    for n, placed in enumerate(({Slot.DRAW: "4s"}, {Slot.DRAW: "9m"}, {Slot.DRAW: "7z"})):
        frames.append(tmp_path / f"scene_{n:03}.png")
        cv2.imwrite(str(frames[-1]), render_scene(placed, np.random.default_rng(n), vary=False))
    a, b, c = map(str, frames)
    for argv in ([b, "--mat", a], [b, c, "--mat", a], ["--mat", a, c, b]):
        assert main(["classify", "--json", *argv]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        order = list(dict.fromkeys(r["frame"] for r in records))
        assert order == [arg for arg in argv if arg != "--mat"], argv

# --- NIT 6: B then A right after every legal tile comes up to pick takes nothing ------------

def test_b_then_a_at_once_on_every_legal_tile_s_picks_takes_no_tile() -> None:
    """After the second reject a habitual B (moving onto the last of 34 picks) then A took
    7z 中 at once, a tile never laid. Presses in the first DOUBLE_PRESS_SECONDS of those
    picks are dropped, as a menu after an Accept drops a double's A; the 8m picked after
    counts."""
    camera, clock = MisreadingCamera(), StepClock()
    shown: list[tuple[str | None, tuple[str, ...]]] = []
    judged, habit = [0], deque([[Button.FLEE], [Button.ATTACK]])

    class Hands:
        def poll(self) -> list[Press]:
            tile, picks = shown[-1] if shown else (None, ())
            if len(picks) > 10:
                if habit:
                    return habit.popleft()  # 0.1 s, then 0.2 s after the picks came
                return [Pick(picks.index("8m"))] if clock.now > 30 else []
            if tile == "3m" and judged[0] < sum(
                    1 for was, now in pairwise([None, *(t for t, _ in shown)])
                    if was != "3m" and now == "3m"):
                judged[0] += 1
                camera.relay()
                return [Button.FLEE]
            return []

    def sleep(seconds: float) -> None:
        assert clock.now < 60, shown[-3:]
        clock.sleep(seconds)

    tile = wait_for_tile(camera, ReadState(startup=True, clock=clock), Slot.DRAW, TileLedger(),
                         Controls([Hands()]), Confirm(3.0, clock),
                         lambda status, t, picks, lit, guided: shown.append(
                             (str(t) if t else None, tuple(map(str, picks)))),
                         poll_seconds=0.1, sleep=sleep)
    assert not habit and judged[0] == 2
    assert str(tile) == "8m" and clock.now > 30


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("misread", ["3m", "7z"])
def test_the_status_beside_every_legal_tile_fits_the_screen(size: str, misread: str) -> None:
    """The status after the second reject was cut at 800x480: the enrol command and the
    buttons' hint were lost. What to do, then how, then the enrol advice, all in one row."""
    reading = SlotReading(Slot.DRAW, misread, 0.9, (Candidate(misread, 0.9),))
    picks = misread_picks(reading, TileLedger(), misread)
    tile = Tile.from_notation(misread)
    status = rejected_again(tile) + MISREAD_HINT
    assert status == (f"read {misread} {tile.name_ja} again: pick the tile laid "
                      "置いた牌を選んで; I moves, A takes; enrol it later 後で登録")
    assert fits(ScreenDisplay(size), status, picks=picks)

