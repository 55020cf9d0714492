"""Disarming and picking a weapon up: the disarm's penalty to hit, the weapon falling, and
the action of picking it up again.

Rules: CO-DISARM-1, CO-FIRE-4 (picking up, 003).
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc.combat.actions import Attack, PickUp
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.combat.keeper import _Keeper
from companion.systems.coc.sheet import BUDO_STANDING, budo_skill


class _Disarm(_Keeper):
    """Adds disarming and picking a weapon up."""

    def pick_up(self, c: Combatant, a: PickUp) -> None:
        """CO-FIRE-4 (003, pick_up_ap) / CO-DISARM-1 (004, one action): pick a dropped weapon up."""
        w = self.weapon(c, a.weapon)
        if not w.dropped:
            raise IllegalAction(f"{w.info.name} is not on the ground")
        ap = self.rules.default("CO-FIRE-4", "pick_up_ap")
        c = self.one_action(c, "CO-FIRE-4", ap)
        self.put_weapon(c, a.weapon, replace(w, dropped=False))
        self.say(f"{c.name} picks up {w.info.name} ("
                 + (f"{ap} AP, CO-FIRE-4" if self.p003 else "one action, CO-DISARM-1") + ")")

    def disarm_penalty(self, c: Combatant, a: Attack) -> tuple[int, str]:
        """CO-DISARM-1: −20…−60 (Default −40); none with Budo (standing), MA or Grapple on the
        sheet (004 l.47 「武道(立ち技)orマーシャルアーツ」又は「組みつき」)."""
        trained = [k for k in (budo_skill(c.sheet, BUDO_STANDING), "martial_arts", "grapple")
                   if k and c.sheet.skills.get(k, 0)]
        if trained:
            return 0, f"disarm with {self.rules.skill(trained[0]).en}: no penalty, CO-DISARM-1"
        penalty = a.penalty or self.rules.default("CO-DISARM-1", "penalty")
        low = self.rules.num("CO-DISARM-1", "most_penalty")
        high = self.rules.num("CO-DISARM-1", "least_penalty")
        if not low <= penalty <= high:
            raise IllegalAction(f"the disarm penalty must be from {low} to {high} (CO-DISARM-1), "
                                f"found {penalty}")
        return penalty, "disarm, CO-DISARM-1"

    def disarmed(self, t: Combatant, a: Attack) -> None:
        """CO-DISARM-1: a disarm that hits drops the target's weapon instead of damage (Default)."""
        w = self.cs[t.name].sheet.weapons[a.disarm_weapon]
        if w.dropped or w.broken:
            self.say(f"{t.name}'s {w.info.name} is already out of its hands (CO-DISARM-1)")
            return
        self.put_weapon(self.cs[t.name], a.disarm_weapon, replace(w, dropped=True))
        self.say(f"{t.name}'s {w.info.name} falls beside it; picking it up takes an action "
                 "(CO-DISARM-1)")
