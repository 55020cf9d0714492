"""The defender's side of an attack: which defence is allowed now (a round's dodges and
parries, from behind, against gunfire), dodging (concentration, assists, a second dodge by
Luck), taking cover, parrying with a weapon, bare hands, MA, Budo, Grapple or Iai, and the
MA counter.

Rules: CO-DODGE-1 to CO-DODGE-8, CO-PARRY-1 to CO-PARRY-4, CO-BASE-7, CO-BASE-3, CO-MA-5,
CO-MELEE-3 (could it have defended at all), CO-FIRE-5 (a parried shot), CO-IAI-2 and
CO-IAI-3 (an Iai parry), CO-GRAP-5 (a Grapple parry), CO-WEAP-1 (a parrying weapon's wear),
CO-GRAP-6 (the restrained do not defend).
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc.checks import Check, Grade, Rank, combination
from companion.systems.coc.combat.actions import Attack, Defence
from companion.systems.coc.combat.core import no_weapon
from companion.systems.coc.combat.disarm import _Disarm
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.rules import Status, WeaponKind
from companion.systems.coc.sheet import OLD_BUDO, parry_budo, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: a restrained one (CO-GRAP-6, 004) neither dodges nor parries (:meth:`_Defences.restrained`);
#: revision 18 let it.
RESTRAINED_NO_DEFENCE = 19
#: The first engine revision in which a ``luck_dodge`` that no second dodge would use is
#: refused before any die (:meth:`_Defences.luck_dodge_unread`), as a misplaced
#: ``after_dodge`` is; revision 19 rolled the round's own dodge and said nothing (coc72 NIT 6).
LUCK_DODGE_READ = 20
#: The first engine revision whose parry roll says its Japanese term, ``Bob 受け流し/parry
#: 火かき棒/Fire Poker``, as the dodge's says ``回避/Dodge`` (a78cocfight NIT 6; STYLE:
#: Japanese game terms beside English); revision 25's said ``Bob parry …``.
PARRY_NAMED = 26

class _Defences(_Disarm):
    """Adds the defender's dodges, parries, cover and counters."""

    def parrying(self, t: Combatant) -> str:
        """A parry roll's label up to what it parries with: ``t``'s name and the term, from
        revision :data:`PARRY_NAMED` in Japanese too."""
        return f"{t.name} {'受け流し/parry' if self.engine >= PARRY_NAMED else 'parry'}"

    def declared_defence(self, t: Combatant, a: Attack, kind: WeaponKind, first: bool
                         ) -> Defence:
        """The declared defence, checked before any die is asked for (a typed d100 is not
        wasted on a defence that was never allowed). Later bullets of one attack cannot be
        dodged (CO-DODGE-7): the declared dodge covers the first only, unless the target
        concentrates (:meth:`dodges_every_bullet`). A ``fatal_blow`` that would change
        nothing is refused (:meth:`fatal_blow_unread`), as an ``after_dodge`` is, and so is
        a ``luck_dodge`` (:meth:`luck_dodge_unread`)."""
        if first and not self.legacy and self.engine >= LUCK_DODGE_READ:
            why = self.luck_dodge_unread(t, a)
            if why:
                raise IllegalAction(f"luck_dodge=true changes nothing here: {why}; leave out "
                                    "luck_dodge")
        why = self.fatal_blow_unread(t, a) if first and not self.legacy else ""
        if why:
            raise IllegalAction(f"fatal_blow=true changes nothing here: {why} (CO-DODGE-5); "
                                "leave out fatal_blow")
        if a.cover:
            # CO-GRAP-6: cover is a reaction too, Hide as Dodge (reviewcoc71 DEFECT 1)
            if first and self.restrained(t):
                raise IllegalAction(f"{t.name} cannot take cover now: "
                                    + self.defence_refused(t, Defence.DODGE, kind, a, True))
            if a.cover == "dodge" and first and not self.defence_allowed(
                    t, Defence.DODGE, kind, a, True):
                raise self.cannot_defend(t, Defence.DODGE, kind, a)
            return Defence.NONE
        d = a.defence
        if d is Defence.NONE or a.surprise or self.legacy:  # format 1 checked after the dice
            return d
        if (d is Defence.DODGE and not first and kind is WeaponKind.FIREARM
                and self.on("CO-DODGE-7") and not self.dodges_every_bullet(t)):
            return Defence.NONE
        if not self.defence_allowed(t, d, kind, a, first):
            if not first:  # the first was checked before any die: this action used it up
                return Defence.NONE
            if d is Defence.PARRY and a.parry_with == "iai" and self.engine >= 4 \
                    and self.other_skill_chosen(t):
                raise IllegalAction(f"{t.name} cannot parry by Iai in a round with an other "
                                    "skill (CO-IAI-2)")
            if d is Defence.PARRY and a.parry_with in ("", "iai") \
                    and 0 <= a.parry_weapon < len(t.sheet.weapons) \
                    and self.two_hands_held(t, a.parry_weapon):
                raise IllegalAction(f"{t.name} is in a grapple: no parry with a two-handed "
                                    f"weapon ({'CO-GRAP-3' if self.p003 else 'CO-GRAP-6'})")
            raise self.cannot_defend(t, d, kind, a)
        return d

    def dodges_every_bullet(self, t: Combatant) -> bool:
        """CO-DODGE-8 (004 l.17 「回避に"専念"する場合…更に複数回の攻撃に対して何度でも回避技能を
        使用することが出来る」, right after l.13's 「初弾のみ」…「複数回攻撃が来るタイプの銃弾は
        全て当たる」, whose 「基本的に」 marks the usual case): a concentrating character dodges
        each bullet of a multi-shot attack, each at the +10, by the Default every_bullet (from
        revision 11; revision 10 and before, and every_bullet = false, held CO-DODGE-7's first
        bullet only)."""
        return (t.concentrating and not self.p003 and self.engine >= 11
                and self.on("CO-DODGE-8")
                and bool(self.rules.default("CO-DODGE-8", "every_bullet")))

    def behind_cover(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-7: 「物陰に"隠れる"」: a Hide success, or Dodge at −50%, avoids every
        bullet of the attack. Rolled once, at the first bullet that hits; the rest follow."""
        if t.name in self.covered:
            if self.covered[t.name]:
                self.say(f"{t.name} stays behind cover: the bullet misses (CO-DODGE-7)")
            return self.covered[t.name]
        if a.cover == "hide":
            made = self.check(t, "hide", 0, f"{t.name} takes cover: 隠れる/Hide")
        else:
            penalty = self.rules.num("CO-DODGE-7", "cover_dodge") + self.dodge_bonus(t, a)
            # CO-DODGE-5: after attacking, −60 as any dodge (revision 3 and before: none)
            after, why = self.after_attacking(t) if self.engine >= 4 else (0, "")
            t = self.set(self.cs[t.name], dodges=self.cs[t.name].dodges + 1)
            cut = self.dark_cut(t, a, "dodge")
            made = self.check(t, "dodge", penalty + after + cut,
                              f"{t.name} takes cover: 回避/Dodge")
            if why:
                self.lines[-1] += f" ({why})"
            self.dark_note(cut)
        self.lines[-1] += " (against every bullet, CO-DODGE-7)"
        self.covered[t.name] = made.success
        return made.success

    def defence_possible(self, target: Combatant, kind: WeaponKind, a: Attack) -> bool:
        """CO-MELEE-3: could the target have dodged or parried at all, with any weapon it
        holds or barehanded, MA, Budo, Grapple (revision 4, CO-GRAP-5) or Iai? (Not only the
        slot the attack named.)"""
        if self.defence_allowed(target, Defence.DODGE, kind, a, True):
            return True
        if self.legacy:  # format 1 looked at the named parry weapon only
            return self.defence_allowed(target, Defence.PARRY, kind, a, True)
        tries = [replace(a, parry_weapon=i, parry_with="")
                 for i in range(len(target.sheet.weapons))]
        # MA and Budo parry only for a sheet that has the skill (003's MA parry is no help to
        # someone who never learnt it); bare hands are anyone's, and so is Grapple (base 25%).
        trained = {"ma": "martial_arts" in target.sheet.skills,
                   "budo": bool(parry_budo(target.sheet))}
        tries += [replace(a, parry_with=way) for way in ("hands", "ma", "budo", "grapple")
                  if trained.get(way, True)]
        tries += [replace(a, parry_weapon=i, parry_with="iai")
                  for i in range(len(target.sheet.weapons))]
        return any(self.defence_allowed(target, d, kind, t, True) for t in tries
                   for d in (Defence.PARRY, Defence.COUNTER))

    def defence_allowed(self, t: Combatant, d: Defence, kind: WeaponKind, a: Attack,
                        first: bool) -> bool:
        """CO-DODGE-2 (003) / CO-DODGE-4, CO-DODGE-7, CO-BASE-7 (004): reaction limits."""
        return not self.defence_refused(t, d, kind, a, first)

    def cannot_defend(self, t: Combatant, d: Defence, kind: WeaponKind, a: Attack,
                      first: bool = True) -> IllegalAction:
        """The refusal of a declared defence, with its cause and rule (cli59 F1: "cannot
        dodge now" alone covered five causes)."""
        why = self.defence_refused(t, d, kind, a, first)
        return IllegalAction(f"{t.name} cannot {d.value} now" + (f": {why}" if why else ""))

    def not_played(self, rule: str) -> str:
        """A refusal's cause when the rule that would allow it does not run (CO-CORE-2):
        review59a D2, where 003's counter was refused as if CO-MA-5 forbade the attack."""
        status = self.rules.status(rule)
        how = ("optional, not switched on" if status is Status.OPTIONAL else status.value)
        return f"{rule} is not played in profile {self.rules.profile.value} ({how})"

    def defence_refused(self, t: Combatant, d: Defence, kind: WeaponKind, a: Attack,
                        first: bool) -> str:
        """Why ``t`` may not take the defence ``d`` against ``a`` now, with the rule ID; ""
        when it may (CO-DODGE-2 (003) / CO-DODGE-4, CO-DODGE-7, CO-BASE-7 (004): reaction
        limits; CO-DODGE-3: from behind)."""
        if t.out:
            return f"{t.name} is out of the fight (dead or unconscious)"
        if self.restrained(t):
            return (f"{t.name} is restrained by {t.held_by}: it acts only to break free, no "
                    "dodge, cover, parry or counter (CO-GRAP-6)")
        if self.on("CO-DODGE-3") and a.from_behind and not t.concentrating:
            return (f"{a.actor} attacks from behind and {t.name} is not concentrating on "
                    "dodging (CO-DODGE-3)")
        if d is Defence.DODGE:
            if self.dodge_after_attacking_refused(t, a):
                return (f"{t.name} has attacked this round: a dodge after attacking only "
                        "against a blow the Keeper rules certainly fatal, fatal_blow=true "
                        "(CO-DODGE-5)")
            if not first and self.on("CO-DODGE-7") and kind is WeaponKind.FIREARM \
                    and not self.dodges_every_bullet(t):
                return "a dodge stops the first bullet only (CO-DODGE-7)"
            if not self.p003 and t.concentrating and self.on("CO-DODGE-8"):
                return ""
            limit = self.dodge_limit()
            if t.dodges < limit:
                return ""
            rule = "CO-DODGE-2" if self.p003 else "CO-DODGE-4"
            used = f"{t.name} has used this round's dodge ({rule})"
            if self.p003 or not self.on("CO-DODGE-4"):
                return used
            if t.dodges > limit:
                return (f"{t.name} has used this round's dodge and its second by Luck "
                        "(CO-DODGE-4)")
            return "" if self.luck_dodge(t, a) else (
                f"{used}; a second needs Luck, the Keeper allowing (luck_dodge)")
        rule = "CO-DODGE-2" if self.p003 else "CO-BASE-7"
        limit = self.rules.default(rule, "other_defences_per_round" if self.p003
                                   else "parries_per_round")
        if t.parries >= int(limit):
            return f"{t.name} has used this round's parry ({rule})"
        if kind is WeaponKind.THROWN:
            return "a thrown weapon cannot be parried"
        if kind is WeaponKind.FIREARM and not (self.on("CO-FIRE-5") and a.adjacent
                                               and not a.from_behind):
            return ("a shot is parried only from an adjacent square, not from behind "
                    "(CO-FIRE-5)" if self.on("CO-FIRE-5") else "a shot cannot be parried")
        if d is Defence.COUNTER:
            if not self.on("CO-MA-5"):
                return f"no MA counter: {self.not_played('CO-MA-5')}"
            if not self.counter_allowed(a, kind):
                return "an MA counter goes only against an unarmed humanoid's attack (CO-MA-5)"
            ok = 0 <= a.parry_weapon < len(t.sheet.weapons) and \
                t.sheet.weapons[a.parry_weapon].info.technique
            if not ok:
                return "an MA counter needs Fist, Kick or Head Butt (CO-MA-5)"
            # reviewcoc72 DEFECT 1 (CO-BODY-5, revision 20 on): a counter is a punch, kick
            # or head butt, so the Default "hands" asks after its technique as an attack's
            return self.hands_refusal(t, t.sheet.weapons[a.parry_weapon])
        if d is Defence.PARRY and t.lost:  # coc72 RISK 4 (CO-BODY-5, revision 20 on)
            # MA and Budo parry by hand too (reviewcoc72 NIT 5): a parry, not a kick
            by_hand = a.parry_with in ("hands", "grapple", "ma", "budo")
            held = (a.parry_with in ("", "iai") and 0 <= a.parry_weapon < len(t.sheet.weapons))
            no_hands = self.hands_refusal(t, t.sheet.weapons[a.parry_weapon] if held else None) \
                if by_hand or held else ""
            if no_hands:
                return no_hands
        if a.parry_with == "iai":
            off = next((r for r in ("CO-IAI-2", "CO-DODGE-2") if not self.on(r)), "")
            if off:
                return f"no Iai parry: {self.not_played(off)}"
            if not self.iai_parry_allowed(t, a):
                return "no Iai parry now (CO-DODGE-2, CO-IAI-2, CO-IAI-3)"
            return "" if not self.two_hands_held(t, a.parry_weapon) else (
                f"{t.name} is in a grapple: no two-handed weapon (CO-GRAP-3)")
        if a.parry_with == "grapple":
            if not self.on("CO-GRAP-5"):
                return f"no Grapple parry: {self.not_played('CO-GRAP-5')}"
            return "" if self.grapple_parry_allowed(kind) else (
                "Grapple parries only a melee or unarmed attack (CO-GRAP-5)")
        if a.parry_with:
            if self.bare_parry_allowed(a, kind, a.parry_with):
                return ""
            if self.on("CO-PARRY-2"):
                return f"no {a.parry_with} parry against this attack (CO-PARRY-2)"
            # Without CO-PARRY-2 only 003's MA parry stands (CO-DODGE-2).
            return (f"no {a.parry_with} parry: {self.not_played('CO-PARRY-2')}"
                    + ("; 003 takes an MA parry (parry_with=ma, CO-DODGE-2)" if self.p003 else ""))
        if not 0 <= a.parry_weapon < len(t.sheet.weapons):
            return no_weapon(t, a.parry_weapon, " to parry with")
        pw = t.sheet.weapons[a.parry_weapon]
        if pw.lent:  # coc72 DEFECT 2: drawn by an ally (CO-IAI-1, revision 20 on)
            return f"its {pw.info.name} is in {pw.lent}'s hands (CO-IAI-1)"
        if pw.broken or pw.dropped or pw.durability is None:
            return f"its {pw.info.name} is " + ("broken" if pw.broken else "dropped"
                                                if pw.dropped else "no parrying weapon")
        if self.two_hands_held(t, a.parry_weapon):
            return (f"{t.name} is in a grapple: no parry with a two-handed weapon "
                    f"({'CO-GRAP-3' if self.p003 else 'CO-GRAP-6'})")
        if self.on("CO-PARRY-2") and not (pw.info.kind is WeaponKind.MELEE
                                          or pw.info.long_gun):
            return f"a {pw.info.name} cannot parry: melee weapons and long guns do (CO-PARRY-2)"
        return ""

    def restrained(self, t: Combatant) -> bool:
        """CO-GRAP-6 (004 l.163 「組み付いた相手を行動不能にする」): from revision
        :data:`RESTRAINED_NO_DEFENCE` the restrained one has no dodge, cover (Hide or Dodge,
        CO-DODGE-7), parry or MA counter either, as the engine's reading says (readings.toml:
        "a restrained target acts only to break free"; the spec's Default: "cannot act,
        except … opposed STR"). Revision 18 refused its actions only and let it dodge, take
        cover and parry. The seed is silent on reactions;
        the reading is this companion's, labelled in ``companion coc defaults``."""
        return (self.engine >= RESTRAINED_NO_DEFENCE and not self.p003
                and self.on("CO-GRAP-6") and bool(t.held_by))

    def two_hands_held(self, t: Combatant, index: int) -> bool:
        """CO-GRAP-3 (003 「＜組みつき＞中は…両手を使う武器は使用できない」, both in the grapple
        by the spec's Default, :meth:`grapple_bound`): is ``t``'s weapon ``index``
        two-handed while it grapples or is held? A parry uses its weapon (〇回避行動
        「受け流しに使用した武器」), so from revision 5 a two-handed weapon no more parries
        there than it strikes (:meth:`may_attack`);
        revision 4 and before let it parry. Dodging and one-handed parries stay: the grapple
        limits 「行動選択」, and reactions are none (CO-TURN-3 Default).

        CO-GRAP-6 (004 l.164 「拘束したまま片手で扱える武器が使用可能(拳銃など)」): a grappler
        restraining its opponent has one hand free, so from revision 6 it parries with no
        two-handed weapon either; revision 5 and before let it."""
        held = ((self.engine >= 5 and self.on("CO-GRAP-3") and self.grapple_bound(t))
                or (self.engine >= 6 and self.on("CO-GRAP-6") and bool(t.grappling)))
        return held and t.sheet.weapons[index].info.two_handed

    def iai_parry_allowed(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-2 (003): 「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回」:
        an Iai is one of the round's parries, with the Iai weapon ``parry_weapon`` still
        sheathed (CO-IAI-3) and the round's Iai unused (CO-IAI-2).

        An Iai parry is a use of Iai: it is the round's one Iai (「＜居合＞は1ラウンドに一回
        のみ使用でき」, ``iai_used``) and draws the blade (CO-IAI-3's Default: "any use of Iai,
        attack or parry"), and First Aid, Medicine and Psychoanalysis were already refused
        after it. So 「＜居合＞使用ラウンドはその他技能は選択できない」 holds for it both ways:
        after it no other skill that round (Spot Hidden and Jump included,
        :meth:`no_skill_after_iai`), and from revision 4 no Iai parry in a round ``t`` has
        chosen one (:meth:`other_skill_chosen`; before, it was taken)."""
        if not (self.p003 and self.on("CO-DODGE-2") and self.on("CO-IAI-2")):
            return False
        if t.iai_used or t.drawn or not 0 <= a.parry_weapon < len(t.sheet.weapons):
            return False
        if self.engine >= 4 and self.other_skill_chosen(t):
            return False
        pw = t.sheet.weapons[a.parry_weapon]
        return (pw.info.iai and not (pw.broken or pw.dropped or pw.lent)
                and pw.durability is not None)

    def bare_parry_allowed(self, a: Attack, kind: WeaponKind, way: str) -> bool:
        """CO-PARRY-2: bare hands only against an unarmed humanoid; MA or Budo against a
        humanoid unarmed or with a melee weapon. In 003, MA parries (CO-DODGE-2)."""
        attacker = self.cs[a.actor]
        if way not in ("hands", "ma", "budo"):
            return False
        if self.on("CO-PARRY-2"):
            if not attacker.sheet.humanoid:
                return False
            if way == "hands":
                return kind is WeaponKind.UNARMED
            return kind in (WeaponKind.UNARMED, WeaponKind.MELEE)
        return self.p003 and way == "ma"

    def grapple_parry_allowed(self, kind: WeaponKind) -> bool:
        """CO-GRAP-5: 「組み付き技能は近接戦闘技能を受け流す場合"技能を2回成功"させなければ
        ならない」 (004 line 25): Grapple parries an attack made with a melee combat skill,
        unarmed or with a melee weapon (not a shot, not a throw), as the round's parry
        (CO-BASE-7; CO-DODGE-2 where 003 switches it on). The seed puts no humanoid
        condition on it, unlike bare hands, MA and Budo (lines 20–21). From revision 4."""
        return self.engine >= 4 and self.on("CO-GRAP-5") and kind in (WeaponKind.UNARMED,
                                                                        WeaponKind.MELEE)

    def counter_allowed(self, a: Attack, kind: WeaponKind) -> bool:
        """CO-MA-5: 「相手が素手による受け流し可能な攻撃を行ってきた時に宣言可能」: only against
        an attack bare hands could parry, which seed 004 allows only when 「"相手が人型"かつ
        "素手での戦闘"」: a humanoid attacking unarmed. The seed overrides the spec's Default
        here ("whenever CO-PARRY-2 would allow an MA or Budo parry", a melee weapon too);
        the rest of the Default stands (the round's parry, :meth:`counter`). Revision 3 and
        before played the Default."""
        if self.engine < 4:
            return self.bare_parry_allowed(a, kind, "ma")
        return self.cs[a.actor].sheet.humanoid and kind is WeaponKind.UNARMED

    def dodge_bonus(self, t: Combatant, a: Attack) -> int:
        """CO-DODGE-1 (+20) / CO-DODGE-8 (+10) while concentrating; CO-DODGE-6's assist."""
        bonus = 0
        if t.concentrating:
            rule = "CO-DODGE-1" if self.p003 else "CO-DODGE-8"
            bonus += self.rules.num(rule, "bonus")
            self.say(f"{t.name} concentrates on dodging: +{bonus} ({rule})")
        if a.dodge_assist:
            made = self.check(t, a.dodge_assist)
            extra = self.rules.num("CO-DODGE-6", a.dodge_assist)
            self.lines[-1] += f" (assist +{extra} on a success, CO-DODGE-6)"
            if made.success:
                bonus += extra
        return bonus

    def luck_dodge(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-4: once the round's dodge is used, a second one by Luck, only when the
        Keeper allows it (``luck_dodge``); never in 003."""
        return not self.p003 and self.on("CO-DODGE-4") and bool(getattr(a, "luck_dodge", False))

    def luck_dodge_unread(self, t: Combatant, a: Attack) -> str:
        """Why a declared ``luck_dodge`` would not be played, or "": CO-DODGE-4 (004 「"1回"
        回避したモノは2回目の回避をすることはできない」, the Keeper's second dodge by Luck) is the
        dodge after the round's one, so it needs a declared dodge, the round's dodge used, and
        no concentration that dodges without limit (CO-DODGE-8); 003 has none (CO-DODGE-2)."""
        if not getattr(a, "luck_dodge", False):
            return ""
        if self.p003 or not self.on("CO-DODGE-4"):
            return "a second dodge by Luck is 004's CO-DODGE-4, not played here"
        if a.defence is not Defence.DODGE or a.cover:
            return "a second dodge by Luck is a dodge: declare defence=dodge (CO-DODGE-4)"
        if t.concentrating and self.on("CO-DODGE-8"):
            return f"{t.name} concentrates on dodging and dodges without Luck (CO-DODGE-8)"
        if t.dodges < self.dodge_limit():
            return (f"{t.name} has not dodged this round, so this is its round's own dodge "
                    "(CO-DODGE-4)")
        return ""

    def dodge_left(self, t: Combatant) -> bool:
        """Has ``t`` still a dodge this round: fewer than ``dodges_per_round`` (CO-DODGE-2,
        003 「1ラウンド中に＜回避＞を1回」; CO-DODGE-4, 004 「"1回"回避したモノは2回目の回避をする
        ことはできない」), or any number while concentrating in 004 (CO-DODGE-8)."""
        if not self.p003 and t.concentrating and self.on("CO-DODGE-8"):
            return True
        return t.dodges < self.dodge_limit()

    def bystander_dodge(self, t: Combatant, rule: str) -> bool:
        """From revision 4, the dodge of one who is not attacked but struck by a body: whoever
        a knockback pushes the target into (CO-MELEE-2, 003 「回避スキルで回避しなければ当たった
        者に1D3」) or a thrown one lands on (CO-MA-2, 「回避行動を行わなかった場合1D3」). It is
        the round's dodge (:meth:`dodge_left`): it needs one left and uses it up. With none
        left, or out, ``t`` does not dodge and takes the damage. Revision 3 and before rolled
        it whatever the round's dodges, and did not count it."""
        t = self.cs[t.name]
        limit = "CO-DODGE-2" if self.p003 else "CO-DODGE-4"
        if t.out or not self.dodge_left(t):
            why = "is out" if t.out else "has no dodge left this round"
            self.say(f"{t.name} {why}: no dodge ({rule}, {limit})")
            return False
        t = self.set(t, dodges=t.dodges + 1)
        made = self.check(t, "dodge", self.concentration_bonus(t) if self.engine >= 4 else 0)
        self.lines[-1] += f" ({rule}, {limit})"
        return made.success

    def concentration_bonus(self, t: Combatant) -> int:
        """CO-DODGE-1 (003 l.96 「回避集中」: 「＜回避＞…の成功率を+20%」) / CO-DODGE-8 (004
        l.17 +10): the concentration part of :meth:`dodge_bonus`, said; from revision 4 a
        bystander's dodge takes it as any dodge (revision 3 rolled it bare)."""
        if not t.concentrating:
            return 0
        rule = "CO-DODGE-1" if self.p003 else "CO-DODGE-8"
        bonus = int(self.rules.num(rule, "bonus"))
        self.say(f"{t.name} concentrates on dodging: +{bonus} ({rule})")
        return bonus

    def dodge_limit(self) -> int:
        """The dodges a round allows: CO-DODGE-2 (003) or CO-DODGE-4 (004)."""
        return int(self.rules.default("CO-DODGE-2" if self.p003 else "CO-DODGE-4",
                                      "dodges_per_round"))

    def dodge(self, t: Combatant, kind: WeaponKind, a: Attack, first: bool,
              extra: int = 0) -> bool:
        """A declared dodge: the round's dodge with its modifiers (``extra``: a 003 burst's
        − hits, CO-FIRE-6), or, the round's dodge spent, a second one by Luck the Keeper
        allows (CO-DODGE-4)."""
        if t.dodges >= self.dodge_limit() and self.luck_dodge(t, a):
            t = self.set(self.cs[t.name], dodges=t.dodges + 1)
            made = self.check(t, "luck", 0, f"{t.name} dodges again: 幸運/Luck")
            self.lines[-1] += " (a second dodge by Luck, the Keeper allowing, CO-DODGE-4)"
            return made.success
        modifier, after = self.after_attacking(t)
        modifier += self.dodge_bonus(t, a) + extra
        t = self.set(self.cs[t.name], dodges=self.cs[t.name].dodges + 1)
        rule = "CO-DODGE-2" if self.p003 else "CO-DODGE-4"
        cut = self.dark_cut(t, a, "dodge")
        made = self.check(t, "dodge", modifier + cut)
        self.lines[-1] += f" ({rule}" + (f", {after})" if after else ")")
        self.dark_note(cut)
        return made.success

    def dark_cut(self, t: Combatant, a: Attack, skill: str) -> int:
        """CO-SURP-3 (004 l.43 「互いに「戦闘技能を半分(％)の状態」で使用」): from revision 4 the
        defender's combat skill is halved in the dark as the attacker's is (revision 3 halved
        the attack only): the modifier that halves ``t``'s ``skill``, 0 out of the dark. Its
        dodge, parry and counter: Dodge is a 戦闘技能, as 6th edition, which 004 plays (l.1),
        lists 回避 among them; Luck (a second dodge) and Hide (cover) are not."""
        if self.engine < 4 or not a.dark or not self.on("CO-SURP-3"):
            return 0
        value = skill_value(self.rules, t.sheet, skill)
        return self.share(value, int(self.rules.num("CO-SURP-3", "dark_divisor"))) - value

    def dark_note(self, cut: int) -> None:
        if cut:
            self.lines[-1] += f" (half in the dark, {cut:+d}, CO-SURP-3)"

    def after_attacking(self, t: Combatant) -> tuple[int, str]:
        """CO-DODGE-5 (004): 「"攻撃した後の回避"は"-60％の下方補正"」: the penalty to the dodge
        of one who has attacked this round, whatever it dodges (a blow, a shot, a burst), and
        its note; (0, "") otherwise. A first strike is attacking (:meth:`has_attacked`)."""
        if self.p003 or not self.on("CO-DODGE-5") or not self.has_attacked(t):
            return 0, ""
        penalty: int = self.rules.num("CO-DODGE-5", "dodge_after_attack")
        sign = "−" if penalty < 0 else "+"
        return penalty, f"{sign}{abs(penalty)} after attacking, CO-DODGE-5"

    def dodge_after_attacking_refused(self, t: Combatant, a: Attack) -> bool:
        """CO-DODGE-5 (004 l.9-10 「命を確実に刈り取る一撃の場合…この時、特例ではあるが"攻撃
        した後の回避"は…行える」): with ``dodge_needs_fatal_blow`` the −60% dodge of one who
        has attacked is only against a blow the Keeper rules certainly fatal (the attack's
        ``fatal_blow``; a grapple or tackle never is); by the Default it is always open."""
        return (not self.p003 and self.on("CO-DODGE-5") and self.has_attacked(t)
                and bool(self.rules.default("CO-DODGE-5", "dodge_needs_fatal_blow"))
                and not a.fatal_blow)

    def fatal_blow_unread(self, t: Combatant, a: Attack) -> str:
        """Why the Keeper's ruling of a certainly fatal blow (``fatal_blow``) would change
        nothing: it is read only by CO-DODGE-5.dodge_needs_fatal_blow (004), for the dodge
        of a target that has attacked (:meth:`dodge_after_attacking_refused`); "" when it
        is read, or not given. It was taken silently, the line never saying it
        (review61e N1)."""
        if not a.fatal_blow:
            return ""
        if self.p003 or not self.on("CO-DODGE-5") or not self.rules.default(
                "CO-DODGE-5", "dodge_needs_fatal_blow"):
            return ("it is read only in profile 004 with "
                    "CO-DODGE-5.dodge_needs_fatal_blow = true")
        if a.defence is not Defence.DODGE and a.cover != "dodge":
            return f"{t.name} does not dodge"
        if not self.has_attacked(t):
            return f"{t.name} has not attacked this round, and dodges as ever"
        return ""

    def has_attacked(self, t: Combatant) -> bool:
        """Has ``t`` attacked this round: ``attacks`` and, from revision 4, a first strike
        (CO-FIRE-7, 004 「重火器先制を使用する場合、火器の"1Rの間の攻撃回数"を消費して使用」:
        one of the weapon's attacks, made before the DEX order). It sets ``first_strike``,
        not ``attacks``, so that the weapon's other attacks still come on its turn; revision
        3 and before did not count it here (CO-DODGE-5's −60, CO-DODGE-4/8's concentration)."""
        return bool(t.attacks) or (self.engine >= 4 and bool(t.first_strike))

    def parry_bonus(self, t: Combatant) -> int:
        """CO-DODGE-1 (003): 「回避集中」を宣言した場合、「＜回避＞＜マーシャルアーツ＞＜居合＞、
        武器での受け流しの成功率を+20%」: the bonus to a weapon, MA or Iai parry (an attack's or
        a grapple's) while concentrating on dodging; 0 otherwise."""
        if self.p003 and t.concentrating and self.on("CO-DODGE-1"):
            return int(self.rules.num("CO-DODGE-1", "bonus"))
        return 0

    def parry(self, t: Combatant, a: Attack, damage: int, text: str, kind: WeaponKind
              ) -> tuple[int, bool]:
        """CO-PARRY-1 (003) / CO-PARRY-4 (004): the weapon takes the damage; bare hands, MA
        or Budo (CO-PARRY-2) stop it; an MA-boosted blow still lets half through (CO-PARRY-3).
        In 003 an Iai parries too (CO-DODGE-2), drawing the blade (CO-IAI-2/3); its weapon
        takes the damage as any weapon's. A parried shot ends the shooter's shots this round
        (CO-FIRE-5). Grapple parries with two successes (CO-GRAP-5, :meth:`grapple_parry`).
        Returns the damage left and whether the parry held."""
        bonus = self.parry_bonus(t)
        t = self.set(t, parries=t.parries + 1)
        bare = a.parry_with in ("hands", "ma", "budo", "grapple")
        if a.parry_with == "grapple":
            made = self.grapple_parry(t, self.dark_cut(t, a, "grapple"))
        elif bare:
            skill = {"hands": "fist", "ma": "martial_arts",
                     "budo": parry_budo(t.sheet) or OLD_BUDO}[a.parry_with]
            if a.parry_with == "hands":
                bonus = 0
            cut = self.dark_cut(t, a, skill)
            made = self.check(t, skill, bonus + cut, label=f"{self.parrying(t)} "
                              f"{self.rules.skill(skill).name}")
            self.dark_note(cut)
        elif a.parry_with == "iai":
            pw = t.sheet.weapons[a.parry_weapon]
            t = self.set(t, iai_used=True, drawn=True)
            cut = self.dark_cut(t, a, "iai")
            made = self.check(t, "iai", bonus + cut,
                              label=f"{self.parrying(t)} 居合/Iai {pw.info.name}")
            self.lines[-1] += " (CO-DODGE-2; the blade is out, CO-IAI-3)"
            self.dark_note(cut)
        else:
            pw = t.sheet.weapons[a.parry_weapon]
            cut = self.dark_cut(t, a, pw.info.skill)
            made = self.check(t, pw.info.skill, bonus + cut,
                              label=f"{self.parrying(t)} {pw.info.name}")
            self.dark_note(cut)
        if not made.success:
            return damage, False
        if kind is WeaponKind.FIREARM:
            self.set(self.cs[a.actor], no_more_shots=True)
            self.say(f"the shot is parried: {a.actor} shoots no more this round (CO-FIRE-5)")
        self.say(text)
        forced = 0
        if a.ma and self.on("CO-PARRY-3"):
            forced = self.boosted_half(damage)
            self.say(f"an MA-boosted blow: half, {forced}, gets through any parry (CO-PARRY-3)")
            damage -= forced
        if bare:
            if kind is WeaponKind.UNARMED and self.on("CO-PARRY-3") and not forced:
                self.say("unarmed against unarmed: nobody is hurt (CO-PARRY-3)")
            elif a.parry_with == "grapple":
                self.say(f"parried by Grapple: {forced} damage to {t.name} (CO-GRAP-5)")
            else:
                rule = "CO-PARRY-2" if self.on("CO-PARRY-2") else "CO-DODGE-2"
                self.say(f"parried barehanded: {forced} damage to {t.name} ({rule})")
            return forced, True
        index = a.parry_weapon
        pw = self.cs[t.name].sheet.weapons[index]
        left = pw.durability or 0
        if self.on("CO-PARRY-1"):
            if damage < left:
                self.put_weapon(self.cs[t.name], index, replace(pw, durability=left - damage))
                self.say(f"parried: {damage} damage vs durability {left} ＞ weapon "
                         f"{left - damage} left, 0 damage (CO-PARRY-1)")
                return forced, True
            self.put_weapon(self.cs[t.name], index, replace(pw, durability=0, broken=True))
            self.say(f"parried: {damage} damage vs durability {left} ＞ the weapon breaks, "
                     f"{damage - left} damage to {t.name} (CO-PARRY-1)")
            return forced + damage - left, True
        through = max(0, damage - left)
        breaks = through > 0 and self.rules.default("CO-PARRY-4", "break_when_overwhelmed")
        wears = pw.info.improvised and self.on("CO-WEAP-1")
        self.say(f"parried: {damage} damage vs durability {left} ＞ {through} damage to "
                 f"{t.name}; " + ("the weapon breaks" if breaks else "the weapon wears"
                                  if wears else "weapon unchanged") + " (CO-PARRY-4)")
        if breaks:
            self.put_weapon(self.cs[t.name], index, replace(pw, broken=True))
        elif pw.info.improvised and self.on("CO-WEAP-1"):
            self.wear(self.cs[t.name], index, "a parry")
        return forced + through, True

    def grapple_parry(self, t: Combatant, cut: int = 0) -> Check:
        """CO-GRAP-5 (004 line 25): 「"技能を2回成功"させなければならない」: Grapple rolled
        twice (``parry_successes``), each a success or the parry fails; a failure ends it,
        the rolls left are not thrown (they could not save it). No concentration bonus:
        CO-DODGE-1 lists MA, Iai and weapon parries only.

        Default (the seed says nothing of the damage): a Grapple parry that holds stops the
        blow as a bare-handed, MA or Budo parry does (:meth:`parry`, 004 lines 19–23): no
        weapon stands in, nothing gets through, except half of an MA- or Budo-boosted blow
        (CO-PARRY-3, line 23); against an unarmed blow nobody is hurt (line 22). It holds
        nobody: a parry, not a grapple (CO-GRAP-1/6 need the Grapple action)."""
        need = int(self.rules.num("CO-GRAP-5", "parry_successes"))
        name = self.rules.skill("grapple").name
        n = 1
        made = self.check(t, "grapple", cut, label=f"{self.parrying(t)} {name} 1/{need}")
        self.lines[-1] += " (CO-GRAP-5)"
        self.dark_note(cut)
        while made.success and n < need:
            n += 1
            made = self.check(t, "grapple", cut, label=f"{self.parrying(t)} {name} {n}/{need}")
            self.lines[-1] += " (CO-GRAP-5)"
            self.dark_note(cut)
        if not made.success and n < need:
            self.say(f"the Grapple parry needs {need} successes: it fails (CO-GRAP-5)")
        return made

    def counter(self, t: Combatant, a: Attack, damage: int, text: str, kind: WeaponKind
                ) -> tuple[int, bool]:
        """CO-MA-5: the defender's technique+MA combination roll parries (CO-PARRY-3) and, on a
        success or a partial one, deals the technique's normal damage to the attacker; only
        against an unarmed humanoid's attack (:meth:`counter_allowed`, the seed over the
        spec's Default)."""
        tw = t.sheet.weapons[a.parry_weapon]
        t = self.set(t, parries=t.parries + 1)
        cuts = self.dark_cut(t, a, tw.info.skill), self.dark_cut(t, a, "martial_arts")
        combo = combination(self.source,
                            skill_value(self.rules, t.sheet, tw.info.skill) + cuts[0],
                            skill_value(self.rules, t.sheet, "martial_arts") + cuts[1], self.r5,
                            f"{t.name} counter {tw.info.name}+MA")
        self.say(f"{combo.text} (CO-MA-5, CO-BASE-3)")
        if any(cuts):
            self.lines[-1] += " (both halved in the dark, CO-SURP-3)"
        if combo.rank is Rank.FAILURE:
            return damage, False
        self.say(text)
        through = self.boosted_half(damage) if a.ma and self.on("CO-PARRY-3") else 0
        self.say(f"the counter parries: {through} damage to {t.name}"
                 + (" (half of an MA-boosted blow, CO-PARRY-3)" if through else " (CO-PARRY-3)"))
        if combo.rank is Rank.SUCCESS or not self.rules.default("CO-MA-5", "both_required"):
            hurt, hurt_text = self.damage(t, tw, False, Grade.SUCCESS, True)
            self.hit(self.cs[a.actor], hurt, f"counter: {hurt_text} (CO-MA-5)", by=t.name)
        return through, True
