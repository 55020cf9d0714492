"""dice66's findings on camera dice, fixed: a double press on a read's Reject (D2), the dice
tray's table under way across a mode switch (D3), and a throw already counted read again
after motion elsewhere in view (D1). The dice are rendered throws; the player is scripted
presses on a clock of the test's."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import REJECTED, TAKEN
from companion.app.session.system_menu import (
    TABLE_NOT_SAVED,
    UNPLUG_LOSES_TABLE,
    ModeSwitch,
    SystemMenu,
)
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.source import CameraDiceSource
from tests.app.camera_dice_roll_helpers import faces, rolls_on
from tests.app.dice_camera_helpers import Clock, Hands
from tests.app.dice_tray_file_helpers import refuse_the_tray_s_file
from tests.app.table import PlayerAtTheScreen
from tests.dice_scenes import still_scene

SYSTEM = "System 設定"


# -- D2: a double press on Reject ------------------------------------------------------------

def reject_twice(first_press: Press, second_press: Press) -> tuple[Throw, Hands, Any]:
    """A damage read rejected by ``first_press``, its double ``second_press`` 0.1 s later,
    read by the wait that follows; then the dice thrown again."""
    clock = Clock()
    first = still_scene(600, 1)
    second = still_scene(700, 1, unlike=tuple(faces(first)))
    hands = Hands([("Read 読み取り 1D6", [first_press, second_press])], clock)
    frames = itertools.chain([first.image] * 40, itertools.repeat(second.image, 200))
    rolls = rolls_on(frames, hands, clock)
    return rolls.next_throw(RollAsk("damage ダメージ", 1, 6), hands.show), hands, second


def test_b_twice_on_a_read_rejects_it_and_does_not_give_up_the_throw() -> None:
    """dice66 D2: the second B of a double press on *Reject やり直し* was read by the wait
    after it as its Back: in a fight the attack was given up with its accepted to-hit."""
    throw, hands, second = reject_twice(Button.FLEE, Button.FLEE)
    assert not throw.back
    assert sorted(throw.values) == faces(second)
    assert any(status.startswith(REJECTED) for _, status in hands.shown)


def test_a_double_tap_on_reject_does_not_tap_the_wait_s_back() -> None:
    """The wait's Back is drawn where the read's Accept was: any tap after a tap is a
    double's (controls.doubles)."""
    throw, _, second = reject_twice(Pick(1, tap=True), Pick(0, tap=True))
    assert not throw.back and sorted(throw.values) == faces(second)


def test_b_after_the_double_press_time_still_goes_back() -> None:
    """The guard is only the double's: a B of the player's own after it gives the throw up."""
    clock = Clock()
    first = still_scene(600, 1)
    hands = Hands([("Read 読み取り 1D6", [Button.FLEE, Button.FLEE])], clock,
                  gap=DOUBLE_PRESS_SECONDS + 0.2)
    rolls = rolls_on(itertools.repeat(first.image, 200), hands, clock)
    assert rolls.next_throw(RollAsk("damage ダメージ", 1, 6), hands.show) == Throw(back=True)


def test_the_next_roll_after_a_read_rejected_and_backed_out_of_does_not_say_taken() -> None:
    """dice66 NIT 1: the next roll's wait said "throw taken 確定" of dice rejected.

    The B that left the first wait guards what comes after it against its double
    (reviewf67 RISK 1: a double B on a fight's damage wait gave up the action held): the B
    on the next wait is the player's own, pressed once it is read, after the double's
    time. (Pressed at once, it is that B's double and is dropped: the wait goes on.)"""
    clock = Clock()
    die = still_scene(600, 1)
    hands = Hands([("Read 読み取り 1D6", [Button.FLEE, Button.FLEE])], clock,
                  gap=DOUBLE_PRESS_SECONDS + 0.2)
    rolls = rolls_on(itertools.repeat(die.image, 400), hands, clock)
    assert rolls.next_throw(RollAsk("damage ダメージ", 1, 6), hands.show) == Throw(back=True)
    hands.script.append(("Throw 1D6", [Button.FLEE], DOUBLE_PRESS_SECONDS + 0.1))
    shown = len(hands.shown)
    assert rolls.next_throw(RollAsk("to hit 命中", 1, 6), hands.show) == Throw(back=True)
    assert hands.shown[shown][1] == REJECTED


# -- D3: the dice tray's table across a mode switch -----------------------------------------

