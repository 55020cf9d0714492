"""Losing body parts: cutting, gouging and blowing off, the penalty to hit, the part's
consequences, and the bleeding each round.

Rules: CO-BODY-1 to CO-BODY-6, CO-BASE-1 (HP and DB recomputed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import IllegalAction
from companion.systems.coc.combat.actions import Attack
from companion.systems.coc.combat.damage import _Damage
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import Weapon, carried_hp, skill_value, with_characteristic

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) that
#: refuses a part lost more times than the body has it (:meth:`_BodyParts.part_left`);
#: revision 17 lost a tongue again and again, each loss's consequences applied anew.
PART_COUNTS = 18
#: The first engine revision that plays readings.toml's Default "CO-BODY-5 (hands)"
#: (:meth:`_BodyParts.hands_refusal`): no hand left, no weapon, punch, grapple or parry by
#: hand; one hand left, no two-handed weapon. Revision 19 let an armless fighter swing a
#: blackjack and grapple (coc72 RISK 4).
HANDS_READ = 20
#: The bare-hand techniques used without a hand (Default "CO-BODY-5 (hands)"): a kick and a
#: head butt, by their skill; a punch (Fist) needs one.
NO_HANDS_SKILLS = frozenset({"kick", "head_butt"})


def _many(count: int, part: str) -> str:
    """"2 eyes", "1 tongue"."""
    return f"{count} {part}" + ("s" if count > 1 else "")


class _BodyParts(_Damage):
    """Adds lost body parts and bleeding."""

    def part_left(self, t: Combatant, a: Attack) -> None:
        """CO-BODY-5: a part is lost no more times than the body has it, the part's ``count``
        in the rules data (eyes 2, tongue 1; 004 「目玉一個に付き」「腕一本に付き」), and not once
        what it is on is gone (a hand is on an arm, a finger on a hand: the part's ``within``
        and ``per``; 004 l.95 「対象の生物学的弱点がない場合は行えない」), refused before any die
        from revision :data:`PART_COUNTS`."""
        if self.engine < PART_COUNTS:
            return
        parts = self.rules.source["CO-BODY-5"]
        part = parts[a.part]
        count = int(part["count"])
        if t.lost.count(a.part) >= count:
            raise IllegalAction(f"{t.name} has no {a.part} left to lose: a body has "
                                f"{_many(count, a.part)}, all lost (CO-BODY-5)")
        if self.parts_left(t, a.part) <= 0:
            within = part["within"]
            raise IllegalAction(f"{t.name} has no {a.part} left to lose: a body has "
                                f"{_many(count, a.part)}, {part['per']} on each {within}, "
                                f"and no {within} is left (CO-BODY-5)")

    def parts_left(self, t: Combatant, name: str) -> int:
        """CO-BODY-5: how many of part ``name`` ``t`` may still lose: its ``count`` less those
        lost, and no more than ``per`` on each of the part it is ``within`` still left (both
        arms lost take the hands and fingers on them, reviewc70 RISK 3). The body's sides
        are not kept, so a hand lost and then an arm leave one hand (the arm may be the bare
        one): a part is refused only when none can be left."""
        part = self.rules.source["CO-BODY-5"][name]
        left = int(part["count"]) - t.lost.count(name)
        if "within" in part:
            left = min(left, int(part["per"]) * self.parts_left(t, str(part["within"])))
        return left

    def hands_left(self, t: Combatant) -> int:
        """CO-BODY-5: the hands ``t`` still has, 2 less those lost with them or their arms
        (:meth:`parts_left`: both arms lost take both hands)."""
        parts = self.rules.source.get("CO-BODY-5", {})
        if not t.lost or "hand" not in parts:
            return 2
        return self.parts_left(t, "hand")

    def hands_refusal(self, t: Combatant, w: Weapon | None) -> str:
        """Why ``t`` cannot use ``w`` (None: grappling, or parrying by hand) for want of
        hands, or "": readings.toml's Default "CO-BODY-5 (hands)", from revision
        :data:`HANDS_READ`. Seed 004 and CO-BODY-5 give a lost arm's characteristic loss and
        bleeding only; the engine already reads a lost arm as taking its hand and fingers
        (reviewc70 RISK 3), and a weapon, a punch, a grapple and a parry are held or made by
        hand, so none is left without one, nor a two-handed weapon with one. A kick and a
        head butt (:data:`NO_HANDS_SKILLS`), a tackle and a dodge need none."""
        if self.engine < HANDS_READ:
            return ""
        if w is not None and w.info.kind is WeaponKind.UNARMED \
                and w.info.skill in NO_HANDS_SKILLS:
            return ""
        left = self.hands_left(t)
        if left <= 0:
            return self.handless(t, w.info.name if w is not None
                                 else "grapple or parry by hand")
        if left == 1 and w is not None and w.info.two_handed:
            return (f"{t.name} has one hand left: no two-handed {w.info.name} (CO-BODY-5, "
                    "the Default 'hands')")
        return ""

    def handless(self, t: Combatant, what: str) -> str:
        """Why ``t`` cannot do ``what`` with no hand left, or "" (one left, or a revision
        before :data:`HANDS_READ`): the Default "CO-BODY-5 (hands)" for what is done by hand
        besides a weapon, a grapple or a parry (:meth:`hands_refusal`): an MA or Budo parry,
        First Aid or Medicine, picking a weapon up, reloading and clearing a jam
        (reviewcoc72 DEFECT 1 and NIT 5; the table offered them to the armless)."""
        if self.engine < HANDS_READ or self.hands_left(t) > 0:
            return ""
        return (f"{t.name} has no hand left (both arms or hands lost): no {what} "
                "(CO-BODY-5, the Default 'hands')")

    def body_rule(self, a: Attack) -> str:
        """CO-BODY-1: the rule of a declared part loss, cut CO-BODY-2, gouge CO-BODY-3 or blow off
        CO-BODY-4, each with CO-BODY-5 on."""
        rule = {"cut": "CO-BODY-2", "gouge": "CO-BODY-3", "blow_off": "CO-BODY-4"}.get(a.body)
        if rule is None:
            raise IllegalAction("a body part is lost by cut, gouge or blow_off (CO-BODY-1)")
        for needed in ("CO-BODY-1", rule, "CO-BODY-5"):
            if not self.on(needed):
                raise IllegalAction(f"losing body parts is {needed}, off in this profile")
        parts = self.rules.source["CO-BODY-5"]
        if a.part not in parts:
            raise IllegalAction(f"no body part {a.part!r} ({', '.join(parts)}) (CO-BODY-5)")
        return rule

    def body_penalty(self, t: Combatant, a: Attack, w: Weapon) -> tuple[int, str]:
        """CO-BODY-2 cut: −SIZ×factor (or the part's fixed penalty); CO-BODY-3 gouge: the fixed
        penalty, else the Keeper's −60…−80 (Default −70); CO-BODY-4 blow off: eyes and head
        take their fixed penalty, other parts a damage threshold instead."""
        rule = self.body_rule(a)
        part: Mapping[str, Any] = self.rules.source["CO-BODY-5"][a.part]
        info = w.info
        siz = t.sheet.stat("SIZ")
        if rule == "CO-BODY-2":
            if not info.slashing:
                raise IllegalAction(f"cutting needs a slashing weapon, not {info.name} "
                                    "(CO-BODY-2)")
            if "factor" in part:
                if siz * part["factor"] > 100:
                    raise IllegalAction(f"SIZ {siz}×{part['factor']} is over 100% (CO-BODY-2)")
                return -siz * part["factor"], f"cut the {a.part}: SIZ {siz}×{part['factor']}, " \
                    "CO-BODY-2"
            return part.get("penalty", 0), f"cut the {a.part}, CO-BODY-2, CO-BODY-5"
        if rule == "CO-BODY-3":
            if info.kind not in (WeaponKind.MELEE, WeaponKind.UNARMED):
                raise IllegalAction("gouging needs a close weapon or bare hands (CO-BODY-3)")
            if "penalty" in part:
                return part["penalty"], f"gouge the {a.part}, CO-BODY-3, CO-BODY-5"
            penalty = a.penalty or self.rules.default("CO-BODY-3", "penalty")
            self.in_limits("CO-BODY-3", "penalty", penalty, "the gouging penalty")
            return penalty, f"gouge the {a.part}, CO-BODY-3"
        if not info.heavy:
            raise IllegalAction(f"blowing a part off needs a heavy weapon, not {info.name} "
                                "(CO-BODY-4)")
        return part.get("penalty", 0), f"blow off the {a.part}, CO-BODY-4"

    def lose_part(self, t: Combatant, a: Attack, rolled: int) -> None:
        """CO-BODY-5: the part's consequences (characteristics with HP and DB recomputed,
        CO-BASE-1; skills, and the tongue's 「味覚を必要とする技能に-50％」, which no sheet skill
        is, said as an after-effect for the Keeper; extra damage; death at HP ≤ 0 for torso or
        head) and CO-BODY-6's bleeding unless staunched at once."""
        if t.dead:
            return
        rule = self.body_rule(a)
        part: Mapping[str, Any] = self.rules.source["CO-BODY-5"][a.part]
        if rule == "CO-BODY-4" and "penalty" not in part:
            need = t.sheet.stat("SIZ") * part.get("factor", 0)
            if rolled < need:
                self.say(f"{rolled} damage < SIZ×{part.get('factor', 0)} = {need}: the "
                         f"{a.part} holds (CO-BODY-4)")
                return
        lost = (*t.lost, a.part)
        self.say(f"{t.name} loses the {a.part} ({rule}, CO-BODY-5)")
        sheet = t.sheet
        recompute = bool(self.rules.default("CO-BASE-1", "recompute"))
        for stat, dice in part.get("stats", {}).items():
            amount, text = (self.roll_total(dice, f"{t.name}'s {stat} lost with the {a.part} "
                                            "部位破壊") if "D" in dice else (int(dice), dice))
            sheet = with_characteristic(sheet, stat, -amount, recompute)
            self.say(f"{stat} −{text} = {sheet.stat(stat)} (CO-BODY-5)")
        if part.get("stats") and not recompute:
            self.say(f"maximum HP {sheet.max_hp} and DB {sheet.db} stay as they were "
                     "(CO-BASE-1)")
        skills = dict(sheet.skills)
        if "skill" in part:
            key = part["skill"]
            before = skill_value(self.rules, sheet, key)
            skills[key] = (self.share(before, int(part["skill_divisor"]))
                           if lost.count(a.part) == 1 else 0)
            self.say(f"{self.rules.skill(key).name} {before} → {skills[key]} (CO-BODY-5)")
        if "listen" in part:
            before = skill_value(self.rules, sheet, "listen")
            skills["listen"] = max(0, before + part["listen"])
            self.say(f"聞き耳/Listen {before} → {skills['listen']} (CO-BODY-5)")
        if "taste" in part and self.engine >= 4:  # revision 3 and before left it unsaid
            # No sheet skill needs taste (skills.toml has none): the Keeper applies it.
            self.say(f"味覚を要する技能/skills that need taste {part['taste']:+d}% from now on, "
                     "an after-effect for the Keeper (no skill on the sheet) (CO-BODY-5)")
        sheet = replace(sheet, skills=skills)
        hp = carried_hp(t.sheet.max_hp, t.hp, sheet.max_hp)
        t = self.set(t, sheet=sheet, lost=lost)
        if hp < t.hp:
            self.say(f"maximum HP {sheet.max_hp}, DB {sheet.db} (CO-BASE-1)")
            self.harm(t, t.hp - hp)
        bleeds = "bleed" in part and (part.get("always_bleeds", False) or not a.staunched)
        if bleeds and self.on("CO-BODY-6") and not self.cs[t.name].dead:
            t = self.cs[t.name]
            self.set(t, bleeding=(*t.bleeding, part["bleed"]))
            self.say(f"{t.name} bleeds {part['bleed']} HP a round until staunched (CO-BODY-6)")
        if part.get("extra", 0) and not self.cs[t.name].dead:
            self.say(f"extra damage {part['extra']} (CO-BODY-5)")
            self.harm(self.cs[t.name], part["extra"])
        t = self.cs[t.name]
        # 004's 「HP0」: HP 0 or below by the Default below_zero_too, else exactly 0 (below
        # it the profile's dying rule holds, CO-BASE-8 or CO-DEATH-1)
        zero = t.hp <= 0 if self.rules.default("CO-BODY-5", "below_zero_too") else t.hp == 0
        if part.get("kills_at_zero") and zero and not t.dead:
            self.die(t, f"the {a.part} is severed at HP {t.hp} (CO-BODY-5)")

    def bleed(self) -> None:
        """CO-BODY-6: each bleeding wound takes its HP at the start of every round."""
        if not self.on("CO-BODY-6"):
            return
        for name in self.names:
            c = self.cs[name]
            if c.dead or not c.bleeding:
                continue
            total, texts = 0, list[str]()
            for dice in c.bleeding:
                amount, text = self.roll_total(
                    dice, self.round_start(f"{name}'s bleeding 出血 (CO-BODY-6)"))
                total, texts = total + amount, [*texts, text]
            self.say(f"{name} bleeds {' + '.join(texts)} = {total} (CO-BODY-6)")
            self.harm(c, total)
