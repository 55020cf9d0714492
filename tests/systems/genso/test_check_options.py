"""``companion genso check``: what its options take, and which kinds of check each goes with
(GM-CHECK-1..6, GM-MAGIC-6). A value it cannot read, or an option the check would drop, is
refused naming the option (exit 2), never a traceback nor a silent default."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", "check", *argv, "--json", "--seed", "1"]) == 0, \
        capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", "check", *argv, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("argv, names", [
    (("simple", "--difficulty=--3"), "extremely_hard, very_hard, hard, easy"),
    (("simple", "--difficulty=-+3"), "extremely_hard, very_hard, hard, easy"),
    (("simple", "--difficulty= 3"), "extremely_hard, very_hard, hard, easy"),
    (("general", "--sheet", "pc2", "--difficulty=--"), "extremely_hard, very_hard, hard, easy"),
    (("general", "--sheet", "pc2", "--difficulty=rule"), "extremely_hard, very_hard, hard"),
    (("general", "--sheet", "pc2", "--difficulty=" + "9" * 5000), "hard, easy"),
    (("enemy", "--sheet", "pc2", "--difficulty=--"), "extremely_hard, very_hard, hard, easy"),
    (("trap", "--sheet", "pc2", "--difficulty=--"), "cleverly_set, normally_set, hastily_set"),
    (("trap", "--sheet", "pc2", "--difficulty=extremely_hard"), "cleverly_set, normally_set"),
])
def test_a_difficulty_it_cannot_read_is_named_with_what_it_takes(
        argv: tuple[str, ...], names: str, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-1/2/3/6: `--difficulty=--3` (int('--3')) and `--difficulty=--` (argparse's
    [] reached the difficulty table, unhashable) ended in a traceback; now exit 2 naming
    --difficulty, the kind of check and the names it takes."""
    err = refused(capsys, *argv)
    assert "--difficulty" in err and f"a {argv[0]} check takes a whole number" in err
    assert names in err
    assert len(err) < 300  # a 5000-digit value is not echoed whole


