"""The dice tray's findings of the events68 audit.

RISK 1: ``dice.expressions`` was cut at every comma, so ``choice[a,b,c]`` could not be
offered, and ``companion config`` took a value the tray stops on.
NIT 1: the outcome's prompt said "total 合計" of a choice (the item's place), a pool's
successes and a repeat's rolls added up.
NIT 3: an unnamed poison tracked beside another said "Replaces any current poison".
"""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.modes.dice_tray import DiceTrayMode, parse_expressions
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.errors import DataError


@pytest.mark.parametrize(("text", "expressions"), [
    ("choice[a,b,c], 2D6", ("choice[a,b,c]", "2D6")),
    ("choice[赤,青,緑], 2D6", ("choice[赤,青,緑]", "2D6")),
    ("1D6,choice(a,b),choice2[x,y,z]", ("1D6", "choice(a,b)", "choice2[x,y,z]")),
    ("2D6>=9, 1D6", ("2D6>=9", "1D6")),
])
def test_commas_inside_a_choice_s_brackets_are_the_choice_s(
        text: str, expressions: tuple[str, ...]) -> None:
    """RISK 1: only a comma outside brackets separates the tray's rolls."""
    assert parse_expressions(text) == expressions


def test_a_bracket_left_open_is_still_refused_naming_the_setting() -> None:
    with pytest.raises(DataError, match=r"dice\.expressions: 'choice\[a,b, 2D6' is not a dice"):
        parse_expressions("choice[a,b, 2D6")


def test_the_tray_offers_and_rolls_a_choice_with_commas() -> None:
    mode = DiceTrayMode(parse_expressions("choice[赤,青,緑], 2D6"), "typed 入力")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.label for o in ask.options][:2] == ["Roll choice[赤,青,緑] 振る", "Roll 2D6 振る"]
    mode.answer(0)
    assert isinstance(mode.ask(), RollAsk)
    mode.answer(Throw((2,)))
    assert mode.dice.rolls == ("(choice[赤,青,緑]) ＞ 青",)


def test_config_set_takes_a_choice_and_refuses_what_the_tray_would(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RISK 1: `companion config --set` and the tray agree on dice.expressions: a choice
    with commas is set, a roll the tray stops on is refused as a bad --set is (exit 2)."""
    assert main(["config", "--set", "dice.expressions=choice[a,b,c], 2D6"]) == 0
    assert 'dice.expressions' in capsys.readouterr().out
    assert main(["config", "--set", "dice.expressions=1D6, 1Q6"]) == 2
    err = capsys.readouterr().err
    assert "--set dice.expressions: dice.expressions: '1Q6' is not a dice expression" in err


def test_config_marks_a_file_value_the_tray_stops_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RISK 1: from config.toml it is a problem, marked on the setting's line (exit 1)."""
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[dice]\nexpressions = "2D6, 3X"\n', encoding="utf-8")
    assert main(["config"]) == 1
    captured = capsys.readouterr()
    line = next(x for x in captured.out.splitlines() if x.startswith("dice.expressions"))
    assert line.endswith("""(config.toml's "2D6, 3X" refused)""")
    assert "'3X' is not a dice expression" in captured.err
    assert "the dice tray (play --mode dice) stops on it" in captured.err


@pytest.mark.parametrize(("expression", "throws", "prompt"), [
    ("choice 赤 青 緑", [(2,)], "choice 赤 青 緑: result 結果 青"),
    ("choice[赤,青,緑]", [(3,)], "choice[赤,青,緑]: result 結果 緑"),
    ("3B6>=4", [(2, 5, 6)], "3B6>=4: successes 成功数 2"),
    ("3B6", [(2, 5, 6)], "3B6: total 合計 13"),
    ("x2 1D6", [(4,), (3,)], "x2 1D6: 2 rolls 2回: 4, 3"),
    ("x2 choice[a,b]", [(1,), (2,)], "x2 choice[a,b]: 2 rolls 2回: a, b"),
    ("2D6>=9", [(4, 6)], "2D6>=9: total 合計 10"),
])
def test_the_outcome_prompt_words_the_result_by_its_kind(
        expression: str, throws: list[tuple[int, ...]], prompt: str) -> None:
    """NIT 1: a choice's item, not its place; a pool's successes; a repeat's rolls apart."""
    mode = DiceTrayMode((expression,), "typed 入力")
    mode.answer(0)
    for throw in throws:
        assert isinstance(mode.ask(), RollAsk)
        mode.answer(Throw(throw))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == prompt


def _poison(mode: DiceTrayMode, *faces: int) -> list[str]:
    for face in faces:
        mode.answer(Throw((face,)))
    return [s.text for s in mode.dice.steps]


def test_an_unnamed_poison_beside_another_says_how_to_end_the_earlier() -> None:
    """NIT 3, the audit's repro: Poison typed 1, 3 (判定－１ for 3 h), then Again 1, 3.
    The second is tracked as victim 2 (the tray has no names), and the screen no longer
    says it replaced a poison: it says the rule, and how to cure victim's if it is the same
    character's."""
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(poisons_path()))
    mode.answer(1)  # Tables
    mode.answer(6)  # Poison
    first = _poison(mode, 1, 3)
    assert "Poisons do not stack 毒は重複しない: a poison the victim has already ends" in first
    assert not any("Replaces any current poison" in t for t in first)
    assert not any(t.startswith("If victim") for t in first)  # nothing tracked beside it
    mode.answer(0)  # Again
    second = _poison(mode, 1, 3)
    assert list(PoisonList(poisons_path()).poisons) == ["victim", "victim 2"]
    assert not any("Replaces any current poison" in t for t in second)
    (note,) = [t for t in second if t.startswith("If victim 2")]
    assert note.startswith("If victim 2 is victim again, that one's earlier poison ends "
                           "(EV-POI-3, 毒は重複しない): `")
    assert note.endswith(" events cure --who victim` ends it in the list")


def test_events_without_who_says_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 3 in generic mode without --who: the second poison names the first's cure, and
    a third names both it may be beside."""
    for _ in range(3):
        assert main(["events", "poison", "--seed", "2"]) == 0
        out = capsys.readouterr().out
    assert "If victim 3 is victim or victim 2 again, that one's earlier poison ends " \
           "(EV-POI-3, 毒は重複しない):" in " ".join(out.split())
    assert "events cure --who NAME` ends it in the list" in " ".join(out.split())


def test_a_crowded_list_names_its_first_and_last_unnamed_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 3: the fifth unnamed poison does not list four names."""
    for _ in range(5):
        assert main(["events", "poison", "--seed", "2"]) == 0
        out = " ".join(capsys.readouterr().out.split())
    assert "If victim 5 is one of victim … victim 4 again, that one's earlier poison" in out
