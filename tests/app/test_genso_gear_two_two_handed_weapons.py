"""r77genso NIT on 09f4b0df: with two weapons held in two hands readied, a shield's refusal
(GM-EQUIP-1 Default two_hands_no_shield) says to put both in the pack and gives the command
for each, one after the other; it gave the first's only, and run as printed the shield was
still refused."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from tests.app.genso_town_helpers import edited, made


def test_both_two_handed_weapons_are_taken_off_as_printed(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    edited(aki, "money", "{gold = 40, large_silver = 0, silver = 0}")
    for argv in (["buy", "Aki", "shield"], ["buy", "Aki", "spear"], ["buy", "Aki", "spear"],
                 ["gear", "Aki", "spear"], ["gear", "Aki", "spear"]):
        assert main(["genso", *argv]) == 0, argv
    capsys.readouterr()
    assert main(["genso", "gear", "Aki", "shield"]) == 2
    err = capsys.readouterr().err
    off = f"`{companion_command()} genso gear Aki spear --off`"
    assert f"first ({off}, then {off}); GM-EQUIP-1 " in err, err
    for command in re.findall(r"`([^`]+)`", err[:err.index("; GM-EQUIP-1")]):
        argv = shlex.split(command)
        assert main(argv[argv.index("genso"):]) == 0, command
    assert main(["genso", "gear", "Aki", "shield"]) == 0  # the shield now goes on
