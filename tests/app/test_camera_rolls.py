"""Camera dice in the play session: every roll asked for is a throw of its own.

The dice are rendered frames or a picture file (the camera's stand-ins); a live camera is
OpenCV's capture replaced at its opener; the player is scripted presses.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import FIRST_LIVE, TAKEN, CameraFrames, RollCancelled
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.capture import OpenCVCamera
from companion.hw.camera.pace import FRAME_PERIOD_S, IDLE_AFTER_S, IDLE_PERIOD_S
from companion.hw.dice.frames import CameraStream
from companion.hw.dice.source import CameraDiceSource, Motion
from tests.app.camera_roll_helpers import Capture, Player, faces, session_rolls
from tests.dice_scenes import still_scene


def test_the_dice_of_a_throw_taken_are_not_read_again_for_the_next_roll() -> None:
    """D1: a genso to-hit 2D6 read 5,6 and accepted (by the timeout, no key pressed); the
    damage 2D6 then read the same dice still lying there and counted 3 s later. The next
    roll now waits, saying so, until the dice are picked up and thrown again."""
    first, second = still_scene(600, 2), still_scene(700, 2)
    assert faces(first) != faces(second)
    player = Player([])  # no key: each read counts when its time runs out
    frames = itertools.chain([first.image] * 60, itertools.repeat(second.image, 60))
    rolls = session_rolls(frames, player)
    to_hit = rolls.next_throw(RollAsk("to hit", 2, 6), player.show)
    damage = rolls.next_throw(RollAsk("damage", 2, 6), player.show)
    assert sorted(to_hit.values) == faces(first)
    assert sorted(damage.values) == faces(second)
    asked = next(i for i, (p, _) in enumerate(player.shown) if "damage" in p)
    assert player.shown[asked][1] == TAKEN  # the damage wait says why it reads nothing yet


def test_a_follow_up_throw_with_the_die_unmoved_waits_for_it_to_be_thrown() -> None:
    """The dice tray's table follow-up (EV-MON-1: 1D6, then 1D6 how many) read the first
    die again; and 'Again' re-read the dice at once. Also B while waiting goes back."""
    die = still_scene(600, 1)
    player = Player([("Throw 1D6 in the dice area 1D6を振って: how many", Button.FLEE)])
    rolls = session_rolls(itertools.repeat(die.image, 400), player)
    first = rolls.next_throw(RollAsk("which monster", 1, 6), player.show)
    assert sorted(first.values) == faces(die)
    again = rolls.next_throw(RollAsk("how many", 1, 6), player.show)
    assert again == Throw(back=True)  # never read: the die never moved
    asked = next(i for i, (p, _) in enumerate(player.shown) if "how many" in p)
    assert player.shown[asked][1] == TAKEN
    assert not any(p.startswith("Read 読み取り 1D6") for p, _ in player.shown[asked:])


def test_on_a_live_camera_the_first_read_of_a_session_waits_for_a() -> None:
    """Dice lying still when a session starts on a live camera may be a throw taken
    before (the last session, or before a power cut): the first read is shown and not
    taken by the timeout; A takes it. The next read counts by the timeout as usual."""
    first, second = still_scene(600, 2), still_scene(700, 2)
    frames = itertools.chain([first.image] * 60, itertools.repeat(second.image, 60))
    camera = CameraStream(OpenCVCamera(0, opener=lambda device: Capture(frames)))
    assert camera.live and not camera.still
    player = Player([])
    rolls = session_rolls(camera, player)
    waits = 0

    def sleep(seconds: float) -> None:
        nonlocal waits
        waits += 1
        if waits == 200:  # long past the 3 s the timeout gives: the player presses A
            player.script.append(("Read 読み取り 2D6", Button.ATTACK))

    rolls.sleep = sleep
    throw = rolls.next_throw(RollAsk("to hit", 2, 6), player.show)
    assert sorted(throw.values) == faces(first) and waits >= 200
    assert any(FIRST_LIVE in status for _, status in player.shown)
    later = rolls.next_throw(RollAsk("damage", 2, 6), player.show)
    assert sorted(later.values) == faces(second) and waits < 400  # by the timeout


def test_a_die_the_camera_cannot_read_is_typed() -> None:
    """The dice tray's poison table, effect 6 (EV-POI-9's Default: 1D4 for the ability) with
    camera dice could never be finished ("the camera reads six-sided pip dice only, not
    D4"): the player throws their own D4 and types it; back goes back; a die larger than
    ten faces (a D20 in the tray's rolls, refused "the camera reads six-sided pip dice
    only" before) is typed as its tens, then its units. The prompt opens with typing it (it
    said "Throw 1D4 in the dice area", the typing cut off its end) and why is under it."""
    die = still_scene(600, 1)
    second_d3 = "Type the D3 you threw (2 of 2, so far 1 入力済) 1D3の出目を入力: damage"
    player = Player([("Type the D4", Pick(2)), ("Type the D3 you threw (1", Pick(0)),
                     (second_d3, Pick(2)), ("Type the D4", Button.FLEE),
                     ("Type the D20 you threw, tens", Pick(0)),
                     ("Type the D20 you threw, units", Pick(8))])
    rolls = session_rolls(itertools.repeat(die.image, 50), player)
    assert rolls.next_throw(RollAsk("which ability 能力値", 1, 4), player.show) == Throw((3,))
    assert player.shown[0] == ("Type the D4 you threw 1D4の出目を入力: which ability 能力値",
                               "the camera reads D6 only カメラはD6のみ")
    assert not any("in the dice area" in prompt for prompt, _ in player.shown)
    assert rolls.next_throw(RollAsk("damage", 2, 3), player.show) == Throw((1, 3))
    assert rolls.next_throw(RollAsk("", 1, 4), player.show) == Throw(back=True)
    assert rolls.next_throw(RollAsk("", 1, 20), player.show) == Throw((19,))  # 1_ then 9


def test_the_system_menu_over_a_read_awaiting_its_word_leaves_the_throw_unread() -> None:
    """The System menu opened while a read waits for A (review 4): the read was counted as
    taken, so after Back the screen said "throw taken: pick the dice up" and the same dice,
    never judged, were not read again (a still picture never could be). They are read again
    and offered, and A takes them."""
    scene = still_scene(600, 2)
    player = Player([("Read 読み取り 2D6", Button.SYSTEM), ("System 設定", Pick(0)),
                     ("Read 読み取り 2D6", Button.ATTACK)])
    rolls = session_rolls(itertools.repeat(scene.image, 400), player)
    menu = SystemMenu(rolls.controls, "dice", 0.0, "", sleep=lambda s: None)
    throw = menu.answering(lambda: rolls.next_throw(RollAsk("to hit", 2, 6), player.show),
                           player.show, lambda: "")
    assert sorted(throw.values) == faces(scene) and not player.script
    after_menu = [status for prompt, status in player.shown[
        next(i for i, (p, _) in enumerate(player.shown) if p.startswith("System 設定")):]]
    assert not any(status.startswith(TAKEN) for status in after_menu)


def test_held_back_frames_are_paced_and_a_throw_minutes_later_is_read() -> None:
    """soak57 F2: while the last throw's dice lay there, the session's frames were taken in
    a busy loop (a camera that does not block kept a core busy); and the throw made after
    the 2 minutes of a wait was given up on as it came ("no steady read"). Held-back frames
    are taken a frame period apart, a quarter second apart once nothing has moved for some
    seconds, and the throw made after minutes of talk is read."""
    now = [0.0]
    taken: list[float] = []

    def sleep(seconds: float) -> None:
        now[0] += seconds

    first, second = still_scene(600, 2), still_scene(700, 2)
    blur = np.full_like(first.image, 128)  # a hand over the dice area

    def frames() -> Iterator[np.ndarray]:
        for image in itertools.chain([first.image] * 900, [blur], [second.image] * 20):
            taken.append(now[0])
            yield image

    stream = CameraFrames(frames(), Controls([Player([])]), Motion().moving, sleep=sleep,
                          clock=lambda: now[0])
    stream.rethrow = True  # the first throw was read: its dice lie there unmoved
    source = CameraDiceSource(frames=stream, clock=lambda: now[0], sleep=sleep)
    read = source.read_throw(2, 6)
    assert sorted(read.values) == faces(second)
    held = taken[:900]
    assert now[0] > 200.0 > source.timeout_s
    gaps = np.diff(held)
    assert gaps.min() >= FRAME_PERIOD_S - 1e-9
    assert min(gap for at, gap in zip(held[1:], gaps, strict=True)
               if at > IDLE_AFTER_S + IDLE_PERIOD_S) >= IDLE_PERIOD_S - 1e-9


def test_back_while_the_camera_is_looked_at_slowly_still_goes_back() -> None:
    """B pressed after 10 s of nothing moving (frames a quarter second apart) goes back
    within that quarter second."""
    now = [0.0]

    class Late:
        """A player who presses B at 10 s."""

        def poll(self) -> list[Press]:
            return [Button.FLEE] if now[0] >= 10.0 else []

    die = still_scene(600, 1)
    stream = CameraFrames(itertools.repeat(die.image), Controls([Late()]), Motion().moving,
                          sleep=lambda seconds: now.__setitem__(0, now[0] + seconds),
                          clock=lambda: now[0])
    stream.rethrow = True
    with pytest.raises(RollCancelled):
        next(stream)
    assert 10.0 <= now[0] <= 10.0 + IDLE_PERIOD_S
