"""Dice notation (spec §0.2, §0.3, EV-CORE-4, issue 24): the accepted and rejected table."""

from __future__ import annotations

import pytest

from companion.dice import RollOptions, ScriptedDice, roll
from companion.dice.notation import (
    BinaryOp,
    CalcCommand,
    ChoiceCommand,
    ChoiceStyle,
    Comparison,
    D66Command,
    D66Suffix,
    Dice,
    DiceCommand,
    DiceSyntaxError,
    Group,
    Keep,
    KeepKind,
    Number,
    Pool,
    PoolCommand,
    RepeatCommand,
    RepeatKeyword,
    Rounding,
    parse,
)
from companion.dice.roll import DiceArithmeticError
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
    # issue 24: BCDice's base system
    ("D20", "1D20"),
    ("d6", "1D6"),
    ("(2+3)D6", "5D6"),
    ("((2+3)*4/3)d6*2+5", "6D6*2+5"),
    ("2D(2+4)", "2D6"),
    ("2d10--3-4", "2D10+3-4"),
    ("2D6+-3", "2D6-3"),
    ("--1D6", "1D6"),
    ("1D10000", "1D10000"),
    ("2D6=>7", "2D6>=7"),
    ("2D6=<7", "2D6<=7"),
    ("2D6!=7", "2D6<>7"),
    ("2D6==7", "2D6=7"),
    ("1d6>=1+2", "1D6>=1+2"),
    ("1D66", "1D66"),
    ("1D3+2D66", "1D3+2D66"),
    ("D66", "D66"),
    ("d66s", "D66S"),
    ("D66A", "D66A"),
    ("D66D 降順", "D66D 降順"),
    ("SD66N", "SD66N"),
    ("Ｄ６６", "D66"),
    ("2D20KH1", "2D20KH1"),
    ("4d6kh3", "4D6KH3"),
    ("2D20KL1+3", "2D20KL1+3"),
    ("5D10DH3", "5D10DH3"),
    ("5D10DL(1+1)", "5D10DL2"),
    ("2D20KH", "2D20KH1"),
    ("3D6MAX", "3D6KH1"),
    ("5D10MIN-3", "5D10KL1-3"),
    ("4DKH3", "4D6KH3"),
    ("3B6", "3B6"),
    ("3b6>=4", "3B6>=4"),
    ("(1*2)b(2+4)>3", "2B6>3"),
    ("2B6+4B10<=3", "2B6+4B10<=3"),
    ("S3B6>=4 命中", "S3B6>=4 命中"),
    ("choice[a,b,c]", "choice[a,b,c]"),
    ("CHOICE[ a , b ,, c ] pick", "choice[a,b,c] pick"),
    ("choice(a, b, c)", "choice(a,b,c)"),
    ("choice a b  c", "choice a b c"),
    ("choice[1-3]", "choice[1,2,3]"),
    ("choice(b-d)", "choice(b,c,d)"),
    ("choice A-C", "choice A B C"),
    ("choice[１-３]", "choice[1,2,3]"),
    ("choice[09-11] x", "choice[9,10,11] x"),
    ("choice[3-3]", "choice[3-3]"),
    ("choice2[a,b,c]", "choice2[a,b,c]"),
    ("Schoice3 A-F", "Schoice3 A B C D E F"),
    ("Schoice[x,y]", "Schoice[x,y]"),
    ("C(10+5*2)", "C(10+5*2)"),
    ("c1+4*3/2U", "C1+4*3/2U"),
    ("SC(1)", "SC(1)"),
    ("x3 2D6", "x3 2D6"),
    ("rep3 2D6>=7 attack", "rep3 2D6>=7 attack"),
    ("REPEAT3 2D6", "repeat3 2D6"),
    ("sx5 1D6", "Sx5 1D6"),
    ("x5 s1D6", "x5 S1D6"),
    ("x2 choice a b", "x2 choice a b"),
    ("ｘ３　Ｄ６６", "x3 D66"),
    ("x3\t2D6", "x3 2D6"),
    ("２Ｄ６ー１", "2D6-1"),
    ("2D6ｰ1>=ー1", "2D6-1>=-1"),
    ("C(10ー2)", "C(10-2)"),
]

