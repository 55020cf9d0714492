"""a77dice NIT 8: at the tray, two dice the camera cannot tell the value of were both asked
as "the die at the left" ((1 of 2), (2 of 2)), with nothing on the panel standing for
either; and the read after was to be checked ("check the value you typed") with no sign of
which values were typed."""

from __future__ import annotations

import time

import cv2

from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.source import CameraDiceSource
from tests.app.camera_roll_helpers import Clock
from tests.app.camera_roll_helpers import Player as Watching
from tests.hw.dice_photo_helpers import PHOTOS

#: Four dice, a 3 and a 2 read, two smoke-black ones at the left whose values are unclear.
TWO_UNCLEAR = PHOTOS / "nb_IMG_20191209_095929.jpg"


class Player(Watching):
    """Presses as a person does: never two within a double press of each other (the
    second of such would be taken for the first's bounce)."""

    def __init__(self, script: list[tuple[str, Press]]) -> None:
        super().__init__(script)
        self.pressed_at = -DOUBLE_PRESS_SECONDS

    def poll(self) -> list[Press]:
        if time.monotonic() - self.pressed_at <= DOUBLE_PRESS_SECONDS:
            return []
        presses = super().poll()
        if presses:
            self.pressed_at = time.monotonic()
        return presses


def test_each_unclear_die_is_placed_among_the_dice_and_the_typed_values_are_marked() -> None:
    # the first unclear die typed 2 (Pick(1)), the second 5 (Pick(4)), the read accepted
    player = Player([("Type the die", Pick(1)), ("Type the die", Pick(4)),
                     ("Read 読み取り 4D6", Button.ATTACK)])
    clock = Clock()
    controls = Controls([player])
    photo = cv2.imread(str(TWO_UNCLEAR))
    stream = CameraFrames(iter([photo] * 6), controls, lambda frame: False,
                          sleep=lambda s: None)
    source = CameraDiceSource(frames=stream, timeout_s=600.0, clock=clock,
                              sleep=lambda s: None)
    rolls = CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                        sleep=lambda s: None, clock=clock)
    throw = rolls.next_throw(RollAsk("", 4, 6), player.show)
    assert not player.script, player.shown
    asked = [prompt for prompt, _ in player.shown if prompt.startswith("Type the die")]
    first, second = dict.fromkeys(asked)  # each question, once, in turn
    assert "(1 of 2: [?], ?, 3, 2)" in first or "(1 of 2: [?], ?, 2, 3)" in first, first
    assert "(2 of 2: 2*, [?], " in second, second
    read = next(prompt for prompt, _ in player.shown if prompt.startswith("Read 読み取り"))
    assert read.startswith("Read 読み取り 4D6: 2*, 5*, ") and read.endswith(" (* typed 入力)")
    assert sorted(throw.values) == sorted([2, 5, 3, 2])
