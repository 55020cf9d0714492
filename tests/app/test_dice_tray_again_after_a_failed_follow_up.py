"""The dice tray's *Again* after a follow-up throw failed (events64 D1): it threw the table's
own die again, a free reroll of an outcome already accepted. It now keeps the throws taken
and asks the die the walk awaits; only *Menu* drops the walk."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator

import numpy as np
from rich.console import Console

from companion.app.modes.dice_tray import NO_ROLL, DiceTrayMode
from companion.app.session.controls import Controls
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.dice import ScriptedDice
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.events.run import run_event
from tests.app.dice_tray_helpers import Keys, Recorded, menu, outcome, quitting, shown_read, tray
from tests.app.dice_tray_walk_helpers import _monster_after, picked_afresh
from tests.dice_scenes import still_scene

TIMED_OUT = "no steady read of 1 die in 120 s 読み取れず"


def test_again_after_a_failed_follow_up_asks_the_awaited_die_with_the_throws_kept() -> None:
    """The audit's repro: a 6 (±0, 1D6 monsters) taken, the count's throw timed out, Again
    asked the table's die again (the 6 could be thrown again as a 1, +2 ×1)."""
    mode = _monster_after(6)
    awaited = mode.ask()
    assert isinstance(awaited, RollAsk)
    mode.answer(Throw(failure=TIMED_OUT))
    failed = mode.ask()
    assert isinstance(failed, ChoiceAsk) and failed.prompt == NO_ROLL
    assert TIMED_OUT in mode.view(failed.prompt).status
    mode.answer(0)  # Again
    assert mode.ask() == awaited  # the count's die: "how many monsters …, roll 2"
    assert mode.throws == [(6,)]
    assert mode.view("…").status == ""  # the failure said no more once asked again
    mode.answer(Throw((4,)))
    whole = run_event("monster", ScriptedDice([(6, 6), (6, 4)]), mode="generic")
    assert [(s.rule, s.text) for s in mode.dice.steps] == [(s.rule, s.text)
                                                          for s in whole.steps]
    assert mode.dice.faces == (6, 4)


def test_a_follow_up_that_fails_again_is_asked_again_still() -> None:
    """Two failures in a row keep the walk too: the table's throw is never asked again."""
    mode = _monster_after(3)
    awaited = mode.ask()
    for _ in range(2):
        mode.answer(Throw(failure=TIMED_OUT))
        mode.answer(0)  # Again
        assert mode.ask() == awaited and mode.throws == [(3,)]


def test_a_first_throw_that_fails_starts_the_table_afresh() -> None:
    mode = DiceTrayMode(("1D6",), "camera カメラ")
    mode.answer(1)  # Event table
    mode.answer(3)  # Monster
    first = mode.ask()
    mode.answer(Throw(failure=TIMED_OUT))
    mode.answer(0)  # Again
    assert mode.ask() == first and mode.throws == []


def test_menu_after_a_failed_follow_up_drops_the_walk() -> None:
    """Menu gives the walk up: the table picked again starts from its own die."""
    mode = _monster_after(6)
    mode.answer(Throw(failure=TIMED_OUT))
    mode.answer(1)  # Menu
    picked_afresh(mode)


def test_again_after_the_camera_stopped_on_a_follow_up_in_the_session() -> None:
    """The tray under the play session on rendered dice: the table's die read and accepted,
    then the camera gives no more frames; *Try the camera again* fails the throw, and
    Again asked the table's die anew. It asks the count's die, which the player types
    once the camera still gives nothing, and the walk is the one those two dice make."""
    scene = still_scene(600, 1, unlike=(1,))  # a 2 to 6: the count's die follows
    (face,) = (d.value for d in scene.dice)
    console = Console(file=io.StringIO(), width=120)
    display = Recorded(TerminalDisplay(console))

    def no_picture(view: View) -> bool:
        return "gives no picture" in view.prompt

    def no_roll(view: View) -> bool:
        return view.prompt == NO_ROLL

    def typing_the_count(view: View) -> bool:
        return "Type the D6" in view.prompt and "how many monsters" in view.prompt

    def whole(view: View) -> bool:
        return outcome(view) and view.prompt != NO_ROLL

    keys = Keys(display, [(menu, b"2"), (lambda v: "Which table" in v.prompt, b"4"),
                          (shown_read, b"a"), (no_picture, b"f"), (no_roll, b"a"),
                          (no_picture, b"a"), (typing_the_count, b"4"), (whole, b"f"),
                          (menu, b"f"), (quitting, b"2")])
    controls = Controls([keys.keyboard, display], clock=keys.time_at_the_table)
    stream: Iterator[np.ndarray] = itertools.chain([scene.image] * 30)  # then none
    frames = CameraFrames(stream, controls, Motion().moving)
    rolls = CameraRolls(CameraDiceSource(frames=frames), frames, controls, accept_seconds=30.0,
                        poll_seconds=0.0, sleep=keys.sleep)
    try:
        tray(rolls, controls, display, "camera カメラ", ("2D6",), keys.sleep).run()
    finally:
        keys.close()
    assert not keys.script
    shown = next(v for v in display.views if whole(v))
    walk = run_event("monster", ScriptedDice([(6, face), (6, 4)]), mode="generic")
    assert shown.dice is not None and shown.dice.faces == (face, 4)
    assert [s.text for s in shown.dice.steps] == [s.text for s in walk.steps]
