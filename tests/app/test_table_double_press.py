"""A double tap on Accept at the table (table audit F1): the second A press lands a fraction
of a second after the next menu appears. It must not choose there: the highlighted Fight
wakes a sleeping monster (JR-STATE-1), and on the farewell it throws Game over away."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from companion.app.commands.play.telling import farewell
from companion.app.config import load_config
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Confirm, Controls
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, RollAsk, Show
from companion.app.session.reads import ReadState, wait_for_tile
from companion.hw.buttons import Button, Pick, Press
from companion.hw.ports import Slot
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.wall import TileLedger
from tests.app.double_press_helpers import menu
from tests.app.session_helpers import (
    RecordingDisplay,
    ScriptedPresses,
    ScriptedReader,
    StepClock,
    draw,
)


def accept_a_read(presses: list[list[Press]]) -> tuple[Controls, ScriptedPresses, StepClock]:
    """A tile read and accepted by ``presses`` (or the timeout); the controls after it."""
    clock = StepClock()
    hands = ScriptedPresses(presses)
    controls = Controls([hands], clock=clock)
    wait_for_tile(ScriptedReader([[draw("3m")]]), ReadState(), Slot.DRAW, TileLedger(),
                  controls, Confirm(1.0, clock), lambda *shown: None, 0.1, clock.sleep)
    return controls, hands, clock


def test_the_second_press_of_a_double_tap_on_accept_does_not_fight() -> None:
    controls, hands, clock = accept_a_read([[], [Button.ATTACK]])
    # The double tap's second A 0.1 s after the menu shows; the player's own A at 0.5 s.
    chosen, after = menu(controls, hands, clock,
                         [[], [Button.ATTACK], [], [], [], [Button.ATTACK]])
    assert (chosen, after) == (1, 0.5)


def test_other_presses_count_at_once_and_a_later_menu_is_not_guarded() -> None:
    controls, hands, clock = accept_a_read([[], [Button.ATTACK]])
    # ITEM moves the highlight at once (only A is held back); A read at 0.4 s takes it: the
    # polls 0.1 s apart, it is judged as come when read (came_at, review65g RISK 1). (Dated
    # at the poll before, 0.3 s, it was dropped, and only A again, at 0.6 s, took it.)
    assert menu(controls, hands, clock,
                [[Button.ITEM], [Button.ATTACK], [], [], [Button.ATTACK], [],
                 [Button.ATTACK]]) == (2, 0.4)
    # The next menu does not follow a read: A counts at once.
    assert menu(controls, hands, clock, [[Button.ATTACK]]) == (1, 0.0)


def test_a_read_that_counted_by_its_countdown_leaves_the_menu_unguarded() -> None:
    controls, hands, clock = accept_a_read([])
    assert menu(controls, hands, clock, [[], [Button.ATTACK]]) == (1, 0.1)


def test_game_over_stays_on_the_screen_through_a_double_tap(tmp_path: Path) -> None:
    """The killing tile accepted with a double tap: the farewell's New game is not chosen
    by the second press; the Game over screen waits for a press of its own."""
    controls, hands, clock = accept_a_read([[], [Button.ATTACK]])
    screen = RecordingDisplay()
    config = load_config(tmp_path / "none.toml", env={}, overrides={"input.poll_seconds": 0.1})
    game = Game("plus")
    session = Session(JongRogueMode(game), choices=NoChoices(), display=screen)
    hands.script = deque([[], [], [Button.ATTACK], [], [], [], [Button.ATTACK]])
    start = clock.now
    assert farewell(session, game, screen, controls, config, headless=False,
                    sleep=clock.sleep) is True
    # The second A, 0.1 s after Game over shows, is ignored; the one at 0.5 s counts.
    assert round(clock.now - start, 3) == 0.5
    assert screen.views[-1].options[0].label == "New game 新しいゲーム"


class NoChoices:
    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        raise AssertionError("no choice is asked here")


def test_dice_accepted_with_a_guard_the_menu_after_them_too() -> None:
    """A genso or coc fight, or the dice tray: a throw's read accepted with a double tap on A
    must not choose in the menu that follows either (table audit F1's follow-up)."""
    from companion.app.session.rolls import CameraRolls

    clock = StepClock()
    hands = ScriptedPresses([[], [Button.ATTACK]])
    controls = Controls([hands], clock=clock)
    # Judging a read needs no camera: the read is given.
    rolls = CameraRolls(None, None, controls, accept_seconds=3.0,  # type: ignore[arg-type]
                        poll_seconds=0.1, sleep=clock.sleep, clock=clock)
    assert rolls.judge(RollAsk("", 2, 6), (3, 4), lambda *args, **kwargs: None)
    chosen, after = menu(controls, hands, clock,
                         [[], [Button.ATTACK], [], [], [], [Button.ATTACK]])
    assert (chosen, after) == (1, 0.5)


def test_a_double_tap_on_the_screens_accept_does_not_pick_in_the_next_menu() -> None:
    """A touch screen's Accept (a Pick): the second tap lands on whichever option of the next
    menu lies under the finger, so any tap in the window is the double's; buttons count."""
    controls, hands, clock = accept_a_read([[], [Pick(0, tap=True)]])
    assert menu(controls, hands, clock,
                [[], [Pick(2, tap=True)], [], [], [], [Pick(2, tap=True)]]) == (2, 0.5)
    controls, hands, clock = accept_a_read([[], [Pick(0, tap=True)]])
    assert menu(controls, hands, clock, [[], [Button.ATTACK]]) == (1, 0.1)
    # A number key is not a tap: the key that accepted the read, then another, count.
    controls, hands, clock = accept_a_read([[], [Pick(0)]])
    assert menu(controls, hands, clock, [[], [Pick(2)]]) == (2, 0.1)


def test_a_throw_rejected_by_a_tap_leaves_the_menu_after_it_unguarded() -> None:
    from companion.app.session.rolls import CameraRolls

    clock = StepClock()
    hands = ScriptedPresses([[], [Pick(1)]])
    controls = Controls([hands], clock=clock)
    rolls = CameraRolls(None, None, controls, accept_seconds=3.0,  # type: ignore[arg-type]
                        poll_seconds=0.1, sleep=clock.sleep, clock=clock)
    assert rolls.judge(RollAsk("", 2, 6), (3, 4), lambda *args, **kwargs: None) is False
    assert menu(controls, hands, clock, [[], [Pick(0)]]) == (0, 0.1)


def pick_a_tile(controls: Controls, hands: ScriptedPresses, clock: StepClock,
                presses: list[list[Press]]) -> None:
    """A tile the reader cannot settle on, taken from its likeliest picks by ``presses``."""
    hands.script = deque([[], *presses])
    wait_for_tile(ScriptedReader([[draw(None, "7p", "4z", "1s")]]), ReadState(), Slot.DRAW,
                  TileLedger(), controls, Confirm(1.0, clock), lambda *shown: None, 0.1,
                  clock.sleep)


def test_a_pick_taken_with_a_double_press_guards_the_next_menu_too() -> None:
    controls, hands, clock = accept_a_read([])  # counted by its countdown: no guard yet
    pick_a_tile(controls, hands, clock, [[Button.ITEM], [Button.ATTACK]])
    assert menu(controls, hands, clock, [[], [Button.ATTACK], [], [], [], [Button.ATTACK]]) \
        == (1, 0.5)
    pick_a_tile(controls, hands, clock, [[Pick(1, tap=True)]])
    assert menu(controls, hands, clock,
                [[], [Pick(2, tap=True)], [], [], [], [Pick(2, tap=True)]]) == (2, 0.5)


def test_the_guard_is_the_last_reads_own() -> None:
    """A read accepted with A, then a tile for the same step picked with a tap: the menu after
    them is guarded against the tap's double only, and an A at once counts."""
    controls, hands, clock = accept_a_read([[], [Button.ATTACK]])
    pick_a_tile(controls, hands, clock, [[Pick(0, tap=True)]])
    assert menu(controls, hands, clock, [[], [Button.ATTACK]]) == (1, 0.1)
