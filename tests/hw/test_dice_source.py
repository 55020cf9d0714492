"""CameraDiceSource: waits for still dice, refuses other dice, never guesses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from pytest_mock import MockerFixture

from companion.errors import CompanionError, DeviceError
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.pace import FRAME_PERIOD_S, IDLE_AFTER_S, IDLE_PERIOD_S
from companion.hw.dice import networks as networks_module
from companion.hw.dice.frames import CameraStream, take_frames
from companion.hw.dice.networks import DiceNetworks
from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus
from companion.hw.dice.render import Scene, SceneKind, Table, render_scene
from companion.hw.dice.source import (
    THROW_AGAIN,
    CameraDiceSource,
    DiceReadTimeout,
    NewThrowNeeded,
    Steadiness,
    UnsupportedDice,
)
from tests.deadline import ends_within
from tests.dice_scenes import on_the_mat, still_scene


@cache
def readable() -> Scene:
    """A fixed scene the reader reads in full (checked, not assumed)."""
    for seed in range(600, 640):
        s = render_scene(seed, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
        source = CameraDiceSource(frames=[s.image] * 4)
        try:
            source.roll(2, 6)
        except CompanionError:
            continue
        return s
    raise AssertionError("no readable two-dice scene among the seeds")


class Counting:
    """A frame stream that records how many frames were taken."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames
        self.taken = 0

    def __iter__(self) -> Iterator[np.ndarray]:
        for frame in self.frames:
            self.taken += 1
            yield frame


def test_roll_returns_the_dice_once_they_are_still() -> None:
    s = readable()
    stream = Counting([s.image] * 10)
    source = CameraDiceSource(frames=stream)
    values = source.roll(2, 6)
    assert sorted(values) == sorted(d.value for d in s.dice)
    assert stream.taken == source.config.stable_frames


def test_a_roll_s_purpose_changes_nothing_the_camera_reads() -> None:
    """A DiceSource is told what a roll is for; the camera reads the same dice."""
    s = readable()
    source = CameraDiceSource(frames=Counting([s.image] * 10))
    assert sorted(source.roll(2, 6, purpose="to hit 命中")) == sorted(d.value for d in s.dice)


def test_rolling_dice_are_waited_out() -> None:
    s = readable()
    blur = render_scene(601, kind=SceneKind.BLURRED, count=2, table=Table.FELT).image
    empty = render_scene(602, kind=SceneKind.EMPTY).image
    stream = Counting([empty, blur, blur, s.image, blur, *([s.image] * 6)])
    messages: list[str] = []
    source = CameraDiceSource(frames=stream, on_status=messages.append)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in s.dice)
    # The lone still frame between blurs does not count, and the first still frame
    # after a blur differs from it (motion): then four still reads in a row are needed.
    assert stream.taken == 5 + 1 + source.config.stable_frames
    assert messages[0] == "waiting for 2 dice, none in view ダイス待ち"


def test_a_wrong_count_waits_and_says_so() -> None:
    s = readable()
    messages: list[str] = []
    source = CameraDiceSource(frames=[s.image] * 6, on_status=messages.append)
    with pytest.raises(DeviceError, match="stopped giving frames"):
        source.roll(3, 6)
    assert messages == ["waiting for 3 dice, 2 in view ダイス待ち（2個）: add 1 もう1個"]


def test_only_six_sided_dice_are_read() -> None:
    source = CameraDiceSource(frames=[])
    with pytest.raises(CompanionError, match="D20") as err:
        source.roll(1, 20)
    assert isinstance(err.value, ValueError)


def test_the_camera_is_opened_only_when_a_roll_needs_it() -> None:
    source = CameraDiceSource(source="/no/such/camera")  # no error yet
    with pytest.raises(DeviceError, match="no such camera"):
        source.roll(1, 6)


