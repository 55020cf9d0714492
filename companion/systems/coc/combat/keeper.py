"""The Keeper's events, played at any moment without a turn: fire, falls and SAN losses
(placing on the board is :mod:`~companion.systems.coc.combat.board_moves`'s), and a fall's
damage, which a throw from a height uses too.

Rules: CO-BURN-1, CO-BASE-11, CO-BASE-13, CO-BASE-1 (HP recomputed).
"""

from __future__ import annotations

from companion.dice.notation import MAX_DICE
from companion.errors import IllegalAction
from companion.systems.coc.checks import check
from companion.systems.coc.combat.actions import Burn, Fall, Place, SanLoss
from companion.systems.coc.combat.body_parts import _BodyParts
from companion.systems.coc.combat.fighters import Combatant, Condition
from companion.systems.coc.rules import CHOICES
from companion.systems.coc.sheet import carried_hp, with_characteristic

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) that says
#: a SAN loss reaching 0 is CoC 6e's permanent insanity for the Keeper to rule (coc72 NIT 9,
#: CO-BASE-13 [BASE 6e]); revision 19 flagged only temporary and indefinite insanity there.
SAN_ZERO_SAID = 20
#: The first engine revision whose temporary insanity says "understands what they saw" of the
#: one who saw it, an investigator (a78cocfight NIT 7); revision 25 said "what it saw".
THEY_SAW = 26


