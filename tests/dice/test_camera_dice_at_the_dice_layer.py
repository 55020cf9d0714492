"""Camera dice at the shared dice layer's edge (fix62d, audit dice62).

The camera's stand-ins are rendered frames (the dice reader reads them for real), a
source that gives no picture, and a webcam path with no device behind it; the player is
scripted presses.
"""

from __future__ import annotations

import itertools
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.app.commands.play.table_modes import real_dice
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.dice import roll
from companion.dice.notation import parse
from companion.errors import DeviceError
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus, lying_order
from companion.hw.dice.render import SceneKind, render_scene
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.hw.display.none import NoDisplay
from companion.hw.display.view import View
from tests.app.camera_roll_helpers import Clock

#: A rendered throw of two dice read surely: a 6 on the left (x 94), a 5 on the right.
HIGH_LEFT = 108
ABSENT = "/dev/video9"


@cache
def two_dice() -> np.ndarray:
    scene = render_scene(HIGH_LEFT, kind=SceneKind.LOOSE, count=2)
    assert sorted((d.centre[0], d.value) for d in scene.dice)[0][1] == 6  # 6 lies left
    return scene.image


def camera(frame: np.ndarray) -> CameraDiceSource:
    return CameraDiceSource(frames=itertools.repeat(frame), area="view", clock=Clock(),
                            sleep=lambda s: None)


# D1: a camera D66 read as thrown takes the left die as its tens, so 61 comes up too.

def test_the_camera_gives_the_dice_left_to_right_and_a_d66_takes_the_left_as_tens() -> None:
    frame = two_dice()
    assert camera(frame).roll(2, 6) == [6, 5]
    mirrored = np.ascontiguousarray(cv2.flip(frame, 1))  # the 5 now lies left
    assert camera(mirrored).roll(2, 6) == [5, 6]
    assert roll(parse("D66"), camera(frame)).total == 65  # read sorted, it was 56 always
    assert roll(parse("D66N"), camera(mirrored)).total == 56
    assert roll(parse("D66S"), camera(frame)).total == 56
    assert roll(parse("1D66"), camera(frame)).total == 65


def test_of_two_dice_one_above_the_other_the_upper_is_first() -> None:
    def die(value: int, x: float, y: float) -> DieReading:
        return DieReading(value, 0.99, (x, y), 40.0)

    below, above = die(6, 300, 400), die(2, 310, 100)  # 10 px apart across: one column
    assert [d.value for d in lying_order([below, above])] == [2, 6]
    assert [d.value for d in lying_order([above, below])] == [2, 6]
    left, right = die(6, 300, 400), die(2, 330, 100)  # 30 px apart: left first
    assert [d.value for d in lying_order([right, left])] == [6, 2]
    read = DiceRead((right, left), ReadStatus.OK, "read 2, 6")
    assert read.as_lying == [6, 2] and read.values == [2, 6]


def test_three_dice_on_a_slant_lie_in_one_order_however_they_are_handed_in() -> None:
    """reviewdice75 N1: dice at (40, 0), (20, 50), (0, 100), each 50 px: each neighbour
    pair is one column (upper first), the two ends are not (left first), and the pairs'
    comparison gave three orders over the six orders the finder may hand them in. One
    order now: the leftmost's column, (20, 50) within half a side of (0, 100), upper first;
    then (40, 0). The read's words follow it, the same every time."""
    def die(value: int, x: float, y: float) -> DieReading:
        return DieReading(value, 0.99, (x, y), 50.0)

    slant = [die(1, 40, 0), die(2, 20, 50), die(3, 0, 100)]
    orders = {tuple(d.value for d in lying_order(list(handed)))
              for handed in itertools.permutations(slant)}
    assert orders == {(2, 3, 1)}
    words = {DiceRead(tuple(handed), ReadStatus.OK, "").as_lying == [2, 3, 1]
             for handed in itertools.permutations(slant)}
    assert words == {True}


# D2: no camera, or no picture, is said soon and names the camera.

def test_a_camera_giving_no_picture_is_a_device_error_in_seconds_not_minutes() -> None:
    why = "camera 9 stopped sending pictures (unplugged?); retrying"
    clock = Clock()
    source = CameraDiceSource(frames=itertools.repeat(why), clock=clock, sleep=lambda s: None)
    with pytest.raises(DeviceError) as err:
        source.roll(2, 6)
    assert str(err.value) == ("no picture from the camera in 10 s 映像なし: camera 9 stopped "
                              "sending pictures (unplugged?)")
    assert clock.now < 30  # it waited 120 s of this before


@pytest.mark.skipif(Path(ABSENT).exists(), reason=f"{ABSENT} is there")
def test_roll_with_the_camera_unplugged_names_it_and_offers_typed_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["roll", "1D6", "--dice", "camera", "--source", ABSENT]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"companion: error: no camera at {ABSENT}: check the cable")
    assert "--dice typed" in err


# D3: a camera roll with dice the camera cannot read is refused before any throw.

