"""The dice tray's findings of the events68 audit.

RISK 1: ``dice.expressions`` was cut at every comma, so ``choice[a,b,c]`` could not be
offered, and ``companion config`` took a value the tray stops on.
NIT 1: the outcome's prompt said "total 合計" of a choice (the item's place), a pool's
successes and a repeat's rolls added up.
NIT 3: an unnamed poison tracked beside another said "Replaces any current poison".
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.app.cli import main
from companion.app.config import load_config
from companion.app.modes.dice_tray import DiceTrayMode, parse_expressions
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.errors import DataError
from tests.app.config_and_pins_helpers import setting_lines


@pytest.mark.parametrize(("text", "expressions"), [
    ("choice[a,b,c], 2D6", ("choice[a,b,c]", "2D6")),
    ("choice[赤,青,緑], 2D6", ("choice[赤,青,緑]", "2D6")),
    ("1D6,choice(a,b),choice2[x,y,z]", ("1D6", "choice(a,b)", "choice2[x,y,z]")),
    ("2D6>=9, 1D6", ("2D6>=9", "1D6")),
    # a comment's brackets closed in it (reviewe68 RISK 1's good counterpart)
    ("2D6 hit (melee, ranged), 1D6", ("2D6 hit (melee, ranged)", "1D6")),
    ("2D6 :), 1D6", ("2D6 :)", "1D6")),  # an extra close is no bracket left open
])
def test_commas_inside_a_choice_s_brackets_are_the_choice_s(
        text: str, expressions: tuple[str, ...]) -> None:
    """RISK 1: only a comma outside brackets separates the tray's rolls."""
    assert parse_expressions(text) == expressions


@pytest.mark.parametrize(("text", "bracket", "at", "part"), [
    ("choice[a,b, 2D6", "[", 7, "choice[a,b, 2D6"),
    ("2D6 (atk, 1D6", "(", 5, "2D6 (atk, 1D6"),
    ("1D6, 2D6 攻撃（近接, 1D6", "（", 7, "2D6 攻撃（近接, 1D6"),
    ("1D6 [memo, 2D6", "[", 5, "1D6 [memo, 2D6"),
])
def test_a_bracket_left_open_is_refused_naming_it(text: str, bracket: str, at: int,
                                                  part: str) -> None:
    """reviewe68 RISK 1: a bracket never closed (in a roll's comment too: text after a
    space) took the rolls after it in, with no word: '2D6 攻撃（近接, 1D6' offered one roll.
    It is refused, naming the bracket and where, and what to change."""
    with pytest.raises(DataError) as refused:
        parse_expressions(text)
    assert str(refused.value) == (
        f"dice.expressions: the bracket {bracket} at character {at} of {part!r} is never "
        "closed 括弧が閉じていません: close it, or leave brackets out of a roll's comment "
        "(the rolls after it would be read into it)")


def test_config_set_refuses_a_comment_s_bracket_left_open(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe68 RISK 1's repro: `config --set` took it (exit 0), the tray offering one roll."""
    assert main(["config", "--set", "dice.expressions=2D6 攻撃（近接, 1D6"]) == 2
    assert "--set dice.expressions: dice.expressions: the bracket （ at character 7 of " \
        "'2D6 攻撃（近接, 1D6' is never closed" in capsys.readouterr().err


def test_config_imports_no_tray() -> None:
    """reviewe68 RISK 2: `companion config` checks dice.expressions without importing the
    dice tray (and through it the session host, the event tables and the JongRogue
    engine: about 0.2 s more on a PC, several times that on a Pi)."""
    code = ("import sys, companion.app.commands.config; "
            "print(sorted(m for m in sys.modules if m.startswith(('companion.app.modes', "
            "'companion.app.session', 'companion.systems.', 'companion.hw.display')) "
            "and m != 'companion.systems.defaults'))")  # toml_value's home (NIT 4)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


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
    """RISK 1: from config.toml it is a problem, marked on the setting's line (exit 1): as
    the value in effect that the tray stops on, not "refused" (the word of a value set
    aside for its default, as text_scale's beside it: reviewe68 NIT 1)."""
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[display]\ntext_scale = "abc"\n[dice]\nexpressions = "2D6, 3X"\n',
                    encoding="utf-8")
    assert main(["config"]) == 1
    captured = capsys.readouterr()
    lines = setting_lines(captured.out)
    line = lines["dice.expressions"]
    assert line.endswith(
        "# file: config.toml (the dice tray stops on it ダイストレイが止まります)")
    assert '"2D6, 3X"' in line and "refused" not in line
    scale = lines["display.text_scale"]
    assert scale.endswith("""# default (config.toml's "abc" refused)""")
    assert "'3X' is not a dice expression" in captured.err
    assert "the dice tray (play --mode dice) stops on it" in captured.err


