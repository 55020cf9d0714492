"""Whether a strike may be made, and the skill it is rolled at: what bars an attack (a
grapple and a tackle too), each option checked before any die, and the effective skill
with every multiplier and modifier.

Rules: CO-CORE-1, CO-STUN-1, CO-TURN-4, CO-TURN-6, CO-BASE-5, CO-DODGE-4, CO-DODGE-5,
CO-DODGE-6, CO-DODGE-7, CO-DODGE-8, CO-IAI-3, CO-IAI-4, CO-GRAP-3, CO-GRAP-6, CO-CALL-1,
CO-FIRE-4 to CO-FIRE-7, CO-FIRE-9, CO-AIM-1 to CO-AIM-3, CO-RANGE-1 to CO-RANGE-3,
CO-THROW-1, CO-SURP-3, CO-DISARM-1, CO-BASE-10.
"""

from __future__ import annotations

from fractions import Fraction

from companion.errors import IllegalAction
from companion.systems.coc.combat.actions import Attack, Defence
from companion.systems.coc.combat.core import no_weapon
from companion.systems.coc.combat.defences import _Defences
from companion.systems.coc.combat.disarm import NO_BARE_HANDS, bare_hands, out_of_hands
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import Weapon, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: first strike 重火器先制 (CO-FIRE-7) bars a grapple, tackle, choke or throw in its round
#: (:meth:`_ToHit.may_strike`): 004 l.52 「攻撃回数が1回の武器ならそのラウンドは攻撃できない」,
#: and l.53 gives a 3-attack gun's two left to 「技能ロールを2回」 of that gun; a holder's
#: l.164-165 is a one-handed weapon 「又は」 a choke or throw, not both. Revision 22 refused
#: a punch after it but took a grapple, a tackle, a choke and a throw (grapple75 DEFECT 1).
FIRST_STRIKE_BARS_HOLDS = 23