@pytest.mark.parametrize(("expression", "part"), [
    ("2D6+1D20", "1D20 throws a D20"),
    ("x3 1D6+1D4", "1D4 throws a D4"),
    ("choice2[a,b,c,d,e,f]", "choice2[a,b,c,d,e,f] throws a D5"),
    ("3B6+2B10>=4", "2B10 throws a D10"),
])
def test_a_camera_roll_with_other_dice_than_d6_is_refused_before_any_throw(
    expression: str, part: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []

    class CameraDiceSource:
        still = False

        def __init__(self, source: str, **kwargs: Any) -> None:
            made.append(source)

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            raise AssertionError(f"a throw of {count}D{sides} was asked for")

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    assert main(["roll", expression, "--dice", "camera", "--source", "mat.png"]) == 2
    err = capsys.readouterr().err
    assert f"the camera reads D6 only: {part};\n  roll it with --dice sim or --dice typed" in err
    assert made == []  # the camera was not even opened
    assert all(len(line) <= 80 for line in err.splitlines())


def test_d6_only_camera_rolls_are_not_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    class CameraDiceSource:
        still = False

        def __init__(self, source: str, **kwargs: Any) -> None:
            pass

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            return [3] * count

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    for expression in ["2D6+1D6KH1", "1/2D", "choice[a,b,c,d,e,f]", "2B66", "C(1+2)"]:
        assert main(["roll", expression, "--dice", "camera", "--source", "mat.png"]) == 0


# R1 and R2: the play session.

class Player:
    """Presses a key once a prompt containing its text is shown."""

    def __init__(self, script: list[tuple[str, Press]]) -> None:
        self.script = script
        self.shown: list[str] = []

    def show(self, prompt: str, **kwargs: object) -> None:
        self.shown.append(prompt)

    def poll(self) -> list[Press]:
        if self.script and self.shown and self.script[0][0] in self.shown[-1]:
            return [self.script.pop(0)[1]]
        return []


@pytest.mark.skipif(Path(ABSENT).exists(), reason=f"{ABSENT} is there")
def test_a_table_whose_dice_camera_is_not_plugged_in_offers_typed_dice() -> None:
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[dice]\nsource = "camera"\ncamera_source = "{ABSENT}"\n',
                    encoding="utf-8")
    shown: list[View] = []

    class Screen(NoDisplay):
        def show(self, view: View) -> None:
            shown.append(view)

    class Player:  # presses A once the question is on the screen
        def poll(self) -> list[Press]:
            asked = shown and shown[-1].prompt.startswith("The dice camera cannot be used")
            return [Button.ATTACK] if asked else []

    dice, source = real_dice(load_config(), Controls([Player()]), Screen(), None)
    assert isinstance(dice, Keypad) and source == "typed"
    assert f"no camera at {ABSENT}" in shown[-1].prompt


def session(frames: Any, player: Player) -> CameraRolls:
    """CameraRolls as `companion play` builds them, on these frames."""
    clock = Clock()
    controls = Controls([player], clock=Clock())  # each key a while after the one before
    stream = CameraFrames(frames, controls, Motion().moving, sleep=lambda s: None)
    source = CameraDiceSource(frames=stream, area="view", clock=clock, sleep=lambda s: None)
    return CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                       sleep=lambda s: None, clock=clock)


def test_a_camera_lost_mid_session_offers_typed_dice_for_the_rest_of_it() -> None:
    player = Player([("The dice camera gives no picture", Button.ATTACK),
                     ("Type the D6 you threw (1 of 2)", Pick(4)),
                     ("Type the D6 you threw (2 of 2", Pick(1)),
                     ("1D6の出目を入力: damage", Pick(5))])
    rolls = session(itertools.repeat("camera:0 stopped sending pictures (unplugged?)"), player)
    assert rolls.next_throw(RollAsk("to hit 命中", 2, 6), player.show).values == (5, 2)
    assert rolls.next_throw(RollAsk("damage", 1, 6), player.show).values == (6,)
    assert not player.script
    assert sum("gives no picture" in p for p in player.shown) == 1  # asked once


def test_a_camera_lost_mid_session_may_be_tried_again() -> None:
    player = Player([("The dice camera gives no picture", Button.FLEE)])
    rolls = session(itertools.repeat("camera:0 stopped sending pictures (unplugged?)"), player)
    throw = rolls.next_throw(RollAsk("to hit", 2, 6), player.show)
    assert throw.values == () and "no picture from the camera" in (throw.failure or "")


def test_a_habitual_a_on_the_doubted_die_question_types_no_value() -> None:
    """The question comes where a read's "A accepts" would: A re-rolls (nothing typed)
    until the player picks a face."""
    read = DiceRead((DieReading(4, 0.99, (100.0, 100.0), 40.0),
                     DieReading(None, 0.4, (300.0, 100.0), 40.0, "a die's value is unclear",
                                "at the right")), ReadStatus.UNSURE, "unsure")
    player = Player([("Type the die at the right", Button.ATTACK)])
    rolls = session(iter(()), player)
    assert rolls.typed(read, 2, player.show) is None
    assert not player.script
    player = Player([("Type the die at the right", Pick(0))])
    rolls = session(iter(()), player)
    assert rolls.typed(read, 2, player.show) == (4, 1)  # a face picked: in its place


# N1: an error's lines fit 80 columns, as the --help texts do.

@pytest.mark.parametrize("text", ["choice(a b c)", "choice[a]", "D", "D66+1", "D66X"])
def test_a_dice_syntax_error_fits_80_columns(text: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", text]) == 2
    err = capsys.readouterr().err
    assert all(len(line) <= 80 for line in err.splitlines()), err
    assert err.splitlines()[-1].rstrip().endswith("^")
