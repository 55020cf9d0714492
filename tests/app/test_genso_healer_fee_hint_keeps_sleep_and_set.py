"""r77genso NIT on e5b06290: the healer's fee refusal (GM-HEAL-1) names a rest the purse
pays for; with --sleep and a --set fee given, the command printed keeps them, so run as
printed it charges the fee asked for and fills MP (GM-HEAL-2). It dropped both, and the
fee was charged at the Default."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import MAGE, edited, made


def test_the_rest_named_keeps_sleep_and_the_fee_set(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ben = made(user_dirs, capsys, "Ben", MAGE)
    edited(ben, "money", "{gold = 0, large_silver = 0, silver = 5}")
    edited(ben, "hp", "4")
    edited(ben, "mp", "1")
    fee = "GM-HEAL-1.fee_silver=2"
    assert main(["genso", "rest", "Ben", "5", "--healer", "--sleep", "--set", fee]) == 2
    hint = re.search(r"`([^`]+)` is what it pays for", capsys.readouterr().err)
    assert hint is not None
    argv = shlex.split(hint.group(1))
    argv = argv[argv.index("genso"):]
    assert argv == ["genso", "rest", "Ben", "2", "--healer", "--sleep", "--set", fee]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "HP 4 → 6, healer's fee 銀貨4枚" in out
    assert "MP full (1 → " in out