@pytest.mark.parametrize("option", ["--sheet", "--vs", "--ability", "--modifier"])
def test_the_value_dashdash_of_another_option_is_named(
        option: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--modifier=--` was read as no modifier, `--ability=--` as "no ability []"."""
    err = refused(capsys, "opposed", "--sheet", "pc1", "--vs", "pc2", f"{option}=--")
    assert f"{option} '--' is no value" in err


@pytest.mark.parametrize("given, value", [("-3", -3), ("+3", 3), ("１２", 12), ("0", 0)])
def test_a_number_with_one_sign_or_full_width_is_a_difficulty(
        given: str, value: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "general", "--sheet", "pc2", f"--difficulty={given}")["difficulty"] \
        == value


def test_an_opposed_check_takes_the_other_sides_modifier(
        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-5 (seed l.1138) 「Aの能力値＋２Ｄ＋修正値＞Ｂの能力値＋２Ｄ＋修正値」: B's
    modifier could not be given (only --modifier, A's); --vs-modifier is B's, rolled and
    shown with B's terms, each side's terms on its line."""
    data = run(capsys, "opposed", "--sheet", "pc1", "--vs", "pc2", "--modifier", "2",
               "--vs-modifier", "-1")
    assert data["a"]["formula"] == "2D6+8" and data["b"]["formula"] == "2D6+4"
    lines = data["text"].splitlines()
    assert lines[1].startswith("駆け出し冒険者１: 2D + 体力/Body 6 + 修正/modifier 2: (2D6+8) ＞ ")
    assert lines[2].startswith("駆け出し冒険者２: 2D + 体力/Body 5 + 修正/modifier -1: (2D6+4) ＞ ")
    err = refused(capsys, "general", "--sheet", "pc1", "--vs-modifier", "1")
    assert "--vs-modifier" in err and "opposed" in err


@pytest.mark.parametrize("argv, option, kinds", [
    (("undead", "--sheet", "pc2", "--difficulty", "8"), "--difficulty", "simple, general"),
    (("mark", "--sheet", "pc1", "--difficulty", "hard"), "--difficulty", "trap and enemy"),
    (("opposed", "--sheet", "pc1", "--vs", "pc2", "--difficulty", "8"), "--difficulty",
     "simple, general"),
    (("trap", "--sheet", "pc2", "--ability", "magic"), "--ability", "general and opposed"),
    (("enemy", "--sheet", "pc2", "--ability", "body"), "--ability", "general and opposed"),
    (("undead", "--sheet", "pc2", "--ability", "magic"), "--ability", "general and opposed"),
    (("mark", "--sheet", "pc1", "--ability", "body"), "--ability", "general and opposed"),
    (("simple", "--ability", "body"), "--ability", "general and opposed"),
    (("general", "--sheet", "pc2", "--vs", "pc1"), "--vs", "opposed checks"),
    (("trap", "--sheet", "pc2", "--no-active"), "--no-active", "opposed checks"),
    (("enemy", "--sheet", "pc2", "--vs-modifier", "0"), "--vs-modifier", "opposed checks"),
    (("simple", "--sheet", "pc1"), "--sheet", "every check but simple"),
])
def test_an_option_the_check_would_drop_is_refused_by_name(
        argv: tuple[str, ...], option: str, kinds: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-4 (seed l.1135–1136, undead sensing 難しい 12), GM-MAGIC-6, GM-CHECK-3/6
    (Perception), GM-CHECK-5: `check undead --difficulty 8` rolled against 12 and `check trap
    --ability magic` rolled Perception without a word; now each is refused naming the option,
    the kinds it goes with and the kind given."""
    err = refused(capsys, *argv)
    assert f"{option} goes with " in err and kinds in err and f"not {argv[0]}" in err


def test_the_options_that_apply_still_roll(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "general", "--sheet", "pc2", "--ability", "magic")["terms"][0] == \
        {"label": "魔力/Magic", "value": 6}
    assert run(capsys, "general", "--sheet", "pc2")["terms"][0]["label"] == "体力/Body (default)"
    assert run(capsys, "enemy", "--sheet", "pc2", "--difficulty", "easy")["difficulty"] == 8
    opposed = run(capsys, "opposed", "--sheet", "pc1", "--vs", "pc2", "--ability", "strength",
                  "--no-active", "--vs-modifier", "0")
    assert opposed["active"] is False


def test_full_width_modifiers_and_the_seeds_difficulty_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-1/2/5: `--modifier ＋２` from a Japanese keyboard stopped with argparse's
    "invalid int value: '＋２'", and `--difficulty 難しい` (the seed's own word) was refused
    for only extremely_hard … easy were taken; both now read, and −1 (U+2212) is -1."""
    hard = run(capsys, "general", "--sheet", "pc1", "--difficulty", "難しい", "--modifier", "＋２")
    assert hard["difficulty"] == 12 and "修正/modifier 2" in hard["text"]
    worst = run(capsys, "general", "--sheet", "pc1", "--difficulty", "極めて難しい",
                "--modifier", "−1")
    assert worst["difficulty"] == 20 and "修正/modifier -1" in worst["text"]
    assert run(capsys, "simple", "--difficulty", "易しい")["difficulty"] == 3
    both = run(capsys, "opposed", "--sheet", "pc1", "--vs", "pc2", "--vs-modifier", "－３")
    assert "修正/modifier -3" in both["text"]
    err = refused(capsys, "general", "--sheet", "pc1", "--difficulty", "固い")
    assert "hard, easy (極めて難しい, 非常に難しい, 難しい, 易しい)" in err


def test_a_general_check_labels_the_ability_it_rolls_unasked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-2 (PG 2-2-1 「能力値＋２D＋修正値＞難易度」 names no ability; the GM picks it,
    rules60g nit 9): without --ability the check rolled Body unlabelled; it is the Default
    GM-CHECK-2.ability, labelled, and a setting (perception) or --ability changes it."""
    assert main(["genso", "check", "general", "--sheet", "pc1", "--seed", "2"]) == 0
    assert "2D + 体力/Body (default) 6 > 12 (default)" in capsys.readouterr().out
    assert main(["genso", "check", "general", "--sheet", "pc1", "--seed", "2", "--ability",
                 "body"]) == 0
    assert "2D + 体力/Body 6 > 12 (default)" in capsys.readouterr().out
    assert main(["genso", "check", "general", "--sheet", "pc1", "--seed", "2", "--set",
                 "GM-CHECK-2.ability=perception"]) == 0
    assert "2D + 知覚力/Perception 5 > 12 (default)" in capsys.readouterr().out
    assert main(["genso", "check", "general", "--sheet", "pc1", "--set",
                 "GM-CHECK-2.ability=luck"]) == 2
    assert "must be one of body, perception, magic" in capsys.readouterr().err
