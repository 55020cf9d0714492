"""How a player gives choices (input audit 67).

R1: a double A on the System menu's Unplug? (or Shut down's Yes), or on a mode that cannot be
played now, dismissed the message it brought at once, unread: "Not safe to unplug yet" too.
The message is now guarded against the press that chose, as a question is.

The presses come one poll (0.1 s) apart on a clock that moves as the session sleeps.
"""

from __future__ import annotations

from companion.app.session.controls import Controls
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button, Press
from tests.app.session_helpers import ScriptedPresses, StepClock
from tests.app.shown_helpers import Shown

POLL = 0.1
A = Button.ATTACK


def system_menu(presses: list[list[Press]], shutdown: str = "",
                unplayable: str = "") -> tuple[SystemMenu, Shown]:
    clock = StepClock()
    controls = Controls([ScriptedPresses(presses)], clock=clock)
    menu = SystemMenu(controls, "dice", POLL, shutdown, lambda mode: unplayable,
                      sleep=clock.sleep, clock=clock, service="")
    return menu, Shown(clock)


def test_a_double_a_on_unplug_leaves_its_message_up() -> None:
    """← to Unplug?, A, and A again 0.1 s after "Safe to unplug now" shows: it stays up; an A
    at 0.5 s goes back to the table."""
    menu, shown = system_menu([[], [Button.PREVIOUS], [A], [], [A], [], [], [], [A]])
    menu.open(shown)  # back to the table once the message is dismissed
    safe = shown.when("Safe to unplug now 電源を抜いても大丈夫")
    assert len(safe) == 1
    assert round(shown.clock.now - safe[0], 3) >= 0.3, shown.prompts  # not the double A


def test_a_double_on_shut_down_yes_leaves_could_not_shut_down_up() -> None:
    """Shut down, → Yes, A; A again 0.1 s after "Could not shut down" shows: it stays up."""
    menu, shown = system_menu([[], [Button.PREVIOUS], [A], [], [Button.MENU], [A], [], [A],
                               [], [], [], [A]], shutdown="false")
    menu.open(shown)
    failed = shown.when("Could not shut down 電源を切れません")
    assert len(failed) == 1
    assert round(shown.clock.now - failed[0], 3) >= 0.3, shown.prompts  # not the double A


def test_a_double_a_on_a_mode_not_playable_leaves_why_up() -> None:
    """→ to a mode that cannot be played now (the first after Back), A, A again 0.1 s after
    the reason shows: it stays up, until an A of its own; B then leaves the menu."""
    why = "No coc fight yet 戦闘がありません: make one on a computer"
    menu, shown = system_menu([[], [Button.MENU], [A], [], [A], [], [], [], [A], [],
                               [Button.FLEE]], unplayable=why)
    menu.open(shown)
    said = shown.when(why)
    assert len(said) == 1
    back = [at for at, prompt in shown.prompts if prompt.startswith("System") and at > said[0]]
    assert back and round(back[0] - said[0], 3) >= 0.3, shown.prompts  # not the double A

