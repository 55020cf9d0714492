"""A genso fight's table mode made from the rules and played key by key, for the genso table's
mutation tests and those of combatants' names."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.app.modes.genso import GensoFightMode
from companion.dice import DiceSource, SimulatedDice
from companion.systems.genso.combat import (
    Fight,
    entrants_for,
)
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import played_keys

RULES = load_rules()


def table(rules: GensoRules = RULES, *, pc1: dict[str, Any] | None = None,
          pc2: dict[str, Any] | None = None,
          monsters: tuple[tuple[str, int], ...] = (("orc", 2),)) -> GensoFightMode:
    """The two sample PCs (their sheets changed by ``pc1`` / ``pc2``) against ``monsters``."""
    party = [replace(preset(rules, "pc1"), **(pc1 or {})),
             replace(preset(rules, "pc2"), **(pc2 or {}))]
    return GensoFightMode(rules, Fight(rules, entrants_for(rules, party, list(monsters))))


def play(mode: GensoFightMode, *keys: str, dice: DiceSource | None = None) -> None:
    """Pick ``keys`` in turn, every throw asked for thrown from ``dice``."""
    played_keys(mode, keys, dice or SimulatedDice.seeded(1))
