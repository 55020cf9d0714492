"""Rolling: BCDice-style result lines, scripted {sides, value} replays and property tests."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import (
    D66Order,
    ManualDice,
    Result,
    RollOptions,
    Rounding,
    ScriptedDice,
    SimulatedDice,
    parse,
    roll,
)
from companion.dice.roll import DiceArithmeticError, reads_d66_as_thrown
from companion.dice.sources import DiceInputEnded, ScriptExhausted, checked_roll
from companion.errors import CompanionError, DeviceError, InvalidNotation

# BCDice pattern: input, expected line, scripted {sides, value} pairs, as TOML rows.
CASES_FILE = Path(__file__).parent / "data" / "roll_cases.toml"
CASES = [
    (case["input"], case["output"], [(r["sides"], r["value"]) for r in case["rands"]])
    for case in tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))["test"]
]


@pytest.mark.parametrize(("text", "line", "rands"), CASES)
def test_scripted_rolls_print_bcdice_lines(
    text: str, line: str, rands: list[tuple[int, int]]
) -> None:
    source = ScriptedDice(rands)
    result = roll(text, source)
    assert result.text == line
    assert [(d.sides, d.value) for d in result.dice] == rands
    assert source.remaining == []


def test_flags_follow_the_comparison() -> None:
    hit = roll("2D6>=7", ScriptedDice([(6, 3), (6, 4)]))
    miss = roll("2D6>=8", ScriptedDice([(6, 3), (6, 4)]))
    plain = roll("2D6", ScriptedDice([(6, 3), (6, 4)]))
    assert (hit.success, hit.failure, hit.target) == (True, False, 7)
    assert (miss.success, miss.failure) == (False, True)
    assert not any((plain.success, plain.failure, plain.critical, plain.fumble))


def test_named_constructors_set_consistent_flags() -> None:
    crit = Result.critical_success("2D6>=13", ("12[6,6]", "６ゾロ"), 12)
    fumble = Result.fumbled("2D6>=2", ("2[1,1]", "１ゾロ"), 2)
    assert crit.success and crit.critical and not crit.failure
    assert fumble.failure and fumble.fumble and not fumble.success


def test_secret_roll_is_flagged_and_json_carries_everything() -> None:
    result = roll("S1D100<=45 聞き耳", ScriptedDice([(100, 3)]))
    data = result.to_json()
    assert data["secret"] is True and data["comment"] == "聞き耳"
    assert data["dice"] == [{"sides": 100, "value": 3}]
    assert data["total"] == 3 and data["target"] == 45 and data["success"] is True


def test_ev_core_4_half_die_rounds_up_by_default_and_is_configurable() -> None:
    """EV-CORE-4: 1–2→1, 3–4→2, 5–6→3 by Default; rounding down is a setting."""
    up = [roll("1/2D", ScriptedDice([(6, v)])).total for v in range(1, 7)]
    assert up == [1, 1, 2, 2, 3, 3]
    down = RollOptions(half_die=Rounding.DOWN)
    assert [roll("1/2D", ScriptedDice([(6, v)]), down).total for v in range(1, 7)] == [
        0, 1, 1, 2, 2, 3,
    ]


def test_plain_division_rounds_down_by_default() -> None:
    """§0.3 Default: round down (toward zero)."""
    assert roll("1D6/2", ScriptedDice([(6, 5)])).total == 2
    assert roll("1D6/2", ScriptedDice([(6, 5)]), RollOptions(division=Rounding.UP)).total == 3


def test_division_by_a_rolled_zero_is_a_clear_error() -> None:
    with pytest.raises(DiceArithmeticError, match="divides by zero") as err:
        roll("10/(1D6-1D6)", ScriptedDice([(6, 3), (6, 3)]))
    assert isinstance(err.value, InvalidNotation)


def test_scripted_source_checks_sides_and_length() -> None:
    with pytest.raises(ScriptExhausted, match="D6"):
        roll("1D100", ScriptedDice([(6, 3)]))
    with pytest.raises(ScriptExhausted, match="no die left"):
        roll("2D6", ScriptedDice([(6, 3)]))


def test_a_source_giving_impossible_faces_is_refused() -> None:
    class Broken:
        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            return [sides + 1] * count

    with pytest.raises(DeviceError, match=r"\[7, 7\] for 2D6"):
        checked_roll(Broken(), 2, 6)


def typing(*lines: str) -> tuple[ManualDice, list[str]]:
    """Typed dice answering each prompt with the next of ``lines``, and the prompts shown."""
    typed = iter(lines)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    return ManualDice(ask), prompts


def test_manual_dice_reasks_until_the_values_fit() -> None:
    dice, prompts = typing("3 4 5", "9 2", "a b", "", "3, 5")
    result = roll("2D6>=8", dice)
    assert result.values == [3, 5] and result.success
    assert prompts == ["Roll 2D6 and type the 2 values 出目を入力: ",
                       "got 3 values, need 2 多すぎます; type 2 values for 2D6 出目を入力: ",
                       "9 is not on a D6 その目はありません; type 2 values for 2D6 出目を入力: ",
                       "'a' is not a number 数字ではありません; type 2 values for 2D6 出目を入力: ",
                       "no value typed 未入力; type 2 values for 2D6 出目を入力: "]


def test_a_negative_typed_is_said_on_no_face_not_no_number() -> None:
    """events74 NIT 6: "'-3' is not a number": it is one, on no die (as 0 and 9 are told)."""
    dice, prompts = typing("-3", "－３", "3 4")
    assert roll("2D6", dice).values == [3, 4]
    assert prompts[1:] == ["-3 is not on a D6: no die shows a negative その目はありません; "
                           "type 2 values for 2D6 出目を入力: "] * 2


def test_manual_dice_typed_one_die_per_line() -> None:
    """A player typing each die as it is read, Enter after each: "got 1 value, need 2" was
    said of the first line, and it was lost."""
    dice, prompts = typing("3", "5")
    assert roll("2D6", dice).values == [3, 5]
    assert prompts[1] == "3 so far 入力済; type 1 more value for 2D6 出目を入力: "
    dice, prompts = typing("6", "7", "1 2")  # a slip keeps what was typed before it
    assert roll("3D6", dice).values == [6, 1, 2]
    assert prompts[1:] == ["6 so far 入力済; type 2 more values for 3D6 出目を入力: ",
                           "7 is not on a D6 その目はありません; 6 so far 入力済; type 2 more "
                           "values for 3D6 出目を入力: "]


def test_manual_dice_typed_whole_again_after_part_of_it() -> None:
    """All the values on one line are the whole roll, even after some were kept: a player
    who lost count types the throw afresh. More than the rest, but not all, is refused."""
    dice, prompts = typing("4 4", "1 2", "2 3 6")
    assert roll("3D6", dice).values == [2, 3, 6]
    assert prompts[2] == ("got 2 values, need 1 more 多すぎます; 4 4 so far 入力済; type 1 more "
                          "value for 3D6 出目を入力: ")


def test_manual_dice_typed_full_width() -> None:
    """As a Japanese input method types them: full-width digits, spaces and commas."""
    assert roll("3D6", ManualDice(lambda _: "６　２，１")).values == [6, 2, 1]


def test_manual_percentile_00_reads_as_100() -> None:
    """§0.2: on 1D100, "00" counts as 100."""
    assert roll("1D100", ManualDice(lambda _: "00")).total == 100


def test_a_typed_0_on_a_d10_is_a_10() -> None:
    """ManualDice (§0.2's "00" is 100, read the same way on a D10): a typed 0 on a ten-sided
    die is its top face, 10; on a die that has no 0 (a D6) it is refused and asked again."""
    # typing() answers each prompt once: a 0 refused would end the input, not loop
    for notation, line, values in [("1D10", "0", [10]), ("2D10", "0 3", [10, 3]),
                                   ("1D100", "0", [100])]:
        dice, prompts = typing(line)
        assert roll(notation, dice).values == values
        assert len(prompts) == 1
    dice, prompts = typing("0", "4")
    assert roll("1D6", dice).values == [4]
    assert prompts[1] == "0 is not on a D6 その目はありません; type 1 value for 1D6 出目を入力: "


@pytest.mark.parametrize("sides", [2, 4, 6, 10, 20, 100])
def test_simulated_dice_show_every_face_and_no_other(sides: int) -> None:
    """SimulatedDice: each face 1..sides comes up, the top one too, and nothing else (the
    seed is fixed, so this is deterministic; 3000 throws miss a face of a D100 with odds
    below 1e-11)."""
    values = SimulatedDice.seeded(1).roll(3000, sides)
    assert set(values) == set(range(1, sides + 1))


def test_manual_dice_end_of_input_is_a_companion_error() -> None:
    def closed(_: str) -> str:
        raise EOFError

    with pytest.raises(DiceInputEnded) as err:
        roll("1D6", ManualDice(closed))
    assert isinstance(err.value, CompanionError)


def test_manual_dice_end_of_input_names_the_roll_and_that_nothing_was_saved() -> None:
    """cli59 F9: Ctrl-D said "no values typed for 2D6": now that the input ended, before
    whose roll (the prompt's purpose), the part of it typed, and that nothing was saved."""
    lines = iter(["4"])

    def once(_: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    with pytest.raises(DiceInputEnded) as err:
        roll("2D6", ManualDice(once), purpose="Ben: 生命抵抗/vitality")
    assert str(err.value) == (
        "the input ended before Ben: 生命抵抗/vitality (2D6) was typed (4 typed of it): "
        "nothing was saved, and any dice typed before it are dropped; run the command again")
    with pytest.raises(DiceInputEnded) as err:
        roll("1D6", ManualDice(once))
    assert str(err.value).startswith("the input ended before the 1D6 was typed: nothing was saved")
    with pytest.raises(DiceInputEnded) as err:  # a purpose naming its dice says them once
        roll("1D6", ManualDice(once), purpose="damage 1D6")
    assert str(err.value).startswith("the input ended before damage 1D6 was typed: nothing")


def test_simulated_dice_repeat_with_the_same_seed() -> None:
    first = roll("10D6", SimulatedDice.seeded(42)).values
    assert first == roll("10D6", SimulatedDice.seeded(42)).values
    assert first != roll("10D6", SimulatedDice.seeded(43)).values


# --- property tests -------------------------------------------------------------

dice_terms = st.tuples(st.integers(1, 20), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]))


@given(terms=st.lists(dice_terms, min_size=1, max_size=4), bonus=st.integers(-50, 50),
       seed=st.integers(0, 2**32))
def test_values_stay_within_bounds_and_totals_add_up(
    terms: list[tuple[int, int]], bonus: int, seed: int
) -> None:
    text = "+".join(f"{n}D{x}" for n, x in terms) + f"{bonus:+d}"
    result = roll(text, SimulatedDice.seeded(seed))
    assert len(result.dice) == sum(n for n, _ in terms)
    assert all(1 <= d.value <= d.sides for d in result.dice)
    assert [d.sides for d in result.dice] == [x for n, x in terms for _ in range(n)]
    assert result.total == sum(result.values) + bonus
    low = sum(n for n, _ in terms) + bonus
    high = sum(n * x for n, x in terms) + bonus
    assert low <= result.total <= high
    assert result.text.endswith(f"={result.total}")


# Sides of 66 are D66 dice (test_forms.py), not a 66-sided die.
@given(count=st.integers(1, 30), sides=st.integers(1, 10_000).filter(lambda x: x != 66),
       seed=st.integers(0, 2**32), target=st.integers(-10, 3000))
def test_comparison_outcome_matches_the_total(
    count: int, sides: int, seed: int, target: int
) -> None:
    result = roll(f"{count}D{sides}>={target}", SimulatedDice.seeded(seed))
    assert result.success == (result.total >= target) != result.failure
    assert result.total == sum(result.values)
    shown = result.steps[0]
    assert shown == (str(result.total) if count == 1 else
                     f"{result.total}[{','.join(map(str, result.values))}]")


@given(text=st.text(alphabet="0123456789DdSs+-*/()<>=UR 　１Ｄ", max_size=14),
       seed=st.integers(0, 100))
def test_any_text_parses_or_fails_with_invalid_notation(text: str, seed: int) -> None:
    try:
        command = parse(text)
    except InvalidNotation:
        return
    assert parse(str(command)) == command
    try:
        roll(command, SimulatedDice.seeded(seed))
    except DiceArithmeticError:
        pass


class Purposes:
    """A source that gives 1s and keeps what each roll was asked for."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int, str]] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        self.asked.append((count, sides, purpose))
        return [1] * count


@pytest.mark.parametrize("text", ["2D6+1D4>=3", "D66", "3B6>=4", "choice[a,b]", "x2 1D6",
                                  "1/2D", "2D6"])
def test_every_die_of_a_roll_is_asked_for_with_its_purpose(text: str) -> None:
    """The purpose reaches the source on every call: sums, D66, pools, choices, repeats."""
    source = Purposes()
    roll(text, source, purpose="damage ダメージ")
    assert source.asked and {p for _, _, p in source.asked} == {"damage ダメージ"}


def test_a_roll_without_a_purpose_asks_with_none() -> None:
    source = Purposes()
    roll("2D6", source)
    assert source.asked == [(2, 6, "")]


def test_the_shipped_sources_take_a_purpose_and_ignore_it() -> None:
    """A purpose never changes the dice: the same seed gives the same throws."""
    assert SimulatedDice.seeded(7).roll(3, 6, purpose="to hit 命中") == \
        SimulatedDice.seeded(7).roll(3, 6)
    assert ScriptedDice([(6, 2)]).roll(1, 6, purpose="why") == [2]
    assert checked_roll(ScriptedDice([(6, 5)]), 1, 6, purpose="why") == [5]


def test_manual_dice_say_what_the_roll_is_for() -> None:
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "4"

    roll("1D6", ManualDice(ask), purpose="how many monsters 何体")
    assert prompts == ["Roll 1D6 for how many monsters 何体 and type the value 出目を入力: "]


def test_which_commands_read_a_d66_as_thrown() -> None:
    """What ``roll --dice camera`` notes: the camera gives the two dice in no set order."""
    as_thrown = ["D66", "SD66N", "1D66+1", "(2D66)*2", "-1D66", "2B66", "x3 D66", "rep2 D66N"]
    sorted_or_none = ["D66S", "D66D", "x2 D66A", "2D6", "3B6>=4", "choice[a,b]", "C(66)"]
    assert [t for t in as_thrown if not reads_d66_as_thrown(parse(t))] == []
    assert [t for t in sorted_or_none if reads_d66_as_thrown(parse(t))] == []
    ascending = RollOptions(d66_order=D66Order.ASCENDING)
    assert not reads_d66_as_thrown(parse("D66"), ascending)
    assert not reads_d66_as_thrown(parse("1D66"), ascending)
    assert reads_d66_as_thrown(parse("D66N"), ascending)
