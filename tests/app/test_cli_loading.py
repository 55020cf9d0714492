"""``companion <command>`` loads that command's module alone, and ``--version``, ``--help``
and a misspelt command none: the two list every command by its help line alone."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.app.cli import COMMAND_MODULES, build_parser
from companion.app.command_list import COMMANDS
from tests.companion_process import ROOT

# Runs a command line in a fresh interpreter and prints which of our command modules, and
# which heavy libraries, it imported.
_PROBE = """
import contextlib, io, json, sys
from companion.app.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
loaded = sorted(m for m in sys.modules if m.startswith("companion.app.commands."))
print(json.dumps({"code": code, "commands": loaded,
                  "heavy": sorted(m for m in ("cv2", "numpy", "pygame", "gpiozero")
                                 if m in sys.modules)}))
"""


def _loaded(*argv: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _tops(modules: object) -> set[str]:
    """The command modules (their top package or module under commands/) among ``modules``."""
    assert isinstance(modules, list)
    return {".".join(m.split(".")[:4]) for m in modules}


def test_a_dice_roll_loads_its_own_command_alone() -> None:
    """`companion roll 2d6` at the table: no camera, screen or other command is loaded."""
    seen = _loaded("roll", "2d6")
    assert seen["code"] == 0
    assert _tops(seen["commands"]) == {COMMAND_MODULES["roll"]}
    assert seen["heavy"] == []


def test_a_rules_lookup_loads_its_own_command_alone() -> None:
    seen = _loaded("rules", "sleep", "--floor", "1", "--monster-tile", "1m",
                   "--corner-tile", "3p")
    assert seen["code"] == 0
    assert _tops(seen["commands"]) == {COMMAND_MODULES["rules"]}
    assert "cv2" not in seen["heavy"]


def test_a_fight_command_loads_no_gpio() -> None:
    """pi59 F2: every `companion genso …` loaded gpiozero (the table's buttons, through the
    genso table mode), 0.5 s of each fight action on a slow Pi core; it is loaded where a
    button, LED or buzzer is made."""
    seen = _loaded("genso", "sheet", "pc1")
    assert seen["code"] == 0
    assert "gpiozero" not in seen["heavy"] and "cv2" not in seen["heavy"]


def test_the_version_loads_no_command() -> None:
    seen = _loaded("--version")
    assert seen["code"] == 0 and seen["commands"] == [] and seen["heavy"] == []


def test_help_and_a_misspelt_command_load_no_command() -> None:
    """pi59 F1: `companion --help`, a bare `companion` and a misspelt command imported every
    command's module (OpenCV, gpiozero) to print one line each: 1.5 s here, 4 to 5 s on a
    slow Pi core. They list every command, loading none."""
    for argv in (["--help"], ["rol", "2d6"], []):
        seen = _loaded(*argv)
        assert seen["code"] == (0 if argv == ["--help"] else 2)
        assert seen["commands"] == [] and seen["heavy"] == []
    text = build_parser().format_help()
    for name, listed in COMMANDS.items():
        assert " ".join(text.split(f"\n    {name}")[1].split()).startswith(
            " ".join(listed.help.split())[:30]), name


def test_each_commands_help_line_is_its_modules() -> None:
    """The line `companion --help` gives a command is the one its own parser has."""
    for name in COMMAND_MODULES:
        subparsers = next(a for a in build_parser(name)._actions
                          if isinstance(a.choices, dict) and a.dest == "command")
        (choice,) = subparsers._choices_actions
        assert choice.help == COMMANDS[name].help, name


def test_each_command_module_registers_the_command_it_is_listed_under() -> None:
    """The name a module is listed under is the one it registers: else the command line
    naming it would load a module that does not know it."""
    for name in COMMAND_MODULES:
        parser = build_parser(name)
        subparsers = next(a for a in parser._actions
                          if isinstance(a.choices, dict) and a.dest == "command")
        assert list(subparsers.choices) == [name]


def test_the_help_lists_the_commands_in_order() -> None:
    text = build_parser().format_help()
    places = [text.index(f"\n    {name}") for name in COMMAND_MODULES]
    assert places == sorted(places)
