"""Typed dice: the one-word refusal's example gives faces the die asked for shows.

review59c N8: a 2D3 typed as one word was told to type "3 5", which a D3 cannot show;
the example is two faces of the die asked for."""

from __future__ import annotations

import re

import pytest

from companion.dice import roll
from tests.dice.typed_dice_helpers import typed


@pytest.mark.parametrize(("sides", "word", "example"), [
    (3, "12", "(2 3, not their total 5 nor 23)"),
    (2, "12", "(1 2, not their total 3 nor 12)"),
    (4, "34", "(3 4, not their total 7 nor 34)"),
    (6, "35", "(3 5, not their total 8 nor 35)")])
def test_the_one_word_refusal_gives_faces_the_die_shows(sides: int, word: str,
                                                        example: str) -> None:
    source, prompts = typed(word, "1 2")
    assert roll(f"2D{sides}", source).values == [1, 2]
    refusal = prompts[1]
    assert (f"is not on a D{sides} その目はありません: type each die on its own, a space between "
            f"{example}") in refusal
    faces = re.search(r"\((\d+) (\d+),", refusal)
    assert faces is not None and all(1 <= int(face) <= sides for face in faces.groups())
