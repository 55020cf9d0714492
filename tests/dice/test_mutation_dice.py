"""Dice notation (spec §0.2, docs/dice-notation.md): cases a mutation spot check (round 2)
found untested."""

from __future__ import annotations

from companion.dice import ScriptedDice
from companion.dice.notation import MAX_DICE, parse
from companion.dice.roll import roll


def test_the_most_dice_a_sum_takes_is_accepted() -> None:
    """MAX_DICE (BCDice's UPPER_LIMIT_DICE_TIMES, 200) is the most a roll may throw: 200D6
    parses (201D6 is refused, tests/dice/test_notation.py)."""
    assert MAX_DICE == 200
    assert str(parse("200D6")) == "200D6"


def test_a_die_with_more_sides_than_66_written_without_a_count_is_one_die() -> None:
    """`D20` is one die (docs/dice-notation.md); only `D66` itself stands alone as the D66
    command and is refused inside a sum: `D666` is one 666-sided die, not a refused D66."""
    assert str(parse("D666")) == "1D666"
    assert str(parse("D660+1")) == "1D660+1"
    assert roll("D666", ScriptedDice([(666, 600)])).total == 600


def test_a_choice_of_exactly_100_items_is_accepted() -> None:
    """BCDice's choice: 「項目数は100以下としてください」: 100 items are allowed, by a range or
    listed one by one (101 are refused, tests/dice/test_notation.py)."""
    ranged = parse("choice[1-100]")
    listed = parse("choice[" + ",".join(f"i{n}" for n in range(100)) + "]")
    assert len(ranged.items) == 100  # type: ignore[union-attr]
    assert len(listed.items) == 100  # type: ignore[union-attr]


def test_a_pool_of_the_most_dice_is_accepted() -> None:
    """A B roll takes 1 to MAX_DICE (200) dice in each pool, as a sum does: 200B6 parses."""
    assert str(parse("200B6>=4")) == "200B6>=4"