def test_a_read_that_never_settles_times_out() -> None:
    now = iter(range(1000))
    s = readable()
    frames = [s.image, render_scene(603, kind=SceneKind.BLURRED).image] * 50
    source = CameraDiceSource(frames=frames, timeout_s=10, clock=lambda: float(next(now)))
    with pytest.raises(DiceReadTimeout):
        source.roll(2, 6)


def test_frames_from_an_object_with_read() -> None:
    s = readable()

    class Capture:
        def __init__(self) -> None:
            self.left = 5

        def read(self) -> tuple[bool, np.ndarray | None]:
            self.left -= 1
            return (True, s.image) if self.left >= 0 else (False, None)

    assert len(CameraDiceSource(frames=Capture()).roll(2, 6)) == 2


def _read(values: list[int | None], shift: float = 0.0) -> DiceRead:
    dice = tuple(DieReading(v, 0.9 if v else 0.0, (100.0 * i + shift, 50.0), 40.0)
                 for i, v in enumerate(values))
    status = ReadStatus.UNSURE if None in values else ReadStatus.OK
    return DiceRead(dice, status, "")


def test_steadiness_needs_k_equal_still_reads() -> None:
    steady = Steadiness(frames=3, still_px=2.0)
    assert steady.update(_read([3, 4])) is None
    assert steady.update(_read([3, 4], shift=5.0)) is None  # moved: starts again
    assert steady.update(_read([3, 4], shift=5.5)) is None
    assert steady.update(_read([3, None], shift=5.5)) is None  # unsure: starts again
    assert steady.update(_read([3, 4], shift=5.5)) is None
    assert steady.update(_read([3, 4], shift=5.5)) is None
    settled = steady.update(_read([3, 4], shift=6.0))
    assert settled is not None and settled.values == [3, 4]


def test_a_blurred_throw_is_reported_as_moving_and_never_read() -> None:
    s = readable()
    throw = [render_scene(610 + i, kind=SceneKind.BLURRED, count=2, table=Table.FELT).image
             for i in range(3)]
    stream = Counting([*throw, *([s.image] * 6)])
    messages: list[str] = []
    source = CameraDiceSource(frames=stream, on_status=messages.append)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in s.dice)
    assert "the dice are moving: waiting for them to settle 転がり中" in messages
    # The first still frame still differs from the last blurred one: it counts as motion.
    assert stream.taken == 3 + 1 + source.config.stable_frames


def test_on_the_mat_only_the_dice_area_is_read() -> None:
    from companion.hw.camera.sim_scene import render_scene as render_mat

    source = CameraDiceSource(frames=[], area="mat")
    on_mat = source.read_frame(render_mat({}))
    assert on_mat.status is ReadStatus.NO_DICE  # the mat was found; its dice area is empty
    off_mat = source.read_frame(readable().image)
    assert off_mat.status is ReadStatus.UNSURE and off_mat.dice == ()
    assert "mat" in off_mat.message.lower()
    with pytest.raises(CompanionError, match="dice area"):
        CameraDiceSource(frames=[], area="table")


def test_by_default_the_mat_is_read_where_it_is_seen_else_the_whole_view() -> None:
    """"auto": with the mat in view only its dice area counts (dice left lying on the tile
    slots are not this throw); a camera of its own sees the dice anywhere."""
    from companion.hw.camera.sim_scene import render_scene as render_mat

    # A throw seen closer than the mat camera sees it, so its picture is only shrunk
    # (an enlarged one is blurred, and a blurred die is rightly unsure).
    throw = render_scene(602, kind=SceneKind.LOOSE, count=2, table=Table.FELT)
    side = max(d.side_px for d in throw.dice)
    assert side > 50
    xs, ys = [d.centre[0] for d in throw.dice], [d.centre[1] for d in throw.dice]
    patch = throw.image[int(min(ys) - 1.2 * side):int(max(ys) + 1.2 * side),
                        int(min(xs) - 1.2 * side):int(max(xs) + 1.2 * side)]
    # The mat spans 960 of 1280 pixels: 3.2 pixels a millimetre, so a 16 mm die is 50.
    patch = cv2.resize(patch, None, fx=50 / side, fy=50 / side, interpolation=cv2.INTER_AREA)
    frame = render_mat({})
    frame[300:300 + patch.shape[0], 330:330 + patch.shape[1]] = patch  # over the Draw slot
    truth = sorted(d.value for d in throw.dice)
    assert sorted(CameraDiceSource(frames=[], area="view").read_frame(frame).values) == truth
    assert CameraDiceSource(frames=[]).read_frame(frame).status is ReadStatus.NO_DICE
    off_mat = CameraDiceSource(frames=[]).read_frame(readable().image)
    assert sorted(off_mat.values) == sorted(d.value for d in readable().dice)


