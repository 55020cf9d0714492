"""Conformance with BCDice's base system (issue 24), replayed from BCDice's own test data.

Each case of ``data/bcdice/*.toml`` (copied from bcdice/BCDice, BSD 3-Clause, see
``data/bcdice/README.md``) is rolled with its scripted dice, once as written and once
typed full-width. Text, totals, verdicts, the secret flag and the dice must agree with
BCDice's, through the deliberate differences listed in ``data/bcdice_differences.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.dice import Result, RollKind, ScriptedDice, roll
from companion.dice.notation import DiceSyntaxError
from companion.dice.result import SEPARATOR

DATA = Path(__file__).parent / "data"
FILES = ("None.toml", "AddDice.toml", "D66Dice.toml", "choice.toml", "calc.toml", "Repeat.toml")
DIFFERENCES = tomllib.loads((DATA / "bcdice_differences.toml").read_text(encoding="utf-8"))
CASE_DIFFERENCES = {(d["file"], d["input"]): d for d in DIFFERENCES["case"]}
VERDICTS = {"成功": "成功/success", "失敗": "失敗/failure"}


@dataclass(frozen=True)
class Case:
    """One BCDice test case, as BCDice's test runner reads it."""

    file: str
    number: int
    input: str
    output: str
    rands: tuple[tuple[int, int], ...]
    secret: bool
    success: bool
    failure: bool
    full_width: bool = False

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number}{':full-width' if self.full_width else ''}"

    @property
    def difference(self) -> dict[str, Any] | None:
        return CASE_DIFFERENCES.get((self.file, self.original_input))

    @property
    def original_input(self) -> str:
        return to_half_width(self.input) if self.full_width else self.input


def to_full_width(text: str) -> str:
    """The text as typed with a Japanese IME in full-width mode: ``２Ｄ６＞＝７``."""
    return "".join(
        "\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text
    )


def to_half_width(text: str) -> str:
    return "".join(
        " " if c == "\u3000" else chr(ord(c) - 0xFEE0) if "！" <= c <= "～" else c for c in text
    )


def load(file: str) -> list[Case]:
    data = tomllib.loads((DATA / "bcdice" / file).read_text(encoding="utf-8"))
    return [
        Case(file, number, t["input"], t["output"],
             tuple((r["sides"], r["value"]) for r in t["rands"]),
             t.get("secret", False), t.get("success", False), t.get("failure", False))
        for number, t in enumerate(data["test"], 1)
    ]


IN_SCOPE = [case for file in FILES for case in load(file)]
# A choice's items are free text, shown as typed, so only the notation is typed full-width.
FULL_WIDTH = [
    Case(c.file, c.number, to_full_width(c.input), c.output, c.rands, c.secret, c.success,
         c.failure, full_width=True)
    for c in IN_SCOPE if c.file != "choice.toml"
]
ALL = IN_SCOPE + FULL_WIDTH


