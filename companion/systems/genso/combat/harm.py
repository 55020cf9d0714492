"""Harm and its aftermath in a `genso` fight: taking and healing HP and MP, who is
incapacitated, dead or vanished, victims that will rise, and monsters that want to flee.

Rules: GM-COMBAT-8 (states), GM-MON-4 (an incorporeal monster loses MP), GM-MON-5 (a
Wight's or Wraith's victims rise), GM-MON-1 (flight at half HP).
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.genso.character.core import death_below
from companion.systems.genso.combat.combatants import Combatant, Role, Status
from companion.systems.genso.combat.journal import Line
from companion.systems.genso.combat.state import FightState, _swap
from companion.systems.genso.rules import CreatureKind, GensoRules


def _status(rules: GensoRules, c: Combatant) -> Status:
    """GM-COMBAT-8 (PG 4-6 and the glossary, Default for PCs)."""
    if c.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        return c.status
    hp = c.hp if c.hp is not None else 1
    if c.role is Role.MONSTER and c.incorporeal:
        return Status.VANISHED if c.mp < 1 else Status.ACTIVE
    if hp < death_below(rules, c.role is Role.PC):
        return Status.DEAD
    if hp < 1 or c.mp < 1:
        return Status.INCAPACITATED
    return Status.ACTIVE


def _settle(rules: GensoRules, state: FightState) -> FightState:
    return replace(state, combatants=tuple(replace(c, status=_status(rules, c))
                                           for c in state.combatants))


def _death_word(c: Combatant) -> str:
    if c.status is Status.DEAD and c.creature is not CreatureKind.LIVING:
        return "DEAD 死亡扱い (treated as dead)"
    return c.status.badge


def _harm(rules: GensoRules, target: Combatant, hp: int, mp: int = 0) -> Combatant:
    """Take HP and MP; damage to an incorporeal monster comes off its MP (GM-MON-4)."""
    if target.incorporeal:
        return replace(target, mp=target.mp - hp - mp)
    assert target.hp is not None
    return replace(target, hp=target.hp - hp, mp=target.mp - mp)


def full_already(rules: GensoRules, target: Combatant) -> str:
    """What a heal on ``target`` (its HP before) adds when it was at its maximum already:
    the MP or the stone was spent for nothing, said (genso72 NIT 8: "HP 12/12" alone). Not
    when a heal goes past the maximum (GM-MAGIC-2 ``cap_at_max_hp`` off): it healed
    (reviewg72 NIT 3's follow-up: "HP 16/12 (HP full already: nothing healed)")."""
    if (rules.default("GM-MAGIC-2", "cap_at_max_hp") and target.hp is not None
            and target.max_hp is not None and target.hp >= target.max_hp):
        return " (HP full already: nothing healed 回復なし)"
    return ""


def _heal(target: Combatant, amount: int, cap: bool) -> Combatant:
    if target.hp is None or target.max_hp is None:
        raise IllegalAction(f"{target.name} has no HP to heal")
    hp = target.hp + amount
    return replace(target, hp=min(hp, target.max_hp) if cap else hp)


def _after_harm(rules: GensoRules, state: FightState, by: Combatant | None, hurt: Combatant,
                lines: list[Line]) -> FightState:
    before = state.get(hurt.name)
    hurt = replace(hurt, status=_status(rules, hurt))
    if (by is not None and by.raises_victims and hurt.status is Status.DEAD
            and before.status is not Status.DEAD):
        hurt = replace(hurt, rises_as=by.name)
        lines.append(Line("GM-MON-5", f"{hurt.name} will rise as {by.name}'s kind after the "
                                      "next sunset unless Exorcism is cast on the corpse"))
    pools = (f"HP {hurt.hp}/{hurt.max_hp}, " if hurt.hp is not None else "") + \
        f"MP {hurt.mp}/{hurt.max_mp}"
    badge = _death_word(hurt)
    lines.append(Line("GM-COMBAT-8", f"{hurt.name}: {pools}" + (f" {badge}" if badge else "")))
    if wants_to_flee(rules, hurt) and not wants_to_flee(rules, before):
        lines.append(Line("GM-MON-1", f"{hurt.name} is at half HP or less and tries to flee"))
    return _swap(state, hurt)


def wants_to_flee(rules: GensoRules, c: Combatant) -> bool:
    """GM-MON-1: a monster that is not undead tries to flee at half its HP or less, the half
    (``flee_hp_divisor``) rounded down as §0.3 says: at 6 of 13, not at 7."""
    return (rules.default("GM-MON-1", "flee_flag") and c.role is Role.MONSTER
            and c.creature is not CreatureKind.UNDEAD and c.status is Status.ACTIVE
            and c.hp is not None and c.max_hp is not None
            and c.hp <= c.max_hp // rules.num("GM-MON-1", "flee_hp_divisor"))
