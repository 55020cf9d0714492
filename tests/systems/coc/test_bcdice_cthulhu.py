"""BCDice's own Cthulhu cases, replayed (CO-CORE-1, CO-CORE-3, CO-BASE-3); differences in
data/bcdice/README.md."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.dice import DiceSyntaxError, ScriptedDice
from companion.systems.coc.checks import (
    Grade,
    Ranges,
    grade,
    one_percent,
    ranges,
    roll_command,
)
from companion.systems.coc.rules import Profile, load_rules

DATA = Path(__file__).parent / "data" / "bcdice" / "Cthulhu.toml"
CASES: list[dict[str, Any]] = tomllib.loads(DATA.read_text(encoding="utf-8"))["test"]

WORDS = {
    "決定的成功/スペシャル": "決定的成功/スペシャル (critical, special)",
    "決定的成功": "決定的成功/critical", "スペシャル": "スペシャル/special",
    "成功": "成功/success", "失敗": "失敗/failure", "致命的失敗": "致命的失敗/fumble",
    "部分的成功": "部分的成功/partial success", "自動成功": "自動成功/automatic success",
    "自動失敗": "自動失敗/automatic failure", "故障": "故障/malfunction",
    "致命的失敗/故障": "致命的失敗/故障 (fumble, malfunction)",
}


def expected(case: dict[str, Any]) -> str:
    """BCDice's line with the deliberate differences 1-3 applied."""
    head, sep, last = case["output"].rpartition(" ＞ ")
    out = head + sep + WORDS.get(last, last)
    out = out.replace(") 故障ナンバー[", ") ＞ 故障ナンバー[")
    comment = case["input"].partition(" ")[2]
    return f"{out} {comment}" if comment else out


def test_every_case_was_copied() -> None:
    assert len(CASES) == 108


@pytest.mark.parametrize("case", CASES, ids=[c["input"] for c in CASES])
def test_case_in_profile_004(case: dict[str, Any]) -> None:
    rules = load_rules(Profile.P004)
    source = ScriptedDice((d["sides"], d["value"]) for d in case["rands"])
    result = roll_command(case["input"], source, rules)
    assert result.text == expected(case)
    assert result.secret == case.get("secret", False)
    assert source.remaining == []


FIVE = [c for c in CASES if any(k in c["input"].upper() for k in ("CCB", "CBRB", "RESB"))]


@pytest.mark.parametrize("case", FIVE, ids=[c["input"] for c in FIVE])
def test_five_percent_case_in_profile_003(case: dict[str, Any]) -> None:
    """Difference 4 (CO-CORE-1): seed 003's fumble range is 95–00."""
    rules = load_rules(Profile.P003)
    source = ScriptedDice((d["sides"], d["value"]) for d in case["rands"])
    want = expected(case)
    if case["rands"] and case["rands"][0]["value"] == 95:
        want = want.replace("95 ＞ 失敗/failure", "95 ＞ 致命的失敗/fumble").replace(
            "95[失敗,失敗]", "95[致命的失敗,致命的失敗]")
    assert roll_command(case["input"], source, rules).text == want


def test_a_skill_of_100_still_fumbles_on_00() -> None:
    """Difference 5 (CO-CORE-1 Default): 00 always fails and is always a fumble."""
    assert grade(100, 120, ranges(load_rules(Profile.P004))) is Grade.FUMBLE
    assert grade(100, 100, one_percent(load_rules())) is Grade.FUMBLE
    assert grade(99, 120, one_percent(load_rules())) is Grade.SUCCESS


def test_co_base_2_a_special_is_at_least_1() -> None:
    """CO-CORE-1 / CO-BASE-2: a special is a success ≤ max(1, skill ÷ 5); below a skill of 5
    the fifth rounds to 0, but a 01 that succeeds is still special."""
    with_critical = Ranges(critical_max=1, fumble_from=100, special_percent=20)
    assert grade(1, 3, with_critical) is Grade.CRITICAL_SPECIAL
    assert grade(1, 4, with_critical) is Grade.CRITICAL_SPECIAL
    no_critical = Ranges(critical_max=0, fumble_from=100, special_percent=20)
    assert grade(1, 4, no_critical) is Grade.SPECIAL
    assert grade(2, 4, no_critical) is Grade.SUCCESS
    assert grade(1, 1, no_critical) is Grade.SPECIAL
    # from 10 up the fifth itself counts: 2 is special at 10, 3 is not
    assert grade(2, 10, no_critical) is Grade.SPECIAL
    assert grade(3, 10, no_critical) is Grade.SUCCESS


def test_full_width_input() -> None:
    rules = load_rules(Profile.P004)
    assert roll_command("ＣＣＢ＜＝５０", ScriptedDice([(100, 5)]), rules).text == \
        "(1D100<=50) ＞ 5 ＞ 決定的成功/スペシャル (critical, special)"


@pytest.mark.parametrize(("text", "value", "head"), [
    ("CC<=60ー10 ジャンプ", 60, "(1D100<=50) ＞ 60 ＞ 失敗/failure ジャンプ"),
    ("ＣＣ＜＝６０ｰ１０", 40, "(1D100<=50) ＞ 40"),
    ("RES(8ー10)", 40, "(1d100<=40) ＞ 40"),
])
def test_the_long_mark_is_a_minus_in_a_command(text: str, value: int, head: str) -> None:
    """docs/dice-notation.md: ー, which a Japanese input method gives for a minus, is a
    minus where it can be nothing else, as in the shared layer; coc roll refused it."""
    result = roll_command(text, ScriptedDice([(100, value)]), load_rules(Profile.P004))
    assert result.text.startswith(head)


