"""Dice notation (spec §0.2, docs/dice-notation.md) where mutation round 12 found no test
looking."""

from __future__ import annotations

import pytest

from companion.dice import DiceSyntaxError
from companion.dice.notation import parse


def test_keeping_every_one_of_the_most_dice_is_accepted() -> None:
    """KH/KL/DH/DL take 0 to MAX_DICE (200) dice, as many as a roll may throw: 200D6KH200
    keeps them all and parses; 201 is refused."""
    assert str(parse("200D6KH200")) == "200D6KH200"
    assert str(parse("200D6DL200")) == "200D6DL200"
    with pytest.raises(DiceSyntaxError, match="KH takes 0 to 200 dice"):
        parse("200D6KH201")
