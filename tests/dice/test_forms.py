"""The forms issue 24 adds: D66, B pools, keep/drop, repeat, choice, calculator, counts.

Each form has a property test beside its examples; BCDice's own cases are replayed in
test_bcdice_conformance.py.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import (
    D66Order,
    DiceSyntaxError,
    ManualDice,
    RollKind,
    RollOptions,
    Rounding,
    ScriptedDice,
    SimulatedDice,
    parse,
    roll,
)
from companion.dice.notation import D66_SIDES, KeepKind
from companion.dice.roll import DiceArithmeticError
from companion.errors import InvalidNotation

seeds = st.integers(0, 2**32)
faces = st.integers(1, 6)


# --- D66 ----------------------------------------------------------------------------


@given(suffix=st.sampled_from(["", "A", "S", "D", "N"]), seed=seeds)
def test_d66_digits_are_each_1_to_6(suffix: str, seed: int) -> None:
    result = roll(f"D66{suffix}", SimulatedDice.seeded(seed))
    tens, units = divmod(result.total, 10)
    assert 1 <= tens <= 6 and 1 <= units <= 6
    assert sorted((tens, units)) == sorted(result.values)
    assert result.kind is RollKind.D66 and result.text == f"(D66{suffix}) ＞ {result.total}"


@given(first=faces, second=faces)
def test_d66_orders(first: int, second: int) -> None:
    def d66(text: str, options: RollOptions | None = None) -> int:
        return roll(text, ScriptedDice([(6, first), (6, second)]), options).total

    low, high = sorted((first, second))
    assert d66("D66N") == d66("D66") == 10 * first + second
    assert d66("D66S") == d66("D66A") == 10 * low + high
    assert d66("D66D") == 10 * high + low
    # A system may make a plain D66 sorted (a Default in its rules data).
    assert d66("D66", RollOptions(d66_order=D66Order.ASCENDING)) == 10 * low + high


@given(count=st.integers(1, 10), seed=seeds)
def test_d66_dice_in_a_sum_each_read_two_d6(count: int, seed: int) -> None:
    result = roll(f"{count}D66+1", SimulatedDice.seeded(seed))
    pairs = list(zip(result.values[::2], result.values[1::2], strict=True))
    assert len(pairs) == count and all(d.sides == 6 for d in result.dice)
    assert result.total == sum(10 * t + u for t, u in pairs) + 1


def test_d66_from_typed_dice_reads_the_first_value_as_tens() -> None:
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "5 2"

    assert roll("D66", ManualDice(ask)).total == 52
    assert prompts == ["Roll 2D6 and type the 2 values (for the D66, 35 is 3 and 5) 出目を入力: "]


# --- B pools -----------------------------------------------------------------------


@given(pools=st.lists(st.tuples(st.integers(1, 10), st.sampled_from([4, 6, 10, 20])),
                      min_size=1, max_size=3),
       op=st.sampled_from(["<=", ">=", "<", ">", "=", "<>"]), target=st.integers(0, 21),
       seed=seeds)
def test_pools_list_every_die_and_count_successes(
    pools: list[tuple[int, int]], op: str, target: int, seed: int
) -> None:
    text = "+".join(f"{n}B{x}" for n, x in pools) + f"{op}{target}"
    result = roll(text, SimulatedDice.seeded(seed))
    checks = {"<=": int.__le__, ">=": int.__ge__, "<": int.__lt__, ">": int.__gt__,
              "=": int.__eq__, "<>": int.__ne__}
    assert [d.sides for d in result.dice] == [x for n, x in pools for _ in range(n)]
    assert result.total == sum(checks[op](v, target) for v in result.values)
    assert result.steps == (",".join(map(str, result.values)),
                            f"成功数{result.total}/successes {result.total}")
    assert not (result.success or result.failure)


def test_a_pool_without_target_lists_the_dice() -> None:
    result = roll("3B6", ScriptedDice([(6, 5), (6, 2), (6, 4)]))
    assert result.text == "(3B6) ＞ 5,2,4" and result.total == 11


# --- keep and drop -------------------------------------------------------------------


@given(values=st.lists(st.integers(1, 20), min_size=1, max_size=12),
       kind=st.sampled_from(list(KeepKind)), n=st.integers(0, 14))
def test_keep_and_drop_add_up_the_right_dice(
    values: list[int], kind: KeepKind, n: int
) -> None:
    result = roll(f"{len(values)}D20{kind.value}{n}", ScriptedDice([(20, v) for v in values]))
    ordered = sorted(values)
    kept = {
        KeepKind.KEEP_HIGHEST: ordered[len(ordered) - min(n, len(ordered)):],
        KeepKind.KEEP_LOWEST: ordered[:n],
        KeepKind.DROP_HIGHEST: ordered[:len(ordered) - min(n, len(ordered))],
        KeepKind.DROP_LOWEST: ordered[n:],
    }[kind]
    assert result.total == sum(kept)
    assert result.steps == (f"{sum(kept)}[{','.join(map(str, ordered))}]",)
    assert result.values == values  # every die is recorded, kept or not


@given(values=st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_max_and_min_keep_one_die(values: list[int]) -> None:
    rands = [(6, v) for v in values]
    assert roll(f"{len(values)}D6MAX", ScriptedDice(rands)).total == max(values)
    assert roll(f"{len(values)}D6MIN", ScriptedDice(rands)).total == min(values)
    assert roll(f"{len(values)}D6MAX", ScriptedDice(rands)).formula == f"{len(values)}D6KH1"


def test_advantage_with_a_bonus() -> None:
    result = roll("2D20KH1+5>=15", ScriptedDice([(20, 4), (20, 12)]))
    assert result.text == "(2D20KH1+5>=15) ＞ 12[4,12]+5=17 ＞ 成功/success"


# --- repeat --------------------------------------------------------------------------


@given(values=st.lists(faces, min_size=1, max_size=20))
def test_repeat_rolls_each_time_with_dice_of_its_own(values: list[int]) -> None:
    result = roll(f"x{len(values)} 1D6", ScriptedDice([(6, v) for v in values]))
    assert [r.total for r in result.rolls] == values
    assert [r.values for r in result.rolls] == [[v] for v in values]
    assert result.values == values and result.total == sum(values)


@given(times=st.integers(1, 10), seed=seeds)
def test_repeat_is_the_same_as_rolling_one_after_another(times: int, seed: int) -> None:
    repeated = roll(f"rep{times} 2D6+1>=8", SimulatedDice.seeded(seed))
    source = SimulatedDice.seeded(seed)
    one_by_one = [roll("2D6+1>=8", source) for _ in range(times)]
    assert repeated.rolls == tuple(one_by_one)
    assert repeated.text == "\n\n".join(f"#{n}\n{r.text}" for n, r in enumerate(one_by_one, 1))


def test_repeat_json_carries_each_roll() -> None:
    data = roll("x2 2D6 attack", ScriptedDice([(6, 1), (6, 2), (6, 3), (6, 4)])).to_json()
    assert data["kind"] == "repeat" and data["formula"] == "x2 2D6"
    assert [r["total"] for r in data["rolls"]] == [3, 7]
    assert data["rolls"][0]["text"] == "(2D6) ＞ 3[1,2] attack"


# --- choice and the calculator --------------------------------------------------------


@given(items=st.lists(st.text("abcxyz日本", min_size=1, max_size=5), min_size=2, max_size=8),
       seed=seeds)
def test_choice_picks_one_of_the_items(items: list[str], seed: int) -> None:
    result = roll(f"choice[{','.join(items)}]", SimulatedDice.seeded(seed))
    (die,) = result.dice
    assert die.sides == len(items)
    assert result.steps == (items[result.total - 1],)
    assert result.kind is RollKind.CHOICE


arithmetic = st.recursive(
    st.integers(0, 50).map(str),
    lambda inner: st.tuples(inner, st.sampled_from("+-*"), inner).map(
        lambda t: f"({t[0]}{t[1]}{t[2]})"),
    max_leaves=8,
)


@given(expr=arithmetic)
def test_the_calculator_agrees_with_python(expr: str) -> None:
    result = roll(f"C{expr}", ScriptedDice([]))
    assert result.total == eval(expr)  # the strategy gives digits, brackets and + - * only
    assert result.text == f"計算結果/result ＞ {result.total}"


@given(a=st.integers(-100, 100), b=st.integers(-20, 20).filter(bool))
def test_rounding_suffixes_round_as_bcdice_does(a: int, b: int) -> None:
    """U/C toward +∞, F toward −∞, R halves away from zero; plain / toward zero (§0.3)."""
    exact = Fraction(a, b)
    half_away = floor(abs(exact) + Fraction(1, 2)) * (1 if exact >= 0 else -1)
    expected = {"U": ceil(exact), "C": ceil(exact), "F": floor(exact), "R": half_away,
                "": int(exact)}
    for suffix, want in expected.items():
        assert roll(f"C{a}/({b}){suffix}", ScriptedDice([])).total == want


def test_the_calculator_refuses_a_division_by_zero() -> None:
    """With a caret when the divisor is zero however it rounds; when only the rounding in
    use makes it zero (``1/2`` toward zero), at the calculation."""
    with pytest.raises(DiceSyntaxError, match="division by zero at character 5"):
        roll("C(1/(2-2))", ScriptedDice([]))
    with pytest.raises(DiceArithmeticError, match="divides by zero"):
        roll("C(1/(1/2))", ScriptedDice([]))


def test_the_default_for_plain_division_is_a_setting() -> None:
    assert roll("1D6/-3", ScriptedDice([(6, 4)])).total == -1
    floor_options = RollOptions(division=Rounding.DOWN)
    assert roll("1D6/-3", ScriptedDice([(6, 4)]), floor_options).total == -2


# --- counts, sides, comparisons ---------------------------------------------------------


# Sides of 66 are D66 dice, two D6 each (docs/dice-notation.md), never a 66-sided die.
@given(a=st.integers(1, 9), b=st.integers(1, 9),
       sides=st.integers(1, 10_000).filter(lambda s: s != D66_SIDES), seed=seeds)
def test_computed_counts_are_worked_out(a: int, b: int, sides: int, seed: int) -> None:
    result = roll(f"({a}+{b})D{sides}", SimulatedDice.seeded(seed))
    assert result.formula == f"{a + b}D{sides}"
    assert len(result.dice) == a + b and all(1 <= v <= sides for v in result.values)


@given(op=st.sampled_from(["=>", "=<", "==", "!=", "=!"]), a=st.integers(0, 20),
       b=st.integers(0, 20), value=faces)
def test_other_spellings_of_comparisons(op: str, a: int, b: int, value: int) -> None:
    shown = {"=>": ">=", "=<": "<=", "==": "=", "!=": "<>", "=!": "<>"}[op]
    result = roll(f"1D6{op}{a}+{b}", ScriptedDice([(6, value)]))
    assert result.formula == f"1D6{shown}{a + b}" and result.target == a + b
    holds = {">=": value >= a + b, "<=": value <= a + b, "=": value == a + b,
             "<>": value != a + b}[shown]
    assert (result.success, result.failure) == (holds, not holds)


# --- any text ---------------------------------------------------------------------------


@given(text=st.text(alphabet="0123456789DdBbKkHLMAXINSsCcxrep+-*/()<>=!UR,[] 　１Ｄ", max_size=16),
       seed=st.integers(0, 100))
def test_any_text_parses_and_round_trips_or_fails_with_invalid_notation(
    text: str, seed: int
) -> None:
    parses_round_trips_and_rolls_or_is_refused(text, seed)


@given(head=st.sampled_from(["choice[", "choice(", "choice ", "Schoice[", "x2 choice ",
                             "rep2 ", "C", "D66", "3B6"]),
       tail=st.text(alphabet="ab, []()　SxD6>=+", max_size=12), seed=st.integers(0, 100))
def test_any_choice_repeat_or_pool_text_parses_or_fails_with_invalid_notation(
    head: str, tail: str, seed: int
) -> None:
    parses_round_trips_and_rolls_or_is_refused(head + tail, seed)


def parses_round_trips_and_rolls_or_is_refused(text: str, seed: int) -> None:
    try:
        command = parse(text)
    except InvalidNotation:
        return
    assert parse(str(command)) == command
    try:
        roll(command, SimulatedDice.seeded(seed))
    except DiceArithmeticError:
        pass


@pytest.mark.parametrize(
    ("text", "rands", "line"),
    [
        ("choice[1-6]", [(6, 4)], "(choice[1,2,3,4,5,6]) ＞ 4"),
        ("choice[A-D]", [(4, 2)], "(choice[A,B,C,D]) ＞ B"),
        ("choice 3-7", [(5, 5)], "(choice 3 4 5 6 7) ＞ 7"),
        ("choice[Ａ-Ｃ]", [(3, 3)], "(choice[A,B,C]) ＞ C"),
        ("choice2[a,b,c] pair", [(3, 2), (2, 2)], "(choice2[a,b,c]) ＞ b, c pair"),
        ("choice2 a b c", [(3, 1), (2, 1)], "(choice2 a b c) ＞ a b"),
    ],
)
def test_choice_ranges_and_picks_without_repeats_as_bcdice_since_pr_490(
    text: str, rands: list[tuple[int, int]], line: str
) -> None:
    """``choice[1-6]`` picks from 1 to 6 (not the text ``1-6``); ``choice2`` picks two items,
    taking each out before the next die (BCDice ``common_command/choice.rb``)."""
    source = ScriptedDice(rands)
    result = roll(text, source)
    assert result.text == line and source.remaining == []
    assert [(d.sides, d.value) for d in result.dice] == rands
    assert result.total == rands[0][1] and result.kind is RollKind.CHOICE
