"""Damage and what it does: the weapon's dice with the DB, armour, a hit (a held one as a
shield), HP loss with the profile's dying rule, conditions added and dropped, death,
letting go when out, stun, knockout and shock.

Rules: CO-BASE-2 (impale), CO-BASE-4 (½DB), CO-MA-1 and CO-BASE-6 (MA doubles the dice),
CO-MELEE-3 (a critical ×2), CO-FIRE-9 (a printed band's dice), CO-CORE-4, CO-ARMOR-1,
CO-ARMOR-2, CO-GRAP-4 and CO-GRAP-6 (the human shield), CO-DEATH-1, CO-BASE-8, CO-BASE-9
(shock), CO-BASE-10 (knockout) with CO-CORE-3, CO-STUN-1, CO-STUN-2, CO-TURN-3.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from companion.systems.coc.checks import Grade, check, resist
from companion.systems.coc.combat.fighters import Combatant, Condition, Timed
from companion.systems.coc.combat.spells import _Spells
from companion.systems.coc.rules import DamageBonus
from companion.systems.coc.sheet import Weapon, double_dice, half_db

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: the turn a stunned one begins stunned has no attack whatever its CON×5 roll (CO-STUN-1,
#: :meth:`_Damage.stunned`); revision 17 let a roll that shook the stun off attack at once.
STUN_TURN = 18
#: The first engine revision in which (grapple73 findings 1 and 2, CO-GRAP-4/6/7/8, CO-MA-2,
#: CO-STUN-2/3) a holder's own hold (a choke, a throw, a throw from a height) hurts the one
#: it holds and never the one that one holds in turn, and whoever a stun leaves unconscious
#: lets go (:meth:`_Damage.release_if_out`); revision 20 put the choke into the third
#: fighter's HP as a human shield and kept a stunned-out holder holding.
HOLD_FROM_WITHIN = 21
#: The first engine revision in which the human shield stands in front of the grappler's own
#: armour (a77cocgrapple DEFECT 1, CO-GRAP-4/6's Default: damage aimed at the grappler "goes
#: first to the grappled opponent's current HP"), so the armour meets only what the shield
#: left; revision 24 spent an armour use (CO-ARMOR-2) or durability (CO-ARMOR-1) on a blow the
#: shield then took whole. A burst's bullet beyond its base range too
#: (:meth:`_Damage.shield_share`, r77coc).
SHIELD_BEFORE_ARMOUR = 25


class _Damage(_Spells):
    """Adds damage, armour, HP loss, conditions, death, stun, knockout and shock."""

    def damage(self, c: Combatant, w: Weapon, doubled: bool, grade: Grade, melee: bool,
               dice: str = "", times_two: bool = False) -> tuple[int, str]:
        """The weapon's damage (or ``dice``, a printed band's, CO-FIRE-9) with its DB: MA
        doubles the dice (CO-MA-1, CO-BASE-6), a melee critical then doubles the total
        (CO-MELEE-3): a critical MA fist is (2D3+DB)×2."""
        info = w.info
        dice = dice or info.damage
        rule = ""
        if doubled:
            dice = double_dice(dice, self.rules.num("CO-MA-1", "dice_multiplier"))
            rule = " (doubled, " + ("CO-MA-1)" if self.p003 else "CO-BASE-6)")
        db_times = 1
        if grade.special and info.impaling and self.on("CO-BASE-2"):
            dice = f"{dice}+{dice}"
            # the seeds leave DB open: once by the Default, twice with db_twice
            twice = info.db is not DamageBonus.NONE and c.sheet.db != "0" \
                and bool(self.rules.default("CO-BASE-2", "db_twice"))
            db_times = 2 if twice else 1
            rule += " (impale, DB twice, CO-BASE-2)" if twice else " (impale, CO-BASE-2)"
        elif grade.special and self.on("CO-CORE-4"):
            rule += " (special: no special table, a normal success, CO-CORE-4)"
        total, text = self.with_db(c, dice, info.db, f"{c.name} {info.name} damage ダメージ",
                                   db_times)
        total = max(0, total)
        if times_two:
            total *= 2
            rule += " ×2 (CO-MELEE-3)"
        return total, f"damage {text}{rule} = {total}"

    def with_db(self, c: Combatant, dice: str, how: DamageBonus, purpose: str,
                times: int = 1) -> tuple[int, str]:
        """``dice`` plus the DB ``times`` over (twice: an impale's with CO-BASE-2.db_twice):
        full, none, or ½DB (CO-BASE-4): the dice halved (1D4→1D2) by Default; with
        ``roll_then_halve`` the full DB is rolled and halved, rounding up and keeping the sign
        (+1D4 rolls 3 → +2; −1D6 rolls 5 → −3). ``purpose``: what the dice are for (``Ann
        キック/Kick damage ダメージ``)."""
        db = c.sheet.db
        if how is DamageBonus.NONE or db == "0":
            return self.roll_total(dice, purpose)
        if how is DamageBonus.HALF and self.rules.default("CO-BASE-4", "roll_then_halve"):
            total, text = self.roll_total(dice, purpose)
            for _ in range(times):
                rolled, db_text = self.roll_total(db.lstrip("+"), f"{c.name} damage bonus DB "
                                                  "ダメージボーナス (halved ½)")
                half = -(-abs(rolled) // 2) * (1 if rolled >= 0 else -1)
                total += half
                text += f" {'+' if half >= 0 else '−'} ½({db_text}) {abs(half)}"
            return total, text
        bonus = (db if how is DamageBonus.FULL else half_db(db)) * times
        return self.roll_total(f"{dice}{bonus}" if dice not in ("", "0") else bonus, purpose)

    def armour(self, t: Combatant, damage: int, bullet: bool = False) -> int:
        """CO-ARMOR-1 (003: durability pool) / CO-ARMOR-2 (004: uses, per hit)."""
        return int(self.stops(t, Fraction(damage), bullet))

    def stops(self, t: Combatant, damage: Fraction, bullet: bool = False) -> Fraction:
        """:meth:`armour` on an exact share: from engine revision 22 a burst beyond its base
        range carries each bullet's share of the falloff (a bullet of 3 at ×1/4 is 3/4)
        through the armour, the burst rounded once after it (reviewcoc74 RISK 2,
        :meth:`~companion.systems.coc.combat.firearms._Firearms.burst_through`); a whole
        number stays whole, as every other hit's. The durability a share wears (CO-ARMOR-1)
        is the running total this armour stopped in the action rounded by §0.3, and what it
        can still stop is its durability less that running total unrounded, so the armour
        never stops more than its durability and the parts add up to the whole stopped,
        whatever the bullets' order (reviewcoc74b DEFECT 1)."""
        kept = []
        for arm in t.sheet.armour:
            if damage <= 0:
                kept.append(arm)
                continue
            if self.on("CO-ARMOR-1"):
                pool: Fraction | int = damage
                if arm.durability is not None:
                    # the exact durability left: the shares this armour stopped so far in the
                    # action, unrounded, not the whole points worn off (a plate of 1 that
                    # stopped 3/4 still shows 1 but has 1/4 left to stop, CO-ARMOR-1)
                    done = self.worn.get((t.name, arm.name), Fraction(0))
                    pool = arm.durability + self.rounded(done) - done
                absorbed = Fraction(min(arm.value, damage, pool))
                damage -= absorbed
                if arm.durability is not None:
                    left = arm.durability - self.worn_by(t, arm.name, absorbed)
                    arm = replace(arm, durability=left)
                    self.say(f"{arm.name} stops {absorbed}, durability {left} left (CO-ARMOR-1)")
                    if left <= 0:
                        self.say(f"{arm.name} is destroyed (CO-ARMOR-1)")
                        continue
                else:
                    self.say(f"{arm.name} stops {absorbed} (CO-ARMOR-1)")
            elif self.on("CO-ARMOR-2"):
                # The Default stops up to the value per bullet; the toggle pools value × bullets
                # over one attack's bullets, so what a weak bullet left stops a later one.
                pooled = bullet and self.rules.default("CO-ARMOR-2", "pool_across_bullets")
                spare = self.pool.get((t.name, arm.name), Fraction(0)) if pooled else 0
                # a burst's pool holds value × hits from its first bullet (revision 22 on)
                own = 0 if pooled and (t.name, arm.name) in self.up_front else arm.value
                absorbed = Fraction(min(own + spare, damage))
                if pooled:
                    self.pool[t.name, arm.name] = own + spare - absorbed
                damage -= absorbed
                wears = not arm.natural or self.rules.default("CO-ARMOR-2", "natural_has_uses")
                if wears:
                    uses = max(0, (arm.uses or 0) - 1)
                    arm = replace(arm, uses=uses, breaking=arm.breaking or uses == 0)
                    # reviewcoc74b NIT 3: a bullet still spends a use (l.32) once the burst's
                    # pool is spent; "stops 0" beside it read as a fault. Only a pool filled
                    # up front (revision 22 on) of armour that stops something
                    spent = (pooled and (t.name, arm.name) in self.up_front
                             and arm.value > 0 and absorbed == 0)
                    self.say((f"{arm.name}: the burst's pool is spent, it stops nothing more;"
                              if spent else f"{arm.name} stops {absorbed}:")
                             + f" uses {uses}/{arm.value} left"
                             + (", breaks at end of round" if arm.breaking else "")
                             + " (CO-ARMOR-2)")
                else:
                    self.say(f"{arm.name} stops {absorbed} (natural, CO-ARMOR-2)")
            kept.append(arm)
        self.set(t, sheet=replace(t.sheet, armour=tuple(kept)))
        return damage

    def worn_by(self, t: Combatant, armour: str, absorbed: Fraction) -> int:
        """CO-ARMOR-1: the whole points of durability ``absorbed`` wears: what this armour
        stopped in the action so far rounded by §0.3, less what it wore before (a whole
        number is worn whole)."""
        before = self.worn.get((t.name, armour), Fraction(0))
        self.worn[t.name, armour] = before + absorbed
        return self.rounded(before + absorbed) - self.rounded(before)

    def hit(self, t: Combatant, damage: int, text: str, ignore_armour: bool = False,
            from_behind: bool = False, armour: bool = True, bullet: bool = False,
            by: str = "", hold: bool = False, shielded: bool = False) -> None:
        """``damage`` to ``t`` from ``by`` (its attacker, when one strikes): the human shield,
        then armour, then HP (from revision :data:`SHIELD_BEFORE_ARMOUR`; before, armour, then
        the shield, then HP). ``hold``: the damage is ``t``'s holder's own hold on it (a
        choke, CO-MA-2 / CO-GRAP-7; a throw, CO-MA-2 / CO-GRAP-8). ``shielded``: the shield
        has had its share already (:meth:`shield_share`, a burst's bullet beyond its base
        range).

        CO-GRAP-4 (003 l.36 「＜組みつき＞中は相手のHPをそのまま装甲として使用できる。但し
        後ろからの攻撃の場合はその限りではない。」) / CO-GRAP-6 (004 l.166 「拘束している相手は
        そのまま肉盾として使用できる。」): the held one's HP shields its grappler from other
        attackers. From revision 7 not from the held one's own blow (003's punch of its
        grappler, 004's MA counter, CO-MA-5): that lands on the grappler; revision 6 and
        before put it into the held one's own HP.

        From revision :data:`HOLD_FROM_WITHIN` (grapple73 finding 1) not from the holder's own
        hold either: one who holds someone and is itself held, then choked or thrown by its
        holder, takes it itself (003 l.43 「締め上げ…1D6+DBのダメージを与える」, 004 l.167-168
        「1d6+DBのダメージを与える」「投げ飛ばした相手に1d6+db+スタンのダメージを与える」: the
        one choked or thrown; the shield of l.36 / l.166 stands between the grappler and blows
        from outside the pair, not between its throat and the arms choking it). Revision 20
        put it into the third fighter's HP."""
        self.say(text)
        armoured = armour and not ignore_armour
        shield_first = self.engine >= SHIELD_BEFORE_ARMOUR
        if armoured and not shield_first:
            damage = self.armour(self.cs[t.name], damage, bullet)
        t = self.cs[t.name]
        shield_rule = self.shield_rule()
        held = None if shielded else self.shield_of(t, by, from_behind, hold)
        if held is not None and damage > 0:
            taken = min(damage, max(0, held.hp))
            if self.rules.default("CO-GRAP-4", "shield_as_armour"):
                self.say(f"{held.name}'s HP {held.hp} shields {t.name} ({shield_rule})")
                damage -= taken
            elif taken:
                self.say(f"{held.name} is a human shield and takes {taken} ({shield_rule})")
                self.harm(held, taken)
                damage -= taken
        if armoured and shield_first and damage > 0:
            damage = self.armour(self.cs[t.name], damage, bullet)
        self.harm(self.cs[t.name], damage)

    def shield_rule(self) -> str:
        """The human shield's rule: CO-GRAP-4 (003) or CO-GRAP-6 (004)."""
        return "CO-GRAP-4" if self.on("CO-GRAP-4") else "CO-GRAP-6"

    def shield_of(self, t: Combatant, by: str, from_behind: bool = False,
                  hold: bool = False) -> Combatant | None:
        """The one ``t`` holds, when it shields ``t`` from ``by``'s blow (:meth:`hit`): not
        the held one's own blow (revision 7 on), nor ``t``'s holder's hold on it (revision
        :data:`HOLD_FROM_WITHIN` on), nor in 003 a blow from behind (CO-GRAP-4)."""
        rule = self.shield_rule()
        own_blow = (self.engine >= 7 and bool(by) and by == t.grappling) or (
            hold and self.engine >= HOLD_FROM_WITHIN)
        if (not t.grappling or not self.on(rule) or own_blow
                or (from_behind and rule == "CO-GRAP-4")):
            return None
        return self.cs[t.grappling]

    def shield_share(self, t: Combatant, share: Fraction, by: str,
                     from_behind: bool) -> Fraction:
        """From revision :data:`SHIELD_BEFORE_ARMOUR`, a burst's bullet beyond its base range
        (:meth:`~companion.systems.coc.combat.firearms._Firearms.burst_through`) meets the
        human shield (CO-GRAP-4/6) before ``t``'s armour, as every other blow does (r77coc:
        it met the armour first): the shield takes its exact ``share`` up to the HP it had
        as the action began, and loses the running total it took rounded by §0.3, as the
        grappler does; with CO-GRAP-4's ``shield_as_armour`` its HP stops up to itself each
        bullet, as :meth:`hit` has it stop each blow. What the shield leaves, exact."""
        held = self.shield_of(t, by, from_behind)
        if held is None or share <= 0:
            return share
        rule = self.shield_rule()
        if self.rules.default("CO-GRAP-4", "shield_as_armour"):
            self.say(f"{held.name}'s HP {held.hp} shields {t.name} ({rule})")
            return share - min(share, Fraction(max(0, held.hp)))
        done = self.shielded.get(held.name, Fraction(0))
        had = held.hp + self.rounded(done)  # as the action began
        taken = min(share, max(Fraction(0), had - done))
        self.shielded[held.name] = done + taken
        if taken:
            part = self.rounded(done + taken) - self.rounded(done)
            self.say(f"{held.name} is a human shield and takes {taken} exactly, rounded "
                     f"{self.rounded(done + taken)} so far (§0.3): this bullet's part {part} "
                     f"({rule})")
            self.harm(held, part)
        return share - taken

    def harm(self, t: Combatant, damage: int) -> None:
        """HP loss, then the profile's dying rule: CO-DEATH-1 (003) or CO-BASE-8 (004)."""
        if damage <= 0 or t.dead:
            if not t.dead:
                self.say(f"{t.name} takes no damage (HP {t.hp})")
            return
        hp = t.hp - damage
        general = self.rules.default("CO-BASE-9", "general_trigger") and damage * 2 >= t.hp > 0
        t = self.set(t, hp=hp)
        self.say(f"{t.name} takes {damage}: HP {hp}/{t.sheet.max_hp}")
        if self.on("CO-DEATH-1"):
            # 003「耐久力が-2～0の値になった場合意識不明」: HP 0 or less is unconscious and
            # dying down to the Default dead_below (at most the seed's unconscious_from, −2,
            # its range's limit), and below it death comes at once.
            # Before revision 8 the line said "below −2" whatever dead_below was, and saved
            # fights replay their lines exactly, so those entries keep it.
            dead_below = self.rules.default("CO-DEATH-1", "dead_below")
            if hp < dead_below:
                shown = f"{dead_below}".replace("-", "−") if self.engine >= 8 else "−2"
                self.die(t, f"HP below {shown} (CO-DEATH-1)")
            elif hp <= 0 and not t.has(Condition.DYING, self.round):
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                times = self.rules.num("CO-DEATH-1", "con_multiplier")
                self.say(f"{t.name} is unconscious and dying: CON×{times} each round "
                         "(CO-DEATH-1)")
        elif self.on("CO-BASE-8"):
            if hp <= 0 and not t.dying_until:
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                self.set(self.cs[t.name], dying_until=self.round + 1)
                self.say(f"{t.name} is dying: dies at end of round {self.round + 1} (CO-BASE-8)")
            elif 0 < hp <= self.rules.num("CO-BASE-8", "unconscious_max") and not t.unconscious:
                self.add(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} falls unconscious (CO-BASE-8)")
        self.release_if_out(self.cs[t.name])
        if general:
            self.shock(self.cs[t.name], "a blow of half the HP or more")
        self.chant_hit(self.cs[t.name])

    def add(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        have = {c.condition for c in t.conditions}
        new = tuple(Timed(c, self.round, 0) for c in conditions if c not in have)
        self.set(t, conditions=(*t.conditions, *new))

    def drop(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        self.set(t, conditions=tuple(c for c in t.conditions if c.condition not in conditions))

    def die(self, t: Combatant, why: str) -> None:
        t = self.set(self.cs[t.name], dead=True, dying_until=0)
        self.drop(t, Condition.DYING)
        self.say(f"{t.name} dies: {why}")
        self.release_if_out(self.cs[t.name])

    def release_if_out(self, t: Combatant) -> None:
        """Whoever is out lets go; a dead body is no longer held (a Default of the grapple
        rules, CO-GRAP-1 in 003 and CO-GRAP-6 in 004, read from the unconscious of CO-DEATH-1 /
        CO-BASE-8: no actions, so no hold; the spec writes no Default for it; readings.toml's
        "CO-GRAP-1 (out)", listed by ``coc defaults``). From revision :data:`HOLD_FROM_WITHIN`
        also when a stun leaves it unconscious (CO-STUN-2, CO-STUN-3), and its line names
        手を放す and the Default, as does the line of a holder letting go of a dead body
        (reviewcoc73 NIT 4, reviewcoc73b NIT 3; revision 20's lines, replayed, have
        neither)."""
        if t.out and t.grappling:
            self.set(self.cs[t.grappling], held_by="")
            self.set(self.cs[t.name], grappling="", grapple_options=False)
            self.say(f"{t.name} lets go of {t.grappling}"
                     + (" 手を放す (CO-GRAP-1 (out))" if self.engine >= HOLD_FROM_WITHIN else ""))
            self.step_aside(self.cs[t.grappling], self.cs[t.name])
        if t.dead and t.held_by:
            holder = self.cs[t.held_by]
            self.set(holder, grappling="", grapple_options=False)
            self.set(self.cs[t.name], held_by="")
            self.say(f"{holder.name} lets go of the dead {t.name}"  # reviewcoc73b NIT 3
                     + (" 手を放す (CO-GRAP-1 (out))" if self.engine >= HOLD_FROM_WITHIN else ""))

    def stunned(self, c: Combatant) -> bool:
        """CO-STUN-1: ``c`` may not attack: it has a stun stack, or (from revision
        :data:`STUN_TURN`) its turn this round began stunned, whatever the CON×5 roll at that
        start (003 「相手は次回攻撃が選択できず」: the stunned one's next turn has no attack)."""
        if not self.on("CO-STUN-1"):
            return False
        return bool(c.stun) or (self.engine >= STUN_TURN and c.stun_round == self.round)

    def stun(self, t: Combatant) -> None:
        """CO-STUN-1/2: one more stack, one AP less; at 0 AP unconscious. 003 「相手は次回攻撃が
        選択できず行動ポイントを-1ポイントする」: the AP come off its next turn, which for one
        whose turn is held to DEX/2 is that turn, its AP kept in ``delayed_ap`` (from revision
        5; revision 4 and before took them off ``ap``, 0 while it waits, and the held turn
        kept all)."""
        full = self.rules.num("CO-TURN-3", "action_points")
        if t.slot_pending and self.engine >= 5:
            t = self.set(t, delayed_ap=max(0, t.delayed_ap - 1))
        t = self.set(t, stun=t.stun + 1, ap=max(0, t.ap - 1))
        self.say(f"{t.name} is stunned ({t.stun}): no attacks, −1 AP (CO-STUN-1)")
        if t.stun >= full and self.on("CO-STUN-2"):
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} has no AP left and falls unconscious (CO-STUN-2)")
            if self.engine >= HOLD_FROM_WITHIN:  # grapple73 finding 2: out, so it lets go
                self.release_if_out(self.cs[t.name])

    def knockout(self, t: Combatant, damage: int, text: str) -> bool:
        """CO-BASE-10: damage against current HP on the resistance table; a success knocks the
        target out and it loses 1/3 of the damage (Default), rounded by §0.3."""
        self.say(text)
        made = resist(self.source, damage, max(0, t.hp), self.r5,
                      f"knockout: damage {damage} vs HP {t.hp}", rules=self.rules)
        self.say(f"{made.text} (CO-BASE-10, CO-CORE-3)")
        if not made.success:
            return False
        loss = self.share(damage, self.divisor("CO-BASE-10", "damage_divisor"))
        self.add(t, Condition.UNCONSCIOUS)
        self.say(f"{t.name} is knocked out and loses {loss} (CO-BASE-10)")
        self.harm(self.cs[t.name], loss)
        self.release_if_out(self.cs[t.name])
        return True

    def shock(self, t: Combatant, why: str, rule: str = "CO-BASE-9") -> None:
        """CO-BASE-9: CON×5; a failure leaves the character unconscious. ``rule`` is the rule
        that calls for the roll, whose ``con_multiplier`` it reads: CO-BASE-9's (the
        rulebook's) for its general trigger, CO-TACKLE-2's for a blow back (004 line 176
        prints its own ＜CON×5＞)."""
        t = self.cs[t.name]
        if t.out or not self.on("CO-BASE-9"):
            return
        times = self.rules.num(rule, "con_multiplier")
        made = check(self.source, t.sheet.stat("CON") * times, self.r5, f"{t.name} CON×{times}")
        self.say(f"{made.text} (shock, CO-BASE-9, {why})")
        if not made.success:
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} goes into shock: unconscious until the fight ends or it is "
                     "treated (CO-BASE-9)")
            self.release_if_out(self.cs[t.name])
