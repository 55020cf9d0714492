"""One attack roll and all it leads to: the roll (with MA a combination roll), the declared
defence, the blow's damage and extras, and after a hit the knockback, the called shot's
effect, the disarm, the pommel strike and the lost part; after a fumble the jam, the drop,
the fall, the breaking or the stray throw.

Rules: CO-MA-1, CO-MA-3, CO-MA-4, CO-BASE-3, CO-BASE-6, CO-BASE-7, CO-MELEE-2, CO-MELEE-3,
CO-MELEE-4, CO-FIRE-3, CO-FIRE-4, CO-FIRE-9, CO-THROW-2, CO-CALL-1, CO-RANGE-2, CO-SURP-1,
CO-DODGE-2 (a knockback's dodge), CO-DODGE-4, CO-DODGE-7, CO-DISARM-1, CO-IAI-4, CO-STUN-1,
CO-BODY-4, CO-ARMOR-2, CO-TURN-2, CO-TURN-3.
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import roll
from companion.systems.coc import board
from companion.systems.coc.checks import Grade, Rank, check, combination
from companion.systems.coc.combat.actions import Attack, Defence
from companion.systems.coc.combat.board_moves import CHAIN_AS_ONE
from companion.systems.coc.combat.fighters import Combatant, Condition, Timed
from companion.systems.coc.combat.to_hit import _ToHit
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import Weapon, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: the attacking technique's fumble in a combination roll with MA (CO-BASE-3: 「criticals and
#: fumbles are judged for each skill separately … A critical or fumble effect follows the
#: result for the attacking technique」) is played when MA carries the roll to a partial
#: success that hits or holds, as its critical was: 003 l.29 ties the fumble to the die,
#: 「ファンブル(ダイス目95～00)が出た場合、バランスを崩して転んだ…次ラウンドは行動選択を出来
#: ない」 (CO-MELEE-4). Revision 23 played it only on a miss (a76cocother DEFECT 1).
TECHNIQUE_FUMBLE_ON_A_HIT = 24
#: The first engine revision in which a knockout that fails says the blow lands as usual,
#: not the damage roll's line a second time (CO-BASE-10; a76cocother NIT 4).
KNOCKOUT_FAILED_SAID = 24


class _Strikes(_ToHit):
    """Adds one attack roll with its damage, its effects and its fumble."""

    def one_attack(self, c: Combatant, target: Combatant, a: Attack, w: Weapon, first: bool,
                   skill_key: str = "") -> None:
        """One blow or shot: to-hit (CO-CORE-1), the defence (CO-DODGE-2/4/7, CO-BASE-7, CO-MA-4,
        CO-IAI-4), damage (CO-MELEE-3, CO-FIRE-9, CO-BODY-4), stun (CO-STUN-1) and disarm
        (CO-DISARM-1)."""
        info = w.info
        defence = self.declared_defence(target, a, info.kind, first)
        skill, band, printed = self.effective(c, target, a, w, skill_key or info.skill)
        doubled = times_two = False
        grade: Grade
        if a.ma:
            ma = skill_value(self.rules, c.sheet, "martial_arts")
            combo = combination(self.source, skill, ma, self.r_attack,
                                f"{c.name} {info.name}+MA", hit=True)
            rule = "CO-MA-1" if self.on("CO-MA-1") else "CO-BASE-6"
            self.say(f"{combo.text} ({rule}, CO-BASE-3)")
            grade = combo.grades[0]
            must = self.rules.default("CO-MA-1" if self.p003 else "CO-BASE-6",
                                      "technique_must_succeed")
            hit = combo.rank is Rank.SUCCESS or (combo.rank is Rank.PARTIAL and (
                grade.success or not must))
            doubled = combo.rank is Rank.SUCCESS and (
                a.ma_option != "forced" or bool(self.rules.default("CO-MA-3", "doubled")))
            if combo.rank is Rank.SUCCESS and a.ma_option == "forced":
                defence = self.forced(target, defence)
        else:
            label = f"{c.name} {self.rules.skill(skill_key).name if skill_key else info.name}"
            made = self.to_hit(skill, label, self.fumbles(info.kind))
            self.say(made.text)
            grade, hit = made.grade, made.success
        if info.skill == "shotgun" and self.on("CO-FIRE-9"):
            self.lines[-1] += " (a shotgun shoots as any firearm, CO-FIRE-9)"
        if not hit:
            if grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        self.lands(c, target, a, w, first, defence, grade, skill, band, printed, doubled,
                   times_two)
        if grade is Grade.FUMBLE and self.fumbles_after_a_hit(c):
            # CO-BASE-3: a combination roll's fumble follows the technique's result, as its
            # critical does (CO-MELEE-3 above): the die on 95-00 fumbles the kick that MA
            # still carries to a partial success (003 l.29, CO-MELEE-4)
            self.fumble(self.cs[c.name], a, w)

    def fumbles_after_a_hit(self, c: Combatant) -> bool:
        """Whether the technique's fumble of a blow or grapple that hit or held is played
        (:data:`TECHNIQUE_FUMBLE_ON_A_HIT`): only while ``c``, who made it, is still in and
        the fight goes on. 003 l.29's fall costs 「次ラウンドは行動選択を出来ない」, the next
        round's actions, which someone a counter (CO-MA-5) left unconscious or dying has
        none of, and a fight the blow won has no next round (r76coc N1: "Ann falls and
        loses next round's actions" was said of a dying Ann, and before "the fight is
        over")."""
        return self.engine >= TECHNIQUE_FUMBLE_ON_A_HIT and not self.cs[c.name].out \
            and self.freeze().outcome() is None

    def lands(self, c: Combatant, target: Combatant, a: Attack, w: Weapon, first: bool,
              defence: Defence, grade: Grade, skill: int, band: int, printed: str,
              doubled: bool, times_two: bool) -> None:
        """A blow or shot that hit (:meth:`one_attack`): the defence, the damage and what
        follows; it ends where the defence or the blow stops it."""
        info = w.info
        melee = info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        if a.surprise and defence is not Defence.NONE:
            self.say(f"{target.name} cannot dodge or parry a surprise attack (CO-SURP-1)")
            defence = Defence.NONE
        if not first and a.defence is Defence.DODGE and defence is Defence.NONE \
                and not a.cover and info.kind is WeaponKind.FIREARM:
            self.say(f"a later bullet: {target.name}'s dodge stopped the first only "
                     "(CO-DODGE-7)")
        elif not first and a.defence is not Defence.NONE and defence is Defence.NONE \
                and not a.cover and not a.surprise:
            rule = "CO-DODGE-4" if a.defence is Defence.DODGE else "CO-BASE-7"
            self.say(f"{target.name} is out: no {a.defence.value}" if target.out else
                     f"{target.name}'s {a.defence.value} went on an earlier attack: once a "
                     f"round ({rule})")
        if grade.critical and melee and self.on("CO-MELEE-3"):
            any_defence = self.defence_possible(target, info.kind, a)
            self.say("critical: no dodge or parry (CO-MELEE-3)")
            if not any_defence or self.rules.default("CO-MELEE-3", "double_every_critical"):
                times_two = True
                doubled = doubled and not self.legacy  # format 1: ×2 replaced MA's doubling
            defence = Defence.NONE
        if self.legacy and defence is not Defence.NONE and not self.defence_allowed(
                target, defence, info.kind, a, first):
            raise self.cannot_defend(target, defence, info.kind, a, first)
        if a.cover and info.kind is WeaponKind.FIREARM and self.behind_cover(target, a):
            return
        if defence is Defence.DODGE:
            if self.dodge(target, info.kind, a, first):
                return
        # From revision 4 a declared parry meets a pommel strike or a disarm as any blow
        # (neither seed exempts them: 003 l.98, 004 l.18 parry an attack); one that holds
        # stops it. Revision 3 skipped the parry for them.
        parried_first = self.engine >= 4 and defence in (Defence.PARRY, Defence.COUNTER) \
            and (a.pommel or a.disarm)
        harmless = a.pommel or (a.disarm and not self.rules.default("CO-DISARM-1",
                                                                    "deals_damage"))
        if parried_first and harmless:
            what = "pommel strike" if a.pommel else "disarm"
            way = self.parry if defence is Defence.PARRY else self.counter
            _, held = way(self.cs[target.name], a, 0, f"the {what}: no damage", info.kind)
            if held:
                rule = "CO-IAI-4" if a.pommel else "CO-DISARM-1"
                limit = "CO-DODGE-2" if self.p003 else "CO-BASE-7"
                self.say(f"{target.name} parries the {what}: no effect ({rule}, {limit})")
                return
        if a.pommel:
            self.pommel(c, target, a)
            return
        if a.disarm and not parried_first:
            self.disarmed(target, a)
            if not self.rules.default("CO-DISARM-1", "deals_damage"):
                return
        elif a.disarm and harmless:  # parried first, and the parry failed
            self.disarmed(target, a)
            return
        damage, text = self.blow(c, a, w, grade, doubled, times_two, band, printed)
        follow_up = a.ma and a.ma_option == "follow_up" and doubled
        again = self.rules.default("CO-MA-4", "damage") == "doubled"  # else 等倍, ×1
        if follow_up and self.legacy:  # format 1 added the follow-up before armour
            more, more_text = self.damage(c, w, again, Grade.SUCCESS, melee)
            self.say(f"follow-up: {more_text} (CO-MA-4)")
            damage, follow_up = damage + more, False
        rolled = damage  # CO-BODY-4's threshold, before armour by Default
        if defence in (Defence.PARRY, Defence.COUNTER):
            way = self.parry if defence is Defence.PARRY else self.counter
            damage, held = way(self.cs[target.name], a, damage, text, info.kind)
            if parried_first and not held:  # a damaging disarm the parry did not stop
                self.disarmed(self.cs[target.name], a)
            if held and follow_up:
                # 004 line 158: the follow-up is declared 「相手にヒットした時」; a blow the
                # target parried (受け流した, line 19) is not a hit, whatever gets past it.
                self.say(f"{target.name} parried: no follow-up (CO-MA-4, only after a hit)")
                follow_up = False
            if damage <= 0:
                return
            if held:  # stopped in part: the rest goes on to the armour
                text = f"{damage} damage gets past the {defence.value}"
        if a.knockout:
            if self.knockout(self.cs[target.name], damage, text):
                return
            if self.engine >= KNOCKOUT_FAILED_SAID:  # the roll's line was said before it
                text = f"the knockout fails: the blow lands as usual, {damage} (CO-BASE-10)"
        ignore = self.ignores_armour(grade, w)
        if ignore:
            self.say("critical: the armour is ignored (CO-FIRE-3)")
        elif a.surprise and not self.rules.default("CO-SURP-1", "armour_applies"):
            # 004 l.37 「計算されたダメージをそのまま受ける」 read as "armour too" (the option)
            ignore = True
            self.say(f"{target.name} takes a surprise attack's damage as it is: no armour "
                     "(CO-SURP-1)")
        before = self.cs[target.name].hp
        blow = damage  # CO-MELEE-2 before armour: what reaches the target
        self.hit(self.cs[target.name], damage, text, ignore_armour=ignore,
                 from_behind=a.from_behind, bullet=info.kind is WeaponKind.FIREARM, by=c.name)
        if follow_up and not self.cs[target.name].dead and self.follow_up_lands(c, w, skill):
            # CO-MA-4: a second roll of the damage, doubled by the Default damage = "doubled",
            # armour (and a CO-ARMOR-2 use) apart.
            more, more_text = self.damage(c, w, again, Grade.SUCCESS, melee,
                                          times_two=times_two)
            blow += more
            self.hit(self.cs[target.name], more, f"follow-up: {more_text} (CO-MA-4)",
                     ignore_armour=ignore, from_behind=a.from_behind, by=c.name)
        if info.stun and self.on("CO-STUN-1"):
            self.stun(self.cs[target.name])
        if a.called:
            self.called_effect(self.cs[target.name], a)
        if melee:
            taken = before - self.cs[target.name].hp
            if not self.rules.default("CO-MELEE-2", "after_armour"):
                taken = blow
            self.knockback(self.cs[target.name], a, taken)
        if a.body:
            if not self.rules.default("CO-BODY-4", "threshold_before_armour"):
                rolled = before - self.cs[target.name].hp
            self.lose_part(self.cs[target.name], a, rolled)

    def forced(self, t: Combatant, defence: Defence) -> Defence:
        """CO-MA-3: a full success forces the declared dodge, and the blow lands; against a
        target that declared no dodge it means nothing (「回避を行わない相手には意味がない」).
        Its damage is the technique's normal by the Default, doubled with ``doubled``."""
        how = "doubled" if self.rules.default("CO-MA-3", "doubled") else "normal"
        if defence is not Defence.DODGE and not self.legacy:  # format 1 always used it
            self.say(f"forced hit: {t.name} declared no dodge, so it changes nothing; {how} "
                     "damage (CO-MA-3)")
            return defence
        self.say(f"forced hit: the dodge is used up, {how} damage (CO-MA-3)")
        self.set(t, dodges=t.dodges + 1)
        return Defence.NONE

    def follow_up_lands(self, c: Combatant, w: Weapon, skill: int) -> bool:
        """CO-MA-4 (004 l.159 「追加攻撃が可能となる」): the follow-up lands with the hit by the
        Default; with ``own_roll`` it rolls the combination roll (CO-BASE-3) again, at the
        blow's effective skill and MA, and lands only on a full success (成功), the seed's
        condition for declaring it (l.158 「両方成功し」). Its critical or fumble does nothing
        more: no rule gives a follow-up one."""
        if not self.rules.default("CO-MA-4", "own_roll"):
            return True
        ma = skill_value(self.rules, c.sheet, "martial_arts")
        combo = combination(self.source, skill, ma, self.r_attack,
                            f"{c.name} {w.info.name}+MA follow-up 追撃", hit=True)
        self.say(f"{combo.text} (the follow-up's own roll, CO-MA-4, CO-BASE-3)")
        if combo.rank is Rank.SUCCESS:
            return True
        self.say("the follow-up misses: it needs both to succeed (CO-MA-4)")
        return False

    def blow(self, c: Combatant, a: Attack, w: Weapon, grade: Grade, doubled: bool,
             times_two: bool, band: int, printed: str) -> tuple[int, str]:
        """A hit's damage with its extras: a thrown critical (CO-THROW-2), a called head shot
        (CO-CALL-1), a range band's divisor (CO-RANGE-2)."""
        info = w.info
        melee = info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        damage, text = self.damage(c, w, doubled, grade, melee, printed, times_two=times_two)
        if grade.critical and info.kind is WeaponKind.THROWN and self.on("CO-THROW-2"):
            more, more_text = self.roll_total(self.rules.num("CO-THROW-2", "critical_bonus"),
                                              f"{c.name} {info.name} critical extra damage "
                                              "クリティカル追加ダメージ")
            damage += more
            text += f" + critical {more_text} = {damage} (CO-THROW-2)"
        if a.called == "head":
            more, more_text = self.roll_total(self.rules.num("CO-CALL-1", "head")["damage"],
                                              f"{c.name} {info.name} head shot extra damage "
                                              "頭部追加ダメージ")
            damage += more
            text += f" + head {more_text} = {damage} (CO-CALL-1)"
        if band > 1:
            damage = self.share(damage, band)  # §0.3 (CO-RANGE-2's Default: down)
            text += f" ÷{band} = {damage} (CO-RANGE-2)"
        return damage, text

    def ignores_armour(self, grade: Grade, w: Weapon) -> bool:
        """CO-FIRE-3 (003): 「クリティカル(01～05)が出た場合、敵の装甲値を無視」: a firearm's
        critical ignores the armour, a single shot's and every bullet of a burst's."""
        return grade.critical and w.info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-3")

    def fumble(self, c: Combatant, a: Attack, w: Weapon) -> None:
        """A fumble's effect on the weapon or its user: a stray throw (CO-THROW-2), a jammed
        or dropped gun (CO-FIRE-4), a broken weapon or a fall (CO-MELEE-4).

        CO-FIRE-4 (003 l.59 「ファンブル…が出た場合、弾詰まりを起こして次回戦闘ラウンドで使用
        技能を成功させて弾を取り除かない限り使用できない。(リボルバーなどの弾詰まりの起きない
        武器の場合は銃を手落とす等)」): the round fired is spent, jam or no jam, so from
        revision 7 the gun as it is now, its rounds taken off, jams or is dropped; revision 6
        and before wrote back ``w``, the gun before the shot (or the burst, 003 l.61 「マガジン
        内に入っている弾丸が全て発射される」), and so gave its rounds back."""
        info = w.info
        if info.kind is WeaponKind.THROWN and self.on("CO-THROW-2"):
            self.stray_throw(c, a, w)
            return
        if info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-4"):
            if self.engine >= 7:  # the rounds fired stay spent
                c = self.cs[c.name]
                w = c.sheet.weapons[a.weapon]
            if info.jams:
                c = self.put_weapon(c, a.weapon, replace(w, jammed=True))
                self.set(c, jammed_now=(*c.jammed_now, a.weapon))
                self.say(f"fumble: {info.name} jams until cleared from next round (CO-FIRE-4)")
            else:
                self.put_weapon(c, a.weapon, replace(w, dropped=True))
                self.say(f"fumble: {info.name} is dropped (CO-FIRE-4)")
        elif info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED) and self.on("CO-MELEE-4"):
            choice = a.fumble
            if not choice:
                if info.kind is WeaponKind.UNARMED:
                    choice = "fall"
                else:
                    face = roll("1D2", self.source, purpose=f"{c.name} {info.name} fumble "
                                "ファンブル: the weapon breaks or its user falls").total
                    choice = "break" if face == self.rules.default(
                        "CO-MELEE-4", "weapon_break_face") else "fall"
            if choice == "break" and info.kind is not WeaponKind.UNARMED:
                self.put_weapon(c, a.weapon, replace(w, broken=True))
                self.say(f"fumble: {info.name} breaks (CO-MELEE-4)")
            else:
                self.fall(c)

    def fall(self, c: Combatant) -> None:
        """CO-MELEE-4 (003 「バランスを崩して転んだという事で次ラウンドは行動選択を出来ない」):
        the fumbler falls and chooses no action next round."""
        cond = Timed(Condition.FALLEN, self.round + 1, self.round + 1)
        self.set(self.cs[c.name], conditions=(*self.cs[c.name].conditions, cond))
        self.say(f"fumble: {c.name} falls and loses next round's actions (CO-MELEE-4)")

    def pommel(self, c: Combatant, t: Combatant, a: Attack) -> None:
        """CO-IAI-4 Default: the pommel strike stuns (CO-STUN-1) and deals no damage."""
        self.say(f"pommel strike: {t.name} is stunned, no damage (CO-IAI-4)")
        if self.on("CO-STUN-1"):
            self.stun(self.cs[t.name])

    def stray_throw(self, c: Combatant, a: Attack, w: Weapon) -> None:
        """CO-THROW-2: a fumbled throw flies off; a hit roll (the thrower's Throw) against
        another target in range, allies too: the Keeper names it (no board: Default)."""
        if not a.stray and self.on("CO-TURN-2") and c.square:
            here = board.parse(c.square)
            near = [o for o in self.names if o not in (c.name, a.target)
                    and not self.cs[o].dead and self.cs[o].square
                    and board.distance(here, board.parse(self.cs[o].square)) <= 3
                    and self.clear(c, self.cs[o])]
            if near:
                pick = roll(f"1D{len(near)}", self.source,
                            purpose=f"whom the throw strays to 逸れた先 ({', '.join(near)})"
                            ).total if len(near) > 1 else 1
                a = replace(a, stray=near[pick - 1])
                self.say(f"the stray throw's target: 1D{len(near)} ＞ {a.stray} (CO-THROW-2)")
        if not a.stray or a.stray in (c.name, a.target):
            self.say("fumble: the throw flies off and lands harmlessly (CO-THROW-2)")
            return
        other = self.get(a.stray)
        if other.dead:
            self.say("fumble: the throw flies off and lands harmlessly (CO-THROW-2)")
            return
        self.say(f"fumble: the throw flies off towards {other.name} (CO-THROW-2)")
        # its own fumble does nothing more: no rule strays a stray throw
        made = self.to_hit(skill_value(self.rules, c.sheet, w.info.skill),
                           f"{c.name} {w.info.name} → {other.name}", "")
        self.say(made.text)
        if made.success:
            damage, text = self.damage(c, w, False, Grade.SUCCESS, False)
            self.hit(other, damage, f"{text} (CO-THROW-2)", by=c.name)

    def called_effect(self, t: Combatant, a: Attack) -> None:
        """CO-CALL-1: an arm hit costs a multi-attacker one attack, and a failed STR×5 drops
        the weapon held; a leg hit costs a square of movement a round (for the fight). The
        lost attack comes with any arm hit (the Default ``attack_loss_needs_str`` false), or
        only with the failed STR×5 (true: the seed's 「相手がSTR×5に失敗した場合」 read as
        covering both), which is then rolled with no weapon held too."""
        if t.dead:
            return
        if a.called == "leg":
            t = self.set(t, leg_hits=t.leg_hits + 1)
            most = self.rules.num("CO-TURN-3", "action_points") - t.leg_hits
            self.say(f"{t.name}'s leg is hit: at most {max(0, most)} square(s) a round "
                     "(CO-CALL-1)")
            return
        if a.called != "arm":
            return
        needs_str = bool(self.rules.default("CO-CALL-1", "attack_loss_needs_str"))
        if not needs_str:
            t = self.arm_hit(t)
        held = next((i for i, w in enumerate(t.sheet.weapons)
                     if not (w.dropped or w.broken or w.lent)
                     and w.info.kind is not WeaponKind.UNARMED), None)
        if (held is None and not needs_str) or t.out:
            return
        times = self.rules.num("CO-CALL-1", "arm")["str_multiplier"]
        made = check(self.source, t.sheet.stat("STR") * times, self.r5, f"{t.name} STR×{times}")
        self.say(f"{made.text} (CO-CALL-1)")
        if made.success:
            return
        if needs_str:
            t = self.arm_hit(t)
        if held is not None:
            w = t.sheet.weapons[held]
            self.put_weapon(t, held, replace(w, dropped=True))
            self.say(f"{t.name} drops {w.info.name} (CO-CALL-1)")

    def arm_hit(self, t: Combatant) -> Combatant:
        """CO-CALL-1: the arm hit that costs a multi-attacker one attack, counted."""
        self.say(f"{t.name}'s arm is hit: a weapon of several attacks makes one fewer "
                 "(CO-CALL-1)")
        return self.set(t, arm_hits=t.arm_hits + 1)

    def knockback(self, t: Combatant, a: Attack, taken: int) -> None:
        """CO-MELEE-2: 10+ damage in one melee hit (after armour, or before it with the Default
        ``after_armour`` false: ``taken`` is counted so by the caller) pushes the target back a
        square; whoever stands behind (the Keeper names them) dodges or takes 1D3. From
        revision 4 that dodge is the round's one, if left (:meth:`bystander_dodge`), and a
        held pair on the board is pushed together (CO-GRAP-1, 003 「＜組みつき＞対象は探索者の
        マスに引き寄せられひと固まりとして考える」: one unit; revision 3 moved the target alone,
        out of its grappler's square)."""
        if not self.on("CO-MELEE-2") or t.dead or taken < self.rules.num(
                "CO-MELEE-2", "knockback_damage"):
            return
        attacker = self.cs[a.actor]
        if self.board(attacker, t):
            dest = board.away(board.parse(attacker.square), board.parse(t.square))
            if not board.on_board(dest):
                self.say(f"knockback! {t.name} is against the edge and stays (CO-MELEE-2)")
                return
            there = self.standing_at(board.name(dest), t.name)
            if there is None:
                self.set(t, square=board.name(dest))
                self.say(f"knockback! {t.name} is pushed to {board.name(dest)} ({taken} damage, "
                         "CO-MELEE-2)")
                self.pushed_together(t, attacker, board.name(dest))  # t: before the push
                return
            self.say(f"knockback! {t.name} is pushed into {there.name} and stays ({taken} "
                     "damage, CO-MELEE-2)")
            a = replace(a, behind=there.name)
        else:
            self.say(f"knockback! {t.name} is pushed back a square ({taken} damage, "
                     "CO-MELEE-2)")
        if not a.behind or a.behind in (t.name, a.actor):
            return
        other = self.get(a.behind)
        if other.dead:
            return
        if self.engine >= 4:  # the round's dodge, if it has one left (CO-DODGE-2)
            if self.bystander_dodge(other, "CO-MELEE-2"):
                return
        elif not other.out and self.check(other, "dodge").success:
            self.lines[-1] += " (CO-MELEE-2)"
            return
        hurt, text = self.roll_total(self.rules.num("CO-MELEE-2", "bystander"),
                                     f"damage to {other.name} behind 背後の者へのダメージ")
        self.hit(other, hurt, f"{other.name} is struck by {t.name}: {text} (CO-MELEE-2)")

    def pushed_together(self, t: Combatant, attacker: Combatant, square: str,
                        every: bool = False) -> None:
        """CO-GRAP-1 with CO-MELEE-2 (from revision 4): the one ``t`` holds or is held by,
        sharing its square, goes with it to ``square``: the pair is one unit, whichever of
        them is knocked back (not when the blow is the other one's).

        ``every`` (a tackle's blow back and a pin, from revision 19): both, the one ``t``
        holds and the one holding it, each that shares ``t``'s square, as 003 l.33
        「ひと固まりとして考える」 makes the whole chain one unit (reviewcoc71 DEFECT 2: a
        fighter both holding and held left its holder behind). Without it (the knockback,
        as every revision played it) only the one it holds, or else its holder.

        From revision :data:`~companion.systems.coc.combat.board_moves.CHAIN_AS_ONE`, with or
        without ``every``, the whole chain on that square goes, however long (``t``'s
        :meth:`unit`, but ``attacker`` and those linked only through it; "CO-GRAP-1 (chain)",
        reviewcoc73 DEFECT 1); revision 20 moved one link each way and left the one held by
        ``t``'s partner behind."""
        if self.engine >= CHAIN_AS_ONE:
            self.along(self.unit(t, (attacker.name,)), t, square)
            return
        names = ([t.grappling, t.held_by] if every else [t.grappling or t.held_by])
        for name in names:
            mate = self.cs.get(name)
            if self.engine < 4 or mate is None or mate.name == attacker.name or mate.dead \
                    or mate.square != t.square:
                continue
            self.set(mate, square=square)
            self.say(f"{mate.name} goes with {t.name} to {square}: one unit (CO-GRAP-1)")