def test_a_camera_that_is_not_there_is_said_at_once() -> None:
    """camera:7 does not exist here: the roll says so at once, naming it, rather than
    waiting 120 s and blaming the dice (fix62d, dice62 D2)."""
    source = CameraDiceSource(source="camera:7", sleep=lambda seconds: None)
    with ends_within(30, "a roll on a camera not plugged in"), \
            pytest.raises(DeviceError, match=r"^no camera at camera:7: check the cable"):
        source.roll(2, 6)


def test_calibration_frames_wait_a_while_for_a_camera_then_say_why() -> None:
    now = iter(range(100))
    with ends_within(30, "take_frames with no camera"):  # a lost deadline hung the suite
        frames, why = take_frames("camera:7", 8, wait_s=3, clock=lambda: float(next(now)),
                                  sleep=lambda seconds: None)
    assert frames == [] and why.startswith("no camera at camera:7")


def test_a_still_picture_is_read_again_and_again_but_a_broken_one_is_refused(
    tmp_path: Path,
) -> None:
    photo = tmp_path / "dice.png"
    cv2.imwrite(str(photo), readable().image)
    frames, _ = take_frames(str(photo), 5, wait_s=0)
    assert len(frames) == 5
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    with pytest.raises(DeviceError, match="not a picture"):
        CameraDiceSource(source=str(broken)).roll(2, 6)


def test_networks_already_loaded_are_shared_rather_than_loaded_again(
        mocker: MockerFixture) -> None:
    """A caller holding a finder and judge (the bench) passes them in: the source reads
    with them, and no model file is opened again."""
    s = readable()
    networks = DiceNetworks()
    judge = mocker.spy(networks, "judge")
    opened = mocker.spy(networks_module, "open_session")
    values = CameraDiceSource(frames=[s.image] * 4, networks=networks).roll(2, 6)
    assert sorted(values) == sorted(d.value for d in s.dice)
    assert judge.call_count >= 1 and opened.call_count == 0


def test_the_play_session_never_takes_a_camera_roll_the_reader_was_not_sure_of() -> None:
    """issue 23 (3): CameraRolls offers the player (and accepts by timeout) only values the
    camera source returned, and the source returns only reads the reader called OK, over
    ``stable_frames`` frames. Frames the reader is unsure of, alone or between sure ones,
    end in no roll at all when time runs out; sure frames are taken by the timeout."""
    from companion.app.session.controls import Controls
    from companion.app.session.mode import RollAsk, Throw
    from companion.app.session.rolls import CameraFrames, CameraRolls

    blurred = render_scene(601, kind=SceneKind.BLURRED, count=2).image
    good = readable()
    assert CameraDiceSource(frames=[]).read_frame(blurred).status is ReadStatus.UNSURE
    now = [0.0]

    def clock() -> float:
        now[0] += 0.5
        return now[0]

    def session(frames: list[np.ndarray]) -> tuple[Throw, list[str]]:
        shown: list[str] = []

        def show(prompt: str, **kwargs: object) -> None:
            shown.append(prompt)

        controls = Controls([])
        stream = CameraFrames(frames, controls, moving=lambda frame: True)
        source = CameraDiceSource(frames=stream, timeout_s=20.0, clock=clock,
                                  sleep=lambda s: None)
        rolls = CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                            sleep=lambda s: None, clock=clock)
        return rolls.next_throw(RollAsk("2D6", 2, 6), show), shown

    unsure = [blurred] * 100
    throw, shown = session(unsure)
    # (Said under the tray's "No roll 振れませんでした", in both languages as it is.)
    assert throw.values == () and throw.failure.startswith("no steady read of 2 dice in 20 s ")
    assert throw.failure.endswith(" 読み取れず")
    assert not any(p.startswith("Read ") for p in shown)  # nothing was offered to accept
    # Sure frames, each run shorter than stable_frames, broken by unsure ones: no roll.
    stable = CameraDiceSource(frames=[]).config.stable_frames
    broken = ([good.image] * (stable - 1) + [blurred]) * 30
    throw, shown = session(broken)
    assert throw.values == () and not any(p.startswith("Read ") for p in shown)
    # Sure frames long enough: offered, then accepted when the time to reject runs out.
    throw, shown = session([blurred] * 3 + [good.image] * 50)
    assert sorted(throw.values) == sorted(d.value for d in good.dice)
    assert any(p.startswith("Read 読み取り 2D6") for p in shown)