@pytest.mark.parametrize(("text", "shown"), [
    ("RES(5-x)", "  RES(5-x)\n        ^"),
    ("RESB(12-x) a comment", "  RESB(12-x)\n          ^"),
    ("CC<=5x", "  CC<=5x\n       ^"),
])
def test_a_fault_in_a_value_is_shown_under_what_was_typed(text: str, shown: str) -> None:
    """The value inside RES(…) or after CC<= is worked out as BCDice's C(…); its fault is
    shown in the command typed, not in a ``C(5-x)`` the player never wrote."""
    with pytest.raises(DiceSyntaxError) as caught:
        roll_command(text, ScriptedDice([]), load_rules(Profile.P004))
    assert str(caught.value).endswith(shown) and "C(" not in str(caught.value)


@pytest.mark.parametrize(("text", "rands", "blocks", "formula"), [
    ("x3 CC<=50", [31, 76, 1], ["(1D100<=50) ＞ 31 ＞ 成功/success",
                                "(1D100<=50) ＞ 76 ＞ 失敗/failure",
                                "(1D100<=50) ＞ 1 ＞ 決定的成功/スペシャル (critical, special)"],
     "x3 CC<=50"),
    ("rep2 CCB<=70 聞き耳", [96, 5],
     ["(1D100<=70) ＞ 96 ＞ 致命的失敗/fumble 聞き耳",
      "(1D100<=70) ＞ 5 ＞ 決定的成功/スペシャル (critical, special) 聞き耳"],
     "rep2 CCB<=70"),
    ("repeat2 CBR(50,60)", [55, 70],
     ["(1d100<=50,60) ＞ 55[失敗,成功] ＞ 部分的成功/partial success",
      "(1d100<=50,60) ＞ 70[失敗,失敗] ＞ 失敗/failure"],
     "repeat2 CBR(50,60)"),
    ("ｘ２　ＲＥＳ（３）", [40, 80], ["(1d100<=65) ＞ 40 ＞ 成功/success",
                                   "(1d100<=65) ＞ 80 ＞ 失敗/failure"], "x2 RES(3)"),
])
def test_a_repeat_runs_cthulhu_commands_as_bcdice_does(
    text: str, rands: list[int], blocks: list[str], formula: str
) -> None:
    """BCDice's Repeat runs its trailer through the game system (repeat.rb: ``rep2 CC<=75``)."""
    source = ScriptedDice((100, v) for v in rands)
    result = roll_command(text, source, load_rules(Profile.P004))
    assert result.text == "\n\n".join(f"#{n}\n{b}" for n, b in enumerate(blocks, 1))
    assert result.formula == formula and len(result.rolls) == len(blocks)
    assert result.total == sum(rands) and source.remaining == []


def test_a_secret_repeat_of_a_cthulhu_command_is_secret() -> None:
    rules = load_rules(Profile.P004)
    for text in ("Sx2 CC<=50", "x2 SCC<=50"):
        assert roll_command(text, ScriptedDice([(100, 1), (100, 2)]), rules).secret


@pytest.mark.parametrize(("text", "reason", "column"), [
    ("x0 CC<=50", "repeat 1 to 100 times", 2),
    ("rep101 CCB<=50", "repeat 1 to 100 times", 4),
    ("x2 rep2 CC<=50", "a repeat cannot repeat another repeat", 4),
])
def test_a_repeat_of_a_cthulhu_command_is_refused_as_the_shared_one(
    text: str, reason: str, column: int
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        roll_command(text, ScriptedDice([]), load_rules(Profile.P004))
    assert caught.value.reason == reason and caught.value.position + 1 == column


@pytest.mark.parametrize(("text", "value", "line"), [
    ("CC(0)<=50", 31, "(1D100<=50) ＞ 31 ＞ 成功/success"),
    ("CCB(00)<=50", 3, "(1D100<=50) ＞ 3 ＞ 決定的成功/スペシャル (critical, special)"),
    ("CC(090)<=50", 95, "(1D100<=50) ＞ 故障ナンバー[90] ＞ 95 ＞ 故障/malfunction"),
])
def test_a_malfunction_number_of_0_is_none(text: str, value: int, line: str) -> None:
    """BCDice's Cthulhu applies and shows a 故障ナンバー only above 0 (``broken_num > 0``)."""
    result = roll_command(text, ScriptedDice([(100, value)]), load_rules(Profile.P004))
    assert result.text == line


@pytest.mark.parametrize(("text", "column"), [
    ("CBR(" + "9" * 5000 + ",50)", 5), ("CBR(50," + "9" * 5000 + ")", 8),
    ("CC(" + "9" * 5000 + ")<=50", 4), ("CC<=" + "9" * 5000, 5),
])
def test_a_number_of_thousands_of_digits_is_refused_not_a_traceback(
    text: str, column: int
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        roll_command(text, ScriptedDice([]), load_rules(Profile.P004))
    assert caught.value.reason == "a number may have at most 30 digits"
    assert caught.value.position + 1 == column


def test_a_repeat_of_thousands_of_digits_is_refused() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        roll_command("x" + "9" * 5000 + " CC<=50", ScriptedDice([]), load_rules(Profile.P004))
    assert caught.value.reason == "repeat 1 to 100 times"