class _Keeper(_BodyParts):
    """Adds the Keeper's fire, falls and SAN losses."""

    def falling(self, metres: int, who: str) -> tuple[int, str]:
        """CO-BASE-11: 1D6 per full 3 m (Default); a shorter fall from a height 1D6. With the
        spec's option jump_reduces (off by Default) a faller who can act rolls Jump (跳躍) on
        landing, and a success takes 1D6 off the damage (to 0 at least)."""
        dice = self.fall_dice(metres)
        total, text = self.roll_total(f"{dice}D6", f"{who}'s fall damage 落下ダメージ "
                                      f"({metres} m)")
        shown = f"fall {metres} m ＞ {text} (CO-BASE-11)"
        faller = self.get(who)
        if not self.rules.default("CO-BASE-11", "jump_reduces") or faller.out:
            return total, shown
        if not self.check(faller, "jump", label=f"{who} 跳躍/Jump on landing").success:
            return total, shown
        cut, cut_text = self.roll_total("1D6", f"{who}'s Jump on landing 着地の跳躍")
        total = max(0, total - cut)
        return total, f"{shown}; the Jump on landing takes off {cut_text}: {total} (CO-BASE-11)"

    def fall_dice(self, metres: int) -> int:
        """CO-BASE-11: the D6 a fall of ``metres`` rolls, refused beyond the dice a roll takes
        (coc72 NIT 8: said in the rule's words, not the dice parser's), so a throw from a
        height can be refused before its roll (a77cocgrapple DEFECT 2)."""
        step = self.divisor("CO-BASE-11", "metres_per_d6")
        dice = max(1, metres // step)
        if dice > MAX_DICE:
            raise IllegalAction(f"a fall of {metres} m is {dice}D6, more than the {MAX_DICE} "
                                f"dice a roll takes: at most {(MAX_DICE + 1) * step - 1} m "
                                f"(CO-BASE-11: 1D6 per full {step} m)")
        return dice

    def keeper(self, t: Combatant, a: Burn | Fall | SanLoss | Place) -> None:
        """The Keeper's events: a placing (CO-TURN-2), a burn (CO-BURN-1), a fall (CO-BASE-11), a
        SAN loss (CO-BASE-13)."""
        if isinstance(a, Place):
            self.place(t, a)
        elif isinstance(a, Burn):
            self.burn(t, a)
        elif isinstance(a, Fall):
            if not self.on("CO-BASE-11") or a.metres < 1:
                raise IllegalAction("a fall of 1 m or more (CO-BASE-11)")
            total, text = self.falling(a.metres, t.name)
            self.say(f"{t.name}: {text}; armour does not help")
            self.harm(t, total)
        else:
            self.san_loss(t, a)

    def burn(self, t: Combatant, a: Burn) -> None:
        """CO-BURN-1: fire damage from one incident totalling half the maximum HP or more
        costs 1D6 APP or CON once (the player's choice; CON recomputes HP, CO-BASE-1)."""
        if not self.on("CO-BURN-1"):
            raise IllegalAction("burns are CO-BURN-1, off in this profile")
        if a.damage < 0:
            raise IllegalAction("fire damage is 0 or more")
        lose = a.lose or self.rules.default("CO-BURN-1", "choice")
        if lose not in CHOICES[("CO-BURN-1", "choice")]:
            raise IllegalAction("a burn costs APP or CON (CO-BURN-1)")
        self.say(f"{t.name} is burned ({a.incident}): {a.damage} (CO-BURN-1)")
        self.harm(t, a.damage)
        t = self.cs[t.name]
        totals = dict(t.burns)
        totals[a.incident] = totals.get(a.incident, 0) + a.damage
        t = self.set(t, burns=tuple(totals.items()))
        if a.incident in t.scarred or totals[a.incident] * 2 < t.sheet.max_hp or t.dead:
            return
        amount, text = self.roll_total(self.rules.num("CO-BURN-1", "loss"),
                                       f"{t.name}'s {lose} lost to fire 火傷")
        recompute = bool(self.rules.default("CO-BASE-1", "recompute"))
        sheet = with_characteristic(t.sheet, lose, -amount, recompute)
        hp = carried_hp(t.sheet.max_hp, t.hp, sheet.max_hp)
        what = "the face is scarred" if lose == "APP" else "the cells are carbonised"
        self.say(f"{totals[a.incident]} fire damage ≥ half of HP {t.sheet.max_hp}: "
                 f"{lose} −{text} = {sheet.stat(lose)}, {what} (CO-BURN-1)")
        if lose == "CON" and not recompute:
            self.say(f"maximum HP {sheet.max_hp} stays as it was (CO-BASE-1)")
        t = self.set(t, sheet=sheet, scarred=(*t.scarred, a.incident))
        if hp < t.hp:
            self.say(f"maximum HP {sheet.max_hp} (CO-BASE-1)")
            self.harm(t, t.hp - hp)

    def san_loss(self, t: Combatant, a: SanLoss) -> None:
        """CO-BASE-13: 5+ SAN at once, then INT×5 → temporary insanity; SAN lost within the
        hour ×5 ≥ the hour's starting SAN → indefinite insanity (the fight is one hour)."""
        if not self.on("CO-BASE-13"):  # coc67 N3: off, not a wrong number
            raise IllegalAction("SAN losses are CO-BASE-13, off in this profile")
        if a.amount < 0:
            raise IllegalAction(f"a SAN loss of 0 or more (CO-BASE-13), found {a.amount}")
        start, before = t.san_start or t.san, t.san
        san = max(0, t.san - a.amount)
        t = self.set(t, san=san, san_start=start)
        # coc67 N4: from revision 15 what SAN could still lose is what the roll costs (「one
        # sanity roll costs 5 or more SAN」): the line says it and the INT×5 asks for it;
        # revision 14 said the amount called and rolled INT×5 at SAN 0 too.
        cost = before - san if self.engine >= 15 else a.amount
        left = f" ({before} left to lose)" if cost < a.amount else ""
        self.say(f"{t.name} loses {a.amount} SAN{left}: SAN {before} → {san} (CO-BASE-13)")
        if cost >= self.rules.num("CO-BASE-13", "temporary_loss"):
            made = check(self.source, t.sheet.stat("INT") * self.rules.num(
                "CO-BASE-13", "int_multiplier"), self.r5, f"{t.name} INT×5")
            self.say(f"{made.text} (CO-BASE-13)")
            if made.success:
                self.add(t, Condition.TEMPORARY_INSANITY)
                who = "they" if self.engine >= THEY_SAW else "it"
                self.say(f"{t.name} understands what {who} saw: temporary insanity "
                         "(CO-BASE-13)")
        lost = start - san
        # Nothing lost is no fifth of anything: at SAN 0, 0 of 0 was (rules69 NIT 3).
        if (lost > 0 or self.engine < 17) and lost * self.rules.num(
                "CO-BASE-13", "indefinite_fraction") >= start and not \
                self.cs[t.name].has(Condition.INDEFINITE_INSANITY, self.round):
            self.add(self.cs[t.name], Condition.INDEFINITE_INSANITY)
            self.say(f"{lost} of {start} SAN within the hour: indefinite insanity (CO-BASE-13)")
        if san == 0 < before and self.engine >= SAN_ZERO_SAID:
            # [BASE 6e], which CO-BASE-13 follows: SAN 0 is permanent insanity; the seeds are
            # silent and the spec flags only the two above, so it is said, not flagged
            self.say(f"{t.name}'s SAN is 0: permanent insanity in CoC 6e [BASE 6e], the "
                     "Keeper's to rule (CO-BASE-13)")