@pytest.mark.parametrize(("expression", "throws", "prompt"), [
    ("choice 赤 青 緑", [(2,)], "choice 赤 青 緑: result 結果 青"),
    ("choice[赤,青,緑]", [(3,)], "choice[赤,青,緑]: result 結果 緑"),
    ("3B6>=4", [(2, 5, 6)], "3B6>=4: successes 成功数 2"),
    ("3B6", [(2, 5, 6)], "3B6: total 合計 13"),
    ("x2 1D6", [(4,), (3,)], "x2 1D6: 2 rolls 2回: 4, 3"),
    ("x2 choice[a,b]", [(1,), (2,)], "x2 choice[a,b]: 2 rolls 2回: a, b"),
    # each roll's two items kept apart (reviewe68 NIT 5: "a, c, c, a" lost the pairs)
    ("x2 choice2[a,b,c]", [(1,), (2,), (3,), (1,)], "x2 choice2[a,b,c]: 2 rolls 2回: a, c / c, a"),
    ("2D6>=9", [(4, 6)], "2D6>=9: success 成功 (10)"),  # its verdict (events72 NIT 6)
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
    character's: on the outcome's status line, short (the Table panel cut it, and the
    Tracking line after it, at 800x480: reviewe68 DEFECT 1)."""
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(poisons_path()))
    mode.answer(1)  # Tables
    mode.answer(6)  # Poison
    first = _poison(mode, 1, 3)
    assert "Poisons do not stack 毒は重複しない: any earlier one ends" in first
    assert not any("Replaces any current poison" in t for t in first)
    assert mode.view("").status == ""  # nothing tracked beside it
    mode.answer(0)  # Again
    second = _poison(mode, 1, 3)
    assert list(PoisonList(poisons_path()).poisons) == ["victim", "victim 2"]
    assert not any("Replaces any current poison" in t for t in second)
    assert second[-1] == "Tracking victim 2's poison: Tick 毒の経過 in the menu ticks it"
    assert not any("cure --who" in t for t in second)
    view = mode.view("")
    assert view.status.startswith("victim 2 = victim? 同一人物なら前の毒を解除: ")
    assert view.status.endswith(" events cure --who victim")
    assert view.guidance
    # trouble said by the session comes first, and is trouble
    told = mode.view("", status="保存できません cannot save")
    assert (told.status, told.guidance) == ("保存できません cannot save", False)
    mode.answer(1)  # Menu: the hint was the outcome's
    assert mode.view("").status == ""


def _joined(out: str) -> str:
    return " ".join(out.split())


def test_events_without_who_says_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 3 in generic mode without --who: the second poison names the first's cure, and
    a third names both it may be beside; after the line naming it (reviewe68 NIT 2)."""
    for _ in range(2):
        assert main(["events", "poison", "--seed", "2"]) == 0
        out = _joined(capsys.readouterr().out)
    note = ("If victim 2 is the same character as victim, victim's earlier poison ends "
            "(EV-POI-3, 同一人物なら前の毒は終了): `")
    assert note in out and out.index("Tracking victim 2's poison") < out.index(note)
    assert "events cure --who victim`" in out
    assert main(["events", "poison", "--seed", "2"]) == 0
    out = _joined(capsys.readouterr().out)
    assert ("If victim 3 is the same character as victim or victim 2, that one's earlier "
            "poison ends (EV-POI-3, 同一人物なら前の毒は終了):") in out
    assert "events cure --who NAME`" in out


def test_a_crowded_list_names_its_first_and_last_unnamed_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 3: the fifth unnamed poison does not list four names."""
    for _ in range(5):
        assert main(["events", "poison", "--seed", "2"]) == 0
        out = _joined(capsys.readouterr().out)
    assert "If victim 5 is the same character as one of victim to victim 4, that one's" in out
