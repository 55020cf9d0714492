"""The genso fight engine's words: one who fled 'has fled'; a stone not carried named.

Audit genso63's wording slips (NIT 8) in the fight engine: a fled or vanished being "has
fled", not "is fled"; a stone not carried is named (治癒石/Healing Stone), not its key."""

from __future__ import annotations

import pytest

from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.genso.combat import Cast, Fight, Flee, UseStone, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def turn_of(fight: Fight, name: str) -> None:
    """Everyone before ``name`` waits (GM-COMBAT-1)."""
    dice = SimulatedDice.seeded(1)
    while (current := fight.state.current) is not None and current.name != name:
        fight.push(Wait(current.name), dice)


def test_a_spell_on_one_who_fled_says_has_fled_and_a_stone_not_carried_is_named() -> None:
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")],
                                      [("orc", 1)]))
    turn_of(fight, PC1)
    fight.push(Flee(PC1), SimulatedDice.seeded(1))
    turn_of(fight, PC2)
    with pytest.raises(IllegalAction, match=f"^{PC1} has fled$"):
        fight.push(Cast(PC2, "healing", (PC1,)), SimulatedDice.seeded(1))
    with pytest.raises(IllegalAction, match=f"^{PC2} carries no 治癒石/Healing Stone$"):
        fight.push(UseStone(PC2, "healing_stone", PC2), SimulatedDice.seeded(1))
