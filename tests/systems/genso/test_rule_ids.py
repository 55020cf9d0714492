"""Every GM rule ID of spec §2 that the `genso` system implements is named by a test of it."""

from __future__ import annotations

import importlib
import inspect
import re

ALL_GM_IDS = (
    [f"GM-CORE-{n}" for n in range(1, 5)]
    + [f"GM-CHAR-{n}" for n in range(1, 8)]
    + [f"GM-CHECK-{n}" for n in range(1, 7)]
    + [f"GM-MOVE-{n}" for n in range(1, 3)]
    + [f"GM-COMBAT-{n}" for n in range(1, 9)]
    + [f"GM-MON-{n}" for n in range(1, 8)]
    + [f"GM-HEAL-{n}" for n in range(1, 3)]
    + [f"GM-GROW-{n}" for n in range(1, 3)]
    + [f"GM-MAGIC-{n}" for n in range(1, 14)]
    + [f"GM-ITEM-{n}" for n in range(1, 4)]
    + [f"GM-EQUIP-{n}" for n in range(1, 4)]
    + [f"GM-ECON-{n}" for n in range(1, 3)]
    + [f"GM-LORE-{n}" for n in range(1, 4)]
    + ["GM-DATA-1"]
)
MODULES = ("test_characters", "test_checks", "test_combat", "test_cmd_genso", "test_properties")


def test_every_gm_rule_is_named_by_a_test() -> None:
    assert len(ALL_GM_IDS) == 63
    named: set[str] = set()
    for name in MODULES:
        module = importlib.import_module(f"tests.systems.genso.{name}")
        for _, func in inspect.getmembers(module, inspect.isfunction):
            if func.__name__.startswith("test_"):
                named |= set(re.findall(r"GM-[A-Z]+-\d+", func.__doc__ or ""))
    missing = [rule for rule in ALL_GM_IDS if rule not in named]
    assert missing == []
    assert not named - set(ALL_GM_IDS)
