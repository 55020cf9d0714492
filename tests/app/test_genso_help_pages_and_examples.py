"""cli59 F5 (genso): every `genso` help page says what the command does and gives an
example; every positional says what it takes; the numbers the help gives (GM-MOVE-1's
3/12/48 m, GM-GROW-2's costs, the checks' difficulties) are read from the rules data.
Each example given parses as the command line it shows."""

from __future__ import annotations

import argparse
import re
import shlex
from importlib.resources import files

import pytest

from companion.app.cli import build_parser, main
from companion.app.commands.genso import parser as genso_parser
from companion.systems.genso.rules import load_rules


def pages() -> dict[str, argparse.ArgumentParser]:
    """Every `genso` help page by its command words ("genso", "genso fight flee")."""
    root = build_parser("genso")
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(words: str, parser: argparse.ArgumentParser) -> None:
        found[words] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(f"{words} {name}", child)

    walk("genso", root._subparsers._group_actions[0].choices["genso"])  # type: ignore[union-attr]
    return found


PAGES = pages()


@pytest.mark.parametrize("words", sorted(PAGES))
def test_every_page_says_what_it_does_with_an_example(words: str) -> None:
    page = PAGES[words]
    assert page.description, words
    assert page.epilog and "example" in page.epilog and "companion genso" in page.epilog, words


@pytest.mark.parametrize("words", sorted(PAGES))
def test_every_positional_says_what_it_takes(words: str) -> None:
    bare = [a.dest for a in PAGES[words]._actions
            if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
            and not a.help]
    assert bare == [], words


@pytest.mark.parametrize("words", sorted(PAGES))
def test_every_example_parses(words: str) -> None:
    epilog = PAGES[words].epilog or ""
    examples = [line.strip() for line in epilog.splitlines() if line.startswith("  ")]
    assert examples, words
    for example in examples:
        argv = shlex.split(example)
        assert argv[0] == "companion"
        build_parser(argv[1]).parse_args(argv[1:])  # exits (SystemExit) if it does not


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_move_grow_and_flee_say_the_numbers_and_what_they_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    move = help_text(capsys, "genso", "fight", "move")
    assert "combat 戦闘移動 3 m" in move and "normal 通常移動 12 m" in move \
        and "full 全力移動 48 m" in move
    grow = help_text(capsys, "genso", "grow")
    assert "hp 1, mp 1, spell 2, combat 2, search 2" in grow
    flee = help_text(capsys, "genso", "fight", "flee")
    assert "leaves the fight at once" in flee and "GM-COMBAT-1" in flee
    check = help_text(capsys, "genso", "check")
    assert "simple: 2D > difficulty (GM-CHECK-1: 15/11/7/3)" in check
    assert "trap: Perception + 2D + 罠発見/trap detection bonus > 16/12/8 (GM-CHECK-3)" in check


def test_the_numbers_come_from_the_rules_data(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules data with other numbers give other help: none of them is written in the code."""
    text = (files("companion.systems.genso.data") / "rules.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^full_m = 48$", "full_m = 50", text)
    text = re.sub(r"(?m)^spell = 2 ", "spell = 3 ", text)
    changed = load_rules({"rules.toml": text})
    monkeypatch.setattr(genso_parser, "load_rules", lambda: changed)
    assert "full 全力移動 50 m" in help_text(capsys, "genso", "fight", "move")
    assert "spell 3," in help_text(capsys, "genso", "grow")
