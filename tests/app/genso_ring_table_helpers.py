"""A genso table with a Ring of Storage worn (GM-ITEM-3) and the command line's turn
passing: the party's two PCs by name."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_json_helpers import genso

RULES = load_rules()

PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def ringed_table(**pc2: Any) -> GensoFightMode:
    """pc1 and pc2 (who knows Healing) against an Orc, pc2 with 3 MP of its own and a Ring
    of Storage holding 5 on the left hand (GM-ITEM-3), changed by ``pc2``."""
    mage = replace(preset(RULES, "pc2"), **{"mp": 3, "rings_left": ("ring_storage",),
                                            "storage_mp": 5, **pc2})
    return GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), mage], [("orc", 1)])))


def turn_of(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """Everyone before ``name`` waits (GM-COMBAT-1), so it is ``name``'s turn."""
    while (current := genso(capsys, "fight", "show")["current"]) != name:
        genso(capsys, "fight", "wait", current)
