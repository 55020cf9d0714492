"""Grapples: grappling (with MA a combination roll), its defence, choking, throwing (onto
someone, from a height, across 003's board), the stun of a throw, and breaking free.

Rules: CO-GRAP-1, CO-GRAP-2, CO-GRAP-5 to CO-GRAP-9, CO-MA-2, CO-STUN-3, CO-CORE-3,
CO-BASE-3, CO-BASE-5, CO-DODGE-2 (the dodge of one landed on), CO-DODGE-5, CO-PARRY-1,
CO-TURN-2.
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc import board
from companion.systems.coc.checks import Grade, Rank, check, combination, resist
from companion.systems.coc.combat.actions import (
    Attack,
    BreakFree,
    Choke,
    Defence,
    Grapple,
    LetGo,
    Throw,
)
from companion.systems.coc.combat.board_moves import CHAIN_AS_ONE
from companion.systems.coc.combat.damage import HOLD_FROM_WITHIN
from companion.systems.coc.combat.fighters import Combatant, Condition, Timed
from companion.systems.coc.combat.firearms import _Firearms
from companion.systems.coc.rules import DamageBonus, WeaponKind
from companion.systems.coc.sheet import (
    BUDO_GRAPPLING,
    OLD_BUDO,
    budo_skill,
    parry_budo,
    skill_value,
)

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: a grapple may be parried bare-handed, with MA, Budo or Grapple (CO-GRAP-5, CO-PARRY-2);
#: revision 18 took a melee weapon or long gun only.
BARE_GRAPPLE_PARRY = 19
#: The first engine revision in which 004's choke and throw roll says what it is for, whom
#: and its rule (:meth:`_Grapples.option_named`): ``(choke 締め付け of Cult, CO-GRAP-7)``
#: (revisions 23 and 24 said 絞め: :data:`SEED_CHOKE`); revision 22's line was the grapple's
#: alone.
OPTION_NAMED = 23
#: The first engine revision in which 004's throw from a height (CO-GRAP-8 「高所から落とした
#: 場合は代わりに落下ダメージを入れる」, CO-BASE-11) checks ``height_m`` before any die: a negative
#: height, and one beyond the dice a fall's roll takes, are refused (a77cocgrapple DEFECT 2);
#: revision 24 dealt a negative height as a fall and refused too great a one only after the
#: Grapple roll, and saved either as a plain missed throw when that roll failed.
THROW_HEIGHT_CHECKED = 25
#: The first engine revision in which a throw's or tackle's field that the profile or option
#: does not play is refused before any die, as 003's throw refuses ``skill``: 003's
#: ``height_m``, 004's ``toward`` and ``at_dodges``, and ``obstacle`` without blow back
#: (a77cocgrapple NIT 6); 003's ``toward`` off the board and ``at_dodges`` with nobody thrown
#: at (r77coc); revision 24 took them and played as if they were left out.
FIELDS_THAT_APPLY = 25
#: The first engine revision in which a grapple's ``parry_weapon`` without defence=parry is
#: refused before any die, as its ``parry_with`` is and an attack's (attacks.FIELDS_PLAYED);
#: revision 25 took it and dropped it unsaid (r78coc).
PARRY_WEAPON_WITH_PARRY = 26
#: 004's rule of each grapple option (CO-GRAP-7, CO-GRAP-8).
OPTION_RULES = {"choke": "CO-GRAP-7", "throw": "CO-GRAP-8"}
#: The Japanese term of each grapple option, said beside the English: 003's 締め上げ (l.43),
#: 004's 締め付け (l.165, CO-GRAP-7).
OPTION_JA = {"choke": "締め付け", "throw": "投げ"}
OPTION_JA_003 = {"choke": "締め上げ", "throw": "投げ"}


def option_ja(what: str, p003: bool) -> str:
    """A grapple option's Japanese in its profile's seed (003's 締め上げ, 004's 締め付け):
    the engine's refusals and rolls, and the table's buttons, say it alike."""
    return (OPTION_JA_003 if p003 else OPTION_JA)[what]


#: The first engine revision whose roll lines name a choke as the seeds do, 003's 締め上げ and
#: 004's 締め付け (a77data NIT 4); revision 24's said 絞め, a word of neither, and its saved
#: lines replay as they were.
SEED_CHOKE = 25
#: The fixed reading (data/readings.toml) that holds one to one holder and one hold at a time.
ONE_HOLDER = "CO-GRAP-1 (one holder)"
#: A Grapple's ``parry_with`` words (CO-GRAP-5, CO-PARRY-2, CO-DODGE-2); "iai" is 003's Iai
#: parry (CO-DODGE-2, CO-IAI-2), with ``parry_weapon`` the sheathed blade.
GRAPPLE_PARRIES = ("hands", "ma", "budo", "grapple", "iai")


class _Grapples(_Firearms):
    """Adds grapples, chokes, throws and breaking free."""

    def grapple(self, c: Combatant, a: Grapple) -> None:
        """CO-GRAP-1 (003) / CO-GRAP-6 (004): the grapple roll (with MA a combination roll,
        CO-MA-2), then the declared dodge or parry (CO-GRAP-5).

        From revision 5 its critical and fumble are a melee attack's: 003 gives 〈組み付き〉 its
        heading under 近接攻撃 (「〇近接攻撃〈組み付き〉について」), so 〇近接攻撃について's
        「クリティカル(ダイス目01～05)が出た場合、攻撃対象は回避・受け流しをすることができない」
        (CO-MELEE-3) and 「ファンブル(ダイス目95～00)が出た場合、バランスを崩して転んだ…もしくは、
        使用した武器が破損する」 (CO-MELEE-4) hold for it: a critical grapple takes no dodge or
        parry, a fumbled one falls, as an unarmed blow's does.

        From revision 7 so does CO-DODGE-3 (003 l.99 「回避集中を宣言していない場合、後ろからの
        攻撃は回避行動を行う事が出来ない。」): a grapple from behind takes no dodge or parry
        without dodge concentration, as a punch from there does; revision 6 and before let it
        be dodged or parried. On 003's board the board says whether it comes from behind (as
        for an attack, CO-TURN-2); off it the Keeper's ``from_behind`` does.

        From revision :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN` a grapple
        of one who holds someone keeps both holds, and on 003's board the one it holds is
        pulled along into the grappler's square (the Default "CO-GRAP-1 (chain)", 003 l.33
        「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考える」: the held pair is one
        unit, as a pin moves it from revision 19); revision 20 left it on the old square,
        held from a square away."""
        t = self.get(a.target)
        rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
        why = self.not_possible(c, t, rule, target_held=True)
        if why:
            raise IllegalAction(f"that grapple is not possible: {why}")
        if a.defence is Defence.COUNTER:
            raise IllegalAction("a grapple is dodged or parried, not countered (CO-GRAP-5)")
        placed = self.on_the_board(c, t, Attack(c.name, t.name, from_behind=a.from_behind),
                                   WeaponKind.UNARMED)
        if a.ma and not self.on("CO-MA-2"):
            if not self.on("CO-GRAP-9"):
                raise IllegalAction("MA with Grapple is CO-MA-2, off in this profile")
            self.say("MA with Grapple skips step 2 of the options (knockout step 3); the steps "
                     "are not in the seed, so an ordinary grapple is rolled (note for the "
                     "Keeper, CO-GRAP-9)")
            a = replace(a, ma=False)
        self.may_strike(c, a.after_dodge, weapon=False, what="grapple 組み付き")
        no_hands = self.hands_refusal(c, None)  # coc72 RISK 4 (CO-BODY-5, revision 20 on)
        if no_hands:
            raise IllegalAction(no_hands)
        after = self.attacks_after_dodging(c, a.after_dodge)
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")
        self.grapple_parry_word(a)
        fake = Attack(c.name, t.name, defence=a.defence, parry_weapon=a.parry_weapon,
                      from_behind=self.engine >= 7 and placed.from_behind,
                      parry_with=a.parry_with)
        if not self.legacy:  # the declared defence before any die (format 1: after the roll)
            self.grapple_defence(t, a, fake)
        c = self.spend(c, self.rules.num("CO-GRAP-1", "ap"), rule)
        c = self.set(c, attacks=c.attacks + 1)
        grapple, why = skill_value(self.rules, c.sheet, "grapple"), ""
        if after:  # CO-DODGE-5: −50%, as an attack after dodging
            grapple, why = self.after_dodge(grapple)
        options = False
        if a.ma:
            combo = combination(self.source, grapple, skill_value(self.rules, c.sheet,
                                                                  "martial_arts"),
                                self.r_attack, f"{c.name} 組み付き/Grapple+MA")
            self.say(f"{combo.text}{why} (CO-MA-2, CO-BASE-3)")
            held, options = combo.rank is not Rank.FAILURE, combo.rank is Rank.SUCCESS
            grade = combo.grades[0]  # the grapple's, the attacking technique's (CO-BASE-3)
        elif after:
            made = self.to_hit(grapple, f"{c.name} 組み付き/Grapple",
                               self.fumbles(WeaponKind.UNARMED), hit=False)
            self.say(made.text + why)
            held, grade = made.success, made.grade
        else:
            made = self.check(c, "grapple", attack=True,
                              fumbles=self.fumbles(WeaponKind.UNARMED))
            held, grade = made.success, made.grade
        graded = self.engine >= 5  # CO-MELEE-3/4 (revision 4 and before: neither read)
        if not held:
            if graded and grade is Grade.FUMBLE and self.on("CO-MELEE-4"):
                self.fall(c)  # a grapple has no weapon to break
            return
        self.holds(c, t, a, fake, grade, options, rule)
        if grade is Grade.FUMBLE and self.on("CO-MELEE-4") and self.fumbles_after_a_hit(c):
            # CO-BASE-3: the grapple's fumble follows it when MA holds (CO-MA-2's partial
            # success, an ordinary grapple), held or dodged: 003 l.29's die on 95-00
            self.fall(self.cs[c.name])

    def holds(self, c: Combatant, t: Combatant, a: Grapple, fake: Attack, grade: Grade,
              options: bool, rule: str) -> None:
        """A grapple roll that succeeded (:meth:`grapple`): the declared dodge or parry, then
        the hold; it ends where the defence stops it."""
        graded = self.engine >= 5
        if a.defence is not Defence.NONE and graded and grade.critical \
                and self.on("CO-MELEE-3"):
            self.say("critical: no dodge or parry (CO-MELEE-3)")  # and no damage to double
        elif a.defence is not Defence.NONE:
            if self.legacy:  # format 1 checked the defence after the roll
                self.grapple_defence(t, a, fake)
            if a.defence is Defence.DODGE:
                if self.dodge(t, WeaponKind.UNARMED, fake, True):
                    return
            elif a.parry_with:
                if self.bare_grapple_parry(t, a):
                    return
            else:
                pw = t.sheet.weapons[a.parry_weapon]
                self.set(t, parries=t.parries + 1)
                # CO-DODGE-1: +20 as any weapon parry (revision 3 and before: none)
                bonus = self.parry_bonus(t) if self.engine >= 4 else 0
                if self.check(t, pw.info.skill, bonus,
                              label=f"{self.parrying(t)} {pw.info.name}").success:
                    rule5 = "CO-GRAP-5" if self.on("CO-GRAP-5") else "CO-PARRY-1"
                    self.say(f"the grapple is parried ({rule5})")
                    return
        self.set(self.cs[c.name], grappling=t.name, grapple_round=self.round,
                 grapple_options=options)
        self.set(self.cs[t.name], held_by=c.name)
        if self.board(c, t) and rule == "CO-GRAP-1":
            self.set(self.cs[t.name], square=c.square)
            self.say(f"{t.name} is pulled into {c.square} (CO-GRAP-1)")
            if self.engine >= HOLD_FROM_WITHIN:  # t: before the pull; the one it holds comes
                self.pushed_together(t, c, c.square, every=True)  # "CO-GRAP-1 (chain)"
        if rule == "CO-GRAP-1":
            self.say(f"{c.name} holds {t.name}; they are one unit (CO-GRAP-1)"
                     + ("; choke or throw each round (CO-MA-2)" if options else ""))
        else:
            self.say(f"{c.name} restrains {t.name}: it cannot act, no damage (CO-GRAP-6)")
        if self.engine >= 4:  # revision 3 and before: the round's other AP stayed
            self.grapple_made(self.cs[c.name])

    def not_possible(self, c: Combatant, t: Combatant, rule: str,
                     target_held: bool = False, holds: bool = True) -> str:
        """Why ``c`` may not grapple (or tackle) ``t``, with its rule, or "" (grapple73 finding
        6: "that grapple is not possible" named none of its five cases). Nothing is played,
        so no revision: the refusal is as before, with its reason. ``target_held``: one held
        by another is refused too (a grapple; a tackle may hit a held one). ``holds``: the
        action would hold ``t`` (a grapple, a knock-down's pin); a holder's plain tackle or
        blow back holds nobody, and is refused as a holder's (grapple75 AMBIGUOUS 2: it read
        "one hold at a time"): 004 l.164 「次Rから拘束したまま片手で扱える武器が使用可能(拳銃
        など)」, l.165 「又は…締め付け・投げ飛ばしに派生できる」: the hold keeps a hand, and a
        tackle is a whole-body charge (the reading "CO-GRAP-6 (holder's strikes)"; its words
        claim no more, since a holder's kick and head butt are taken, reviewcoc75 RISK 2);
        003's pair is one unit (l.33)."""
        if t.name == c.name:
            return f"{c.name} cannot {'grapple' if target_held else 'tackle'} themself ({rule})"
        if t.dead:
            return f"{t.name} is dead ({rule})"
        if c.grappling and not holds:
            return (f"{c.name} restrains {c.grappling}, a hand on the hold: a tackle タックル "
                    "is a whole-body charge (the reading CO-GRAP-6 (holder's strikes), coc "
                    f"defaults); let go 手を放す first ({rule})" if self.on("CO-GRAP-6") else
                    f"{c.name} holds {c.grappling}, one unit with it: let go 手を放す first "
                    f"({rule})")
        # Neither seed limits a hold to one a side; the reading does (a77cocgrapple RISK 5:
        # these cited the grapple's rule, which does not say so), nothing played differently
        one = f"(the reading {ONE_HOLDER}, coc defaults)"
        if c.grappling:
            return f"{c.name} already holds {c.grappling}: one hold at a time {one}"
        if c.held_by:
            return f"{c.name} is held by {c.held_by}: break free first ({rule})"
        if target_held and t.held_by:
            return f"{t.name} is already held by {t.held_by}: one holder at a time {one}"
        return ""

    def grapple_parry_word(self, a: Grapple) -> None:
        """A grapple's ``parry_with``, before any die: from revision :data:`BARE_GRAPPLE_PARRY`
        "hands", "ma", "budo" or "grapple" (:meth:`bare_grapple_parry`); before it none. From
        revision :data:`PARRY_WEAPON_WITH_PARRY`, a ``parry_weapon`` goes with defence=parry
        too."""
        if (a.parry_weapon and a.defence is not Defence.PARRY
                and self.engine >= PARRY_WEAPON_WITH_PARRY):
            raise IllegalAction(f"parry_weapon={a.parry_weapon} is the weapon {a.target} "
                                "parries with: it goes with defence=parry (CO-GRAP-5): leave "
                                "it out")
        if not a.parry_with:
            return
        if self.engine < BARE_GRAPPLE_PARRY:
            raise IllegalAction(f"a grapple is parried with a weapon by revision {self.engine}: "
                                "leave out parry_with (CO-GRAP-5)")
        if a.parry_with not in GRAPPLE_PARRIES:
            raise IllegalAction(f"no parry_with {a.parry_with!r} against a grapple: write "
                                + ", ".join(GRAPPLE_PARRIES)
                                + ", or leave it out for a weapon (CO-GRAP-5, CO-PARRY-2)")
        if a.defence is not Defence.PARRY:
            raise IllegalAction("parry_with goes with defence=parry (CO-GRAP-5)")

    def bare_grapple_parry(self, t: Combatant, a: Grapple) -> bool:
        """CO-GRAP-5 (004 l.24 「組み付き技能は、近接戦闘技能や長身の火器で受け流されてしまう」):
        a grapple is parried by a melee combat skill, so from revision 19 also bare-handed,
        with MA or Budo where CO-PARRY-2 lets them parry a humanoid's unarmed blow (004 l.20
        「"相手が人型"かつ"素手での戦闘"の場合」, l.21 「"相手が人型"かつ"素手又は近接武器での
        戦闘"の場合」; 003 l.97's MA parry 「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれか
        を1回」, CO-DODGE-2), as a punch is (:meth:`bare_parry_allowed`, checked before any
        die by :meth:`grapple_defence`), or by Grapple with two successes (l.25,
        :meth:`grapple_parry`); revision 18 took only a melee weapon or long gun. The round's
        parry; CO-DODGE-1's +20 for an MA or Budo parry as for an attack's (not bare hands').

        In 003 an Iai parries it too, from revision 19 as well (l.97 「1ラウンド中に＜回避＞を
        1回、＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回それぞれ行う事ができる」:
        Iai is one of the round's parries beside MA and a weapon, which parry a 003 grapple;
        reviewcoc71 NIT 2): the round's one Iai, drawing the blade (CO-IAI-2/3), +20 while
        concentrating on dodging (CO-DODGE-1), allowed as an attack's Iai parry is
        (:meth:`iai_parry_allowed`).
        Whether it holds: a parried grapple holds nobody and hurts nobody."""
        t = self.set(t, parries=t.parries + 1)
        if a.parry_with == "grapple":
            made = self.grapple_parry(t)
        elif a.parry_with == "iai":  # 003 l.97: the round's one Iai, drawing the blade
            pw = t.sheet.weapons[a.parry_weapon]
            t = self.set(t, iai_used=True, drawn=True)
            made = self.check(t, "iai", self.parry_bonus(t),
                              label=f"{self.parrying(t)} 居合/Iai {pw.info.name}")
            self.lines[-1] += " (CO-DODGE-2; the blade is out, CO-IAI-3)"
        else:
            skill = {"hands": "fist", "ma": "martial_arts",
                     "budo": parry_budo(t.sheet) or OLD_BUDO}[a.parry_with]
            bonus = 0 if a.parry_with == "hands" else self.parry_bonus(t)
            made = self.check(t, skill, bonus,
                              label=f"{self.parrying(t)} {self.rules.skill(skill).name}")
        if made.success:
            rule = "CO-GRAP-5" if self.on("CO-GRAP-5") else (
                "CO-PARRY-2" if self.on("CO-PARRY-2") else "CO-DODGE-2")
            self.say(f"the grapple is parried ({rule})")
        return made.success

    def grapple_ap(self, c: Combatant, ap: int) -> int:
        """CO-GRAP-3 (003): 「＜組みつき＞中は毎ラウンド1ポイントしか行動選択ができない」: the AP
        of a turn taken in a grapple, holding or held (both, the spec's Default), are at most
        1; a DEX/2 turn delayed before the grapple too (from revision 4). The held one's only
        by the Default ``binds_held`` (:meth:`grapple_bound`)."""
        if self.p003 and self.on("CO-GRAP-3") and self.grapple_bound(c):
            return min(ap, int(self.rules.num("CO-GRAP-3", "action_points")))
        return ap

    def grapple_made(self, c: Combatant) -> None:
        """CO-GRAP-3 (003): the round a grapple holds counts too: the grapple was the
        grappler's 1 AP of it, so the AP left go (no choke or throw before the next round,
        CO-MA-2); the held one's turn still to come this round has 1 AP (:meth:`grapple_ap`).
        """
        if not (self.p003 and self.on("CO-GRAP-3") and c.ap):
            return
        self.set(c, ap=0)
        self.say(f"the grapple is {c.name}'s {self.rules.num('CO-GRAP-3', 'action_points')} AP "
                 f"this round while grappling: {c.ap} AP left unused (CO-GRAP-3)")

    def grapple_defence(self, t: Combatant, a: Grapple, fake: Attack) -> None:
        """The grapple's declared defence, checked before any die. From revision
        :data:`BARE_GRAPPLE_PARRY` a parry naming a fist, kick or other bare-handed
        technique as its ``parry_weapon`` is told the word that parries bare-handed
        (reviewcoc71 NIT 2): 004's ``parry_with=hands`` (CO-PARRY-2), 003's MA
        ``parry_with=ma`` (CO-DODGE-2)."""
        if a.defence is not Defence.NONE and not self.defence_allowed(
                t, a.defence, WeaponKind.UNARMED, fake, True):
            refusal = self.cannot_defend(t, a.defence, WeaponKind.UNARMED, fake)
            if (a.defence is Defence.PARRY and not a.parry_with
                    and self.engine >= BARE_GRAPPLE_PARRY
                    and 0 <= a.parry_weapon < len(t.sheet.weapons)
                    and t.sheet.weapons[a.parry_weapon].info.kind is WeaponKind.UNARMED):
                way = ("parry_with=hands (CO-PARRY-2)" if self.on("CO-PARRY-2")
                       else "parry_with=ma (CO-DODGE-2)")
                raise IllegalAction(f"{refusal}; a bare-handed parry of a grapple is {way}")
            raise refusal

    def holding(self, c: Combatant, what: str) -> Combatant:
        """Whom ``c`` holds, for a choke or throw: CO-MA-2 (003) after a successful MA
        grapple, one of them a round (「毎ラウンド次の行動に派生できる」, 締め上げ「毎ラウンド
        1D6+DB」: from revision 4, whatever AP CO-GRAP-3 leaves); CO-GRAP-6 (004) from the
        round after the grapple. ``what``: the choke or throw, said when ``c`` holds nobody
        (a77cocgrapple NIT 7: "Bob holds nobody" named neither it nor its rule)."""
        if not c.grappling:
            rule = "CO-MA-2" if self.on("CO-MA-2") else OPTION_RULES[what]
            raise IllegalAction(f"{c.name} holds nobody to {what} {self.option_ja(what)} "
                                f"({rule})")
        if self.on("CO-MA-2"):
            if not c.grapple_options:
                raise IllegalAction("choke and throw need a successful MA grapple (CO-MA-2)")
            if self.engine >= 4 and c.option_round == self.round:
                raise IllegalAction("one choke or throw a round (CO-MA-2)")
        elif self.on("CO-GRAP-6"):
            if c.grapple_round >= self.round:
                raise IllegalAction("choke or throw from the next round (CO-GRAP-6)")
        else:
            raise IllegalAction("no choke or throw in this profile")
        return self.cs[c.grappling]

    def option_checks(self, c: Combatant, a: Choke | Throw) -> str:
        """Before any die, from revision 4: a choke or throw is an attack, so whatever bars
        a strike bars it (:meth:`may_strike`: 003's stun 「次回攻撃が選択できず」, another skill
        this round, 004's dodge and dodge concentration, sheathing); and 004 rolls Grapple
        or, where the sheet has it, Budo (grappling) (CO-GRAP-6 「もう一度武道（組技系）を使用」,
        the spec's "Grapple or Budo (grappling)"; an older sheet's single Budo, and an older
        action's ``budo``, are it). Revision 3 checked neither and always rolled Grapple.
        From revision :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN` one with no
        hand left neither chokes nor throws (the Default "CO-BODY-5 (hands)", grapple73
        finding 7): 004's is a new Grapple or Budo roll (l.165 「もう一度武道（組技系）を
        使用」) and 003's a grapple's hold, each made by hand as the grapple it follows, which
        revision 20 already refused the armless; revision 20 let a holder whose arms were cut
        off meanwhile choke and throw. The skill rolled."""
        if a.skill not in ("grapple", BUDO_GRAPPLING, OLD_BUDO):
            raise IllegalAction(f"{a.kind} rolls grapple or {BUDO_GRAPPLING}, not {a.skill!r} "
                                "(CO-GRAP-6)")
        if a.skill != "grapple" and self.p003:
            raise IllegalAction(f"003's {a.kind} rolls nothing: leave out skill (CO-MA-2)")
        skill = a.skill if a.skill == "grapple" else budo_skill(c.sheet, BUDO_GRAPPLING)
        if not skill:
            raise IllegalAction(f"{c.name}'s sheet has no {BUDO_GRAPPLING} "
                                f"({self.rules.skill(BUDO_GRAPPLING).ja}) (CO-GRAP-6)")
        if self.engine >= 4:
            self.may_strike(c, None, weapon=False, what=f"{a.kind} {self.option_ja(a.kind)}")
        if self.engine >= HOLD_FROM_WITHIN:  # grapple73 finding 7: made by hand, as a grapple
            no_hands = self.handless(c, f"{a.kind} {self.option_ja(a.kind)}")
            if no_hands:
                raise IllegalAction(no_hands)
        return skill

    def choke(self, c: Combatant, a: Choke) -> None:
        """CO-MA-2 (003) / CO-GRAP-7 (004): choke the held one for 1D6+DB."""
        held = self.holding(c, "choke")
        skill = self.option_checks(c, a)
        if self.p003:
            c = self.spend(c, self.rules.num("CO-GRAP-3", "action_points"), "CO-MA-2")
            self.set(c, option_round=self.round)
            dice, rule = self.rules.num("CO-MA-2", "choke"), "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one choke a round (CO-GRAP-7)")
            self.set(c, attacks=1)
            made = self.check(c, skill, attack=True)
            self.option_named(f"choke {self.choke_said()} of {held.name}, CO-GRAP-7")
            if not made.success:
                return
            dice, rule = self.rules.num("CO-GRAP-7", "choke"), "CO-GRAP-7"
        db = c.sheet.db
        total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                      f"{c.name} choke damage {self.option_ja('choke')}ダメージ")
        self.hit(held, max(0, total), f"choke: {text} ({rule})", hold=True)

    def throw(self, c: Combatant, a: Throw) -> None:
        """CO-MA-2 (003, 2 squares on the board, CO-TURN-2) / CO-GRAP-8 (004, or at another
        enemy): throw the held one; with CO-GRAP-8's reading b, one who holds nobody throws
        the enemy ``at`` (:meth:`throw_unheld`)."""
        if self.engine >= FIELDS_THAT_APPLY:
            self.throw_fields(c, a)
        if (a.at and not c.grappling and not self.p003 and self.on("CO-GRAP-8")
                and self.rules.default("CO-GRAP-8", "reading") == "b"):
            self.throw_unheld(c, a)
            return
        held = self.holding(c, "throw")
        other = self.get(a.at) if a.at else None
        rule = "CO-MA-2" if self.p003 else "CO-GRAP-8"
        # a77cocgrapple NIT 7: `act throw Ann Cult` is the natural way to write "Ann throws
        # Cult", and "throw the held one at somebody else" did not say what TARGET is
        if other is not None and other.name == held.name:
            raise IllegalAction(f"{held.name} is the one {c.name} holds: `act throw {c.name}` "
                                f"throws it; TARGET is whom it is thrown at ({rule})")
        if other is not None and other.name == c.name:
            raise IllegalAction(f"{c.name} cannot throw {held.name} at themself: TARGET is "
                                f"whom it is thrown at ({rule})")
        # CO-GRAP-8 (004 「拘束していなかった他の敵に対して投げることもできる」): at an enemy
        # only, from revision 4 (before, an ally too); 003's CO-MA-2 lands on anyone there
        if other is not None and other.side is c.side and not self.p003 and self.engine >= 4:
            raise IllegalAction(f"{other.name} is {c.name}'s ally: throw at another enemy "
                                "(CO-GRAP-8)")
        skill = self.option_checks(c, a)
        if a.height_m and not self.p003 and self.engine >= THROW_HEIGHT_CHECKED:
            if a.height_m < 1:  # the value given said, as fall_dice says it (r77coc NIT)
                raise IllegalAction(f"height_m={a.height_m}: a throw from a height of 1 m or "
                                    "more (CO-GRAP-8, CO-BASE-11)")
            self.fall_dice(a.height_m)
        land: board.Square | None = None
        if self.board(c, held):
            land, other = self.throw_landing(c, held, a, other)
        if self.p003:
            c = self.spend(c, self.rules.num("CO-GRAP-3", "action_points"), "CO-MA-2")
            self.set(c, option_round=self.round)
            dice, how, rule = self.rules.num("CO-MA-2", "throw"), DamageBonus.HALF, "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one throw a round (CO-GRAP-8)")
            self.set(c, attacks=1)
            made = self.check(c, skill, attack=True)
            self.option_named(f"throw 投げ of {held.name}"
                              + (f" at {other.name}" if other is not None else "")
                              + ", CO-GRAP-8")
            if not made.success:
                return
            dice, how, rule = self.rules.num("CO-GRAP-8", "throw"), DamageBonus.FULL, "CO-GRAP-8"
        self.set(self.cs[c.name], grappling="", grapple_options=False)
        self.set(self.cs[held.name], held_by="")
        dropped = self.thrown_lets_go(self.cs[held.name])
        if a.height_m and rule == "CO-GRAP-8":
            total, text = self.falling(a.height_m, held.name)
            self.say(f"thrown from a height: the fall replaces the damage ({rule})")
            self.hit(held, total, f"throw: {text}; the grapple ends", armour=False, hold=True)
        else:
            total, text = self.with_db(c, dice, how, f"{c.name} throw damage 投げダメージ")
            self.hit(held, max(0, total), f"throw: {text} ({rule}); the grapple ends",
                     hold=True)
        if land is not None:
            self.set(self.cs[held.name], square=board.name(land))
            self.say(f"{held.name} lands on {board.name(land)} ({rule}, CO-TURN-2)")
        if dropped is not None:  # off the thrower's square, once the thrown one has landed
            self.step_aside(self.cs[dropped.name], self.cs[c.name])
        if rule == "CO-GRAP-8":
            self.stun_throw(self.cs[held.name])
        if other is None:
            return
        if rule == "CO-MA-2":
            if a.at_dodges and self.engine >= 4:  # the round's dodge, if left (CO-DODGE-2)
                if self.bystander_dodge(other, "CO-MA-2"):
                    return
            elif a.at_dodges and self.check(other, "dodge").success:
                return
            hurt, text = self.roll_total(self.rules.num("CO-MA-2", "landing"),
                                         f"damage to {other.name} landed on "
                                         "投げ落とされた者へのダメージ")
            self.hit(other, hurt, f"{other.name} is landed on: {text} (CO-MA-2)")
        else:
            hurt, text = self.roll_total(self.rules.num("CO-GRAP-8", "thrown_into"),
                                         f"damage to {other.name} hit by the body "
                                         "投げつけられた者へのダメージ")
            self.hit(other, hurt, f"{other.name} is hit by the thrown body: {text} (CO-GRAP-8)")
            self.stun_throw(self.cs[other.name])

    def throw_fields(self, c: Combatant, a: Throw) -> None:
        """From revision :data:`FIELDS_THAT_APPLY`, before any die: a field this profile's
        throw does not play is refused, not dropped unsaid. 003's throw (CO-MA-2) flies 2
        squares and has no height; ``toward`` is the board's (CO-TURN-2), so not for a
        thrower off it (r77coc: 003 took it there and dropped it), and ``at_dodges`` 003's
        landing on the one thrown at (「回避行動を行わなかった場合1D3」), so not without one,
        while 004's enemy thrown at is hit, no dodge (the reading "CO-GRAP-8 (thrown at)")."""
        if self.p003 and a.height_m:
            raise IllegalAction("003's throw has no height: leave out height_m (CO-MA-2)")
        if a.toward and not self.on("CO-TURN-2"):
            raise IllegalAction("toward is a way on the board (CO-TURN-2), off in this "
                                "profile: leave it out (CO-MA-2)")
        if a.toward and not self.board(c):
            raise IllegalAction(f"toward is a way on the board (CO-TURN-2), and {c.name} is "
                                "not on it: leave it out (CO-MA-2)")
        if self.p003 and a.at_dodges and not a.at:
            raise IllegalAction("at_dodges is the dodge of the one thrown at: name it as "
                                "TARGET, or leave at_dodges out (CO-MA-2)")
        if not self.p003 and a.at_dodges:
            raise IllegalAction("at_dodges is 003's landing (CO-MA-2): 004's enemy thrown at "
                                "is not dodged (the reading CO-GRAP-8 (thrown at), coc "
                                "defaults)")

    def throw_unheld(self, c: Combatant, a: Throw) -> None:
        """CO-GRAP-8 reading b (the spec's option, off by Default): 「拘束していなかった他の敵に
        対して投げることもできる」 read as a Throw on an enemy nobody restrains. A successful
        Grapple or Budo roll throws it: 1d6 + stun (CO-STUN-3), no db, and no restraint first;
        one throw a round, as a throw of the held one."""
        t = self.get(a.at)
        why = (f"{c.name} is held by {c.held_by}: break free first" if c.held_by
               else f"{c.name} cannot throw themself" if t.name == c.name
               else f"{t.name} is {'dead' if t.dead else 'unconscious'}" if t.out
               else f"{t.name} is held by {t.held_by}: only its holder throws it"
               if t.held_by else "")
        if why:  # reviewcoc73 NIT 6: it said none of these; nothing is played, so no revision
            raise IllegalAction(f"that throw is not possible: {why} (CO-GRAP-8 reading b)")
        if t.side is c.side:
            raise IllegalAction(f"{t.name} is {c.name}'s ally: throw an enemy (CO-GRAP-8)")
        if a.height_m:
            raise IllegalAction("a throw from a height is of the held one (CO-GRAP-8)")
        skill = self.option_checks(c, a)
        if c.attacks:
            raise IllegalAction("one throw a round (CO-GRAP-8)")
        self.set(c, attacks=1)
        made = self.check(c, skill, attack=True)
        self.option_named(f"throw 投げ of {t.name}, CO-GRAP-8 reading b")
        if not made.success:
            return
        self.thrown_lets_go(self.cs[t.name])  # 004: no board, nobody steps aside
        hurt, text = self.roll_total(self.rules.num("CO-GRAP-8", "thrown_into"),
                                     f"{t.name} throw damage 投げダメージ")
        self.hit(t, hurt, f"{t.name} is thrown: {text} (CO-GRAP-8 reading b"
                          f"{self.rules.tag('CO-GRAP-8', 'reading')})")
        self.stun_throw(self.cs[t.name])

    def option_ja(self, what: str) -> str:
        """A grapple option's Japanese in this profile's seed (:func:`option_ja`)."""
        return option_ja(what, self.p003)

    def choke_said(self) -> str:
        """The choke's Japanese in a roll's line: the seed's from :data:`SEED_CHOKE`, 絞め
        before, as those fights' saved lines read."""
        return self.option_ja("choke") if self.engine >= SEED_CHOKE else "絞め"

    def option_named(self, what: str) -> None:
        """From revision :data:`OPTION_NAMED`, 004's Grapple or Budo roll of a choke or throw
        (CO-GRAP-7/8) says what it is for, whom and its rule after the roll, ``what``, as a
        tackle's says CO-TACKLE-1 (grapple75 NIT 5): revision 22's read as a grapple, so a
        failed choke showed in the log as a new grapple that missed."""
        if self.engine >= OPTION_NAMED:
            self.lines[-1] += f" ({what})"

    def thrown_lets_go(self, thrown: Combatant) -> Combatant | None:
        """The Default "CO-GRAP-1 (chain)" from revision
        :data:`~companion.systems.coc.combat.board_moves.CHAIN_AS_ONE` (reviewcoc73 DEFECT 1):
        one thrown (CO-MA-2, CO-GRAP-8) who holds someone lets go of it 手を放す before the
        damage: a body thrown 2 squares (003) or about 2 m (004) keeps no grip, and the seeds
        throw only the one held (003 l.43 「投げ」, 004 l.170 「投げ飛ばした相手」), not the one
        it holds. Revision 20 kept the hold across the distance. Whom it let go of (on 003's
        board it steps aside from the thrower once the thrown one lands), or None."""
        if self.engine < CHAIN_AS_ONE or not thrown.grappling:
            return None
        dropped = self.cs[thrown.grappling]
        self.set(dropped, held_by="")
        self.set(thrown, grappling="", grapple_options=False)
        self.say(f"{thrown.name} is thrown and lets go of {dropped.name} 手を放す "
                 "(CO-GRAP-1 (chain))")
        return self.cs[dropped.name]

    def throw_landing(self, c: Combatant, held: Combatant, a: Throw,
                      other: Combatant | None) -> tuple[board.Square, Combatant | None]:
        """CO-MA-2 on 003's board: 2 squares along ``toward`` (Default: the thrower's
        facing); a wall stops it on the last free square of that line; if someone stands
        where it lands, that one is landed on and the thrown one takes the nearest free
        square (Defaults)."""
        way = a.toward or str(self.rules.default("CO-MA-2", "throw_toward"))
        way = c.facing if way.lower() == "facing" else board.facing(way)
        start = board.parse(c.square)
        end, _ = board.slide(start, board.FACINGS[way], self.rules.num("CO-MA-2", "squares"),
                             [])
        if end == start:
            raise IllegalAction(f"a wall: {held.name} cannot be thrown {way} (CO-MA-2)")
        there = self.standing_at(board.name(end), held.name)
        if there is None:
            if other is not None:
                raise IllegalAction(f"nobody stands on {board.name(end)}, where {held.name} "
                                    "lands (CO-MA-2)")
            return end, None
        if other is not None and other.name != there.name:
            raise IllegalAction(f"{there.name} stands on {board.name(end)}, where {held.name} "
                                "lands (CO-MA-2)")
        land = board.nearest_free(end, self.occupied(held.name), way)
        if land is None:
            raise IllegalAction("no free square to land on (CO-MA-2)")
        return land, there

    def stun_throw(self, t: Combatant) -> None:
        """CO-STUN-3: CON×4; failure unconscious for the fight, success no action next round."""
        if t.out or not self.on("CO-STUN-3"):
            return
        times = self.rules.num("CO-STUN-3", "con_multiplier")
        made = check(self.source, t.sheet.stat("CON") * times, self.r5, f"{t.name} CON×{times}")
        self.say(f"{made.text} (CO-STUN-3)")
        if made.success:
            cond = Timed(Condition.NO_ACTION, self.round + 1, self.round + 1)
            self.set(t, conditions=(*t.conditions, cond))
            self.say(f"{t.name} cannot act next round (CO-STUN-3)")
        else:
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} is knocked out for the rest of the fight (CO-STUN-3)")
            if self.engine >= HOLD_FROM_WITHIN:  # grapple73 finding 2: out, so it lets go
                self.release_if_out(self.cs[t.name])

    def break_free(self, c: Combatant, a: BreakFree) -> None:
        """CO-GRAP-2 (003) / CO-GRAP-6 (004): the held one's try, an action: 004's once a
        round on its own turn (CO-GRAP-6's Default); 003's only where ``each_turn`` is off
        (or by revision 9 and before), costing ``ap``, since the seed's roll happens by itself
        (:meth:`strain`). A turn begun by revision 9 or before (a fight file continued) had no
        roll by itself: asked for, it is made then, at no AP, the round's one."""
        rule = "CO-GRAP-2" if self.on("CO-GRAP-2") else "CO-GRAP-6"
        if not c.held_by:  # a77cocgrapple NIT 7: said with its rule
            raise IllegalAction(f"{c.name} is not held: nothing to break free from ({rule})")
        if self.p003 and self.rolls_each_turn():
            if c.strain_round == self.round:
                raise IllegalAction(f"{c.name}'s STR roll to break free came by itself at the "
                                    f"start of its turn this round, at no AP ({rule})")
            self.strain(c, asked=True)
            return
        if self.p003:
            self.spend(c, self.rules.default("CO-GRAP-2", "ap"), rule)
        elif c.attacks:
            raise IllegalAction("one try a round (CO-GRAP-6)")
        self.set(self.cs[c.name], attacks=1 if not self.p003 else c.attacks)
        self.opposed_str(self.cs[c.name], rule)

    def let_go(self, c: Combatant, a: LetGo) -> None:
        """The Default "CO-GRAP-1 (let go)" (grapple73 finding 3; CO-GRAP-1 in 003, CO-GRAP-6
        in 004), from revision :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN`:
        the holder lets go of the one it holds 手を放す, a free action on its own turn (no AP
        in 003, not its one action in 004, no roll), and acts on. The seeds end a hold only
        by the held one's STR (003 l.34 「STRにて対抗ロールが発生しこれに負けると＜組みつき＞は
        解除される」), a throw or death, and say nothing of the grappler letting go; without
        it one holding an unconscious foe was bound to it, 1 AP a round (CO-GRAP-3) and no
        two-handed weapon (CO-GRAP-6), to the fight's end. On 003's board the freed one steps
        aside (:meth:`step_aside`). A held one restrained in 004 still acts only to break free
        (CO-GRAP-6), so it lets go of nobody."""
        rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"  # reviewcoc73 NIT 3
        if self.engine < HOLD_FROM_WITHIN:
            raise IllegalAction(f"no letting go by engine revision {self.engine}: the hold ends "
                                f"by the held one's STR, a throw or death ({rule})")
        if not c.grappling:
            raise IllegalAction(f"{c.name} holds nobody to let go of ({rule})")
        held = self.cs[c.grappling]
        self.set(held, held_by="")
        self.set(self.cs[c.name], grappling="", grapple_options=False)
        self.say(f"{c.name} lets go of {held.name} 手を放す: a free action, "
                 + ("no AP" if self.p003 else "its turn's action still to take")
                 + f" ({rule}, the Default 'let go')")
        self.step_aside(self.cs[held.name], self.cs[c.name])

    def rolls_each_turn(self) -> bool:
        """CO-GRAP-2 (003 l.34 「敵のラウンド時にSTRにて対抗ロールが発生し」): does the held
        one's STR roll happen by itself each round (the Default ``each_turn``, from revision
        10; revision 9 and before made it an action)?"""
        return (self.engine >= 10 and self.on("CO-GRAP-2")
                and bool(self.rules.default("CO-GRAP-2", "each_turn")))

    def strain(self, c: Combatant, *, asked: bool = False) -> Combatant:
        """CO-GRAP-2 (003): at the start of the held one's turn, once a round, the opposed STR
        roll happens at no AP, the held side active (the spec's Default); ``c`` as it is
        after it. ``asked``: made as the turn's action (:meth:`break_free`), not between
        actions."""
        if not (c.held_by and self.rolls_each_turn()) or c.strain_round == self.round:
            return c
        c = self.set(c, strain_round=self.round)
        why = "" if asked else self.turn_start(c, f"{c.name} is held 組みつき (CO-GRAP-2)")
        self.opposed_str(c, "CO-GRAP-2", why)
        if self.cs[c.name].held_by:
            self.say(f"{c.held_by} still holds {c.name} (CO-GRAP-2)")
        return self.cs[c.name]

    def opposed_str(self, c: Combatant, rule: str, why: str = "") -> None:
        """CO-CORE-3: the held one's STR against its holder's; won, the grapple ends."""
        holder = self.cs[c.held_by]
        made = resist(self.source, c.sheet.stat("STR"), holder.sheet.stat("STR"), self.r5,
                      f"{c.name} STR {c.sheet.stat('STR')} vs {holder.sheet.stat('STR')}",
                      rules=self.rules, why=why)
        self.say(f"{made.text} (CO-CORE-3, {rule})")
        if made.success:
            self.set(self.cs[c.name], held_by="")
            self.set(holder, grappling="", grapple_options=False)
            self.say(f"{c.name} breaks free ({rule})")
            self.step_aside(self.cs[c.name], self.cs[holder.name])
