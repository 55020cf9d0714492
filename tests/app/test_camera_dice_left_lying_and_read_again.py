"""reviewdice66's findings on camera dice, fixed: some dice of a throw lifted away and the
rest left lying were counted as the next roll (DEFECT 1); the dice read before a mode switch
were read as a new throw after it (DEFECT 2); a read refused as the last throw's dice said
only "throw taken" (RISK 1). The dice are rendered throws; the player is scripted presses."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import TAKEN
from companion.app.session.system_menu import ModeSwitch, SystemMenu
from companion.hw.buttons import Button
from companion.hw.dice import frames as dice_frames
from companion.hw.dice.source import CameraDiceSource
from tests.app.camera_dice_roll_helpers import faces, rolls_on
from tests.app.dice_camera_helpers import Clock, Hands
from tests.app.table import PlayerAtTheScreen
from tests.dice_scenes import still_scene

SYSTEM = "System 設定"


def lifted(image: np.ndarray, die: Any) -> np.ndarray:
    """``image`` with ``die`` lifted away: felt from the view's corner laid over it."""
    out = image.copy()
    x, y, r = int(die.centre[0]), int(die.centre[1]), int(die.side_px)
    out[y - r:y + r, x - r:x + r] = image[5:5 + 2 * r, 5:5 + 2 * r]
    return out


def one_lifted() -> tuple[Any, Any, np.ndarray, Any]:
    """A 2D6 throw, the same with one die lifted away (the other lying where it lay, read
    alone), the die kept, and a new 1D6 throw unlike it."""
    first = still_scene(600, 2)
    keep, gone = first.dice
    one = lifted(first.image, gone)
    assert CameraDiceSource(frames=[one] * 10).roll(1, 6) == [keep.value]  # read alone
    other = still_scene(700, 1, unlike=(keep.value,))
    return first, keep, one, other


def damage_after_a_die_lifted() -> tuple[tuple[int, ...], tuple[int, ...], Any, Any, Hands]:
    clock = Clock()
    first, _, one, other = one_lifted()
    frames = itertools.chain([first.image] * 60, [one] * 200, itertools.repeat(other.image, 100))
    hands = Hands([], clock)  # no key: each read counts when its time runs out
    rolls = rolls_on(frames, hands, clock)
    to_hit = rolls.next_throw(RollAsk("to hit 命中", 2, 6), hands.show)
    damage = rolls.next_throw(RollAsk("damage ダメージ", 1, 6), hands.show)
    return to_hit.values, damage.values, first, other, hands


def test_a_die_of_the_to_hit_left_lying_is_not_the_damage() -> None:
    """reviewdice66 DEFECT 1: one die of a genso 2D6 to-hit picked up, the other left
    untouched: the die left was read alone, not the same dice (as many dice were asked), and
    counted as the 1D6 damage with no die thrown. Now the damage is the die thrown after."""
    to_hit, damage, first, other, _ = damage_after_a_die_lifted()
    assert sorted(to_hit) == faces(first)
    assert list(damage) == faces(other)


def test_the_dice_of_the_last_throw_read_again_are_said_so() -> None:
    """reviewdice66 RISK 1: the read refused as the last throw's dice lying where they lay
    said only "throw taken", as if the camera had seen nothing; a throw just made that
    landed so seemed missed. It now says they are the same dice."""
    from companion.hw.dice.readings import SAME_DICE, guidance

    *_, hands = damage_after_a_die_lifted()
    waits = [status for prompt, status in hands.shown if "damage" in prompt]
    assert SAME_DICE in waits
    assert guidance(SAME_DICE)


def test_dice_taken_before_a_mode_switch_are_not_the_next_roll_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewdice66 DEFECT 2: the dice tray's EV-MON-1 roll 1 taken on the camera, System →
    Genso → Dice tray: the table is carried on, but the mode's camera rolls were new, and
    the die taken for roll 1, lying untouched, was read and counted as roll 2. Now roll 2 is
    the die thrown after coming back."""
    die = still_scene(600, 1)
    other = still_scene(700, 1, unlike=tuple(faces(die)))
    cameras: list[Iterator[np.ndarray]] = [
        itertools.repeat(die.image),  # roll 1 thrown, read and taken
        itertools.chain([die.image] * 60, itertools.repeat(other.image)),  # then thrown again
    ]
    monkeypatch.setattr(dice_frames, "frame_iterator", lambda source: cameras.pop(0))
    config = load_config(env={"COMPANION_CONFIG_DIR": str(tmp_path)},
                         overrides={"dice.source": "camera", "input.poll_seconds": 0.005,
                                    "input.accept_seconds": 0.3})
    roll_2 = "Throw 1D6 in the dice area 1D6を振って: how many monsters"
    away = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", "2"),
                              ("Which table?", "3"), (roll_2, Button.SYSTEM),
                              (SYSTEM, "mode:genso")])
    controls = Controls([away])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, away, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert not away.script  # roll 1 taken, roll 2 awaited when the player left

    back = PlayerAtTheScreen([("Read 読み取り 1D6", Button.ATTACK)])
    controls = Controls([back])
    with pytest.raises(KeyboardInterrupt):  # the script run out: the power goes
        run_dice_tray(config, back, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert back.views[0].prompt.startswith(roll_2)  # the table carried on
    assert back.views[0].status == TAKEN  # its die lying there, unmoved
    outcome = back.views[-1]
    assert outcome.prompt.startswith("モンスター Monster: the table's outcome")
    assert outcome.dice is not None
    rolls = outcome.dice.rolls
    assert rolls[0].startswith(f"(1D6) ＞ {faces(die)[0]}")
    assert rolls[1].startswith(f"(1D6) ＞ {faces(other)[0]}")
