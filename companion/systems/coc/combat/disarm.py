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
from companion.systems.coc.rules import CocRules, WeaponKind
from companion.systems.coc.sheet import BUDO_STANDING, Sheet, budo_skill, skill_base, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) whose
#: :func:`disarm_skill` compares a skill with its base; before, any value the sheet wrote.
HAS_ABOVE_BASE = 14
#: The first engine revision that refuses, before any die, a disarm aimed at bare hands
#: (:func:`bare_hands`; revision 17 dropped a fist, which its owner then had to pick up,
#: coc70 finding 1) or at a weapon already dropped or broken (:func:`out_of_hands`).
NO_BARE_HANDS = 18


def bare_hands(t: Combatant, name: str) -> str:
    """CO-DISARM-1 (004 l.45 「相手の武器を失わせる」): a disarm knocks a *weapon* away, and a
    fist or a kick (an unarmed weapon, CO-MA-1) is no weapon to lose, as the arm called shot
    (CO-CALL-1) and the melee fumble (CO-MELEE-4) already hold. The refusal names the
    weapons ``t`` holds that a disarm may aim at, or says there are none."""
    return (f"{t.name}'s {name} is bare hands, which a disarm cannot knock away "
            f"(CO-DISARM-1); {aim_instead(t)}")


def out_of_hands(t: Combatant, index: int) -> str:
    """CO-DISARM-1: the refusal of a disarm aimed at a weapon already dropped (knocked away
    before, CO-MELEE-4's fumble) or broken (CO-PARRY-1/4): it is no longer in the hands, so
    the blow has nothing to knock away; revision 17 threw the die and spent the attack, then
    said so (reviewc70 RISK 2)."""
    w = t.sheet.weapons[index]
    how = ("broken" if w.broken else "on the ground" if w.dropped
           else f"in {w.lent}'s hands")  # CO-IAI-1, revision 20 on
    return (f"{t.name}'s {w.info.name} is already {how}, out of its hands (CO-DISARM-1); "
            f"{aim_instead(t)}")


def in_hands(t: Combatant) -> list[int]:
    """CO-DISARM-1: the weapons ``t`` holds that a disarm may knock away: not bare hands,
    not already dropped or broken (from revision :data:`NO_BARE_HANDS`)."""
    return [n for n, w in enumerate(t.sheet.weapons)
            if w.info.kind is not WeaponKind.UNARMED and not (w.dropped or w.broken or w.lent)]


def aim_instead(t: Combatant) -> str:
    """The end of a disarm's refusal: the weapons it may aim at instead, or that there are
    none (said once: "no weapon to lose" was said twice, reviewc70 NIT 7)."""
    held = [f"disarm_weapon={n} {t.sheet.weapons[n].info.name}" for n in in_hands(t)]
    return f"aim at {', '.join(held)}" if held else f"{t.name} holds no weapon to lose"


def disarm_skill(rules: CocRules, sheet: Sheet, engine: int) -> str:
    """CO-DISARM-1: the skill that lets a disarm go at the normal value, or "" where there
    is none. 004 l.47 「ただし「武道(立ち技)orマーシャルアーツ」又は「組みつき」の技能を所持して
    いるならば、下方補正を無視し通常の値で使用してよい」: a character *has* (所持) Budo
    (standing), Martial Arts or Grapple when its value is above its 6th-edition base
    (skills.toml: Grapple 25, MA and Budo 1) by more than the Default
    ``CO-DISARM-1.above_base``, so writing a skill at its base and leaving it out are the same.
    ``engine`` is the revision playing (the engine's, or a table's fight's): from
    :data:`HAS_ABOVE_BASE`; before, any value above 0 the sheet wrote counted (coc63 D1).
    The table's penalty menu asks this too, so it hides the menu exactly when the engine
    waives the penalty."""
    keys = [k for k in (budo_skill(sheet, BUDO_STANDING), "martial_arts", "grapple") if k]
    if engine < HAS_ABOVE_BASE:
        return next((k for k in keys if sheet.skills.get(k, 0)), "")
    margin = rules.default("CO-DISARM-1", "above_base")
    return next((k for k in keys
                 if skill_value(rules, sheet, k) > skill_base(rules, sheet, k) + margin), "")


class _Disarm(_Keeper):
    """Adds disarming and picking a weapon up."""

    def pick_up(self, c: Combatant, a: PickUp) -> None:
        """CO-FIRE-4 (003, pick_up_ap) / CO-DISARM-1 (004, one action): pick a dropped weapon up."""
        w = self.weapon(c, a.weapon, " to pick up")
        if not w.dropped:
            raise IllegalAction(f"{w.info.name} is not on the ground")
        no_hands = self.handless(c, f"picking up {w.info.name}")  # CO-BODY-5 (hands)
        if no_hands:
            raise IllegalAction(no_hands)
        ap = self.rules.default("CO-FIRE-4", "pick_up_ap")
        c = self.one_action(c, "CO-FIRE-4", ap)
        self.put_weapon(c, a.weapon, replace(w, dropped=False))
        self.say(f"{c.name} picks up {w.info.name} ("
                 + (f"{ap} AP, CO-FIRE-4" if self.p003 else "one action, CO-DISARM-1") + ")")

    def disarm_penalty(self, c: Combatant, a: Attack) -> tuple[int, str]:
        """CO-DISARM-1: −20…−60 (Default −40); none for one who has Budo (standing), MA or
        Grapple (004 l.47 「武道(立ち技)orマーシャルアーツ」又は「組みつき」;
        :func:`disarm_skill`)."""
        trained = disarm_skill(self.rules, c.sheet, self.engine)
        if trained:
            return 0, f"disarm with {self.rules.skill(trained).en}: no penalty, CO-DISARM-1"
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
        if w.dropped or w.broken or w.lent:
            self.say(f"{t.name}'s {w.info.name} is already out of its hands (CO-DISARM-1)")
            return
        self.put_weapon(self.cs[t.name], a.disarm_weapon, replace(w, dropped=True))
        self.say(f"{t.name}'s {w.info.name} falls beside it; picking it up takes an action "
                 "(CO-DISARM-1)")
