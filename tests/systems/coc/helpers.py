"""Sheets and scripted dice for the coc tests."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.rules import CocRules
from companion.systems.coc.sheet import Sheet, sheet_from_mapping


def sheet(rules: CocRules, name: str, dex: int = 10, weapons: tuple[str, ...] = ("fist",),
          armour: list[dict[str, Any]] | None = None, **skills: int) -> Sheet:
    return sheet_from_mapping(rules, {
        "name": name,
        "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex, "APP": 10,
                            "SIZ": 13, "INT": 12, "EDU": 12},
        "skills": skills, "weapons": [{"key": w} for w in weapons], "armour": armour or []})
