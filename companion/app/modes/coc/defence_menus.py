"""The defence menu: what a target may declare against an attack or a grapple (none; dodge,
with a Navigate or Jump assist, again by Luck, or after attacking against a blow the Keeper
rules certainly fatal; cover; parry with a weapon, by Iai, bare-handed, with MA, Budo or
Grapple; an MA counter), each offered only if the engine takes it, and the defence picked
read back.

Rules: CO-DODGE-2/3/4/5/6/7, CO-PARRY-2, CO-GRAP-5, CO-IAI-2, CO-MA-5, CO-BASE-7.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.app.modes.coc.fight_view import _FightView
from companion.app.modes.coc.words import BARE_PARRY, COVER, DODGE_ASSIST
from companion.app.modes.fight import option_value
from companion.app.session.controls import BACK
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display.view import Option
from companion.systems.coc.combat import Action, Defence
from companion.systems.coc.rules import Profile, WeaponKind
from companion.systems.coc.sheet import parry_budo


class _Defences(_FightView):
    """Adds the defence menu and reading a defence back."""

    def _defences(self, target: str, kind: WeaponKind, more: bool = False,
                  attack: bool = True, made: Callable[[str], Action] | None = None,
                  bare: bool | None = None) -> tuple[Option, ...]:
        """The defences a target may declare (none, dodge, parry with a weapon, an MA counter
        CO-MA-5); against an ``attack`` also a dodge with CO-DODGE-6's assist or 004's second
        dodge by Luck (CO-DODGE-4) and a parry bare-handed, with MA or Budo (CO-PARRY-2) or,
        against a melee blow, with Grapple's two successes (CO-GRAP-5);
        ``more``: the attack's circumstances are open (*More 状況*). ``made``: the action with
        a defence picked; each defence is offered only if the engine takes that action (it
        checks the declared defence before any die: the round's parries and dodges used up,
        an attack from behind, CO-DODGE-2/3/4, CO-BASE-7), so the player is never offered a
        parry it then refuses. ``bare`` (default: ``attack``): offer the bare-handed, MA,
        Budo and Grapple parries, and 003's Iai parry, as against a grapple (CO-GRAP-5, 003
        l.97, from revision 19)."""
        t = self.fight.state.get(target)
        p003 = self.rules.profile is Profile.P003
        options = [Option("d:none", "None なし", Button.ATTACK), Option("d:dodge", "Dodge 回避")]
        if attack and self.rules.on("CO-DODGE-6"):
            options += [Option(f"d:dodge:{k}", label) for k, label in DODGE_ASSIST.items()]
        if attack and not p003 and self.rules.on("CO-DODGE-4") and t.dodges >= int(
                self.rules.default("CO-DODGE-4", "dodges_per_round")):
            options.append(Option("d:dodge:luck", "Luck: dodge again 幸運で再回避 (Keeper)"))
        if attack and not p003 and self.rules.on("CO-DODGE-5") and self.rules.default(
                "CO-DODGE-5", "dodge_needs_fatal_blow") and (t.attacks or t.first_strike):
            # (kept by ``made`` only where the engine reads fatal_blow: its has_attacked
            # counts a first strike from revision 4 only)
            options.append(Option("d:dodge:fatal", "Dodge a certainly fatal blow −60% "
                                  "命を刈り取る一撃を回避 (Keeper)"))
        if attack and kind is WeaponKind.FIREARM and self.rules.on("CO-DODGE-7"):
            options += [Option(f"d:cover:{k}", label) for k, label in COVER.items()]
        if kind is not WeaponKind.FIREARM or p003:
            # CO-PARRY-2 / CO-GRAP-5 (004 l.24 「近接戦闘技能や長身の火器で受け流されてしまう」):
            # a long gun parries too where the engine takes it (``made``); reviewcoc71 RISK 2
            options += [Option(f"d:parry:{i}", f"{w.info.en} {w.info.ja} parry 受け流し")
                         for i, w in enumerate(t.sheet.weapons)
                         if not (w.broken or w.dropped or w.lent)
                         and (w.info.kind is WeaponKind.MELEE or w.info.long_gun)]
            # 003 l.97: an Iai parries a grapple too (from revision 19, ``bare``), where taken
            if (attack if bare is None else bare) and p003 and self.rules.on("CO-IAI-2") \
                    and not (t.drawn or t.iai_used):
                options += [Option(f"d:parry:iai{i}",
                                   f"Iai {w.info.en} {w.info.ja} parry 居合で受け流し")
                            for i, w in enumerate(t.sheet.weapons)
                            if w.info.iai and not (w.broken or w.dropped or w.lent)]
            if (attack if bare is None else bare) and kind is not WeaponKind.FIREARM:
                skills = {"hands": kind is WeaponKind.UNARMED,
                          "ma": "martial_arts" in t.sheet.skills,
                          "budo": bool(parry_budo(t.sheet)),
                          "grapple": kind in (WeaponKind.UNARMED, WeaponKind.MELEE)}
                rule = {"hands": "CO-PARRY-2", "ma": "CO-PARRY-2", "budo": "CO-PARRY-2",
                        "grapple": "CO-GRAP-5"}
                options += [Option(f"d:parry:{way}", label) for way, label in BARE_PARRY.items()
                            if skills[way] and (self.rules.on(rule[way]) or
                                                (p003 and way == "ma"))]
            if "martial_arts" in t.sheet.skills:
                options.append(Option("d:counter", "MA counter カウンター"))
        if made is not None:
            options = [o for o in options if o.choice == "d:none" or self._takes(made, o.choice)]
        if more:
            options.append(Option("m:more", "More 状況… (range, surprise…)"))
        return (*options, BACK)

    def _takes(self, made: Callable[[str], Action], picked: str) -> bool:
        """Would the engine take the action ``made`` with the option ``picked`` now?"""
        try:
            action = made(picked)
        except IllegalAction:
            return False
        return self.legal(action)

    def _defence(self, picked: str) -> tuple[Defence, dict[str, object]]:
        """``d:dodge``, ``d:dodge:navigate`` (CO-DODGE-6), ``d:dodge:luck`` (CO-DODGE-4),
        ``d:dodge:fatal`` (CO-DODGE-5),
        ``d:parry:2`` (weapon 2), ``d:parry:hands`` (CO-PARRY-2), ``d:parry:grapple``
        (CO-GRAP-5), ``d:counter`` (CO-MA-5),
        ``d:parry:iai0`` (003's Iai parry with weapon 0, CO-DODGE-2), ``d:cover:hide``
        (CO-DODGE-7)."""
        value = option_value(picked, "d")
        kind, _, extra = value.partition(":")
        if kind == "cover" and extra in COVER:  # CO-DODGE-7, instead of a dodge
            return Defence.NONE, {"cover": extra}
        if kind == "parry" and extra.startswith("iai") and extra[3:].isdigit():
            return Defence.PARRY, {"parry_with": "iai", "parry_weapon": int(extra[3:])}
        try:
            defence = Defence(kind)
        except ValueError:
            raise IllegalAction(f"there is no choice {picked!r} now") from None
        if defence is Defence.DODGE and extra in DODGE_ASSIST:
            return defence, {"dodge_assist": extra}
        if defence is Defence.DODGE and extra == "luck":
            return defence, {"luck_dodge": True}
        if defence is Defence.DODGE and extra == "fatal":  # CO-DODGE-5.dodge_needs_fatal_blow
            return defence, {"fatal_blow": True}
        if defence is Defence.PARRY and extra in BARE_PARRY:
            return defence, {"parry_with": extra}
        if extra and not extra.isdigit():
            raise IllegalAction(f"there is no choice {picked!r} now")
        return defence, {"parry_weapon": int(extra or 0)}
