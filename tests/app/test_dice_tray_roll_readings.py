"""How the dice tray reads a plain roll back (events72 NIT 4, NIT 6): a typed D66 read as
thrown says its first die is the tens, as the command line says it; a secret roll keeps
its mark, as `companion roll` prints it; a check's outcome gives its verdict, not a bare
total."""

from __future__ import annotations

import pytest

from companion.app.commands.roll import SECRET_MARK
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.mode import RollAsk, Throw

TENS = "the first die typed is the tens 1個目が十の位"


def first_throw(expression: str, *, typed: bool = True) -> RollAsk:
    mode = DiceTrayMode((expression,), "typed 入力", typed=typed)
    mode.answer(0)
    ask = mode.ask()
    assert isinstance(ask, RollAsk)
    return ask


@pytest.mark.parametrize("expression", ["D66", "D66N", "x2 D66", "SD66 loot"])
def test_a_typed_d66_read_as_thrown_says_which_die_is_the_tens(expression: str) -> None:
    assert first_throw(expression).prompt.endswith(f": {TENS}")


@pytest.mark.parametrize("expression", ["D66S", "D66D", "2D6", "1D6+1"])
def test_a_sorted_d66_or_other_dice_say_nothing_of_tens(expression: str) -> None:
    assert TENS not in first_throw(expression).prompt


def test_the_camera_s_d66_says_its_own() -> None:
    assert TENS not in first_throw("D66", typed=False).prompt


def test_a_repeat_s_later_d66_says_it_too() -> None:
    mode = DiceTrayMode(("x2 D66",), "typed 入力", typed=True)
    mode.answer(0)
    mode.answer(Throw((3, 4)))
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt == f"x2 D66, roll 2 2投目: {TENS}"


@pytest.mark.parametrize("expression", ["1D66", "2D66", "1D6+1D66"])
def test_a_d66_among_other_dice_says_which_die_of_its_pair_is_the_tens(
        expression: str) -> None:
    """events74 NIT 5: 1D66, 2D66 and 1D6+1D66 said nothing (docs/dice-notation.md counts
    1D66 among the D66s read as thrown; the command line says it)."""
    assert first_throw(expression).prompt.endswith(
        ": a D66's first die typed is the tens D66は1個目が十の位")
    assert "D66は" not in first_throw("2D6+1").prompt


def test_a_d66_s_pair_under_way_is_shown_as_a_d66_not_a_2d6_sum() -> None:
    """Halfway through 2D66 the roll line was "(2D6) ＞ 3[1,2]": a pair that reads 12."""
    mode = DiceTrayMode(("2D66",), "typed 入力", typed=True)
    mode.answer(0)
    mode.answer(Throw((1, 2)))
    assert mode.dice.rolls == ("(D66) ＞ 12[1,2]",)  # the 12 it reads as (reviewe74 NIT 4)
    mode.answer(Throw((3, 4)))
    assert mode.dice.rolls == ("(2D66) ＞ 46[12,34]",)


@pytest.mark.parametrize(("expression", "shown"), [("2D66", "(D66) ＞ 21"),
                                                   ("x2 D66S", "(D66S) ＞ 12")])
def test_a_d66_pair_under_way_reads_as_its_roll_reads_it(expression: str,
                                                         shown: str) -> None:
    """As thrown [2,1] is 21; D66S puts the lower die first (12), and is named D66S, as its
    outcome names it (dicecam75 NIT 7: "(D66) ＞ 35[5,3]", then "(D66S) ＞ 35")."""
    mode = DiceTrayMode((expression,), "typed 入力", typed=True)
    mode.answer(0)
    mode.answer(Throw((2, 1)))
    assert mode.dice.rolls[0] == f"{shown}[2,1]"


@pytest.mark.parametrize(("expression", "reads"), [("D66", 53), ("D66S", 35)])
def test_a_d66_s_outcome_is_its_result_not_a_total(expression: str, reads: int) -> None:
    """dicecam75 NIT 7: a D66's outcome said "total 合計 53"; a D66 reads as a number, no
    sum."""
    mode = DiceTrayMode((expression,), "typed 入力", typed=True)
    mode.answer(0)
    mode.answer(Throw((5, 3)))
    assert mode.reading == f"result 結果 {reads}"


@pytest.mark.parametrize(("expression", "opens"), [
    ("1D66", "1D66: "), ("D66", "D66: "), ("2D66", "2D66: "), ("1D6+1D66", "1D6+1D66: "),
    ("2D6", "Dice tray ダイストレイ")])
def test_a_lone_1d66_opens_with_its_expression_as_d66_does(expression: str,
                                                             opens: str) -> None:
    """reviewe74 NIT 3: 1D66 opened "Dice tray ダイストレイ: a D66's first die…" as a bare
    2D6 does, where D66 opened "D66: …": a D66's reading is no sum of the dice named."""
    assert first_throw(expression).prompt.startswith(opens)


def roll_in_the_tray(expression: str, *faces: int) -> DiceTrayMode:
    mode = DiceTrayMode((expression,), "sim")
    mode.answer(0)
    mode.answer(Throw(faces))
    return mode


def test_a_secret_roll_keeps_its_mark() -> None:
    """``S2D6`` was shown ``(2D6) ＞ 2[1,1]``, as an open roll."""
    assert roll_in_the_tray("S2D6", 1, 1).dice.rolls == (f"{SECRET_MARK} (2D6) ＞ 2[1,1]",)
    assert roll_in_the_tray("2D6", 1, 1).dice.rolls == ("(2D6) ＞ 2[1,1]",)


@pytest.mark.parametrize(("faces", "said"), [((3, 4), "success 成功 (7)"),
                                             ((1, 2), "failure 失敗 (3)")])
def test_a_check_s_outcome_gives_its_verdict(faces: tuple[int, int], said: str) -> None:
    """``2D6>=7 hit: total 合計 7`` left the reading to the player."""
    mode = roll_in_the_tray("2D6>=7 hit", *faces)
    ask = mode.ask()
    assert ask is not None and ask.prompt == f"2D6>=7 hit: {said}"