def another_throw() -> Scene:
    """A second readable two-dice throw, its values unlike :func:`readable`'s."""
    return still_scene(700, 2, unlike=tuple(sorted(d.value for d in readable().dice)))


def test_each_roll_is_a_new_throw_the_dice_lying_there_are_not_read_again() -> None:
    """D1: after a roll took the dice, the same dice still lying there were read again as
    the next roll (``2D6+2D6`` gave the one throw twice). The next roll now waits, saying
    so, until the dice are picked up and thrown again."""
    first, second = readable(), another_throw()
    said: list[str] = []
    stream = Counting([first.image] * 40 + [second.image] * 10)
    source = CameraDiceSource(frames=stream, on_status=said.append)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in first.dice)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in second.dice)
    assert THROW_AGAIN in said
    assert stream.taken > 40  # every frame of the first throw was passed over


def test_dice_thrown_again_between_two_rolls_are_a_new_throw() -> None:
    """The camera is looked at only while a roll waits: dice thrown again in between are
    still seen to have moved (each frame is judged against the one before, across rolls)."""
    first, second = readable(), another_throw()
    stable = CameraDiceSource(frames=[]).config.stable_frames
    source = CameraDiceSource(frames=[first.image] * stable + [second.image] * 10)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in first.dice)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in second.dice)


def test_a_still_picture_holds_one_throw_and_a_second_roll_says_so(tmp_path: Path) -> None:
    """A picture never moves: its dice are read for the first roll, and the next roll is
    refused at once with why (it read the same dice again before, or would wait in vain)."""
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), readable().image)
    source = CameraDiceSource(source=str(photo))
    assert source.still
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in readable().dice)
    with pytest.raises(NewThrowNeeded, match=r"still picture: it holds one throw.*\(2D6\)"):
        source.roll(2, 6)
    with pytest.raises(UnsupportedDice):  # what is wrong with a roll itself comes first
        source.roll(1, 20)


