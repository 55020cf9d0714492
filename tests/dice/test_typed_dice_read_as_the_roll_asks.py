"""Typed dice read as the roll asks: a D66's two digits, a 2D6's total, a D3's reading.

review59b F1 and F5: typed dice read as the roll asks. Only a D66 takes a word of two
digits as its two dice (a 2D6's ``11`` may be its total); a D3 is typed as its reading,
and a D6's face it is not is refused with the whole reading."""

from __future__ import annotations

import io

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice, roll
from tests.dice.typed_dice_helpers import typed


@pytest.mark.parametrize("word", ["11", "12", "35"])
def test_a_2d6_typed_as_one_word_is_refused_and_told_to_type_each_die(word: str) -> None:
    """`11` for a 2D6 was read as 1 and 1 (a １ゾロ automatic failure), where the player may
    have typed the total of 5 and 6."""
    source, prompts = typed(word, "5 6")
    assert roll("2D6+3>=8", source).values == [5, 6]
    assert prompts[1].startswith(f"{word} is not on a D6 その目はありません: type each die on its "
                                 "own, a space between (3 5, not their total 8 nor 35); ")


def test_a_2d6_typed_as_its_total_on_the_command_line_is_asked_again(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("11\n5 6\n"))
    assert main(["roll", "2D6+3>=8", "--dice", "typed"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "(2D6+3>=8) ＞ 11[5,6]+3=14 ＞ 成功/success"
    assert "11 is not on a D6 その目はありません: type each die on its own" in err


@pytest.mark.parametrize(("command", "word", "text"), [
    ("D66", "11", "(D66) ＞ 11"), ("D66", "35", "(D66) ＞ 35"),
    ("1D66", "52", "(1D66) ＞ 52")])
def test_a_d66_still_takes_its_two_digits(command: str, word: str, text: str) -> None:
    source, prompts = typed(word)
    assert roll(command, source).text == text
    assert prompts[0] == "Roll 2D6 and type the 2 values (for the D66, 35 is 3 and 5) 出目を入力: "


def test_a_source_with_no_d66_reading_is_asked_for_two_d6() -> None:
    source = ScriptedDice([(6, 3), (6, 5)])
    assert roll("D66", source).text == "(D66) ＞ 35"
    assert source.remaining == []


@pytest.mark.parametrize(("sides", "face", "reading", "reads"), [
    (3, "4", 2, "1-2 → 1, 3-4 → 2, 5-6 → 3"), (3, "6", 3, "1-2 → 1, 3-4 → 2, 5-6 → 3"),
    (2, "3", 1, "1-3 → 1, 4-6 → 2")])
def test_a_d3_is_typed_as_a_d6_reads_and_a_d6_face_is_refused_with_the_reading(
        sides: int, face: str, reading: int, reads: str) -> None:
    """The prompt said "a D6 will do" and took a D6's 2 and 3 for a D3 as they were (a D6's
    2 reads as 1): a player typing the faces they saw got 1, 2, 3 one, two and three times
    in six. The prompt and the refusal now say the D6 is typed as what it reads as."""
    source, prompts = typed(face, str(reading))
    assert roll(f"1D{sides}", source).total == reading
    assert prompts[0] == (f"Roll 1D{sides} and type the value (no D{sides}? type a D6 as "
                          f"{reads}) 出目を入力: ")
    assert prompts[1].startswith(f"{face} is not on a D{sides} その目はありません: a D6 is "
                                 f"typed as what it reads as, {reads} (its {face}: {reading}); ")
