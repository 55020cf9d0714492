"""cli59 F3: `genso check simple|general|trap` with no --difficulty rolls against a Default
kept in rules.toml (GM-CHECK-1/2/3 ``difficulty``), labelled "(default)" on the check's line
as GM-CHECK-6's is, listed by `genso defaults` and changed by --set (spec §0.1). The seed
names a difficulty for each situation and none for a check without one, so it is a
Default, not the book's rule. It was "hard" (and normally_set) hidden in the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main


def check_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", "check", *argv, "--seed", "1"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize(("argv", "difficulty"), [
    (("simple",), 7),
    (("general", "--sheet", "pc1"), 12),
    (("trap", "--sheet", "pc1"), 12),
])
def test_no_difficulty_is_the_rules_default_labelled(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
    difficulty: int,
) -> None:
    assert f"> {difficulty} (default) (P = " in check_line(capsys, *argv)


def test_a_difficulty_given_is_not_labelled(user_dirs: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert "(default)" not in check_line(capsys, "simple", "--difficulty", "hard")


@pytest.mark.parametrize(("rule", "value", "argv", "difficulty"), [
    ("GM-CHECK-1", "easy", ("simple",), 3),
    ("GM-CHECK-2", "very_hard", ("general", "--sheet", "pc1"), 16),
    ("GM-CHECK-3", "hastily_set", ("trap", "--sheet", "pc1"), 8),
])
def test_set_changes_the_default(user_dirs: Path, capsys: pytest.CaptureFixture[str],
                                 rule: str, value: str, argv: tuple[str, ...],
                                 difficulty: int) -> None:
    line = check_line(capsys, *argv, "--set", f"{rule}.difficulty={value}")
    assert f"> {difficulty} (P = " in line


def test_defaults_lists_them_with_their_choices(user_dirs: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "defaults", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    assert rows["GM-CHECK-1", "difficulty"]["value"] == "hard"
    assert rows["GM-CHECK-2", "difficulty"]["value"] == "hard"
    assert rows["GM-CHECK-3", "difficulty"]["value"] == "normally_set"
    assert rows["GM-CHECK-3", "difficulty"]["choices"] == ["cleverly_set", "normally_set",
                                                           "hastily_set"]
    assert all(rows[r, "difficulty"]["default"] for r in ("GM-CHECK-1", "GM-CHECK-2"))


def test_a_word_none_of_its_choices_is_refused(user_dirs: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "check", "simple", "--set", "GM-CHECK-1.difficulty=tricky"]) == 2
    assert "GM-CHECK-1.difficulty must be one of extremely_hard, very_hard, hard, easy" \
        in capsys.readouterr().err


def test_the_help_says_what_no_difficulty_means(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["genso", "check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "without it" in text and "GM-CHECK-1.difficulty" in text \
        and "genso defaults" in text