def typed_comment(text: str) -> str:
    """The comment BCDice ignores and the companion echoes (rule comment-echoed)."""
    half = to_half_width(text)
    if re.match(r"s?(x|rep|repeat)\d", half, re.IGNORECASE):
        return ""
    if re.match(r"s?choice\d*[\[(]", half, re.IGNORECASE):
        close = "]" if re.match(r"s?choice\d*\[", half, re.IGNORECASE) else ")"
        return text[half.index(close) + 1:].strip()
    if re.match(r"s?choice\d* ", half, re.IGNORECASE):
        return ""
    parts = re.split("[ \u3000]", text.strip(), maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def companion_line(line: str, used: Counter[str]) -> str:
    """BCDice's line with the [[display]] differences applied, counting which were used."""
    parts = line.split(SEPARATOR)
    if parts[-1] in VERDICTS:
        parts[-1] = VERDICTS[parts[-1]]
        used["verdict-english"] += 1
    if successes := re.fullmatch(r"成功数(\d+)", parts[-1]):
        parts[-1] = f"{parts[-1]}/successes {successes[1]}"
        used["label-english"] += 1
    if parts[0] == "計算結果":
        parts[0] = "計算結果/result"
        used["label-english"] += 1
    if len(parts) >= 3 and "[" in parts[1] and re.fullmatch(r"-?\d+", parts[2]):
        shown, total = parts[1], parts[2]
        lone_term = re.fullmatch(rf"{total}\[[\d,]+\]", shown)
        parts[1:3] = [shown] if lone_term else [f"{shown}={total}"]
        used["sum-total-after-equals"] += 1
    return SEPARATOR.join(parts)


def companion_text(case: Case, used: Counter[str]) -> str:
    blocks = []
    comment = typed_comment(case.input)
    for block in case.output.split("\n\n"):
        *number, line = block.split("\n")
        line = companion_line(line, used)
        if comment:
            line = f"{line} {comment}"
            used["comment-echoed"] += 1
        blocks.append("\n".join([*number, line]))
    return "\n\n".join(blocks)


def bcdice_value(line: str) -> str:
    """The last part of a BCDice line before its verdict: a total, 成功数N, dice or an item."""
    parts = line.split(SEPARATOR)
    return parts[-2] if parts[-1] in VERDICTS else parts[-1]


def check_total(result: Result, line: str) -> None:
    value = bcdice_value(line)
    if result.kind is RollKind.CHOICE:
        assert result.steps == (value,)
    elif value.startswith("成功数"):
        assert result.total == int(value.removeprefix("成功数"))
    elif re.fullmatch(r"\d+(,\d+)+", value):
        assert result.total == sum(map(int, value.split(",")))
    else:
        assert result.total == int(re.sub(r"\[.*", "", value))


@pytest.mark.parametrize("case", ALL, ids=lambda c: c.id)
def test_bcdice_case(case: Case) -> None:
    source = ScriptedDice(case.rands)
    difference = case.difference
    if (difference and "refused" in difference) or not case.output:
        with pytest.raises(DiceSyntaxError) as err:
            roll(case.input, source)
        text_line, caret_line = str(err.value).splitlines()[-2:]
        assert text_line == f"  {case.input}" and caret_line.strip() == "^"
        if difference:
            assert difference["refused"] in err.value.reason
            assert err.value.position + 1 == difference["column"]
        return
    result = roll(case.input, source)
    expected = difference["output"] if difference else companion_text(case, Counter())
    assert result.text == expected
    assert [(d.sides, d.value) for d in result.dice] == list(case.rands)
    assert source.remaining == []
    flags = (result.secret, result.success, result.failure, result.critical, result.fumble)
    assert flags == (case.secret, case.success, case.failure, False, False)
    if difference:
        assert result.total == difference["total"]
    elif result.kind is RollKind.REPEAT:
        lines = [block.split("\n")[1] for block in case.output.split("\n\n")]
        assert len(result.rolls) == len(lines)
        for rolled, line in zip(result.rolls, lines, strict=True):
            check_total(rolled, line)
    else:
        check_total(result, case.output)


def test_every_listed_difference_is_met_by_a_bcdice_case() -> None:
    """The list of deliberate differences neither goes stale nor misses one that applies."""
    used: Counter[str] = Counter()
    for case in ALL:
        if case.output and not case.difference:
            companion_text(case, used)
        elif case.difference:
            used[case.difference["rule"]] += 1
    listed = [d["rule"] for d in DIFFERENCES["display"]] + [d["rule"] for d in DIFFERENCES["case"]]
    assert set(listed) == set(used)
    inputs = {(case.file, case.input) for case in IN_SCOPE}
    assert set(CASE_DIFFERENCES) <= inputs


def test_case_counts() -> None:
    """The counts the issue asks for: every base-system case in scope, and its full-width copy."""
    per_file = Counter(case.file for case in IN_SCOPE)
    assert per_file == {"None.toml": 115, "AddDice.toml": 13, "D66Dice.toml": 9,
                        "choice.toml": 35, "calc.toml": 3, "Repeat.toml": 12}
    assert (len(IN_SCOPE), len(FULL_WIDTH), len(ALL)) == (187, 152, 339)
    assert len(CASE_DIFFERENCES) == 7
