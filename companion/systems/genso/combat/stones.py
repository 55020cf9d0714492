"""Magic stones in a `genso` fight: a Healing Stone heals, an Enchant Stone harms a
monster immune to normal attacks; either is used up.

Rules: GM-ITEM-2 (the stones), GM-MAGIC-2 (healing capped at max HP), GM-COMBAT-8 (not on
the dead).
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import DiceSource, roll
from companion.errors import IllegalAction
from companion.systems.genso.combat.actions import UseStone
from companion.systems.genso.combat.combatants import Stance, Status
from companion.systems.genso.combat.harm import (
    _after_harm,
    _harm,
    _heal,
    _status,
    full_already,
)
from companion.systems.genso.combat.journal import ENGINE, NOTHING_SPENT_SINCE, Line
from companion.systems.genso.combat.state import FightState, _swap
from companion.systems.genso.rules import GensoRules


def _stone_name(rules: GensoRules, key: str) -> str:
    """A stone's name (治癒石/Healing Stone) for its key; the key when no item has it."""
    return rules.items[key].name if key in rules.items else key


def _use_stone(rules: GensoRules, state: FightState, action: UseStone, source: DiceSource,
               lines: list[Line], legacy: bool = False, engine: int = ENGINE) -> FightState:
    """GM-ITEM-2: a magic stone is used up; Healing heals 2D, Enchant does 2D to the immune.

    A stone is not wasted on one dead, vanished or fled: it is refused, as the Healing
    spell is (GM-COMBAT-8: nothing brings the dead back). Nor, from engine revision
    :data:`~.journal.NOTHING_SPENT_SINCE` on, an Enchant Stone on one not immune to normal
    attacks: 「通常攻撃無効な魔物に２Ｄのダメージを与える」 gives it no other use, and
    revision 7 used it up there with "no effect" (genso72 RISK 3).
    """
    user = state.get(action.actor)
    if action.stone not in user.stones:
        raise IllegalAction(f"{user.name} carries no {_stone_name(rules, action.stone)}")
    aimed = state.get(action.target)
    if not legacy and aimed.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        raise IllegalAction(f"{aimed.name} {aimed.status.said}: the stone would be used "
                            "up for nothing")
    if action.stone == "enchant_stone" and not aimed.immune_normal \
            and engine >= NOTHING_SPENT_SINCE:
        raise IllegalAction(f"GM-ITEM-2 付与石/Enchant Stone: {aimed.name} is not immune to "
                            "normal attacks (通常攻撃無効), the only foe it harms: the stone "
                            "would be used up for nothing")
    left = list(user.stones)
    left.remove(action.stone)
    state = _swap(state, replace(user, stones=tuple(left), stance=Stance.NONE))
    target = state.get(action.target)
    if action.stone == "healing_stone":
        dice = rules.num("GM-ITEM-2", "healing")
        result = roll(dice, source, purpose=f"healing 回復 of the Healing Stone 治癒石 {dice}")
        healed = _heal(target, result.total, rules.default("GM-MAGIC-2", "cap_at_max_hp"))
        lines.append(Line("GM-ITEM-2", f"治癒石/Healing Stone on {target.name}: {result.text} ＞ "
                                       f"HP {healed.hp}/{healed.max_hp}"
                          + (full_already(rules, target) if engine >= NOTHING_SPENT_SINCE else ""),
                          result))
        return _swap(state, replace(healed, status=_status(rules, healed)))
    if not target.immune_normal:
        lines.append(Line("GM-ITEM-2", f"付与石/Enchant Stone: {target.name} is not immune to "
                                       "normal attacks; no effect"))
        return state
    dice = rules.num("GM-ITEM-2", "enchant")
    result = roll(dice, source, purpose=f"damage ダメージ of the Enchant Stone 付与石 {dice}")
    lines.append(Line("GM-ITEM-2", f"付与石/Enchant Stone on {target.name}: {result.text}",
                      result))
    return _after_harm(rules, state, user, _harm(rules, target, result.total), lines)
