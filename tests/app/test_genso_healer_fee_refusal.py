"""a77gensotown NIT 7: a healer's fee the purse cannot pay (GM-HEAL-1, 1 silver per HP
healed) is refused naming the fee and the rests that can be taken, `rest Aki 2 --healer`
(all the purse pays for) or a rest alone; it said only "銀貨5枚 (5 silver) is more than the
purse holds". A mana stone's MP out of range (GM-ITEM-1) says the MP found."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import edited, made


def test_the_healer_fee_refusal_names_the_fee_and_what_the_purse_pays_for(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    edited(aki, "money", "{gold = 0, large_silver = 0, silver = 2}")
    edited(aki, "hp", "4")
    before = aki.read_text(encoding="utf-8")
    assert main(["genso", "rest", "Aki", "5", "--healer"]) == 2
    err = capsys.readouterr().err
    assert ("GM-HEAL-1 healer's fee: 5 HP × 銀貨1枚 (1 silver) = 銀貨5枚 (5 silver) is more "
            "than the purse holds (銀貨2枚 (2 silver)); `") in err
    assert "--healer` is what it pays for, or rest without --healer (1 HP per 2 days)" in err
    assert aki.read_text(encoding="utf-8") == before
    hint = re.search(r"`([^`]+)` is what it pays for", err)
    assert hint is not None
    argv = shlex.split(hint.group(1))
    assert argv[argv.index("genso"):] == ["genso", "rest", "Aki", "2", "--healer"]
    assert main(argv[argv.index("genso"):]) == 0  # the rest it names is paid
    assert "GM-HEAL-1 2 days' rest: HP 4 → 6, healer's fee 銀貨2枚" in capsys.readouterr().out
    assert main(["genso", "rest", "Aki", "1", "--healer"]) == 2
    assert ("it pays for no day in a healer's care; rest without --healer (1 HP per 2 days)"
            in capsys.readouterr().err)


def test_a_mana_stone_out_of_range_says_the_mp_found(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made(user_dirs, capsys, "Aki")
    assert main(["genso", "buy", "Aki", "mana_stone", "--mp", "7"]) == 2
    assert "GM-ITEM-1: a mana stone holds 1–5 MP, found 7" in capsys.readouterr().err