class _ToHit(_Defences):
    """Adds whether a strike may be made and the skill it is rolled at."""

    def may_strike(self, c: Combatant, after_dodge: bool | None = False, weapon: bool = True,
                   what: str = "") -> None:
        """What bars any attack, a grapple and a tackle included: a stun (CO-STUN-1), another
        skill this round (CO-TURN-4), a dodge (CO-DODGE-4; the Keeper may allow an attack at
        −50%, CO-DODGE-5), dodge concentration (CO-DODGE-8), sheathing (CO-IAI-3), and from
        revision :data:`FIRST_STRIKE_BARS_HOLDS` a first strike this round (CO-FIRE-7) for one
        with no ``weapon`` (``what``: a grapple, tackle, choke or throw; a weapon's attacks
        left after it are :meth:`~_Attacks.attack`'s count).
        ``after_dodge`` None: the action has no such field (a choke, a throw), so the
        refusal after a dodge offers no −50%."""
        old_grapple = self.legacy and not weapon  # format 1 let the stunned grapple, tackle
        if self.stunned(c) and not old_grapple:
            raise IllegalAction(f"{c.name} is stunned and cannot attack (CO-STUN-1)" if c.stun
                                else f"{c.name} shook the stun off at its turn's start, but "
                                "cannot attack in that turn (CO-STUN-1: 次回攻撃が選択できず)")
        if self.on("CO-TURN-4") and c.other_skill:
            raise IllegalAction("no attack in a round with another skill (CO-TURN-4)")
        if after_dodge and not (self.on("CO-DODGE-4") and self.on("CO-DODGE-5")):
            raise IllegalAction("an attack after dodging is CO-DODGE-5 (004)")
        if after_dodge and not c.dodges:
            raise IllegalAction(f"{c.name} has not dodged this round: leave out after_dodge")
        if self.on("CO-DODGE-4") and c.dodges and not after_dodge \
                and not (after_dodge is not None and self.open_after_dodging()):
            # A choke's or throw's refusal names the reading that says so (grapple75 NIT 6);
            # Spot Hidden's line quotes this refusal with no ``what``, and keeps its words.
            raise IllegalAction(f"{c.name} dodged this round and cannot attack (CO-DODGE-4)"
                                + (f": no −50% for a {what} (the reading CO-DODGE-5 (choke "
                                   "and throw), coc defaults)" if after_dodge is None and what
                                   else "" if after_dodge is None else
                                   "; the Keeper may allow it at −50% with after_dodge=true "
                                   "(CO-DODGE-5)"))
        if not self.p003 and c.concentrating:
            raise IllegalAction(f"{c.name} concentrates on dodging: no attack (CO-DODGE-8)")
        if c.sheathed and not old_grapple:
            raise IllegalAction(f"{c.name} sheathed this round: no attack (CO-IAI-3)")
        if not weapon and c.first_strike and self.engine >= FIRST_STRIKE_BARS_HOLDS:
            # 004 l.52-53: a 1-attack gun's one attack went first, a 3-attack gun's two left
            # are its own shots at the shooter's DEX
            raise IllegalAction(self.struck_first(c, what or "grapple 組み付き"))

    @staticmethod
    def struck_first(c: Combatant, what: str, numbered: bool = False) -> str:
        """CO-FIRE-7's refusal of ``what`` after ``c``'s first strike 重火器先制 this round: a
        grapple, tackle, choke or throw (:meth:`may_strike`), or an attack with another weapon
        (:meth:`~_Attacks.attack`); it names the gun that struck first, ``numbered`` with its
        number in ``c``'s list as :func:`~.core.no_weapon` lists it, for when ``what`` is
        another weapon of the same name (two revolvers, reviewcoc75b NIT 2)."""
        i = c.first_strike_weapon
        number = f"{i} " if numbered else ""
        gun = (f" with {number}{c.sheet.weapons[i].info.name}"
               if 0 <= i < len(c.sheet.weapons) else "")
        return (f"{c.name} struck first 重火器先制{gun} this round: the round's attacks left, "
                f"if any, are that gun's own shots (CO-FIRE-7), so no {what}")

    def may_attack(self, c: Combatant, w: Weapon, ap: int, after_dodge: bool = False,
                   index: int | None = None) -> None:
        """Whether ``c`` may put ``ap`` more attack AP on ``w``, its weapon ``index``. CO-TURN-6
        (003): 「武器に設定された攻撃回数分のみ行動ポイントを割り振ることができる(火かき棒⇒1回
        拳銃⇒3回)」: from revision 4 each weapon's own attack AP this round against its own
        count (:meth:`weapon_tally`), so a sword and two revolver shots are allowed in either
        order; before, every attack AP of the round was counted against the weapon in hand
        (sword then revolver allowed, revolver then sword refused). Without ``index`` (a
        burst, which takes the turn's AP) every attack AP still counts."""
        if w.broken:  # coc67 N2: its rules and a way out
            raise IllegalAction(f"{w.info.name} is broken (CO-MELEE-4, CO-PARRY-1, CO-PARRY-4, "
                                "CO-WEAP-1): attack with another weapon")
        if w.dropped:
            # reviewcoc67 DEFECT 1: a weapon falls by a revolver's fumble (CO-FIRE-4), a
            # failed STR×5 after an arm hit (CO-CALL-1) or a disarm (CO-DISARM-1), and the
            # state keeps no why: the rule named is the way out's, picking it up, as
            # pick_up says it (1 AP, CO-FIRE-4 in 003; one action, CO-DISARM-1 in 004).
            cost = (f"{self.rules.default('CO-FIRE-4', 'pick_up_ap')} AP, CO-FIRE-4"
                    if self.p003 else "one action, CO-DISARM-1")
            with_weapon = "" if index is None else f" --with weapon={index}"
            raise IllegalAction(f"{w.info.name} is dropped 落とした: pick it up first "
                                f"({cost}; act pick_up {c.name}{with_weapon})")
        if w.jammed:
            raise IllegalAction(f"{w.info.name} is jammed until cleared (CO-FIRE-4)")
        if w.lent:  # coc72 DEFECT 2: drawn by an ally (CO-IAI-1, revision 20 on)
            raise IllegalAction(f"{c.name}'s {w.info.name} is in {w.lent}'s hands (CO-IAI-1)")
        no_hands = self.hands_refusal(c, w)  # coc72 RISK 4 (CO-BODY-5, revision 20 on)
        if no_hands:
            raise IllegalAction(no_hands)
        self.may_strike(c, after_dodge)
        if self.on("CO-GRAP-3") and self.grapple_bound(c) and w.info.two_handed:
            raise IllegalAction("no two-handed weapon while grappling (CO-GRAP-3)")
        if self.on("CO-GRAP-6") and c.grappling and not self.legacy:
            # 004 line 164「次Rから拘束したまま片手で扱える武器が使用可能(拳銃など)」
            if c.grapple_round >= self.round:
                raise IllegalAction(f"{c.name} restrains {c.grappling}: a one-handed weapon "
                                    "from the next round (CO-GRAP-6)")
            if w.info.two_handed:
                raise IllegalAction(f"{c.name} restrains {c.grappling}: only a one-handed "
                                    f"weapon (拳銃など), not {w.info.name} (CO-GRAP-6)")
        attacks = w.info.attacks
        if attacks > 1 and c.arm_hits and self.on("CO-CALL-1"):
            attacks = max(1, attacks - c.arm_hits * self.rules.num("CO-CALL-1", "arm")[
                "attacks_lost"])
        used = c.attacks if self.engine < 4 or index is None else self.weapon_tally(c, index)
        if self.p003 and self.on("CO-TURN-6") and used + ap > attacks:
            raise IllegalAction(f"{w.info.name} allows {attacks} attack AP a round "
                                "(CO-TURN-6" + (", CO-CALL-1)" if attacks < w.info.attacks
                                                else ")"))
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")

    def weapon_tally(self, c: Combatant, index: int) -> int:
        """CO-TURN-6: the attack AP ``c`` has put on its weapon ``index`` this round."""
        return dict(c.weapon_attacks).get(index, 0)

    def count_attack(self, c: Combatant, index: int) -> Combatant:
        """One more attack this round, on weapon ``index`` (CO-TURN-6's tally, cleared with
        the round's ``attacks``)."""
        tally = dict(c.weapon_attacks)
        tally[index] = tally.get(index, 0) + 1
        return self.set(c, attacks=c.attacks + 1, weapon_attacks=tuple(sorted(tally.items())))

    def attack_options(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """Refuse, before any die, an option that is off or does not fit the weapon."""
        info = w.info
        ranged = info.kind in (WeaponKind.FIREARM, WeaponKind.THROWN)
        if a.called and not self.on("CO-CALL-1"):  # coc67 N1: off, not a wrong part
            raise IllegalAction("called shots are CO-CALL-1, off in this profile"
                                + ("" if self.p003 else "; a blow at a body part is "
                                   "body=cut, gouge or blow_off with part=… (CO-BODY-2 to "
                                   "CO-BODY-5)"))
        if a.called and a.called not in ("head", "arm", "leg"):
            raise IllegalAction(f"called={a.called}: a called shot is CO-CALL-1: head, arm or "
                                "leg")
        if a.called and a.burst:
            raise IllegalAction("no called shot with a burst (CO-FIRE-6)")
        if a.surprise and a.burst and self.engine >= 4:  # revision 3 took it and ignored it
            raise IllegalAction("a surprise attack is one blow or shot, not a burst "
                                "(CO-SURP-1, CO-FIRE-6)")
        if a.disarm and a.burst and self.engine >= 4:  # revision 3 took it and ignored it
            raise IllegalAction("no disarm with a burst: it is one aimed blow or shot "
                                "(CO-DISARM-1, CO-FIRE-6)")
        if (info.kind is WeaponKind.THROWN and self.on("CO-THROW-1") and a.distance_m >
                self.rules.num("CO-THROW-1", "range_squares")):
            raise IllegalAction("a throw reaches 3 squares (CO-THROW-1)")
        if a.pommel and not a.iai:
            raise IllegalAction("a pommel strike is declared with Iai (CO-IAI-4)")
        if a.aim and (not self.on("CO-AIM-1") or not ranged):
            raise IllegalAction("careful aim is CO-AIM-1, for a ranged weapon")
        if a.aim and not c.half_dex:
            raise IllegalAction("careful aim only on a turn taken at DEX/2: delay first "
                                "(CO-AIM-1)")
        if a.aim and c.first_strike:
            raise IllegalAction("no careful aim after a first strike (CO-AIM-1, CO-FIRE-7)")
        if a.adjacent and not (info.kind is WeaponKind.FIREARM and (
                self.on("CO-FIRE-5") or self.on("CO-RANGE-3"))):
            raise IllegalAction("point-blank shooting is CO-FIRE-5 (003) or CO-RANGE-3 (004), "
                                "with a firearm")
        if a.dark and not self.on("CO-SURP-3"):
            raise IllegalAction("fighting in the dark is CO-SURP-3, off in this profile")
        if a.dodge_assist and (not self.on("CO-DODGE-6") or
                               a.dodge_assist not in ("navigate", "jump")):
            raise IllegalAction("a dodge assist is CO-DODGE-6: navigate or jump")
        if a.knockout and not (self.on("CO-BASE-10") and (
                info.kind is WeaponKind.UNARMED or info.blunt)):
            raise IllegalAction("a knockout is CO-BASE-10 (optional), with a blunt or unarmed "
                                "attack")
        if a.disarm:
            if not self.on("CO-DISARM-1"):
                raise IllegalAction("disarming is CO-DISARM-1, off in this profile")
            if not 0 <= a.disarm_weapon < len(t.sheet.weapons):
                raise IllegalAction(no_weapon(t, a.disarm_weapon, " to disarm"))
            aimed = t.sheet.weapons[a.disarm_weapon]
            if aimed.info.kind is WeaponKind.UNARMED and self.engine >= NO_BARE_HANDS:
                raise IllegalAction(bare_hands(t, aimed.info.name))
            if (aimed.dropped or aimed.broken or aimed.lent) and self.engine >= NO_BARE_HANDS:
                raise IllegalAction(out_of_hands(t, a.disarm_weapon))
        if a.body:
            self.body_rule(a)
            self.part_left(t, a)
        if a.cover and not (self.on("CO-DODGE-7") and info.kind is WeaponKind.FIREARM
                            and a.cover in ("hide", "dodge")):
            raise IllegalAction("taking cover is CO-DODGE-7 (004), against gunfire: "
                                "cover=hide or cover=dodge")
        if a.cover and a.defence not in (Defence.NONE, Defence.DODGE):
            raise IllegalAction("cover is instead of a dodge, not of a parry (CO-DODGE-7)")

    def effective(self, c: Combatant, t: Combatant, a: Attack, w: Weapon, skill: str
                  ) -> tuple[int, int, str]:
        """CO-CORE-1: base × every multiplier, rounded by §0.3 (down by Default), then ± every
        modifier (floor 0).

        Returns the effective skill, the range band's damage divisor (CO-RANGE-2) and the
        damage dice of a printed band ("" for the weapon's own, CO-FIRE-9).
        """
        info = w.info
        base = skill_value(self.rules, c.sheet, skill)
        ranged = info.kind in (WeaponKind.FIREARM, WeaponKind.THROWN)
        mults: list[tuple[Fraction, str]] = []
        mods: list[tuple[int, str]] = []
        band = 1
        printed = self.printed_band(c, a, w) if ranged else ""
        if ranged and self.on("CO-RANGE-1"):
            siz, above = t.sheet.stat("SIZ"), self.rules.num("CO-RANGE-1", "above_siz")
            step = self.rules.num("CO-RANGE-1", "step_siz")
            up = self.rules.default("CO-RANGE-1", "steps_round") == "up"
            steps = -(-(siz - above) // step) if up else (siz - above) // step
            bonus = self.rules.num("CO-RANGE-1", "per_10_siz") * steps
            if siz > above and bonus:
                mods.append((bonus, f"SIZ {siz}, CO-RANGE-1"
                                    f"{self.rules.tag('CO-RANGE-1', 'steps_round')}"))
        if (ranged and not printed and a.distance_m > info.range_m > 0
                and self.on("CO-RANGE-2")):
            band = -(-a.distance_m // info.range_m)
            last = self.rules.num("CO-RANGE-2", "last_band")
            if band > last and not self.rules.default("CO-RANGE-2", "beyond_last_band"):
                raise IllegalAction(f"{a.distance_m} m is beyond {last}× the base range "
                                    f"{info.range_m} m (CO-RANGE-2)")
            mults.append((Fraction(1, band), f"{a.distance_m} m, {band}× range, CO-RANGE-2"))
        if a.adjacent:
            if self.on("CO-RANGE-3"):
                mults.append((Fraction(self.rules.num("CO-RANGE-3", "touch_multiplier")),
                              "touch, CO-RANGE-3"))
            else:
                mods.append((self.rules.num("CO-FIRE-5", "adjacent_bonus"),
                             "adjacent, CO-FIRE-5"))
        if a.aim:
            mults.append((Fraction(self.rules.num("CO-AIM-1", "multiplier")),
                          "careful aim, CO-AIM-1"))
        if ranged and info.laser and self.on("CO-AIM-2"):
            mults.append((Fraction(self.rules.num("CO-AIM-2", "multiplier")),
                          "laser sight, CO-AIM-2"))
        if ranged and info.scope > 1 and self.on("CO-AIM-3"):
            mults.append((Fraction(info.scope), f"{info.scope}× scope, CO-AIM-3"))
        if a.dark:
            mults.append((Fraction(1, 2), "dark, CO-SURP-3"))
        if t.hidden and self.on("CO-SURP-3"):
            mods.append((t.hide_penalty, f"{t.name} is hidden, CO-SURP-3"))
        if a.disarm:
            mods.append(self.disarm_penalty(c, a))
        if a.body:
            mods.append(self.body_penalty(t, a, w))
        if not self.p003 and self.on("CO-DODGE-5") and c.dodges:
            mods.append((self.rules.num("CO-DODGE-5", "attack_after_dodge"),
                         "after dodging, CO-DODGE-5"))
        if a.called:
            mods.append((self.rules.num("CO-CALL-1", "penalty"),
                         f"called shot: {a.called}, CO-CALL-1"))
        product = Fraction(base)
        for m, _ in mults:
            product *= m
        value = max(0, self.rounded(product) + sum(m for m, _ in mods))
        if mults or mods:
            shown = " ".join([f"×{m}" + f" ({why})" for m, why in mults]
                             + [f"{m:+d} ({why})" for m, why in mods])
            self.say(f"{c.name} {self.rules.skill(skill).name}: base {base} {shown} = {value}"
                     + (" ＞ cannot succeed" + self.rolled_for_fumble(info.kind)
                        if value <= 0 else ""))
        if a.body and value <= 0:
            raise IllegalAction(f"{c.name} is not yet skilled enough for that "
                                f"({self.body_rule(a)})")
        return value, band, printed

    def rolled_for_fumble(self, kind: WeaponKind) -> str:
        """CO-CORE-1 (a fumble is a failure in the fumble range whatever the skill): why an
        attack that cannot succeed still asks its d100, when its kind's fumble rule is played
        (:meth:`fumbles`: CO-MELEE-4, CO-FIRE-4, CO-THROW-2); said from revision 14 (coc63
        N3), else "". Where none is, :meth:`to_hit` asks no die."""
        rule = self.fumbles(kind)
        if self.engine < 14 or not rule:
            return ""
        return f"; rolled only for a fumble ({rule})"

    def printed_band(self, c: Combatant, a: Attack, w: Weapon) -> str:
        """CO-FIRE-9 (with CO-RANGE-2's proviso): a weapon with printed range bands (a
        shotgun's 4D6/2D6/1D6 at 10/20/50 m) does the damage of the first band that reaches
        the target, at its full skill; beyond the last band it cannot hit. Returns the
        band's dice, "" for a weapon without bands or while CO-FIRE-9 is off."""
        bands, shown = self.rules.bands(w.info)
        if not bands or not self.on("CO-FIRE-9"):
            return ""
        reach = next((b for b in bands if a.distance_m <= b.up_to_m), None)
        if reach is None:
            raise IllegalAction(f"{a.distance_m} m is beyond {w.info.name}'s last band "
                                f"{bands[-1].up_to_m} m ({shown}, CO-FIRE-9)")
        at = f"{a.distance_m} m" if a.distance_m else "within range"
        self.say(f"{c.name} {w.info.name} {at}: damage {reach.damage} up to {reach.up_to_m} m "
                 f"(printed bands {shown}, CO-FIRE-9)")
        return reach.damage

    def open_after_dodging(self) -> bool:
        """CO-DODGE-5 (004 l.11 「"回避した後の攻撃"は"-50％の下方補正"により行える場合がある」):
        whether one who dodged may attack, grapple or tackle at −50% with no Keeper's OK
        asked (``attack_needs_keeper`` false); by the Default each such attack needs it
        (``after_dodge``)."""
        return (self.on("CO-DODGE-4") and self.on("CO-DODGE-5")
                and not self.rules.default("CO-DODGE-5", "attack_needs_keeper"))

    def attacks_after_dodging(self, c: Combatant, after_dodge: bool) -> bool:
        """CO-DODGE-5: a grapple or tackle made after dodging, at −50%: the Keeper allowing
        it (``after_dodge``), or any by one who dodged when no OK is needed."""
        return after_dodge or (bool(c.dodges) and self.open_after_dodging())

    def after_dodge(self, value: int) -> tuple[int, str]:
        """CO-DODGE-5: a grapple or tackle after dodging, −50% as an attack after dodging."""
        penalty = self.rules.num("CO-DODGE-5", "attack_after_dodge")
        return max(0, value + penalty), f" ({penalty:+}%, after dodging, CO-DODGE-5)"
