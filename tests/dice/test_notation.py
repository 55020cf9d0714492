"""Dice notation (spec §0.2, §0.3, EV-CORE-4): the accepted and rejected expression table."""

from __future__ import annotations

import pytest

from companion.dice.notation import DiceSyntaxError, Rounding, parse
from companion.errors import CompanionError, InvalidNotation

# input -> normalised notation (str of the parse)
ACCEPTED = [
    ("1D6", "1D6"),
    ("2D6", "2D6"),
    ("2d6+3>=10", "2D6+3>=10"),
    ("1D100<=50", "1D100<=50"),
    ("1D3", "1D3"),
    ("1D20", "1D20"),
    ("(1D6)/2", "(1D6)/2"),
    ("1/2D", "1/2D"),
    ("1/2Ｄ", "1/2D"),
    ("2D", "2D6"),
    ("１Ｄ", "1D6"),
    ("２Ｄ６＋３", "2D6+3"),
    ("2D−4", "2D6-4"),
    ("1D6×2", "1D6*2"),
    ("2D6>7", "2D6>7"),
    ("2D6<7", "2D6<7"),
    ("2D6=7", "2D6=7"),
    ("2D6<>7", "2D6<>7"),
    ("2D6≧7", "2D6>=7"),
    ("2D6+8>6+7", "2D6+8>6+7"),
    ("1D6+3/2U", "1D6+3/2U"),
    ("1D6+3/2C", "1D6+3/2U"),
    ("1D6+3/2R", "1D6+3/2R"),
    ("1D6+3/2F", "1D6+3/2F"),
    ("(2D6+(1D4+3)*3)*2", "(2D6+(1D4+3)*3)*2"),
    ("-1D4+10", "-1D4+10"),
    ("1D6>=-1", "1D6>=-1"),
    ("28D6+14", "28D6+14"),
    ("S2D6", "S2D6"),
    ("s1D100<=45", "S1D100<=45"),
    ("2D6>=9 trap disarm", "2D6>=9 trap disarm"),
    ("  1D6　罠の判定", "1D6 罠の判定"),
    ("1/2D6", "1/2D6"),
]

# input -> (1-based character the error points at, words of the reason)
REJECTED = [
    ("", 1, "no dice expression"),
    ("   ", 4, "no dice expression"),
    ("D6", 1, "how many dice"),
    ("2D6>", 5, "no target"),
    ("2D6>?a", 5, "unexpected '?'"),
    ("2D6>=12?a", 8, "unexpected '?'"),
    ("(1D6", 1, "never closed"),
    ("(1D6+2", 1, "never closed"),
    ("1D6)", 4, "unexpected ')'"),
    ("1D6/0", 5, "division by zero"),
    ("2D6>=1D6", 6, "cannot contain dice"),
    ("1D6>=3>=4", 7, "only one comparison"),
    ("abc", 1, "unexpected 'a'"),
    ("0D6", 1, "number of dice"),
    ("201D6", 1, "number of dice"),
    ("1D0", 3, "sides"),
    ("1D1001", 3, "sides"),
    ("3+4", 1, "rolls no dice"),
    ("S", 2, "ends too early"),
    ("2D6+", 5, "ends too early"),
    ("2D6**2", 5, "unexpected '*'"),
    ("1D6x2", 4, "unexpected 'X'"),
    ("2D6>=9?", 7, "unexpected '?'"),
    ("1d6+db", 5, "how many dice"),
    ("(" * 21 + "1D6" + ")" * 21, 21, "brackets inside each other"),
]


@pytest.mark.parametrize(("text", "normal"), ACCEPTED)
def test_accepted_expressions_round_trip(text: str, normal: str) -> None:
    command = parse(text)
    assert str(command) == normal
    assert parse(str(command)) == command
    assert repr(command) == f"parse({normal!r})"


@pytest.mark.parametrize(("text", "column", "reason"), REJECTED)
def test_rejected_expressions_point_at_the_fault(text: str, column: int, reason: str) -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse(text)
    exc = err.value
    assert isinstance(exc, InvalidNotation) and isinstance(exc, ValueError)
    assert isinstance(exc, CompanionError)
    assert reason.lower() in str(exc).lower()
    assert exc.position + 1 == column
    # The message repeats the text with a caret under the faulty character.
    lines = str(exc).splitlines()
    assert lines[-2] == f"  {text}"
    assert lines[-1].index("^") == column + 1


def test_caret_lines_up_under_full_width_text() -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse("２Ｄ６＞？")
    text_line, caret_line = str(err.value).splitlines()[-2:]
    # Each full-width character takes two terminal columns.
    assert caret_line.index("^") == 2 + 2 * 4
    assert text_line == "  ２Ｄ６＞？"


def test_secret_flag_and_comment() -> None:
    command = parse("S2D6>=9 罠解除 trap")
    assert command.secret and command.comment == "罠解除 trap"
    assert command.formula == "2D6>=9"
    assert not parse("2D6").secret and parse("2D6").comment == ""


def test_comment_starts_at_the_first_space_even_before_a_comparison() -> None:
    """BCDice: text after the first space is a comment, so `2D6 >=9` has no target."""
    command = parse("2D6 >=9")
    assert command.comparison is None and command.comment == ">=9"


@pytest.mark.parametrize(
    ("rounding", "pairs"),
    [
        (Rounding.DOWN, [(5, 2, 2), (1, 2, 0), (-5, 2, -2), (6, 3, 2), (7, 3, 2)]),
        (Rounding.UP, [(5, 2, 3), (1, 2, 1), (-5, 2, -3), (6, 3, 2), (7, 3, 3)]),
        (Rounding.NEAREST, [(5, 2, 3), (4, 3, 1), (5, 3, 2), (-5, 2, -3)]),
    ],
)
def test_rounding_modes(rounding: Rounding, pairs: list[tuple[int, int, int]]) -> None:
    """§0.3 Default is DOWN (toward zero); EV-CORE-4's Default for 1/2D is UP."""
    for a, b, want in pairs:
        assert rounding.divide(a, b) == want
