"""A Wight's victim who rose at sunset (GM-MON-5), as `companion genso fight show` and the
table's row keep marking it for the GM, who brings the risen in as a foe."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from companion.app.commands.genso.fights import fight_status
from companion.app.modes.genso import GensoFightMode
from companion.dice import ScriptedDice
from companion.dice.notation import display_width
from companion.systems.genso.combat import Attack, EndFight, Fight, Sunset, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
VILLAGER, MAGE = "普通の村人（男性）", "一般的な魔術師（男性）"


def test_a_risen_victim_stays_marked_after_the_sunset(user_dirs: Path) -> None:
    """genso72 NIT 8: after `fight sunset` the victim's row went from "rises at sunset as
    ワイト's kind" to a plain DEAD; only the log line said it rose."""
    fight = Fight(RULES, entrants_for(RULES, [replace(preset(RULES, "villager_m"), hp=3),
                                              preset(RULES, "mage_m")], [("wight", 1)]))
    for action, faces in ((Wait(VILLAGER), ()), (Wait(MAGE), ()),
                          (Attack("ワイト", VILLAGER), (1, 1)), (Wait(MAGE), ()),
                          (EndFight(), ()), (Sunset(), ())):
        fight.push(action, ScriptedDice((6, f) for f in faces))
    mode = GensoFightMode(RULES, fight)
    text, data = fight_status(RULES, fight, mode)
    # The row, with what is on the fighter read down its column (a77data NIT 5: a row goes
    # on in lines under it, within 80 columns, its English name in the name column)
    block = next(r for r in re.split(r"\n(?! {8})", text) if VILLAGER in r).splitlines()
    col = display_width(block[0][:block[0].index("HP ")])
    row = " ".join(" ".join([block[0], *(line[col:] for line in block[1:])]).split())
    assert "DEAD" in row and "risen 起き上がった as ワイト's kind (GM-MON-5)" in row
    assert next(r for r in data["combatants"] if r["name"] == VILLAGER)["risen_as"] == "ワイト"
    shown = next(f for f in mode.fight_view().fighters if f.name.ja == VILLAGER)
    assert "起き上がった risen (ワイト)" in shown.conditions