def test_roll_from_a_still_picture_refuses_a_second_throw_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """`companion roll --dice camera --source PICTURE`: one throw reads; '2D6+2D6' and
    'x2 2D6' (two throws) exit 1 saying the picture holds one throw, not 6[2,4]+6[2,4]."""
    from companion.app.cli import main

    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), readable().image)
    a, b = sorted(d.value for d in readable().dice)
    assert main(["roll", "2D6", "--dice", "camera", "--source", str(photo)]) == 0
    out = capsys.readouterr().out
    assert out in (f"(2D6) ＞ {a + b}[{a},{b}]\n", f"(2D6) ＞ {a + b}[{b},{a}]\n")
    for expression in ("2D6+2D6", "x2 2D6"):
        assert main(["roll", expression, "--dice", "camera", "--source", str(photo)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and "a still picture: it holds one throw" in err, err


class StillFrames:
    """A still picture's frames, as :class:`CameraStream` gives them: the one picture for
    ever (``still``); taking more than ``limit`` frames is a wait that never ends."""

    def __init__(self, image: np.ndarray, limit: int = 30, still: bool = True) -> None:
        self.still = still
        self.image = image
        self.limit = limit
        self.taken = 0

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            self.taken += 1
            assert self.taken <= self.limit, "a still picture was watched on and on"
            yield self.image


@pytest.mark.parametrize(("scene", "count", "why"), [
    (lambda: readable().image, 3, "the still picture shows 2 dice, 3 were asked for: "
                                  "waiting for 3 dice, 2 in view"),
    (lambda: readable().image, 1, "the still picture shows 2 dice, 1 was asked for: "),
    (lambda: render_scene(602, kind=SceneKind.EMPTY).image, 2,
     "the still picture shows no dice, 2 were asked for: waiting for 2 dice, none in view"),
], ids=["2-dice-for-3D6", "2-dice-for-1D6", "no-dice-for-2D6"])
def test_a_still_picture_that_does_not_read_as_asked_stops_at_once(
        scene: Callable[[], np.ndarray], count: int, why: str) -> None:
    """`companion roll --dice camera --source PHOTO 2D6` with one die on the photo waited
    the whole two minutes at full CPU for a picture that never changes: once its read is
    steady (the same over the stable frames), the roll stops with that read's reason."""
    frames = StillFrames(scene())
    said: list[str] = []
    source = CameraDiceSource(frames=frames, on_status=said.append)
    with pytest.raises(NewThrowNeeded) as caught:
        source.read_throw(count, 6)
    assert str(caught.value).startswith(why)
    assert frames.taken == source.config.stable_frames
    assert said == [str(caught.value).split(": ", 1)[1]]


def test_a_picture_file_with_too_few_dice_says_so_at_once(tmp_path: Path) -> None:
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), readable().image)
    now = iter(range(10_000))  # a wait runs out after 30 frames, not two minutes
    source = CameraDiceSource(source=str(photo), timeout_s=30, clock=lambda: float(next(now)))
    assert source.still
    with pytest.raises(NewThrowNeeded, match=rf"^the picture {photo} shows 2 dice, 3 were "
                                             r"asked for: waiting for 3 dice, 2 in view "
                                             r"ダイス待ち（2個）$"):
        source.roll(3, 6)


def test_live_frames_that_do_not_read_as_asked_are_still_waited_for() -> None:
    """Frames that are no still picture (a camera, a test's list) may change: waited for."""
    frames = StillFrames(readable().image, limit=10, still=False)
    source = CameraDiceSource(frames=frames)
    with pytest.raises(AssertionError, match="watched on and on"):
        source.read_throw(3, 6)


def test_a_black_or_washed_out_picture_is_said_to_be_so_not_an_empty_table() -> None:
    """A covered lens or a lamp gone off read as "waiting for 2 dice, none in view"."""
    dark = (readable().image * 0.03).astype(np.uint8)
    glare = np.full_like(readable().image, 250)
    messages: list[str] = []
    source = CameraDiceSource(frames=[dark] * 3 + [glare] * 3, on_status=messages.append)
    with pytest.raises(DeviceError):
        source.roll(2, 6)
    assert messages == ["the picture is black: is the lens covered, or the light off?",
                        "the dice are moving: waiting for them to settle 転がり中",  # light on
                        "the picture is washed out: too much light or glare on the mat"]
    assert CameraDiceSource(frames=[], area="view").read_frame(dark).status \
        is ReadStatus.UNSURE


