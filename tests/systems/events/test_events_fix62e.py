"""Audit events62's findings, each fixed with a test that fails on the code before it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.poisons import PoisonList, poisons_path
from companion.dice import ScriptedDice
from companion.systems.events.poisoned import Poison
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member

RULES = load_rules()
AKI = Member("Aki", adventurer=2, agility=1, vitality=1)


def test_d1_a_new_poison_replaces_the_one_tracked_under_the_name_but_for_case(
        capsys: pytest.CaptureFixture[str]) -> None:
    """EV-POI-3 「新しく掛かった毒（状態異常）に上書き更新されます」: Aki then aki is one
    character, so the second poison replaces the first, not beside it (events62 D1)."""
    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["events", "poison", "--who", "ａｋｉ", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "The new poison replaces Aki's 異性化/Gender swap (EV-POI-3)" in out
    assert list(PoisonList(poisons_path()).poisons) == ["ａｋｉ"]
    assert main(["events", "cure", "--who", "AKI"]) == 0
    assert "is cured" in capsys.readouterr().out
    assert PoisonList(poisons_path()).poisons == {}


def test_d1_a_recovery_spot_cures_the_poison_tracked_under_the_name_but_for_case(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """EV-REC-1 cures the sw party's poisons: Aki's, tracked as aki in generic mode."""
    party, ratings = files
    assert main(["events", "poison", "--who", "aki", "--seed", "2"]) == 0
    assert main(["events", "recovery", "--mode", "sw", "--party", str(party),
                 "--ratings", str(ratings), "--seed", "1"]) == 0
    assert "Poisons cured (EV-REC-1): aki's" in capsys.readouterr().out
    assert PoisonList(poisons_path()).poisons == {}


def test_d1_a_poison_tracked_as_aki_puts_aki_s_checks_at_minus_one() -> None:
    """EV-POI-5's −1 is Aki's when the poison is tracked under aki (the same character)."""
    report = run_event("trap", ScriptedDice([(6, 3), (6, 3)]), rules=RULES, mode="sw",
                       party=(AKI,), trap="pit",
                       poisoned={"aki": Poison(1, "EV-POI-5", 8, hours_left=3)})
    (check,) = [s for s in report.find("EV-TRAP-7") if s.roll is not None]
    assert "−1 (毒/poison 判定－１, EV-POI-5" in check.text
