"""What the genso commands' JSON tests share: the rules, the first sample PC, and a `companion
genso … --json` that must succeed, read as JSON (moved from
tests/app/test_fight_apply_hint_weapon_by_name_ap_and_opposed_monsters.py, tidy72: no test
module imports another)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main
from companion.systems.genso.rules import load_rules

RULES = load_rules()


PC1 = "駆け出し冒険者１"


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data