def test_a_dice_area_the_picture_cuts_off_is_said_to_be_out_of_view() -> None:
    """With the camera turned so the picture ends across the dice area, the tray said
    "waiting for 2 dice, none in view" while the dice lay where it could not see."""
    frame = on_the_mat(still_scene(700, 2))[:, :900].copy()  # the mat's right side cut off
    messages: list[str] = []
    source = CameraDiceSource(frames=[frame] * 3, on_status=messages.append)
    with pytest.raises(DeviceError):
        source.roll(2, 6)
    assert messages == ["the mat's dice area is partly outside the camera's view: move the "
                        "camera so the whole mat is in the picture"]


def test_one_die_is_one_die_in_what_the_player_is_told() -> None:
    """"waiting for 1 dice, 2 in view ダイス待ち（2個）"."""
    assert CameraDiceSource(frames=[]).read_frame(readable().image, 1).message == \
        "waiting for 1 die, 2 in view ダイス待ち（2個）: take 1 away 1個どけて"


def test_a_camera_stream_closed_before_its_first_frame_lets_the_camera_go() -> None:
    """A table left before any roll (the System menu) closed its dice stream, whose frames
    were never asked for: closing an unstarted generator runs no ``finally``, and the camera
    stayed open while the next mode opened the same one."""
    camera = RenderedSource()
    stream = CameraStream(camera)
    stream.close()
    assert camera.message == "closed"


def test_a_dark_dice_area_with_no_dice_says_it_is_too_dark_not_that_none_are_there(
        tmp_path: Path) -> None:
    """Review 56, finding 4: with the lamp off the dice area's paper is dark grey and the
    read finds no dice; the player is told the light is the trouble, while the read itself
    (no dice, nothing made up) is as before. The tray's waiting line says it too."""
    from companion.hw.camera.sim_scene import render_scene as render_mat
    from companion.hw.dice.readings import guidance

    lit = render_mat({})
    dark = (lit.astype(np.float32) * 0.15).astype(np.uint8)  # paper grey about 38
    source = CameraDiceSource(frames=[])
    assert source.read_frame(lit).message == "no dice in view"
    read = source.read_frame(dark, 2)
    assert read.status is ReadStatus.NO_DICE and read.dice == ()
    assert "too dark" in read.message and "暗すぎます" in read.message
    assert "turn on the lamp" in read.message
    said: list[str] = []
    picture = tmp_path / "dark.png"
    cv2.imwrite(str(picture), dark)
    tray = CameraDiceSource(str(picture), on_status=said.append, timeout_s=5)
    with pytest.raises(NewThrowNeeded, match="too dark"):
        tray.roll(2, 6)
    assert said and "too dark" in said[0] and not guidance(said[0])


class Enough(Exception):
    """The test has watched long enough."""


class NobodyThrows:
    """A camera that does not block (as a video or the rendered mat), on the empty mat: new
    sensor noise on every frame, and the fake time each frame was taken at; after
    ``frames`` frames the test has seen enough."""

    def __init__(self, frames: int, now: Callable[[], float]) -> None:
        mat = RenderedSource({}, seed=8)
        self.pictures = [mat.read() for _ in range(4)]
        self.left, self.now = frames, now
        self.taken: list[float] = []
        self.message = "ok"

    def read(self) -> np.ndarray | None:
        if self.left == 0:
            raise Enough
        self.left -= 1
        self.taken.append(self.now())
        return self.pictures[self.left % len(self.pictures)]

    def close(self) -> None:
        pass


