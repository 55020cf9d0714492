"""Attacks played to their Log and Result lines, for the tests that read them: the coc Cult's
attack on Ann with exactly the dice given, and a genso Orc's attack on pc1."""

from __future__ import annotations

from typing import Any

from companion.app.modes.coc import CocFightMode
from companion.app.modes.genso import GensoFightMode
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack as CocAttack
from companion.systems.coc.rules import Profile
from companion.systems.genso.combat import Attack as GensoAttack
from companion.systems.genso.combat import Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.systems.coc.helpers import duel, pass_to

ANN = {"dodge": 60, "knife": 60, "weapons": ("knife",)}
CULT = {"fist": 90}


def cult_attacks_ann(profile: str, dice: list[tuple[int, int]], **how: Any) -> CocFightMode:
    """Cult (Fist 90) attacks Ann (Dodge 60, Knife 60) with exactly ``dice``."""
    fight = duel(Profile(profile), ANN, CULT)
    pass_to(fight, "Cult")
    source = ScriptedDice(dice)
    fight.push(CocAttack("Cult", "Ann", **how), source)
    assert source.remaining == []
    return CocFightMode(fight)


RULES = load_rules()
PC1, ORC = "駆け出し冒険者１", "オーク"


def d6(*faces: int) -> ScriptedDice:
    return ScriptedDice((6, face) for face in faces)


def orc_attacks(*faces: int) -> GensoFightMode:
    """pc1 waits, then the Orc attacks it with ``faces`` for the dice."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    fight.push(Wait(PC1), d6())
    fight.push(GensoAttack(ORC, PC1), d6(*faces))
    return GensoFightMode(RULES, fight)