# input -> (1-based character the error points at, words of the reason)
REJECTED = [
    ("", 1, "no dice expression"),
    ("   ", 4, "no dice expression"),
    ("D", 1, "sides after D"),
    ("2D6>", 5, "no target"),
    ("2D6>?a", 5, "unexpected '?'"),
    ("2D6>=12?a", 8, "unexpected '?'"),
    ("(1D6", 1, "never closed"),
    ("(1D6+2", 1, "never closed"),
    ("1D6)", 4, "unexpected ')'"),
    ("1D6/0", 5, "division by zero"),
    ("1D6/-0", 5, "division by zero"),
    ("1D6/(1-1)", 5, "division by zero"),
    ("2D6/(2*0)", 5, "division by zero"),
    ("1D6>=1/(1-1)", 8, "division by zero"),
    ("2D6>=1D6", 6, "cannot contain dice"),
    ("1D6>=3>=4", 7, "only one comparison"),
    ("abc", 1, "unexpected 'a'"),
    ("0D6", 1, "number of dice"),
    ("201D6", 1, "number of dice"),
    ("1D0", 3, "sides"),
    ("1D10001", 3, "10,000 sides"),
    ("(1-1)D6", 1, "number of dice"),
    ("(1D6)D6", 1, "cannot contain dice"),
    ("2D(1D6)", 3, "cannot contain dice"),
    ("D66+1", 1, "command of its own"),
    ("2D6=<>7", 4, "not a comparison"),
    ("2D6>>7", 4, "not a comparison"),
    ("5D10KH201", 7, "0 to 200"),
    ("D66X", 4, "unexpected 'X': D66 takes one letter after it, S, A, D or N"),
    ("D66SS", 5, "unexpected 'S': D66 takes one letter after it"),
    ("3B", 3, "ends too early"),
    ("3B6+2", 6, "pool such as 3B6"),
    ("0B6", 1, "number of dice"),
    ("3B6>=1D6", 6, "cannot contain dice"),
    ("choice", 7, "choice[a,b]"),
    ("choice{a,b}", 7, "choice[a,b]"),
    ("choice[]", 7, "at least two items"),
    ("choice(a b c)", 8, "brackets split at commas only"),
    ("choice[a]", 8, "at least two items, or a range"),
    ("choice[a-zz]", 8, "a range such as 1-6 or A-D"),
    ("choice[6-1]", 8, "runs backwards: write 1-6"),
    ("choice[ D-A ]", 9, "runs backwards: write A-D"),
    ("choice[1-101]", 8, "at most 100 items"),
    ("choice0[a,b]", 7, "picks nothing"),
    ("choice3[a,b]", 7, "picks 3 items but there are only 2"),
    ("choice[, ,,]", 7, "at least two items"),
    ("choice[a,b", 7, "never closed"),
    ("choice(a,b]", 7, "never closed"),
    ("choice[a,b]x", 12, "unexpected 'x'"),
    ("C", 2, "ends too early"),
    ("C1D6", 2, "takes no dice"),
    ("C(1/0)", 5, "division by zero"),
    ("C(1/(1-1))", 5, "division by zero"),
    ("x3", 3, "space and the command"),
    ("rep 2D6", 4, "how many times"),
    ("rep0 1D6", 4, "1 to 100 times"),
    ("x101 1D6", 2, "1 to 100 times"),
    ("x3 ", 4, "no command to repeat"),
    ("x2 rep2 1D6", 4, "cannot repeat another repeat"),
    ("rep2 ほげ", 6, "unexpected 'ほ'"),
    ("x3 2D6>", 8, "no target"),
    ("3+4", 1, "rolls no dice"),
    ("S", 2, "ends too early"),
    ("2D6+", 5, "ends too early"),
    ("2D6**2", 5, "unexpected '*'"),
    ("1D6x2", 4, "unexpected 'X'"),
    ("2D6>=9?", 7, "unexpected '?'"),
    ("1d6+db", 5, "sides after D"),
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
    # (A long reason goes on below the error line's 80 columns: dice62 N1.)
    assert reason.lower() in " ".join(str(exc).split()).lower()
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
    assert isinstance(command, DiceCommand)
    assert command.secret and command.comment == "罠解除 trap"
    assert command.formula == "2D6>=9"
    plain = parse("2D6")
    assert isinstance(plain, DiceCommand) and not plain.secret and plain.comment == ""


def test_comment_starts_at_the_first_space_even_before_a_comparison() -> None:
    """BCDice: text after the first space is a comment, so `2D6 >=9` has no target."""
    command = parse("2D6 >=9")
    assert isinstance(command, DiceCommand)
    assert command.comparison is None and command.comment == ">=9"


def test_any_white_space_ends_the_command_as_a_space_does() -> None:
    """A tab was "unexpected '\\t'" where the full-width space began the comment."""
    for text in ["2D6\t>=9", "2D6\n>=9", "2D6\u3000>=9", "2D6\xa0>=9"]:
        command = parse(text)
        assert isinstance(command, DiceCommand)
        assert command.comparison is None and command.comment == ">=9", text


def test_a_tab_before_the_fault_is_shown_as_a_space_so_the_caret_lines_up() -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse("x3\t2D6>")
    text_line, caret_line = str(err.value).splitlines()[-2:]
    assert text_line == "  x3 2D6>" and caret_line == "  " + " " * 7 + "^"


def test_the_long_mark_in_a_choice_item_is_kept_and_a_lone_range_reads_it_as_minus() -> None:
    """ー is a minus wherever it can be nothing else: not in カレー, but in ``choice[1ー3]``,
    which would otherwise be refused (one item that is not a range)."""
    command = parse("choice[カレー,ラーメン] 夕食ー今夜")
    assert isinstance(command, ChoiceCommand)
    assert command.items == ("カレー", "ラーメン") and command.comment == "夕食ー今夜"
    spaced = parse("choice カレー ラーメン")
    assert isinstance(spaced, ChoiceCommand) and spaced.items == ("カレー", "ラーメン")
    ranged = parse("choice[１ー３]")
    assert isinstance(ranged, ChoiceCommand) and ranged.items == ("1", "2", "3")


def test_a_divisor_zero_under_every_rounding_is_refused_before_the_throw_only() -> None:
    """``1-1`` is 0 however it rounds: no die is asked for. ``1/2`` is 0 rounded toward
    zero (the Default) but 1 rounded up, and a system may choose the rounding
    (RollOptions.division): the parse cannot know, the roll does."""
    dice = ScriptedDice([(6, 4)])
    with pytest.raises(DiceSyntaxError, match="division by zero"):
        roll("1D6/(1-1)", dice)
    assert dice.remaining == [(6, 4)]
    command = parse("1D6/(1/2)")
    with pytest.raises(DiceArithmeticError, match="divides by zero"):
        roll(command, ScriptedDice([(6, 4)]))
    assert roll(command, ScriptedDice([(6, 4)]), RollOptions(division=Rounding.UP)).total == 4


def test_each_form_parses_to_its_command() -> None:
    assert parse("SD66S") == D66Command(D66Suffix.S, secret=True)
    assert parse("2b6>=3") == PoolCommand((Pool(2, 6),), Comparison.GE, Number(3))
    assert parse("choice a b") == ChoiceCommand(("a", "b"), ChoiceStyle.SPACE)
    assert parse("C(1+2)") == CalcCommand(Group(BinaryOp("+", Number(1), Number(2))))
    assert parse("rep2 1D6 x") == RepeatCommand(
        2, DiceCommand(Dice(1, 6), comment="x"), RepeatKeyword.REP
    )
    assert parse("4D6KH3") == DiceCommand(Dice(4, 6, Keep(KeepKind.KEEP_HIGHEST, 3)))


@pytest.mark.parametrize(
    ("rounding", "pairs"),
    [
        (Rounding.TOWARD_ZERO, [(5, 2, 2), (1, 2, 0), (-5, 2, -2), (-4, 3, -1), (7, 3, 2)]),
        (Rounding.DOWN, [(5, 2, 2), (1, 2, 0), (-5, 2, -3), (-4, 3, -2), (7, -3, -3)]),
        (Rounding.UP, [(5, 2, 3), (1, 2, 1), (-5, 2, -2), (-4, 3, -1), (7, 3, 3)]),
        (Rounding.NEAREST, [(5, 2, 3), (4, 3, 1), (5, 3, 2), (-5, 2, -3), (-4, 3, -1)]),
    ],
)
def test_rounding_modes(rounding: Rounding, pairs: list[tuple[int, int, int]]) -> None:
    """§0.3 Default is TOWARD_ZERO; U/C and F round toward +∞ and −∞ as BCDice does."""
    for a, b, want in pairs:
        assert rounding.divide(a, b) == want


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("choice[Straße,Weg,Haus]", ("Straße", "Weg", "Haus")),
        ("choice Straße Weg Haus", ("Straße", "Weg", "Haus")),
        ("choice(Weg,Straße) note", ("Weg", "Straße")),
        ("choice[ﬁsh,Maß,ǰ,Weg]", ("ﬁsh", "Maß", "ǰ", "Weg")),
    ],
)
def test_items_after_a_letter_whose_upper_case_is_longer_are_cut_as_typed(
    text: str, items: tuple[str, ...]
) -> None:
    """``ß`` upper-cases to ``SS``: the folded text must keep one character per character."""
    command = parse(text)
    assert isinstance(command, ChoiceCommand) and command.items == items


