"""Firearms: the burst, the first strike before the DEX order, reloading and clearing a
jam (a fumble jams the weapon in :mod:`~companion.systems.coc.combat.strikes`).

Rules: CO-FIRE-1, CO-FIRE-3, CO-FIRE-4, CO-FIRE-5, CO-FIRE-6, CO-FIRE-7, CO-FIRE-8,
CO-FIRE-10, CO-BASE-2, CO-BASE-12, CO-DODGE-7; a burst's roll takes a shot's modifiers
(CO-RANGE-1 to CO-RANGE-3, CO-AIM-1 to CO-AIM-3, CO-SURP-3, CO-DODGE-5).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from companion.dice import roll
from companion.errors import IllegalAction
from companion.systems.coc.checks import Grade
from companion.systems.coc.combat.actions import Attack, ClearJam, Defence, Reload
from companion.systems.coc.combat.damage import SHIELD_BEFORE_ARMOUR
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.combat.strikes import _Strikes
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import Weapon, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: burst beyond its base range rounds its range falloff once, on the burst's damage (coc74
#: DEFECT 2, :meth:`_Firearms.burst_through`); revision 21 divided each bullet and rounded it
#: down on its own, losing up to 3 HP a bullet at ×1/4.
BURST_ROUNDED_ONCE = 22


class _Firearms(_Strikes):
    """Adds bursts, first strikes, reloading and clearing jams."""

    def burst(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-FIRE-6 (003) / CO-FIRE-8 (004): one roll, then the number of hits; the
        target's dodge takes CO-DODGE-5's −60 after attacking as a single shot's does.

        From revision 4 (before: the bare skill, full damage, the grade unread, a parry
        dropped, a burst after a first strike):

        - The one roll is a shot's (:meth:`effective`): range bands and their refusal, SIZ,
          point blank (003's +15, 004's ×3), aim, sights, the dark, a hidden target, −50
          after dodging; every bullet's damage takes the band's divisor (:meth:`blow`).
        - Its grade is every bullet's, since the seeds roll once for them all (003
          「命中判定⇒命中数判定⇒回避判定⇒ダメージ判定」, 004 「1D20で出た回数を火器のダメージに
          掛けて」: each hit is that one shot's damage): a critical ignores the armour of
          each (CO-FIRE-3, 003 「クリティカル(01～05)が出た場合、敵の装甲値を無視」) and, where
          CO-BASE-2 runs (003), a special impales each bullet of an impaling gun: CO-BASE-2
          ties impale to the roll, and neither seed nor the spec singles out one bullet
          (CO-FIRE-6 rolls each hit's damage alike). In 004 a special is a normal success
          (CO-CORE-4).
        - No parry: 003's burst names its one defence, 「敵の回避判定は＜回避＞ - 命中数」;
          the parry 「隣接状態での射撃」 opens is of a shot, after which 「そのラウンドの射撃は
          できない」, which a burst of every AP never meets. Refused before any die.
        - Not after a first strike (004 「"連射"を使用する場合、"重火器先制"のルールは使えない」,
          and 「攻撃回数が1回の武器ならそのラウンドは攻撃できない」), as a normal attack is
          refused once the first strike took the weapon's attacks.
        """
        info = w.info
        rule = "CO-FIRE-6" if self.on("CO-FIRE-6") else "CO-FIRE-8"
        if not self.on(rule) or info.kind is not WeaponKind.FIREARM or info.burst < 1:
            raise IllegalAction(f"{info.name} cannot fire a burst here")
        if w.loaded < 1:
            raise IllegalAction(f"{info.name} is empty")
        if c.first_strike and self.engine >= 4:
            raise IllegalAction(f"{c.name} struck first this round: no burst "
                                f"(CO-FIRE-7, {rule})")
        if a.defence not in (Defence.NONE, Defence.DODGE) and self.engine >= 4:
            raise IllegalAction(f"a burst is dodged, not parried: {t.name} declares a dodge "
                                f"or none ({rule})")
        self.may_attack(c, w, 0 if not self.p003 else min(info.attacks, 1), a.after_dodge)
        self.attack_options(c, t, a, w)
        self.declared_defence(t, a, info.kind, True)
        if self.p003:
            need = self.rules.num("CO-FIRE-6", "burst_ap")
            c = self.spend(c, need, "CO-FIRE-6")
            fired = w.loaded
        else:
            fired = min(info.burst, w.loaded, self.rules.num("CO-FIRE-8", "max_rounds"))
        c = self.set(c, attacks=c.attacks + 1)
        c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - fired))
        self.say(f"{c.name} fires a burst of {fired} ({rule})")
        if self.engine >= 4:  # a single shot's skill and range (revision 3: the bare skill)
            skill, band, printed = self.effective(c, t, a, w, info.skill)
        else:
            skill, band, printed = skill_value(self.rules, c.sheet, info.skill), 1, ""
        made = self.to_hit(skill, f"{c.name} {info.name}", self.fumbles(info.kind))
        self.say(made.text)
        if not made.success:
            if made.grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        d20 = rule == "CO-FIRE-8" or self.rules.default("CO-FIRE-6", "hits_d20")
        sides = self.rules.num("CO-FIRE-8", "hits_die") if d20 else fired
        face = roll(f"1D{sides}", self.source, purpose=f"hits of the burst 連射の命中数 "
                    f"1D{sides} (of {fired})").total
        hits = min(face, fired)
        capped = ""
        if face > fired and self.engine >= 15:  # coc67 N6, 004 l.57 「その分は切り捨てて」
            capped = (f"only {fired} loaded 装填弾数, " if fired == w.loaded
                      else f"only {fired} fired 連射数, ")
        self.say(f"1D{sides}={face} ＞ {hits} hit(s) ({capped}{rule})")
        if a.cover and self.behind_cover(t, a):
            return
        if a.defence is Defence.DODGE and not a.cover:
            if self.legacy and not self.defence_allowed(t, Defence.DODGE, info.kind, a, True):
                # format 1: after the dice
                raise self.cannot_defend(t, Defence.DODGE, info.kind, a)
            minus_hits = -hits if rule == "CO-FIRE-6" else 0
            if self.engine >= 4:  # a declared dodge as against a blow, with its Luck
                dodged = self.dodge(t, info.kind, a, True, minus_hits)
            else:  # revision 3: the bare dodge, less the hits in 003
                self.set(t, dodges=t.dodges + 1)
                dodged = self.check(t, "dodge", minus_hits + self.dodge_bonus(t, a)).success
            if rule == "CO-FIRE-6":
                self.lines[-1] += f" (Dodge − {hits} hits, CO-FIRE-6)"
                if dodged:
                    return
            elif dodged:
                hits -= 1
                self.lines[-1] += " (the first bullet only, CO-DODGE-7)"
        ignore = self.engine >= 4 and self.ignores_armour(made.grade, w)
        if ignore and hits:
            self.say("critical: the armour is ignored for every bullet (CO-FIRE-3)")
        before, rolled = self.cs[t.name].hp, 0
        once = band > 1 and self.engine >= BURST_ROUNDED_ONCE
        if self.engine >= BURST_ROUNDED_ONCE:
            self.pool_up_front(self.cs[t.name], hits)
        exact, raw, taken = Fraction(0), 0, 0
        for n in range(hits):
            if self.cs[t.name].dead:
                break
            if once:
                part, exact, raw = self.burst_through(c, t, a, w, made.grade, band, printed,
                                                      n, ignore, (exact, raw, taken))
                taken += part
                rolled = self.share(raw, band)  # the burst's damage before armour, CO-BODY-4
                continue
            if self.engine >= 4:
                damage, text = self.blow(c, a, w, made.grade, False, False, band, printed)
            else:
                damage, text = self.damage(c, w, False, Grade.SUCCESS, False)
            rolled += damage
            self.hit(self.cs[t.name], damage, f"bullet {n + 1}: {text}", ignore_armour=ignore,
                     from_behind=a.from_behind, bullet=True, by=c.name)
        if a.body and hits and self.engine >= 4:
            # CO-BODY-4 (004 l.99 「重火器で与えたダメージ」が「相手の[SIZ×？]分の数値以上」)
            # against the burst's damage, the weapon's damage × the hits (l.64), before or
            # after armour as a single blow's (threshold_before_armour); revision 3 dropped it
            if not self.rules.default("CO-BODY-4", "threshold_before_armour"):
                rolled = before - self.cs[t.name].hp
            self.say(f"the burst's damage: {rolled} ({rule}, CO-BODY-4)")
            self.lose_part(self.cs[t.name], a, rolled)

    def pool_up_front(self, t: Combatant, hits: int) -> None:
        """CO-ARMOR-2's toggle ``pool_across_bullets``, from revision
        :data:`BURST_ROUNDED_ONCE`: the burst's armour is its value × the hits from the first
        bullet on (004 l.31 「装甲4を3倍した"12"がその間の装甲として機能する」, the spec's
        "pools the total (armor × bullets)"), so it stops the burst's damage up to that total
        whatever the bullets' order; revision 21 carried forward only what a bullet left, so
        a strong bullet first got through where the same bullets last were stopped
        (reviewcoc74 RISK 2)."""
        if not (hits and self.on("CO-ARMOR-2")
                and self.rules.default("CO-ARMOR-2", "pool_across_bullets")):
            return
        for arm in t.sheet.armour:
            self.pool[t.name, arm.name] = Fraction(arm.value * hits)
            self.up_front.add((t.name, arm.name))

    def burst_through(self, c: Combatant, t: Combatant, a: Attack, w: Weapon, grade: Grade,
                      band: int, printed: str, n: int, ignore: bool,
                      so_far: tuple[Fraction, int, int]) -> tuple[int, Fraction, int]:
        """From revision :data:`BURST_ROUNDED_ONCE`, bullet ``n`` of a burst beyond its base
        range (CO-RANGE-2, CO-FIRE-8): 004 l.64 「1D20で出た回数を火器のダメージに掛けて出たダメージ
        が算出される」 makes the burst's damage one figure, the weapon's damage × hits, and l.71
        「距離による弾丸の減衰ダメージも同様に"3倍では1/3、4倍なら1/4"」 divides that damage, so
        it is rounded once by §0.3 (CO-RANGE-2's Default: down). Each bullet carries its exact
        share (3 at ÷4 is 3/4) through the armour (CO-ARMOR-2 per bullet, 004 l.30 「1発の弾
        に対して」, or pooled value × bullets, l.31, as the Default says; CO-ARMOR-1), and the
        damage through so far is rounded; the bullet's part of HP is that less what the bullets
        before took, so the burst takes its total rounded once whatever the bullets' order
        (reviewcoc74 RISK 2: parts of the running total before the armour made it hang on
        the order). ``so_far``: the exact damage through, the undivided damage and the HP
        parts so far. From revision
        :data:`~companion.systems.coc.combat.damage.SHIELD_BEFORE_ARMOUR` the share meets a
        human shield (CO-GRAP-4/6) before the armour, as every other blow
        (:meth:`~companion.systems.coc.combat.damage._Damage.shield_share`, r77coc); revision
        24 put it through the armour first. Its part, the exact damage through and the
        undivided damage."""
        through, raw, taken = so_far
        damage, text = self.blow(c, a, w, grade, False, False, 1, printed)
        raw += damage
        share = Fraction(damage, band)
        self.say(f"bullet {n + 1}: {text} ÷{band} = {share} exactly (the burst's {raw} "
                 f"÷{band} is rounded once, after the armour, CO-RANGE-2)")
        shield_first = self.engine >= SHIELD_BEFORE_ARMOUR
        if shield_first:  # r77coc: as every other blow, the shield before the armour
            share = self.shield_share(self.cs[t.name], share, c.name, a.from_behind)
        through += share if ignore else self.stops(self.cs[t.name], share, True)
        part = self.rounded(through) - taken
        self.hit(self.cs[t.name], part, f"the burst's damage through so far {through}, "
                 f"rounded {taken + part} (§0.3): this bullet's part {part}",
                 from_behind=a.from_behind, armour=False, bullet=True, by=c.name,
                 shielded=shield_first)
        return part, through, raw

    def reload(self, c: Combatant, a: Reload) -> None:
        """CO-FIRE-1 (003, 3 AP) / CO-FIRE-10 (004, an action) / CO-BASE-12: reload a firearm."""
        w = self.weapon(c, a.weapon, " to reload")
        if w.info.kind is not WeaponKind.FIREARM:
            raise IllegalAction(f"{w.info.name} is not a firearm")
        if w.loaded == w.info.magazine:
            raise IllegalAction(f"{w.info.name} is full")
        no_hands = self.handless(c, f"reloading {w.info.name}")  # CO-BODY-5 (hands)
        if no_hands:
            raise IllegalAction(no_hands)
        if self.p003:
            c = self.spend(c, self.rules.num("CO-FIRE-1", "reload_ap"), "CO-FIRE-1")
            rule = "CO-FIRE-1"
        else:
            if c.attacks:
                raise IllegalAction("a reload takes the whole turn (CO-BASE-12)")
            c = self.set(c, attacks=1)
            rule = "CO-BASE-12, CO-FIRE-10" if self.on("CO-FIRE-10") else "CO-BASE-12"
            if w.info.cartridges and not self.rules.default("CO-BASE-12", "full_refill"):
                # CO-BASE-12 option: a cartridge at a time, so a few rounds per action
                loaded = min(w.info.magazine, w.loaded + self.rules.default(
                    "CO-BASE-12", "cartridges_per_action"))
                self.put_weapon(c, a.weapon, replace(w, loaded=loaded))
                self.say(f"{c.name} loads {loaded - w.loaded} cartridge(s) into {w.info.name}: "
                         f"{loaded}/{w.info.magazine} ({rule}, a cartridge at a time)")
                return
        self.put_weapon(c, a.weapon, replace(w, loaded=w.info.magazine))
        self.say(f"{c.name} reloads {w.info.name}: {w.info.magazine} rounds ({rule})")

    def clear_jam(self, c: Combatant, a: ClearJam) -> None:
        """CO-FIRE-4: clear a jam with a skill roll, at the Default clear_ap."""
        w = self.weapon(c, a.weapon, " to clear of a jam")
        if not w.jammed:
            raise IllegalAction(f"{w.info.name} is not jammed")
        no_hands = self.handless(c, f"clearing {w.info.name} of a jam")  # CO-BODY-5 (hands)
        if no_hands:
            raise IllegalAction(no_hands)
        if a.weapon in c.jammed_now and not self.legacy:  # format 1 cleared at once
            # 003「次回戦闘ラウンドで使用技能を成功させて弾を取り除かない限り使用できない」
            raise IllegalAction(f"{w.info.name} jammed this round: clear it from the next "
                                "round (CO-FIRE-4)")
        c = self.spend(c, self.rules.default("CO-FIRE-4", "clear_ap"), "CO-FIRE-4")
        made = self.check(c, w.info.skill, label=f"{c.name} clear {w.info.name}")
        if made.success:
            self.put_weapon(c, a.weapon, replace(w, jammed=False))
            self.say(f"{w.info.name} is cleared (CO-FIRE-4)")

    def first_strike(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-FIRE-7: one of the weapon's attacks before the DEX order; the rest on its turn."""
        if not self.on("CO-FIRE-7"):
            raise IllegalAction("first strike is CO-FIRE-7, off in this profile")
        if w.info.kind is not WeaponKind.FIREARM:
            raise IllegalAction("only a firearm strikes first (CO-FIRE-7)")
        if a.burst or a.aim:
            raise IllegalAction("no first strike with a burst or careful aim (CO-FIRE-7)")
        if c.first_strike:
            raise IllegalAction(f"{c.name} struck first already (CO-FIRE-7)")
        if any(o.first_strike and o.sheet.stat("DEX") < c.sheet.stat("DEX")
               for o in self.cs.values()):
            raise IllegalAction("first strikes go in DEX order, highest first (CO-FIRE-7)")
        if w.loaded < 1:
            raise IllegalAction(f"{w.info.name} is empty")
        self.may_attack(c, w, 0, a.after_dodge)
        self.attack_options(c, t, a, w)
        c = self.set(c, first_strike=1, first_strike_weapon=a.weapon)
        c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - 1))
        self.say(f"{c.name} shoots first, before the DEX order: 1 of {w.info.attacks} "
                 "attack(s) (CO-FIRE-7)")
        self.one_attack(c, t, a, w, first=True)
