"""cli59 F7: an unknown option is refused with the usage of the command typed, every
command and sub-command, not the top level's ``companion [-h] [--version] COMMAND ...``."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterator

import pytest

from companion.app.cli import COMMAND_MODULES, build_parser, main, parse_command_line


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command path and its parser that picks no further sub-command."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs and path:
        yield path, parser
    for action in subs:
        for name, sub in action.choices.items():
            yield from leaves(sub, (*path, name))


def required(path: tuple[str, ...], parser: argparse.ArgumentParser) -> list[str]:
    """Words for the positionals and options ``parser`` requires, so an option after them
    is the only word it refuses: one missing is refused first, with the leaf's usage on the
    old code too (review59b F9). The help's example when it gives one (``rules rate
    --monster S …``: a value any type takes), else a choice's first or ``1`` for each."""
    example = " ".join((parser.description or "").split()).partition("Example: companion ")[2]
    words = shlex.split(example)
    if words[:len(path)] == list(path):
        return words[len(path):]
    words = []
    for action in parser._actions:
        if (action.option_strings and not action.required) \
                or action.nargs in ("?", "*", argparse.SUPPRESS):
            continue
        word = str(next(iter(action.choices))) if action.choices else "1"
        words += [*action.option_strings[:1],
                  *[word] * (action.nargs if isinstance(action.nargs, int) else 1)]
    return words


@pytest.mark.parametrize("command", list(COMMAND_MODULES))
def test_an_unknown_option_shows_the_usage_of_the_command_typed(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    for path, parser in leaves(build_parser(command)):
        with pytest.raises(SystemExit) as done:
            main([*path, *required(path, parser), "--no-such-option"])
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"usage: {parser.prog} "), (path, err)
        assert "COMMAND ..." not in err.splitlines()[0]
        assert err.rstrip().endswith(": error: unrecognized arguments: --no-such-option"), \
            (path, err)


def test_the_error_names_the_option_under_the_commands_usage(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's three: the leaf's usage, then the words no parser took."""
    for words, prog in ((["events", "door", "--colour", "red"], "companion events"),
                        (["genso", "fight", "show", "--colour"], "companion genso fight show"),
                        (["replay", "--json", "x"], "companion replay")):
        with pytest.raises(SystemExit):
            main(words)
        err = capsys.readouterr().err
        assert err.startswith(f"usage: {prog} ")
        unknown = " ".join(w for w in words[1:] if w.startswith("--") or w == "red")
        assert err.rstrip().endswith(f"{prog}: error: unrecognized arguments: {unknown}")


def _help(capsys: pytest.CaptureFixture[str], *path: str) -> str:
    with pytest.raises(SystemExit):
        main([*path, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_dice_rules_and_replay_help_say_what_they_do_with_an_example(
        capsys: pytest.CaptureFixture[str]) -> None:
    """F5: `dice --help`, `dice read --help`, `rules --help`, each `rules TABLE --help` and
    `replay --help` had a usage and options, but no word of what the command does nor an
    example; each `rules` example runs as written."""
    paths = [("dice",), ("dice", "read"), ("rules",), ("replay",)]
    paths += [path for path, _ in leaves(build_parser("rules"))]
    for path in paths:
        text = _help(capsys, *path)
        description = text.split(" options: ")[0].split(" positional arguments: ")[0]
        assert "Example: companion " in description and f"companion {path[0]}" in description
    for _, parser in leaves(build_parser("rules")):
        assert parser.description is not None
        example = " ".join(parser.description.split()).split("Example: companion ")[1]
        assert main(example.split()) == 0, example
        capsys.readouterr()


@pytest.mark.parametrize(("words", "said"), [
    (["plya"], "companion: error: argument COMMAND: invalid choice: 'plya' (choose from "
               "'calibrate', 'classify', 'config', 'history', 'roll', 'events', 'genso', 'coc', "
               "'rfid', 'dice', 'rules', 'simulate', 'replay', 'play'); did you mean 'play'?"),
    (["play", "--mode", "dcie"], "companion play: error: argument --mode: invalid choice: "
                                 "'dcie' (choose from 'game', 'dice', 'genso', 'coc'); did you "
                                 "mean 'dice'?"),
    (["config", "--shw"], "companion config: error: unrecognized arguments: --shw (did you "
                          "mean --show?)"),
    (["config", "--shw", "--jsn=1"], "companion config: error: unrecognized arguments: --shw "
                                     "--jsn=1 (did you mean --show or --json?)"),
    (["zzz"], "companion: error: argument COMMAND: invalid choice: 'zzz' (choose from "
              "'calibrate', 'classify', 'config', 'history', 'roll', 'events', 'genso', 'coc', "
              "'rfid', 'dice', 'rules', 'simulate', 'replay', 'play')"),
])
def test_a_command_or_option_mistyped_is_answered_with_the_one_near_it(
        words: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """setup75 NIT 7: `companion plya` and `config --shw` were refused with no "did you
    mean" (Python 3.11's argparse offers none), as a setting's word near a choice is."""
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code == 2
    assert capsys.readouterr().err.rstrip().splitlines()[-1] == said


@pytest.mark.parametrize(("words", "near"), [
    (["play", "--mode", "DICE"], "did you mean 'dice'?"),
    (["play", "--mode", "ｄｉｃｅ"], "did you mean 'dice'?"),
    (["PLAY"], "did you mean 'play'?"),
    (["config", "--SHOW"], "(did you mean --show?)"),
])
def test_a_command_or_option_in_capitals_or_full_width_is_answered_too(
        words: list[str], near: str, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewsetup75 NIT 5: the word typed was matched as typed, so ``DICE``, full-width
    ``ｄｉｃｅ``, ``PLAY`` and ``--SHOW`` got no "did you mean", where a setting's value
    (``COMPANION_DISPLAY_KIND=SCREEN``) does; it is folded as the settings fold it."""
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(near)


@pytest.mark.parametrize("words", [["Aki", "--healer", "3"], ["Aki", "--sleep", "3"],
                                   ["--healer", "Aki", "3"], ["Aki", "3", "--healer"]])
def test_a_number_after_a_flag_is_the_days_of_rest(words: list[str]) -> None:
    """calendar75 DEFECT 2: ``genso rest Aki --healer 3`` was refused with "unrecognized
    arguments: 3" (argparse matched ``days``, empty, with ``sheet``): the 3 is the days,
    wherever it stands."""
    parsed = parse_command_line(build_parser("genso"), ["genso", "rest", *words])
    assert parsed.sheet == "Aki" and parsed.days == 3


def test_an_optional_positional_after_an_option_keeps_its_checks(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A word after the flag that is no number is refused as ``days`` (its type named),
    and a word more than the positionals take is still unrecognized; ``coc fight act``'s
    TARGET after a ``--with`` is taken too."""
    with pytest.raises(SystemExit):
        parse_command_line(build_parser("genso"), ["genso", "rest", "Aki", "--sleep", "x"])
    assert "argument days: invalid int value: 'x'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_command_line(build_parser("genso"), ["genso", "rest", "Aki", "1", "--healer", "3"])
    assert "unrecognized arguments: 3" in capsys.readouterr().err
    act = parse_command_line(build_parser("coc"), ["coc", "fight", "act", "attack", "Ann", "--with",
                                              "weapon=1", "Cultist"])
    assert (act.actor, act.target, act.with_) == ("Ann", "Cultist", ["weapon=1"])
