"""Other skills in a fight: First Aid, Medicine and Psychoanalysis (the Treat action), saving
the dying, and Spot Hidden (jumping over is on the board).

Rules: CO-SKILL-1 to CO-SKILL-5, CO-DEATH-2, CO-BASE-8, CO-BODY-6 (staunching), CO-IAI-2,
CO-TURN-4, CO-BASE-5.
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.systems.coc import board
from companion.systems.coc.combat.actions import Spot, Treat
from companion.systems.coc.combat.fighters import Combatant, Condition
from companion.systems.coc.combat.tackle import _Tackle

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: First Aid or Medicine on one with nothing to treat is refused before any die
#: (:meth:`_Skills.something_to_treat`); revision 20 rolled it and spent the AP.
NOTHING_TO_TREAT = 21
#: The first engine revision in which Spot Hidden says an attack is still allowed this round
#: only when one is (:meth:`_Skills.attack_still_open`), and else why not (coc74 NIT 3);
#: revision 21 said it in every 003 round, after First Aid or a sheathe too.
SPOT_SAYS_WHAT_IS_OPEN = 22


class _Skills(_Tackle):
    """Adds First Aid, Medicine, Psychoanalysis and Spot Hidden."""

    def psychoanalysis(self, c: Combatant, t: Combatant) -> None:
        """CO-SKILL-4: cures temporary insanity; indefinite insanity is only eased a while."""
        if not self.on("CO-SKILL-4"):
            raise IllegalAction("Psychoanalysis in a fight is CO-SKILL-4, off in this profile")
        # 003 l.90 「隣接した者の一時的狂気状態を回復」: someone adjacent, not oneself (First Aid
        # names 「自分・隣接した者」); from revision 4, before any die (revision 3 allowed it)
        if self.engine >= 4 and t.name == c.name:
            raise IllegalAction("Psychoanalysis cannot treat oneself (CO-SKILL-4)")
        if not (t.has(Condition.TEMPORARY_INSANITY, self.round)
                or t.has(Condition.INDEFINITE_INSANITY, self.round)):
            raise IllegalAction(f"{t.name} is not insane (CO-SKILL-4)")
        if self.on("CO-TURN-4") and c.attacks:
            raise IllegalAction("no other skill in a round with an attack (CO-TURN-4)")
        if c.iai_used or (self.engine < 4 and c.other_skill):
            raise IllegalAction("one other skill a round (CO-SKILL-1)")
        self.once_a_round(c, "psychoanalysis", "CO-SKILL-4")
        c = self.spend(c, self.other_skill_ap(), "CO-SKILL-4")
        c = self.set(c, other_skill=True, spent_other=True,
                     skills_used=(*c.skills_used, "psychoanalysis"))
        if not self.check(c, "psychoanalysis").success:
            return
        t = self.cs[t.name]
        if t.has(Condition.TEMPORARY_INSANITY, self.round):
            self.drop(t, Condition.TEMPORARY_INSANITY)
            self.say(f"{t.name} recovers from temporary insanity (CO-SKILL-4)")
        elif not t.has(Condition.EASED, self.round):
            self.add(t, Condition.EASED)
            self.say(f"{t.name}'s indefinite insanity is eased for a while (CO-SKILL-4)")

    def within_reach(self, c: Combatant, t: Combatant, rule: str) -> None:
        """CO-SKILL-2/3/4: 「自分・隣接した者」: oneself or someone adjacent (or held in the
        same square). Off the board the Keeper judges it, so nothing is refused."""
        if t.name == c.name or not self.board(c, t) or self.legacy:  # format 1: no reach
            return
        if board.distance(board.parse(c.square), board.parse(t.square)) > 1:
            raise IllegalAction(f"{t.name} is not next to {c.name}: treat oneself or someone "
                                f"adjacent ({rule})")

    def treat(self, c: Combatant, a: Treat) -> None:
        """CO-SKILL-2 First Aid / CO-SKILL-3 Medicine / CO-SKILL-4 Psychoanalysis (003, CO-SKILL-1)
        or CO-BASE-8 (004): heal and wake; CO-DEATH-2 decides the dying."""
        t = self.get(a.target)
        if a.skill == "psychoanalysis":
            self.within_reach(c, t, "CO-SKILL-4")
            self.psychoanalysis(c, t)
            return
        if a.skill not in ("first_aid", "medicine"):
            raise IllegalAction("treat with first_aid, medicine or psychoanalysis")
        no_hands = self.handless(c, self.rules.skill(a.skill).name)  # CO-BODY-5 (hands)
        if no_hands:
            raise IllegalAction(no_hands)
        self.within_reach(c, t, "CO-SKILL-2" if a.skill == "first_aid" else "CO-SKILL-3")
        if c.iai_used:
            raise IllegalAction("no other skill in a round with Iai (CO-IAI-2)")
        if t.dead:
            raise IllegalAction(f"{t.name} is dead")
        self.something_to_treat(t, a.skill)
        if self.p003:
            rule = "CO-SKILL-2" if a.skill == "first_aid" else "CO-SKILL-3"
            if not self.on(rule):
                raise IllegalAction(f"{rule} is off")
            if self.on("CO-TURN-4") and c.attacks:
                raise IllegalAction("no other skill in a round with an attack (CO-TURN-4)")
            if a.skill == "medicine" and t.name == c.name:
                raise IllegalAction("Medicine cannot treat oneself (CO-SKILL-3)")
            if self.engine < 4 and c.other_skill and not c.treat_failed:
                raise IllegalAction("First Aid again only after a failure (CO-SKILL-1/2)")
            if a.skill == "first_aid" and "first_aid" in c.skills_used and not c.treat_failed:
                raise IllegalAction("First Aid again only after a failure (CO-SKILL-1/2)")
            if a.skill == "medicine":
                self.once_a_round(c, "medicine", "CO-SKILL-3")
            ap = (self.other_skill_ap() if a.skill == "first_aid"
                  else self.rules.num("CO-SKILL-3", "ap"))
            if a.skill == "first_aid":
                third = self.rules.num("CO-SKILL-2", "dex_half_try")
                if c.first_aid_tries + 1 >= third and not c.half_dex and c.ap >= ap:
                    if c.slot_pending:
                        raise IllegalAction(f"{c.name} already acts at DEX/2")
                    c = self.set(c, delayed_ap=c.ap, ap=0, slot_pending=True)
                    self.slot(c)
                    self.say(f"{c.name}'s third First Aid comes at DEX/2 "
                             f"({self.half_dex(c)}) (CO-SKILL-2)")
                    return
                c = self.set(c, first_aid_tries=c.first_aid_tries + 1)
            c = self.spend(c, ap, rule)
            heal = self.rules.num(rule, "heal")
        else:
            rule = "CO-BASE-8"
            if c.attacks:
                raise IllegalAction("one action a turn (CO-BASE-5)")
            heal = self.rules.num("CO-BASE-8", "heal")
        c = self.set(c, other_skill=True, attacks=c.attacks if self.p003 else 1,
                     spent_other=True, skills_used=(*c.skills_used, a.skill))
        made = self.check(c, a.skill)
        self.set(self.cs[c.name], treat_failed=not made.success)
        if not made.success:
            return
        t = self.cs[t.name]
        amount, text = self.roll_total(heal, f"{t.name}'s healing 回復")
        hp = min(t.sheet.max_hp, t.hp + amount)
        t = self.set(t, hp=hp)
        self.say(f"{t.name} heals {text}: HP {hp}/{t.sheet.max_hp} ({rule})")
        if t.bleeding and self.on("CO-BODY-6"):
            t = self.set(t, bleeding=())
            self.say(f"{t.name}'s bleeding is staunched (CO-BODY-6)")
        dying = t.has(Condition.DYING, self.round) or t.dying_until
        if self.on("CO-DEATH-2") and dying:
            if hp >= 1:
                self.drop(t, Condition.DYING, Condition.UNCONSCIOUS)
                self.say(f"{t.name} is saved (CO-DEATH-2)")
            elif not self.rules.default("CO-DEATH-2", "lenient"):
                self.die(t, "the treatment left HP below 1 (CO-DEATH-2)")
            return
        if self.p003:
            if t.unconscious:
                self.drop(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} wakes up ({rule})")
            return
        if hp >= 1 and t.dying_until:
            self.set(t, dying_until=0)
            self.drop(t, Condition.DYING)
            self.say(f"{t.name} is no longer dying (CO-BASE-8)")
        if self.cs[t.name].unconscious and hp >= self.rules.default("CO-BASE-8", "wake_hp"):
            self.drop(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} wakes up (CO-BASE-8)")

    def something_to_treat(self, t: Combatant, skill: str) -> None:
        """From revision :data:`NOTHING_TO_TREAT` (grapple73's known item), before any die or
        AP: First Aid or Medicine on one unhurt (full HP), conscious, not dying and not
        bleeding is refused, said why: it heals HP, staunches bleeding (CO-BODY-6), saves the
        dying (CO-DEATH-2) and wakes the unconscious (CO-STUN-2, CO-BASE-8), and here would do
        none of them (CO-SKILL-2 / CO-SKILL-3 in 003, CO-BASE-8 in 004). Revision 20 took it,
        rolled and spent the AP (or 004's action) on nothing; the table no longer offers it."""
        if self.engine < NOTHING_TO_TREAT:
            return
        dying = t.has(Condition.DYING, self.round) or t.dying_until
        if t.hp < t.sheet.max_hp or t.bleeding or t.out or dying:
            return
        rule = ("CO-BASE-8" if not self.p003 else "CO-SKILL-2" if skill == "first_aid"
                else "CO-SKILL-3")
        raise IllegalAction(f"{t.name} is unhurt (HP {t.hp}/{t.sheet.max_hp}), conscious and "
                            f"not bleeding: nothing for {self.rules.skill(skill).name} to "
                            f"treat ({rule})")

    def spot(self, c: Combatant, a: Spot) -> None:
        """CO-SKILL-5: Spot Hidden shows the foe's weapons and condition; attacks stay open
        (「同R内で攻撃が可能」). CO-SKILL-1: 「その他技能は例外を除き1回のみ選択ができる」: once a
        round in 003 (from revision 4; 004 takes one action a turn). It is still an other
        skill, so not in a round with Iai (CO-IAI-2, from revision 4): the exception is to
        the no-attack rule, not to Iai's."""
        t = self.get(a.target)
        if self.p003:
            if not self.on("CO-SKILL-5"):
                raise IllegalAction("Spot Hidden in a fight is CO-SKILL-5, off")
            self.once_a_round(c, "spot_hidden", "CO-SKILL-5")
            self.no_skill_after_iai(c, "spot_hidden", "CO-SKILL-5")
            c = self.spend(c, self.other_skill_ap(), "CO-SKILL-5")
            self.set(c, spent_other=True, skills_used=(*c.skills_used, "spot_hidden"))
        else:
            c = self.one_action(c, "CO-BASE-5", self.other_skill_ap())
        made = self.check(c, "spot_hidden")
        self.lines[-1] += " (CO-SKILL-5)" if self.p003 else " (CO-BASE-5)"
        if not made.success:
            return
        weapons = ", ".join(
            w.info.name + (f" {w.loaded}/{w.info.magazine}" if w.info.magazine else "")
            + (" broken" if w.broken else " jammed" if w.jammed else " dropped" if w.dropped
               else f" in {w.lent}'s hands" if w.lent else "") for w in t.sheet.weapons) or "none"
        states = ", ".join(x.condition.value for x in t.conditions) or "no condition"
        open_now = ("" if not self.p003 else
                    self.attack_still_open(self.cs[c.name])
                    if self.engine >= SPOT_SAYS_WHAT_IS_OPEN
                    else " (an attack is still allowed this round, CO-SKILL-5)")
        self.say(f"{c.name} sees {t.name}: weapons {weapons}; HP {t.hp}/{t.sheet.max_hp}, "
                 f"{states}{open_now}")

    def attack_still_open(self, c: Combatant) -> str:
        """CO-SKILL-5 (003 l.11 「敵の所持武器を調べる〈目星〉…は例外とする」, l.92 「同R内で攻撃が
        可能」): Spot Hidden bars no attack, but lifts no other bar; what its line says of this
        round's attack: still allowed, or why not (another skill, CO-TURN-4; a sheathe,
        CO-IAI-3; a stun, a dodge; no AP left, CO-TURN-3)."""
        try:
            self.may_strike(c, None)
        except IllegalAction as exc:
            return f" (Spot Hidden bars no attack, CO-SKILL-5, but {exc})"
        if c.ap < 1:
            return (f" (Spot Hidden bars no attack, CO-SKILL-5, but {c.name} has no AP left "
                    "this round, CO-TURN-3)")
        return " (an attack is still allowed this round, CO-SKILL-5)"