def test_the_caret_after_a_sharp_s_stays_under_the_fault() -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse("choice[ß,a]x")
    assert err.value.position == 11 and err.value.reason == "unexpected 'x'"


LONG = "9" * 5000


@pytest.mark.parametrize(("text", "column", "reason"), [
    (f"1D6+{LONG}", 5, "a number may have at most 30 digits"),
    ("C(" + "*".join(["9" * 1000] * 5) + ")", 3, "a number may have at most 30 digits"),
    (f"1D6>={LONG}", 6, "a number may have at most 30 digits"),
    (f"x{LONG} 1D6", 2, "repeat 1 to 100 times"),
    (f"choice{LONG}[a,b]", 7, "a number may have at most 30 digits"),
    (f"choice[1-{LONG}]", 8, "a number may have at most 30 digits"),
    ("1D6" + "+1" * 350, 204, "more than 100 operations (+ - * /) in one command"),
    ("C(" + "*".join(["2"] * 102) + ")", 204, "more than 100 operations (+ - * /) in one command"),
])
def test_extreme_input_is_refused_with_a_caret_not_a_traceback(
    text: str, column: int, reason: str
) -> None:
    """Python turns at most 4,300 digits into a number and recurses about 1,000 deep."""
    with pytest.raises(DiceSyntaxError) as err:
        parse(text)
    assert err.value.reason == reason and err.value.position + 1 == column


@pytest.mark.parametrize(("text", "normal"), [
    ("1D6+" + "-" * 2000 + "1", "1D6+1"),
    ("1D6+" + "-" * 2001 + "1", "1D6-1"),
    ("1D6+" + "+" * 3000 + "1", "1D6+1"),
    ("-" * 999 + "1D6", "-1D6"),
])
def test_a_chain_of_signs_of_any_length_cancels_as_bcdice_does(text: str, normal: str) -> None:
    assert str(parse(text)) == normal


def test_the_longest_command_taken_rolls_and_reads_back() -> None:
    """100 operations inside 20 brackets: parsed, shown, compared and rolled."""
    text = "(" * 20 + "1D6" + "+1" * 99 + ")" * 20 + ">=" + "9" * 30
    command = parse(text)
    assert parse(str(command)) == command and str(command) == text
    result = roll(command, ScriptedDice([(6, 4)]))
    assert result.total == 103 and result.failure and result.to_json()["total"] == 103
    calc = roll("C(" + "*".join(["9" * 30] * 100) + ")", ScriptedDice([]))
    assert calc.total == (10**30 - 1) ** 100
