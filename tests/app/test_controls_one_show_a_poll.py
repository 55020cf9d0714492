"""A tap on a long menu's page box is MENU as many times as the page is long (the screen's
``_hit``): the menu was drawn and flipped once a MENU, the highlight seen stepping through the
page before the next one came (input audit 63 N2). The presses of one poll are applied
together and the menu shown once after them."""

from __future__ import annotations

from typing import Any

from companion.app.session.controls import Controls, choose
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.view import Option
from tests.app.session_helpers import ScriptedPresses, StepClock

OPTIONS = tuple(Option(str(i), f"Option {i} 選択{i}") for i in range(24))


def shown_highlights(presses: list[list[Press]]) -> tuple[int, list[int | None]]:
    clock = StepClock()
    shown: list[int | None] = []

    def show(prompt: str, **kwargs: Any) -> None:
        shown.append(kwargs.get("highlight"))

    chosen = choose(Controls([ScriptedPresses([[], *presses])], clock=clock), show,
                    "Which? どれ？", OPTIONS, 0, 0.1, clock.sleep)
    return chosen, shown


def test_a_page_box_tap_draws_the_next_page_once() -> None:
    page = [Button.MENU] * 11  # the page box at 800x480 with 24 options
    chosen, shown = shown_highlights([page, [Pick(12, tap=True)]])
    assert (chosen, shown) == (12, [0, 11])


def test_presses_in_separate_polls_are_each_shown_and_a_choice_in_a_poll_is_taken() -> None:
    assert shown_highlights([[Button.MENU], [Button.MENU], [Button.ATTACK]]) == (2, [0, 1, 2])
    # A choice among a poll's presses is taken at once, the moves before it applied.
    assert shown_highlights([[Button.MENU, Button.MENU, Button.ATTACK]]) == (2, [0])
    # Moves that come back where they started draw nothing.
    assert shown_highlights([[Button.MENU, Button.PREVIOUS], [Button.ATTACK]]) == (0, [0])