def test_a_table_under_way_is_carried_on_when_the_run_comes_back_to_the_tray(
        tmp_path: Path) -> None:
    """dice66 D3: System → another mode → System → Dice tray came back to the tray's menu,
    EV-MON-1's taken roll gone, to be thrown again; the menu says the mode left is carried
    on. Now the table's next die is asked, its first roll kept."""
    config = load_config(env={"COMPANION_CONFIG_DIR": str(tmp_path)},
                         overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    away = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", "2"),
                              ("Which table?", "3"), ("Type the D6", "2"),
                              ("Type the D6", Button.SYSTEM), (SYSTEM, "mode:genso")])
    controls = Controls([away])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, away, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    roll_2 = [v for v in away.views if "roll 2 2投目" in v.prompt]
    assert roll_2  # the table's follow-up was awaited when the player left

    back = PlayerAtTheScreen([("Type the D6", "4")])
    controls = Controls([back])
    with pytest.raises(KeyboardInterrupt):  # the script run out: the power goes
        run_dice_tray(config, back, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert back.views[0].prompt == roll_2[-1].prompt  # its next die, not the menu
    outcome = back.views[-1]
    assert outcome.prompt.startswith("モンスター Monster: the table's outcome")
    assert outcome.dice is not None
    rolls = outcome.dice.rolls
    assert rolls[0].startswith("(1D6) ＞ 2") and rolls[1].startswith("(1D6) ＞ 4")


# -- D1: a throw counted again after motion elsewhere ----------------------------------------

def with_hand(image: np.ndarray, where: str) -> np.ndarray:
    """A hand (a flat skin-coloured block) over the middle of the view (the dice), or at
    its left edge, away from them."""
    out = image.copy()
    h, w = out.shape[:2]
    if where == "over":
        out[h // 4:3 * h // 4, w // 4:3 * w // 4] = (120, 150, 200)
    else:
        out[0:h // 3, 0:w // 5] = (120, 150, 200)
    return out


def two_rolls(between: list[Any]) -> tuple[Throw, Throw, Any, Any, Hands]:
    """A to-hit 2D6 taken by the timeout, ``between`` (frames or why none) with its dice
    left lying, the same dice lying after it, then a new throw; the damage 2D6 after."""
    clock = Clock()
    first = still_scene(600, 2)
    other = still_scene(700, 2, unlike=tuple(faces(first)))
    frames = itertools.chain([first.image] * 60, between, [first.image] * 200,
                             itertools.repeat(other.image, 100))
    hands = Hands([], clock)  # no key: each read counts when its time runs out
    rolls = rolls_on(frames, hands, clock)
    to_hit = rolls.next_throw(RollAsk("to hit 命中", 2, 6), hands.show)
    damage = rolls.next_throw(RollAsk("damage ダメージ", 2, 6), hands.show)
    return to_hit, damage, first, other, hands


@pytest.mark.parametrize("where", ["over", "edge"])
def test_a_hand_passing_does_not_make_the_dice_taken_a_new_throw(where: str) -> None:
    """dice66 D1: a hand over the view (over the dice, or far from them) was motion, and the
    same dice, unmoved, were then read and counted for the damage, with no new throw."""
    first = still_scene(600, 2)
    to_hit, damage, first, other, hands = two_rolls([with_hand(first.image, where)] * 5)
    assert sorted(to_hit.values) == faces(first)
    assert sorted(damage.values) == faces(other)
    waits = [status for prompt, status in hands.shown if "damage" in prompt]
    assert TAKEN in waits  # said while the same dice lay there after the hand


def test_a_camera_picture_gone_and_back_does_not_make_the_dice_taken_a_new_throw() -> None:
    """dice66 D1: a webcam reopening (no picture for a few frames, then an exposure ramp)."""
    first = still_scene(600, 2)
    ramp = [(first.image * k).astype(np.uint8) for k in (0.5, 0.7, 0.85)]
    _, damage, _, other, _ = two_rolls(["camera:0 gives no picture; retrying"] * 4 + ramp)
    assert sorted(damage.values) == faces(other)


def test_the_same_values_thrown_elsewhere_are_a_new_throw() -> None:
    """The dice picked up and thrown again, landing on the same values in other places,
    count: only the same values in the same places are the dice unmoved."""
    clock = Clock()
    first = still_scene(600, 1)
    moved = np.roll(first.image, (first.image.shape[0] // 5, first.image.shape[1] // 5),
                    axis=(0, 1))
    frames = itertools.chain([first.image] * 60, itertools.repeat(moved, 200))
    hands = Hands([], clock)
    rolls = rolls_on(frames, hands, clock)
    to_hit = rolls.next_throw(RollAsk("to hit 命中", 1, 6), hands.show)
    damage = rolls.next_throw(RollAsk("damage ダメージ", 1, 6), hands.show)
    assert to_hit.values == damage.values == tuple(faces(first))


def test_companion_roll_s_second_throw_is_not_the_first_after_a_hand() -> None:
    """dice66 D1, ``companion roll 1D6+1D6 --dice camera``: the same for the source's own
    rolls (``new_throw``)."""
    first = still_scene(600, 1)
    other = still_scene(700, 1, unlike=tuple(faces(first)))
    frames = itertools.chain([first.image] * 20, [with_hand(first.image, "edge")] * 5,
                             [first.image] * 100, itertools.repeat(other.image, 100))
    source = CameraDiceSource(frames=frames, timeout_s=600.0, sleep=lambda s: None)
    assert source.roll(1, 6) == faces(first)
    assert source.roll(1, 6) == faces(other)


def test_the_menu_over_a_table_part_thrown_says_a_power_cut_loses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dice66 D3: under the tray's table part-thrown, the System menu said "every step is
    saved 保存済み" and its Unplug "Safe to unplug now": true now but while the disk refuses
    the tray's file (dice/tray.json), the table then held in memory only."""
    refuse_the_tray_s_file(monkeypatch)
    config = load_config(env={"COMPANION_CONFIG_DIR": str(tmp_path)},
                         overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", "2"),
                                ("Which table?", "3"), ("Type the D6", "2"),
                                ("Type the D6", Button.SYSTEM), (SYSTEM, "off"),
                                (UNPLUG_LOSES_TABLE[:20], "ok")])
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert not screen.script
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {TABLE_NOT_SAVED}"
    assert not any("Safe to unplug" in v.prompt for v in screen.views)