def test_waiting_for_a_throw_paces_the_camera_and_never_runs_out(
        mocker: MockerFixture) -> None:
    """soak57 F2 and F5: a camera that does not block was read in a busy loop, every frame
    read in full (three quarters of a core), and the wait gave up after 2 minutes with "no
    steady read" though nobody had thrown yet. Frames are now taken a frame period apart,
    a quarter of a second apart once nothing has moved for some seconds, each read in full
    (a white die on a white tray moves too few pixels to be seen otherwise, review57b);
    and waiting for a throw never runs out."""
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    # A short timeout to be watched past: every frame is read in full, ~20 ms each.
    camera = NobodyThrows(200, lambda: now[0])
    said: list[str] = []
    source = CameraDiceSource(frames=CameraStream(camera), on_status=said.append,
                              clock=lambda: now[0], sleep=sleep, timeout_s=20.0)
    reads = mocker.spy(source.reader, "read")
    with pytest.raises(Enough):
        source.read_throw(2, 6)
    assert said == ["waiting for 2 dice, none in view ダイス待ち"]
    assert now[0] > 25.0 > source.timeout_s  # watched on, well past the timeout
    gaps = np.diff(camera.taken)
    assert gaps.min() >= FRAME_PERIOD_S - 1e-9
    idle = [gap for at, gap in zip(camera.taken[1:], gaps, strict=True)
            if at > IDLE_AFTER_S + IDLE_PERIOD_S]
    assert idle and min(idle) >= IDLE_PERIOD_S - 1e-9
    # each frame read once; and the whole view once, for dice beside the empty dice area,
    # as nothing moved since (dicecam75 DEFECT 3), not at every frame
    assert reads.call_count == len(camera.taken) + 1


def test_a_throw_after_minutes_of_talk_is_read_and_a_view_that_never_settles_still_ends() -> None:
    """soak57 F5: a throw made after the 2 minutes a wait had was never read ("no steady
    read of 2 dice in 120 s"). Nothing thrown, nothing moving, no time runs out; the throw
    is read whenever it comes. Dice that never settle still end the wait (see
    test_a_read_that_never_settles_times_out)."""
    tick = iter(range(100_000))
    s = readable()
    empty = render_scene(602, kind=SceneKind.EMPTY).image
    source = CameraDiceSource(frames=[empty] * 300 + [s.image] * 10, timeout_s=120,
                              clock=lambda: float(next(tick)), sleep=lambda seconds: None)
    assert sorted(source.roll(2, 6)) == sorted(d.value for d in s.dice)
    assert next(tick) > 300


def test_a_white_die_on_the_white_dice_area_is_read_with_no_motion_seen() -> None:
    """review57b: a still view settled on "none in view" was not read again until the
    frame changed, and a white die landing on the white dice area between two frames
    changes too few pixels to count (one pip: 32 of the 115 needed): it was never read,
    and no time runs out while no dice are in view. Every frame taken is read in full."""
    from companion.hw.camera.mat import MatDetector
    from companion.hw.camera.sim_scene import Camera
    from companion.hw.camera.sim_scene import render_scene as render_mat_scene

    empty = render_mat_scene({}, camera=Camera(size=(1280, 720), tilt=0.01, nudge_px=4))
    detector = MatDetector()
    inverse = np.linalg.inv(detector.detect(empty).homography)
    area = detector.geometry.dice
    centre = np.float32([[[area.x_mm + area.width_mm / 2, area.y_mm + area.height_mm / 2]]])
    cx, cy = cv2.perspectiveTransform(centre, inverse)[0, 0]
    ex, _ = cv2.perspectiveTransform(centre + np.float32([10, 0]), inverse)[0, 0]
    px_per_mm = float(abs(ex - cx)) / 10
    side, x0, y0 = int(16 * px_per_mm), int(cx - 8 * px_per_mm), int(cy - 8 * px_per_mm)
    landed = empty.copy()
    cv2.rectangle(landed, (x0 + 2, y0 + 2), (x0 + side + 2, y0 + side + 2), (160,) * 3, -1)
    cv2.rectangle(landed, (x0, y0), (x0 + side, y0 + side), (235,) * 3, -1)
    cv2.rectangle(landed, (x0, y0), (x0 + side, y0 + side), (120,) * 3, 1)
    cv2.circle(landed, (int(x0 + side / 2), int(y0 + side / 2)), max(2, int(1.4 * px_per_mm)),
               (25,) * 3, -1, cv2.LINE_AA)
    source = CameraDiceSource(frames=[empty] * 8 + [landed] * 40,
                              clock=iter(range(10**6)).__next__, sleep=lambda _: None)
    assert source.read_throw(1, 6).values == [1]
