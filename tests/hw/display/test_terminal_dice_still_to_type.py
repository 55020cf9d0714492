"""The terminal's dice and Result panels show a die still to be typed (TO_TYPE) as "?",
as the screen and the question do: they printed "D6 0" and "0", a face no die has
(r78panels DEFECT 1)."""

from __future__ import annotations

from rich.console import Console

from companion.hw.display.terminal import dice_panel, result_panel
from companion.hw.display.view import TO_TYPE, DiceView, FightView


def _printed(renderable: object) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_dice_panel_shows_a_die_to_type_as_a_question_mark() -> None:
    shown = _printed(dice_panel(DiceView("2D6>=9", faces=(TO_TYPE, 5))))
    assert "? " in shown and "⚄ 5" in shown
    assert "0" not in shown


def test_a_d10_to_type_is_a_question_mark_too() -> None:
    shown = _printed(dice_panel(DiceView("Damage", faces=(TO_TYPE, 3), sides=(10, 6))))
    assert "D10" not in shown and "?  ⚂ 3" in shown


def test_the_result_panel_shows_a_die_to_type_as_a_question_mark() -> None:
    fight = FightView("オーク Orc", 1, "Aki", (), result_title="Aki attacks オーク",
                      faces=(4, TO_TYPE))
    shown = _printed(result_panel(fight))
    assert "⚃ 4  ?" in shown
    assert " 0" not in shown
