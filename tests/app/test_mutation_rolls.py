"""Mutation spot checks, round 4 (rolls.py): behaviour of dice a mode asks for that no other
test pinned; each test here fails on the slip named in it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import (
    FIRST_LIVE,
    CameraFrames,
    CameraRolls,
    RollCancelled,
    Thrown,
)
from companion.app.session.system_menu import SystemMenu
from companion.errors import IllegalAction
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.capture import OpenCVCamera
from companion.hw.dice.frames import CameraStream
from companion.hw.dice.source import Motion
from tests.app.camera_roll_helpers import Capture, Player, faces, session_rolls
from tests.app.double_press_helpers import menu
from tests.app.session_helpers import ScriptedPresses, StepClock
from tests.dice_scenes import still_scene


def test_a_throw_of_the_wrong_number_of_dice_is_refused() -> None:
    """A throw used for a roll of another count of dice is no throw for it: 2 dice for 1D6
    must not count as its first. (Mutant: the count check dropped.)"""
    with pytest.raises(IllegalAction, match=r"1D6 was wanted, the throw was \[3, 4\]"):
        Thrown([(3, 4)]).roll(1, 6)
    with pytest.raises(IllegalAction, match="2D6 was wanted"):
        Thrown([(3,)]).roll(2, 6)


def _table(with_die: bool) -> np.ndarray:
    frame = np.full((120, 160, 3), 90, np.uint8)
    if with_die:
        frame[40:80, 60:100] = 250
    return frame


def test_a_throw_seen_in_the_first_frame_after_a_read_counts_as_moved() -> None:
    """The motion check sees every frame, the read's too, so dice thrown again just as the
    last read ended count as moved in the very next frame. (Mutant: the check skipped
    while no read is held back, so the first frame after a read had nothing to compare
    with and the new throw was held back for ever.)"""
    before, after = _table(False), _table(True)
    stream = CameraFrames(iter([before, after]), Controls([ScriptedPresses([])]),
                          Motion().moving, sleep=lambda s: None)
    assert next(stream) is before
    stream.rethrow = True  # the read of ``before`` was taken
    assert next(stream) is after and not stream.rethrow


def test_a_tap_on_back_while_the_dice_are_awaited_goes_back() -> None:
    """The wait's one option is Back (Pick 0): a tap on it goes back as B does.
    (Mutant: only B.)"""
    stream = CameraFrames(itertools.repeat(_table(False)),
                          Controls([ScriptedPresses([[], [Pick(0, tap=True)]])]),
                          Motion().moving, sleep=lambda s: None)
    next(stream)
    with pytest.raises(RollCancelled):
        next(stream)


def test_the_first_live_read_left_for_the_system_menu_still_waits_for_a_after_it() -> None:
    """On a live camera the session's first read is not taken by the timeout. Left for the
    System menu and read again after Back, it is still the first: A takes it, the timeout
    does not. (Mutant: the read counted as offered, so the same dice counted by the timeout
    after the menu.)"""
    scene = still_scene(600, 2)
    frames = itertools.repeat(scene.image)
    camera = CameraStream(OpenCVCamera(0, opener=lambda device: Capture(frames)))
    player = Player([("Read 読み取り 2D6", Button.SYSTEM), ("System 設定", Pick(0))])
    rolls = session_rolls(camera, player)
    waits = 0

    def sleep(seconds: float) -> None:
        nonlocal waits
        waits += 1
        if waits == 200 and not player.script:  # long past the 3 s timeout: A
            player.script.append(("Read 読み取り 2D6", Button.ATTACK))

    rolls.sleep = sleep
    menu = SystemMenu(rolls.controls, "dice", 0.0, "", sleep=lambda s: None)
    throw = menu.answering(lambda: rolls.next_throw(RollAsk("to hit", 2, 6), player.show),
                           player.show, lambda: "")
    assert sorted(throw.values) == faces(scene) and waits >= 200
    menu_at = next(i for i, (p, _) in enumerate(player.shown) if p.startswith("System 設定"))
    assert any(FIRST_LIVE in status for _, status in player.shown[menu_at:])


def _judge(presses: list[list[Press]]) -> tuple[bool, Controls, ScriptedPresses, StepClock]:
    """A 2D6 read judged with ``presses`` one poll (0.1 s) apart, the first being what was
    pressed before the read was shown."""
    clock = StepClock()
    hands = ScriptedPresses(presses)
    controls = Controls([hands], clock=clock)
    rolls = CameraRolls(None, None, controls, accept_seconds=3.0,  # type: ignore[arg-type]
                        poll_seconds=0.1, sleep=clock.sleep, clock=clock)
    return rolls.judge(RollAsk("", 2, 6), (3, 4), lambda *a, **k: None), controls, hands, clock


def test_a_tap_made_before_the_read_was_shown_does_not_reject_it() -> None:
    """A tap where Reject is about to appear, made while the camera read the dice, does not
    judge the read; the timeout takes it. (Mutant: the presses before it not drained.)"""
    taken, _, _, clock = _judge([[Pick(1, tap=True)]])
    assert taken and clock.now >= 3.0


def test_a_read_rejected_by_a_tap_leaves_the_next_menu_unguarded_against_taps() -> None:
    """Only an accepting press guards the next menu against its double: a read rejected with
    a tap on Reject leaves a tap at once in the menu after it counted. (Mutant: the
    rejecting press guards too, and the tap 0.1 s after the menu is dropped.)"""
    taken, controls, hands, clock = _judge([[], [Pick(1, tap=True)]])
    assert not taken
    assert menu(controls, hands, clock,
                [[], [Pick(0, tap=True)], [], [], [], [Pick(0, tap=True)]]) == (0, 0.1)
