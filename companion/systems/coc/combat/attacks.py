"""The Attack action: its checks and AP, the way it goes (burst, first strike, Iai, or up to
the weapon's shots each through one attack roll), the third shot at DEX/2, and surprise
attacks with the target spotting the attacker.

Rules: CO-TURN-6, CO-FIRE-2, CO-FIRE-5, CO-FIRE-7, CO-MA-1, CO-MA-3, CO-MA-4, CO-BASE-6,
CO-WEAP-1, CO-SURP-1, CO-SURP-2, CO-SURP-3.
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc.combat.actions import FUMBLES, MA_OPTIONS, WORDS_JA, Attack, Defence
from companion.systems.coc.combat.core import TO_ATTACK
from companion.systems.coc.combat.disarm import disarm_skill
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.combat.iai import _Iai
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import Weapon, skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: first strike (CO-FIRE-7), a burst (CO-FIRE-6/8) and an Iai (CO-IAI-2) meet the options an
#: attack declares (:meth:`_Attacks.every_way`) before any die, as an attack of shots does:
#: revision 19 took MA with a pistol's first strike and doubled its damage (CO-BASE-6), and
#: took Iai, shots, a surprise or a melee fumble on a burst and played none of them (coc72
#: DEFECT 1).
EVERY_WAY_CHECKED = 20
#: The first engine revision in which a distance beyond arm's reach (the Default
#: ``CO-RANGE-3.reach_m``) is refused before any die with point blank (``adjacent``: 003's
#: adjacent +15%, CO-FIRE-5; 004's touch ×3, CO-RANGE-3) and with a melee or bare-hand blow
#: (CO-MELEE-1; CO-RANGE-3 in 004) (:meth:`_Attacks.arms_reach`); revision 21 took a shot at
#: 40 m and at touch at once (×1/3 and ×3) and a kick at 400 m (coc74 DEFECT 1).
WITHIN_REACH = 22
#: The first engine revision in which, after a first strike 重火器先制 (CO-FIRE-7), the shooter
#: attacks that round only with the gun that struck first, its attacks less 1 (004 l.52
#: 「攻撃回数が1回の武器ならそのラウンドは攻撃できない」, l.53 「技能ロールを2回」 of that gun):
#: another gun, a shotgun, a blade's Iai or a fist is refused before any die
#: (:meth:`_Attacks.attack`). Revision 22 counted the attacking weapon's own attacks less 1,
#: so a 1-attack SMG's first strike was followed by two revolver shots (reviewcoc75 DEFECT 1).
FIRST_STRIKE_GUN_ONLY = 23
#: The first engine revision in which a ``distance_m`` beyond arm's reach for a firearm or
#: thrown weapon with no base range 基本射程 (no ``range_m``, no printed bands under CO-FIRE-9)
#: is refused before any die where CO-RANGE-2 runs (:meth:`_Attacks.base_range_needed`):
#: 004 l.70 bands each weapon's own 「基本射程(タッチ以外)」, which no seed gives a rock, so
#: the distance cannot be judged; revision 23 dropped it unsaid and threw the packaged rock
#: at 400 m at full skill (a76cocother DEFECT 2).
DISTANCE_NEEDS_A_RANGE = 24
#: The first engine revision in which an attack's field that names a fighter or that the
#: attack will not play is refused before any die (:meth:`_Attacks.fields_played`): a
#: ``behind`` (CO-MELEE-2) or ``stray`` (CO-THROW-2) nobody in the fight is called was looked
#: up only when the knockback or the fumble came, after every die was thrown, so a typo threw
#: a critical away and gave a free re-roll, and ``behind`` where no knockback can come (CO-MELEE-2
#: off, a shot) was kept as typed (a78cocfight DEFECT 1). So is a field that goes with
#: another the attack does not declare (a78cocfight DEFECT 2): ``penalty`` without a disarm
#: or a gouge, ``hidden`` without a surprise or CO-SURP-3, ``part`` or ``staunched`` without
#: ``body``, ``disarm_weapon`` without ``disarm``, ``parry_with`` or ``parry_weapon``
#: without a parry or counter; revision 25 took them and rolled as if they were left out
#: (``penalty=-40`` at full skill).
FIELDS_PLAYED = 26


class _Attacks(_Iai):
    """Adds the Attack action and surprise attacks."""

    def attack(self, c: Combatant, a: Attack) -> None:
        """An attack (CO-TURN-6 in 003: AP within the weapon's attacks), with CO-FIRE-2/5/7
        shots, MA (CO-MA-1/3/4, CO-BASE-6) and CO-WEAP-1 wear; each blow is :meth:`one_attack`."""
        target = self.get(a.target)
        if target.name == c.name:  # no rule of the spec's names it (reviewcoc74 NIT 4)
            raise IllegalAction(f"attack someone else: {c.name} cannot attack themself")
        if target.dead:
            raise IllegalAction(f"{target.name} is dead")
        if self.engine >= 15:  # revision 14 played a misspelt word as none (coc67 D1)
            self.declared_words(a)
        if a.distance_m < 0 and self.engine >= 14:  # revision 13 took it as within base range
            raise IllegalAction(f"a distance of 0 m or more (CO-RANGE-2), found {a.distance_m}")
        if (c.first_strike and not a.first_strike and self.engine >= FIRST_STRIKE_GUN_ONLY
                and (a.borrow or a.weapon != c.first_strike_weapon)):
            other = self.weapon(self.get(a.borrow) if a.borrow else c, a.weapon, TO_ATTACK)
            gun = c.first_strike_weapon
            # two guns of one name (two revolvers) are told apart by their numbers, as
            # no_weapon lists them, not "with Revolver … no attack with Revolver"; display only
            twin = (not a.borrow and 0 <= gun < len(c.sheet.weapons)
                    and c.sheet.weapons[gun].info.name == other.info.name)
            what = f"attack with {a.weapon} {other.info.name}" if twin else (
                f"attack with {other.info.name}")
            raise IllegalAction(self.struck_first(c, what, numbered=twin))
        if a.borrow:
            c, a = self.borrow(c, a)
        w = self.weapon(c, a.weapon, TO_ATTACK)
        a = self.on_the_board(c, target, a, w.info.kind)
        firearm = w.info.kind is WeaponKind.FIREARM
        if self.engine >= EVERY_WAY_CHECKED:
            self.every_way(c, a, w)
        if a.first_strike:
            self.first_strike(c, target, a, w)
            return
        if a.burst:
            self.burst(c, target, a, w)
            return
        if a.iai:
            if a.surprise and self.engine >= EVERY_WAY_CHECKED:
                self.iai_from_hiding(c, target, a, w)
                return
            self.iai(c, target, a, w)  # revision 19 played a surprise declared here as none
            return
        shots = a.shots if not self.p003 else 1
        allowed = w.info.attacks - c.first_strike
        if allowed < 1:
            raise IllegalAction(f"{w.info.name}'s attack went in the first strike (CO-FIRE-7)")
        if not 1 <= shots <= allowed:
            rule = "CO-FIRE-7" if c.first_strike else "CO-BASE-5"
            many = "1 attack" if allowed == 1 else f"1 to {allowed} attacks"
            raise IllegalAction(f"{w.info.name} makes {many} "
                                + ("now" if c.first_strike else "an action")
                                + f" (攻撃回数, {rule}), found shots={shots}")
        self.ma_fits(a, w)
        if firearm and w.loaded < shots:
            raise IllegalAction(f"{w.info.name} has {w.loaded} round(s) loaded")
        if firearm and c.no_more_shots:
            raise IllegalAction(f"{c.name}'s shot was parried: no more shots this round "
                                "(CO-FIRE-5)")
        self.may_attack(c, w, 1, a.after_dodge, index=a.weapon)
        self.attack_options(c, target, a, w)
        # CO-FIRE-2: every AP on attacks, and this is the third shot (「三回目の射撃」): a fist
        # and two shots are not three shots.
        if (self.p003 and firearm and self.on("CO-FIRE-2") and w.info.attacks >= 3
                and c.attacks == 2 and (c.shots == 2 or self.legacy) and c.ap == 1
                and not c.spent_other
                and not c.half_dex):
            c = self.set(c, ap=0, delayed_ap=1, slot_pending=True)
            self.slot(c)
            self.say(f"every AP on attacks: {c.name}'s third shot comes at DEX/2 "
                     f"({self.half_dex(c)}) (CO-FIRE-2)")
            return
        c = self.spend(c, 1, "CO-TURN-6")
        c = self.count_attack(c, a.weapon)
        if a.surprise and not self.surprise(c, a):
            return
        for shot in range(shots):
            c = self.cs[c.name]
            target = self.cs[target.name]
            w = c.sheet.weapons[a.weapon]
            if firearm:
                c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - 1))
                c = self.set(c, shots=c.shots + 1)
            if w.info.improvised and self.on("CO-WEAP-1"):
                self.wear(c, a.weapon, "an attack")
            self.one_attack(self.cs[c.name], target, a, w, first=shot == 0)
            if self.cs[target.name].dead or self.cs[c.name].no_more_shots:
                break
            if self.out_of_action(self.cs[c.name], a, shots - shot - 1):
                break
        if a.surprise:
            self.spotting(self.cs[c.name], self.cs[target.name])

    def iai_from_hiding(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-SURP-1 with CO-IAI-2 (003 with the optional surprise on; reviewcoc72 NIT 6): the
        Hide, Conceal or Sneak roll first, then the Iai (004 「それらが成功した場合、戦闘技能を
        使用できる」: any combat skill; the roll is the surprise's own, not one of 003's other
        skills, which list First Aid, Medicine, Psychoanalysis, Spot Hidden and Jump), then
        the target's Luck to spot the attacker. A failed roll spends the round's Iai, the
        blade still sheathed, as a failed one spends an attack's action. Revision 20 refused
        it before it was released; 19 struck with no surprise, unsaid."""
        self.iai_allowed(c, a, w)
        if not self.surprise(c, a):
            self.set(self.cs[c.name], iai_used=True)
            return
        self.iai(self.cs[c.name], self.cs[t.name], a, w)
        self.spotting(self.cs[c.name], self.cs[t.name])

    def ma_fits(self, a: Attack, w: Weapon) -> None:
        """CO-MA-1 / CO-BASE-6: MA is declared with a bare-hand technique only (003
        「＜拳＞＜キック＞＜頭突き＞＜組みつき＞使用時に宣言」, 004 「各種格闘技との組み合わせ
        ロール」), and an ``ma_option`` only where its rule (CO-MA-3/4) is on."""
        if a.ma and not (w.info.technique and (self.on("CO-MA-1") or self.on("CO-BASE-6"))):
            raise IllegalAction("MA goes with Fist, Kick or Head Butt (CO-MA-1, CO-BASE-6)")
        if a.ma_option and not self.on(MA_OPTIONS.get(a.ma_option, "CO-MA-3")):
            if a.ma_option in MA_OPTIONS:  # reviewcoc67 NIT 2: its term and rule
                raise IllegalAction(f"the MA option {a.ma_option} ({WORDS_JA[a.ma_option]}) "
                                    f"is {MA_OPTIONS[a.ma_option]}, off in this profile")
            raise IllegalAction(f"the MA option {a.ma_option!r} is off in this profile")

    def every_way(self, c: Combatant, a: Attack, w: Weapon) -> None:
        """From revision :data:`EVERY_WAY_CHECKED`, before any die and whichever way the
        attack goes (coc72 DEFECT 1): each declared option is one the way plays, or it is
        refused by name (revision 19 played a first strike, a burst and an Iai past them).

        - MA with a bare-hand technique only (:meth:`ma_fits`), so no pistol's first strike
          with MA's doubled damage.
        - Iai with its sword (003 「＜居合＞技能はそのスキルに該当する武器を所持していなければ
          使用できない」, CO-IAI-1): no Iai on a burst or a first strike.
        - ``shots``: a first strike is one of the weapon's attacks (004 「火器の"1Rの間の攻撃
          回数"を消費して使用」, CO-FIRE-7), the rest come on its turn; a burst fires its own
          rounds (CO-FIRE-6/8) and an Iai is one blow (CO-IAI-2); in 003 each shot is an
          attack of 1 AP (CO-TURN-6), which revision 19 played as one, whatever was written.
        - A surprise needs its Hide, Conceal or Sneak first (004 「それらが成功した場合、戦闘
          技能を使用できる」, CO-SURP-1), which an attack on its turn rolls, an Iai too
          (:meth:`iai_from_hiding`): not a first strike, before the DEX order.
        - ``stray`` is whom a fumbled throw may hit (CO-THROW-2): a thrown weapon's only.
        - ``fumble`` (fall or break) is a melee or bare-hand fumble (CO-MELEE-4); a gun's
          jams or is dropped (CO-FIRE-4) and a throw's flies off (CO-THROW-2)."""
        self.ma_fits(a, w)
        if self.engine >= WITHIN_REACH:
            self.arms_reach(a, w)
        if self.engine >= DISTANCE_NEEDS_A_RANGE:
            self.base_range_needed(a, w)
        if a.iai and not w.info.iai:
            raise IllegalAction(f"Iai needs a Japanese sword or a bokuto, not {w.info.name} "
                                "(CO-IAI-1)")
        way = ("a first strike is one shot, the weapon's other attacks on its turn (CO-FIRE-7)"
               if a.first_strike else
               "a burst fires its own rounds (CO-FIRE-6, CO-FIRE-8)" if a.burst else
               "an Iai is one blow (CO-IAI-2)" if a.iai else
               "in 003 each shot is an attack of 1 AP (CO-TURN-6)" if self.p003 else "")
        if a.shots != 1 and way:
            raise IllegalAction(f"shots={a.shots}: {way}: leave out shots")
        if a.surprise and a.first_strike:
            raise IllegalAction("a surprise attack is an attack on its turn after Hide, Conceal "
                                "or Sneak (CO-SURP-1), not a first strike (CO-FIRE-7)")
        if a.stray and w.info.kind is not WeaponKind.THROWN:
            # reviewcoc72 NIT 6: taken silently on a pistol, as a misspelt word was (coc67 D1)
            raise IllegalAction(f"stray={a.stray} is whom a fumbled throw may hit (CO-THROW-2): "
                                f"{w.info.name} is not thrown: leave it out")
        if a.fumble and w.info.kind not in (WeaponKind.MELEE, WeaponKind.UNARMED):
            instead = ("jams or is dropped (CO-FIRE-4)" if w.info.kind is WeaponKind.FIREARM
                       else "flies off (CO-THROW-2)")
            raise IllegalAction(f"fumble {a.fumble!r} is a melee fumble (CO-MELEE-4): "
                                f"{w.info.name}'s fumble {instead}: leave it out")
        if self.engine >= FIELDS_PLAYED:
            self.fields_played(a, w)
            self.penalty_read(c, a)

    def fields_played(self, a: Attack, w: Weapon) -> None:
        """From revision :data:`FIELDS_PLAYED`, before any die: whoever ``behind``
        (CO-MELEE-2) or ``stray`` (CO-THROW-2) names is in the fight, and ``behind`` is given
        only where a knockback can come: CO-MELEE-2 played, a melee or bare-hand blow (003 l.31
        「近接攻撃」)."""
        if a.behind and not self.on("CO-MELEE-2"):
            raise IllegalAction(f"behind={a.behind} is who stands behind a knocked-back target "
                                f"(CO-MELEE-2): {self.not_played('CO-MELEE-2')}: leave it out")
        if a.behind and w.info.kind not in (WeaponKind.MELEE, WeaponKind.UNARMED):
            raise IllegalAction(f"behind={a.behind} is who stands behind a knocked-back target "
                                f"(CO-MELEE-2): {w.info.name} is not a melee or bare-hand "
                                "weapon: leave it out")
        for name in (a.behind, a.stray):
            if name:
                self.get(name)
        self.fields_that_go_with(a)

    def fields_that_go_with(self, a: Attack) -> None:
        """From revision :data:`FIELDS_PLAYED`, before any die: a field that only another
        field makes the engine read is refused without it, so nothing typed is dropped."""
        if a.penalty and not (a.disarm or a.body == "gouge"):
            raise IllegalAction(f"penalty={a.penalty} is the Keeper's pick for a disarm "
                                "(CO-DISARM-1) or a gouge (CO-BODY-3): leave it out")
        if a.hidden and not a.surprise:
            raise IllegalAction(f"hidden={a.hidden} is how well a surprise attacker is hidden "
                                "(CO-SURP-3): it goes with surprise=hide, conceal or sneak "
                                "(CO-SURP-1): leave it out")
        if a.hidden and not self.on("CO-SURP-3"):
            raise IllegalAction(f"hidden={a.hidden} is how well a surprise attacker is hidden "
                                f"(CO-SURP-3): {self.not_played('CO-SURP-3')}: leave it out")
        for field, value in (("part", a.part), ("staunched", a.staunched)):
            if value and not a.body:
                raise IllegalAction(f"{field} goes with body=cut, gouge or blow_off (CO-BODY-2 "
                                    "to CO-BODY-6): leave it out")
        if a.disarm_weapon and not a.disarm:
            raise IllegalAction(f"disarm_weapon={a.disarm_weapon} is the weapon a disarm aims "
                                "at (CO-DISARM-1): it goes with disarm: leave it out")
        if a.parry_with and a.defence not in (Defence.PARRY, Defence.COUNTER):
            raise IllegalAction(f"parry_with={a.parry_with} is how {a.target} parries "
                                "(CO-PARRY-2): it goes with defence=parry or counter: leave "
                                "it out")
        if a.parry_weapon and a.defence not in (Defence.PARRY, Defence.COUNTER):
            raise IllegalAction(f"parry_weapon={a.parry_weapon} is the weapon {a.target} "
                                "parries with: it goes with defence=parry or counter: leave "
                                "it out")

    def penalty_read(self, c: Combatant, a: Attack) -> None:
        """From revision :data:`FIELDS_PLAYED`, before any die: a ``penalty`` the disarm or
        gouge it goes with would not read is refused (r78coc): a disarmer who has Budo
        (standing), MA or Grapple disarms with none (CO-DISARM-1, :func:`disarm_skill`), and
        a part with a fixed penalty of its own is gouged at that one (CO-BODY-3, CO-BODY-5)."""
        if not a.penalty:
            return
        trained = disarm_skill(self.rules, c.sheet, self.engine) if a.disarm else ""
        if trained:
            raise IllegalAction(f"penalty={a.penalty} is not read: {c.name} disarms with "
                                f"{self.rules.skill(trained).name}, with no penalty "
                                "(CO-DISARM-1): leave it out")
        fixed = self.rules.source["CO-BODY-5"].get(a.part, {}).get("penalty")
        if a.body == "gouge" and fixed is not None:
            raise IllegalAction(f"penalty={a.penalty} is not read: gouging the {a.part} is at "
                                f"its own {fixed} (CO-BODY-3, CO-BODY-5): leave it out")

    def arms_reach(self, a: Attack, w: Weapon) -> None:
        """From revision :data:`WITHIN_REACH` (coc74 DEFECT 1), before any die: point blank is
        within arm's reach, the Default ``CO-RANGE-3.reach_m`` (1 m: the seeds give no
        number, reviewcoc74 DEFECT 1), so ``adjacent`` with a ``distance_m`` beyond it is
        refused, naming both (004 l.73 「相手との距離が"タッチ(手が届く範囲)"の場合のみ、技能値を
        3倍にする」, CO-RANGE-3; 003 l.60 「隣接状態での射撃の場合、命中率+15％」, CO-FIRE-5); so
        is a melee or bare-hand blow at such a distance (003 l.26 「敵と隣接しているときのみ
        可能」, CO-MELEE-1; 004 l.70's base range is 「タッチ以外」, so a blow is at touch,
        CO-RANGE-3). A sheet's melee weapon with its own ``range_m`` (a whip) reaches that far
        if it is longer (reviewcoc74 RISK 3). Point blank with a firearm is also within its
        base range 基本射程 (004 l.70 「基本射程(タッチ以外)」: every band but touch's), so a
        distance_m beyond the sheet's range_m is refused with ``adjacent`` whatever reach_m
        says (reviewcoc74b RISK 2). Each check runs only while its rule does.
        Revision 21 multiplied ×1/3 and ×3 at once and ignored the melee distance."""
        reach = self.reach_m()
        kind = w.info.kind
        touch = next((t for r, t in (("CO-RANGE-3", "touch タッチ, CO-RANGE-3"),
                                     ("CO-FIRE-5", "point blank 隣接, CO-FIRE-5"))
                      if self.on(r)), None)
        base, printed = w.info.range_m, ""
        bands, shown = self.rules.bands(w.info)
        if bands and self.on("CO-FIRE-9"):
            # reviewz74 NIT 1: range_m serves only while CO-FIRE-9 is off (weapons.toml); with
            # printed bands the base range is the first band (no ×1/k within it, to_hit.py)
            base, printed = bands[0].up_to_m, f" (its first printed band {shown}, CO-FIRE-9)"
        if a.distance_m <= reach:
            if a.adjacent and touch is not None and kind is WeaponKind.FIREARM \
                    and a.distance_m > base > 0:
                # reviewcoc74b RISK 2: touch is within the base range (004 l.70 「基本射程
                # (タッチ以外)」), so never ×3 with a band's ×1/k, whatever reach_m is
                raise IllegalAction(
                    f"adjacent=true ({touch}) is within {w.info.name}'s base range 基本射程 "
                    f"{base} m{printed}, and distance_m={a.distance_m} is beyond it: the "
                    "target cannot be both; leave out one of them")
            return
        arms = f"{reach} m: CO-RANGE-3.reach_m{self.rules.tag('CO-RANGE-3', 'reach_m')}"
        if kind in (WeaponKind.MELEE, WeaponKind.UNARMED):
            rule = next((r for r in ("CO-MELEE-1", "CO-RANGE-3") if self.on(r)), None)
            own = w.info.range_m
            if rule is None or a.distance_m <= own:
                return
            longest = max(own, reach)
            held = (f"its reach range_m={own} m on the sheet" if own > reach
                    else f"within arm's reach 手が届く範囲 ({arms})")
            # reviewcoc74b NIT 5: the Keeper may have meant a distance within it
            raise IllegalAction(f"{w.info.name} is a melee blow, {held}: distance_m="
                                f"{a.distance_m} is beyond it; give distance_m {longest} or "
                                f"less, or leave it out ({rule})")
        if a.adjacent and touch is not None:
            raise IllegalAction(f"adjacent=true ({touch}) is within arm's reach 手が届く範囲 "
                                f"({arms}), and distance_m="
                                f"{a.distance_m} is beyond it: the target cannot be both; "
                                "leave out one of them")

    def base_range_needed(self, a: Attack, w: Weapon) -> None:
        """From revision :data:`DISTANCE_NEEDS_A_RANGE`, before any die: CO-RANGE-2's bands
        are multiples of the weapon's own base range (004 l.70 「各武器に設定されている"基本
        射程(タッチ以外)"の2倍の距離を打つ場合」; l.66 thrown and other ranged weapons too), so
        a firearm's or thrown weapon's ``distance_m`` beyond arm's reach needs a ``range_m``
        (or, while CO-FIRE-9 runs, printed bands). The seeds give the packaged rock none, so
        none is made up for it: the Keeper leaves the distance out, or writes a weapon of
        the sheet's own with a range_m (docs/sheets.md), or gives one the sheet writes out a
        range_m. Within arm's reach every weapon is
        within its base range, so nothing is refused there."""
        info = w.info
        if info.kind not in (WeaponKind.FIREARM, WeaponKind.THROWN) or info.range_m > 0 \
                or not self.on("CO-RANGE-2") or a.distance_m <= self.reach_m():
            return
        bands, _ = self.rules.bands(info)
        if bands and self.on("CO-FIRE-9"):
            return
        # r76coc N3: a weapon the sheet writes out already is given a range_m there; only a
        # packaged one (the rock) is written out as the sheet's own to have one
        packaged = self.rules.weapons.get(info.key) == info
        mend = ("write the weapon as one of the sheet's own with a range_m" if packaged
                else "give it a range_m in the sheet")
        raise IllegalAction(f"{info.name} has no base range 基本射程 (range_m) for CO-RANGE-2's "
                            f"bands, so distance_m={a.distance_m} cannot be judged: leave out "
                            f"distance_m, or {mend} (docs/sheets.md)")

    def declared_words(self, a: Attack) -> None:
        """coc67 D1: the words an Attack declares, checked before any die as ``defence`` is:
        ``ma_option`` one of :data:`MA_OPTIONS` (CO-MA-3, CO-MA-4, 004 l.158-160), with
        ``ma``; ``fumble`` one of :data:`FUMBLES` (CO-MELEE-4, 003 l.29). Revision 14 played
        a misspelt one (``follow-up``) as none given: the declared follow-up was lost, a
        Keeper's ``brake`` was a fall."""
        if a.ma_option and a.ma_option not in MA_OPTIONS:
            # reviewcoc67 NIT 1, 2: the words whose rule is on, with the menu's Japanese
            on = [f"{word} ({WORDS_JA[word]}, {rule})" for word, rule in MA_OPTIONS.items()
                  if self.on(rule)]
            if not on:
                raise IllegalAction(f"ma_option {a.ma_option!r}: the MA options "
                                    + " and ".join(f"{word} ({WORDS_JA[word]}, {rule})"
                                                   for word, rule in MA_OPTIONS.items())
                                    + " are off in this profile: leave it out")
            raise IllegalAction(f"ma_option {a.ma_option!r}: write "
                                + ("one of " + ", ".join(on) if len(on) > 1 else on[0]))
        if a.ma_option and not a.ma:
            raise IllegalAction(f"ma_option {a.ma_option} is an MA option "
                                f"({WORDS_JA[a.ma_option]}, {MA_OPTIONS[a.ma_option]}): "
                                "declare it with ma=true")
        words = " or ".join(f"{word} ({WORDS_JA[word]})" for word in FUMBLES)
        if a.fumble and not self.on("CO-MELEE-4") and (self.engine >= 16
                                                       or a.fumble not in FUMBLES):
            # reviewcoc67 NIT 1: revision 15 took a right word with the rule off and did
            # nothing with it
            raise IllegalAction(f"fumble {a.fumble!r}: a fumble's {words} is CO-MELEE-4, off "
                                "in this profile: leave it out")
        if a.fumble and a.fumble not in FUMBLES:
            raise IllegalAction(f"fumble {a.fumble!r}: write {words} (CO-MELEE-4), or leave "
                                "it out for the automatic choice")

    def out_of_action(self, c: Combatant, a: Attack, left: int) -> bool:
        """CO-FIRE-4 (003 l.59 「弾詰まりを起こして…弾を取り除かない限り使用できない。
        (リボルバーなどの弾詰まりの起きない武器の場合は銃を手落とす等)」): from revision 7 a
        gun that jammed or was dropped on a shot fires none of the action's ``left`` later
        shots (004's several shots of one action, CO-FIRE-7 / CO-BASE-5), as it could not fire
        another action's; revision 6 and before fired them."""
        w = c.sheet.weapons[a.weapon]
        if self.engine < 7 or left < 1 or not (w.jammed or w.dropped):
            return False
        self.say(f"{w.info.name} is {'jammed' if w.jammed else 'dropped'}: the action's "
                 f"{left} other shot(s) are not fired (CO-FIRE-4)")
        return True

    def surprise(self, c: Combatant, a: Attack) -> bool:
        """CO-SURP-1: a Hide, Conceal or Sneak success first; CO-SURP-2: once found, only a
        91%+ hider tries again, at −80%."""
        if not self.on("CO-SURP-1"):
            raise IllegalAction("surprise attacks are CO-SURP-1, off in this profile")
        if a.surprise not in ("hide", "conceal", "sneak"):
            raise IllegalAction("surprise with hide, conceal or sneak (CO-SURP-1)")
        modifier = 0
        if c.found:
            value = skill_value(self.rules, c.sheet, a.surprise)
            if not self.on("CO-SURP-2") or value <= self.rules.num("CO-SURP-2", "rehide_over"):
                raise IllegalAction(f"{c.name} was found: no more surprise (CO-SURP-2)")
            modifier = self.rules.num("CO-SURP-2", "rehide_modifier")
        made = self.check(c, a.surprise, modifier)
        self.lines[-1] += " (CO-SURP-1" + (", again at −80%, CO-SURP-2)" if modifier else ")")
        if not made.success:
            self.say(f"{c.name} is not hidden: no surprise, the action is spent (CO-SURP-1)")
            return False
        penalty = 0
        if self.on("CO-SURP-3"):
            penalty = a.hidden or self.rules.default("CO-SURP-3", "hidden_penalty")
            self.in_limits("CO-SURP-3", "hidden_penalty", penalty, "the Keeper's hiding penalty")
        self.set(c, hidden=True, found=False, hide_penalty=penalty)
        return True

    def spotting(self, c: Combatant, t: Combatant) -> None:
        """CO-SURP-1: the target spots the attacker with Luck −10% (and CO-SURP-3's penalty)."""
        if t.out:
            return
        luck = self.rules.num("CO-SURP-1", "luck_modifier")
        modifier = luck + c.hide_penalty
        if self.engine >= 15:  # coc67 N5: how the target is reached, as an attack's is
            base = skill_value(self.rules, t.sheet, "luck")
            mods = f"{luck:+d} (CO-SURP-1)" + (f" {c.hide_penalty:+d} (hidden, CO-SURP-3)"
                                               if c.hide_penalty else "")
            self.say(f"{t.name} {self.rules.skill('luck').name}: base {base} {mods} = "
                     f"{max(0, base + modifier)}")
        made = self.check(t, "luck", modifier, f"{t.name} looks for {c.name}: 幸運/Luck")
        self.lines[-1] += " (CO-SURP-1" + (", CO-SURP-3)" if c.hide_penalty else ")")
        if made.success:
            self.set(c, hidden=False, found=True, hide_penalty=0)
            self.say(f"{t.name} spots {c.name}: an ordinary fight from now (CO-SURP-1)")
        else:
            self.say(f"{c.name} stays hidden and may surprise again (CO-SURP-2)")
