"""a77gensotown NIT 10: the refusals of a two-handed weapon beside a shield (GM-EQUIP-1
Default two_hands_no_shield) give the command that takes the other off with the program's
name and the sheet, as every other gear hint does; they gave `genso gear SHEET shield
--off`, a placeholder."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from tests.app.genso_town_helpers import edited, made


def test_the_two_hands_refusals_give_the_real_command(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    edited(aki, "money", "{gold = 20, large_silver = 0, silver = 0}")
    for argv in (["buy", "Aki", "shield"], ["buy", "Aki", "spear"], ["gear", "Aki", "shield"]):
        assert main(["genso", *argv]) == 0, argv
    capsys.readouterr()
    for item, off in (("spear", "shield"), ("shield", "spear")):
        assert main(["genso", "gear", "Aki", item]) == 2
        err = capsys.readouterr().err
        assert "SHEET" not in err
        # Beside what to do first, before the setting and its own parenthesis (r77genso).
        hint = f"first (`{companion_command()} genso gear Aki {off} --off`); GM-EQUIP-1 "
        assert hint in err, err
        assert err.rstrip().endswith("allows both)"), err
        argv = shlex.split(hint[hint.index("`") + 1:hint.rindex("`")])
        assert main(argv[argv.index("genso"):]) == 0  # the hint's command works
        assert main(["genso", "gear", "Aki", item]) == 0  # and then the refused one
        capsys.readouterr()
