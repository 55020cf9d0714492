"""A message wrapped to 80 columns keeps an option beside its value (review62g): a roll's
"type them in with --dice typed" was broken after --dice, so the line read as an option
with no value and a word ``typed`` alone."""

from __future__ import annotations

from companion.app.commands.roll import within_80
from companion.app.help_format import wrap_kept


def test_an_option_and_its_value_stay_on_one_line() -> None:
    line = "no camera? throw your own dice and type them in with --dice typed"
    width = line.index(" typed")  # the value would start the next line
    lines = wrap_kept(line, width)
    assert lines[-1] == "  --dice typed" and all(len(row) <= width for row in lines)


def test_the_roll_s_message_with_a_long_path_keeps_dice_typed_together() -> None:
    path = "/tmp/" + "p" * 38 + ".jpg"
    message = (f"no camera at {path}: no camera? throw your own dice and type them in "
               "with --dice typed")
    text = within_80(message, "companion: error: ")
    assert "--dice typed" in text and all(len(row) <= 80 for row in text.split("\n"))


def test_an_option_is_not_taken_for_the_value_of_the_one_before() -> None:
    assert wrap_kept("--quiet --seed 3 and more", 14) == ["--quiet", "  --seed 3 and", "  more"]
