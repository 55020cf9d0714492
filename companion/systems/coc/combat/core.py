"""The bottom layer of the rules engine: one action's working copy of the state and what
every rule uses: the running profile's switches and Defaults, the journal lines, setting a
combatant, dice totals and d100 checks, action points, the DEX/2 slot in the order, and
the weapons in hand with an improvised weapon's wear.

Rules: CO-CORE-1 (an attack roll's ranges), CO-TURN-3 and CO-BASE-5 (paying for an
action), CO-SKILL-1 (an other skill once a round), CO-IAI-2 (no other skill in a round
with Iai), CO-WEAP-1 (wear); CO-ARMOR-2 and CO-DODGE-7 keep their per-action notes here.

The engine is a chain of layers, each a subclass of the one below that may call any
method beneath it: ``_Core`` → ``_Board`` → ``_Spells`` → ``_Damage`` → ``_BodyParts`` →
``_Keeper`` → ``_Disarm`` → ``_Defences`` → ``_ToHit`` → ``_Strikes`` → ``_Firearms`` →
``_Grapples`` → ``_Tackle`` → ``_Skills`` → ``_Iai`` → ``_Attacks`` → ``_Turns`` →
``_Step``.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from companion.dice import DiceSource, roll
from companion.dice.notation import Rounding
from companion.errors import IllegalAction
from companion.systems.coc.checks import Check, Ranges, check, ranges, unrolled
from companion.systems.coc.combat.fighters import (
    Combatant,
    Condition,
    FightState,
    nobody_called,
)
from companion.systems.coc.combat.formats import ENGINE
from companion.systems.coc.rules import CocRules, Profile, WeaponKind
from companion.systems.coc.sheet import Weapon, skill_value

#: How the purpose of a roll the start of a round or of a turn makes begins (CO-DEATH-1's
#: CON×5, CO-STUN-1's, CO-BODY-6's bleeding, CO-TURN-1's DEX tie): the action whose end
#: brought that start is not what it is for, so the table says its own reason first.
BETWEEN_ACTIONS = "start of "

#: CO-CORE-1: the rule that gives a fumbled attack an effect, by the weapon's kind
#: (:meth:`_Core.fumbles`); a grapple's is CO-MELEE-4's fall, as an unarmed attack's.
FUMBLE_RULES = {WeaponKind.MELEE: "CO-MELEE-4", WeaponKind.UNARMED: "CO-MELEE-4",
                WeaponKind.FIREARM: "CO-FIRE-4", WeaponKind.THROWN: "CO-THROW-2"}


class _Core:
    """The working copy of the state and the tools every rule uses."""

    def __init__(self, rules: CocRules, state: FightState, source: DiceSource,
                 legacy: bool = False, engine: int = ENGINE) -> None:
        self.rules = rules
        self.legacy = legacy
        self.engine = 1 if legacy else engine  # the revision playing it (see ENGINE)
        self.round = state.round
        self.order = state.order
        self.turn = state.turn
        self.opened = state.opened
        self.cs = {c.name: c for c in state.combatants}
        self.names = [c.name for c in state.combatants]
        self.source = source
        self.lines: list[str] = []
        # How many of ``lines`` are the action's own, said before the turn is handed over
        # (:meth:`~companion.systems.coc.combat.step._Step.play`): the rest pass the turn,
        # end the round and start the next (reviewcoc67 RISK 1). None: no hand-over yet.
        self.own: int | None = None
        # §0.3's setting, from revision 13: revision 12 and before rounded every share down.
        self.rounding = rules.rounding() if self.engine >= 13 else Rounding.TOWARD_ZERO
        # every check but an attack roll, and CO-CORE-1's ranges of an attack roll
        self.r5: Ranges = replace(ranges(rules, attack=False), rounding=self.rounding)
        self.r_attack: Ranges = replace(ranges(rules), rounding=self.rounding)
        self.covered: dict[str, bool] = {}  # CO-DODGE-7: who took cover this action
        self.pool: dict[tuple[str, str], Fraction] = {}  # CO-ARMOR-2 toggle: armour left over
        self.up_front: set[tuple[str, str]] = set()  # the pools a burst filled at once
        # CO-ARMOR-1: what each armour stopped in the action, exact (a burst's shares)
        self.worn: dict[tuple[str, str], Fraction] = {}
        # CO-GRAP-4/6: what each human shield took in the action, exact (a burst's shares
        # beyond its base range meet it before the armour from revision 25, r77coc)
        self.shielded: dict[str, Fraction] = {}
        self.p003 = rules.profile is Profile.P003

    def freeze(self) -> FightState:
        return FightState(self.round, self.order, self.turn,
                          tuple(self.cs[n] for n in self.names), self.opened)

    def on(self, rule: str) -> bool:
        return self.rules.on(rule)

    def divisor(self, rule: str, key: str) -> int:
        """A Default that divides: a fight begun before the range check may hold a 0 (see
        Fight.from_json), which refuses the action that needs it instead of crashing."""
        value: int = self.rules.default(rule, key)
        if not self.rules.defaults.in_range(rule, key):
            raise IllegalAction(f"{rule}.{key} is {value} in this fight's settings; it must be "
                                f"{self.rules.defaults.range_of(rule, key)} to play this")
        return value

    def reach_m(self) -> int:
        """Arm's reach in metres, the Default ``CO-RANGE-3.reach_m`` (1: 004 l.73's
        「手が届く範囲」 and 003 l.6's 「約1m」 squares give no number of metres; read by 003's
        CO-FIRE-5 off the board and by CO-MELEE-1 too), from engine revision 22."""
        return int(self.rules.default("CO-RANGE-3", "reach_m"))

    def in_limits(self, rule: str, key: str, value: int, what: str) -> None:
        """A Keeper's number for the Default ``rule.key`` (a penalty the action names) inside
        that Default's range in the data ([limits]), else IllegalAction naming it."""
        values = self.rules.defaults.values
        tried = {**values, rule: {**values[rule], key: value}}
        if not self.rules.defaults.limits.holds(tried, rule, key):
            raise IllegalAction(f"{what} must be {self.rules.defaults.range_of(rule, key)} "
                                f"({rule}), found {value}")

    def rounded(self, value: Fraction | int) -> int:
        """§0.3: a share as a whole number, rounded by the setting ``§0.3.rounding`` (from
        engine revision 13; a fight's entries played before round down, as they were)."""
        share = Fraction(value)
        return self.rounding.divide(share.numerator, share.denominator)

    def share(self, value: int, divisor: int) -> int:
        """§0.3: ``value`` ÷ ``divisor`` rounded as :meth:`rounded` (a half skill, a third)."""
        return self.rounding.divide(value, divisor)

    def half_dex(self, c: Combatant) -> int:
        """CO-TURN-1 / CO-BASE-5: the DEX a DEX/2 turn takes, DEX ÷ the seed's 2
        (``dex_divisor``) rounded by §0.3."""
        rule = "CO-TURN-1" if self.p003 else "CO-BASE-5"
        return self.share(c.sheet.stat("DEX"), int(self.rules.num(rule, "dex_divisor")))

    def grapple_bound(self, c: Combatant) -> bool:
        """CO-GRAP-3 (003): is ``c`` bound by the grapple's limits (1 AP a round, no
        two-handed weapon)? The grappler is; the held one too by the Default ``binds_held``
        (both participants, the spec's; false: the grappler only, its other reading)."""
        return bool(c.grappling) or (bool(c.held_by)
                                     and bool(self.rules.default("CO-GRAP-3", "binds_held")))

    def boosted_half(self, damage: int) -> int:
        """CO-PARRY-3: the half of an MA- or Budo-boosted blow that gets through any parry,
        rounded as the Default says (down: 0 of 1)."""
        up = self.rules.default("CO-PARRY-3", "half_rounds") == "up"
        return (damage + 1) // 2 if up else damage // 2

    def say(self, text: str) -> None:
        self.lines.append(text)

    def set(self, c: Combatant, **changes: Any) -> Combatant:
        new = replace(c, **changes)
        self.cs[c.name] = new
        return new

    def get(self, name: str) -> Combatant:
        if name not in self.cs:
            raise nobody_called(name, list(self.cs))
        return self.cs[name]

    def round_start(self, why: str) -> str:
        """A roll's reason at the start of this round (:data:`BETWEEN_ACTIONS`)."""
        return f"{BETWEEN_ACTIONS}round {self.round} 第{self.round}ラウンド開始: {why}"

    def turn_start(self, c: Combatant, why: str) -> str:
        """A roll's reason at the start of ``c``'s turn (:data:`BETWEEN_ACTIONS`)."""
        return f"{BETWEEN_ACTIONS}{c.name}'s turn 手番開始: {why}"

    def roll_total(self, formula: str, purpose: str = "") -> tuple[int, str]:
        """``formula`` rolled, its dice asked for as ``purpose`` and the formula (``Ann
        キック/Kick damage ダメージ 1D6+1D4``): its total and its line."""
        if formula in ("", "0"):
            return 0, "0"
        result = roll(formula, self.source, purpose=f"{purpose} {formula}" if purpose else "")
        return result.total, result.text

    def check(self, c: Combatant, skill: str, modifier: int = 0, label: str = "",
              attack: bool = False, fumbles: str = "") -> Check:
        """CO-CORE-1: ``c``'s check of ``skill`` + ``modifier`` (floored at 0), said. From
        revision 14 a check that is not an attack roll and cannot succeed (≤ 0) asks no die
        (:func:`~companion.systems.coc.checks.unrolled`): only an attack's fumble has an
        effect (CO-MELEE-4, CO-FIRE-4, CO-THROW-2), and the player threw a d100 for a
        dodge that could not work (coc63 N3); revision 13 rolled it. An attack roll
        (``attack``) is :meth:`to_hit`'s, ``fumbles`` the rule its fumble plays ("" where
        none: a tackle, a 004 choke or throw)."""
        value = max(0, skill_value(self.rules, c.sheet, skill) + modifier)
        label = label or f"{c.name} {self.rules.skill(skill).name}"
        if attack:
            made = self.to_hit(value, label, fumbles, hit=False)
        elif value <= 0 and self.engine >= 14:
            made = unrolled(value, label)
        else:
            made = check(self.source, value, self.r5, label)
        self.say(made.text)
        return made

    def fumbles(self, kind: WeaponKind) -> str:
        """CO-CORE-1 (「Critical and fumble effects apply only where a rule below defines
        them」): the rule that gives a fumbled attack of ``kind`` an effect, when it is
        played, else "": a fall or a broken weapon (CO-MELEE-4, a grapple's fall too), a
        jam or a dropped gun (CO-FIRE-4), a stray throw (CO-THROW-2)."""
        rule = FUMBLE_RULES[kind]
        return rule if self.on(rule) else ""

    def to_hit(self, skill: int, label: str, fumbles: str, hit: bool = True) -> Check:
        """CO-CORE-1: an attack roll at the effective ``skill`` (``hit``: its die's purpose
        says "to hit"). From revision 14 one that cannot succeed (≤ 0) and whose fumble
        plays no rule (``fumbles`` "": :meth:`fumbles`) asks no die and says so as any
        check that cannot succeed (:func:`~companion.systems.coc.checks.unrolled`); where
        a fumble rule is played the die is thrown for its fumble alone. Revision 13 threw
        it (review63a RISK 2). A combination roll with MA (CO-BASE-3) is no such roll: its
        MA half may succeed, so it is thrown at any skill."""
        if skill <= 0 and not fumbles and self.engine >= 14:
            return unrolled(skill, label)
        return check(self.source, skill, self.r_attack, label, hit=hit)

    def can_act(self, c: Combatant) -> bool:
        return not (c.out or c.has(Condition.FALLEN, self.round)
                    or c.has(Condition.NO_ACTION, self.round))

    def why_not_acting(self, c: Combatant) -> str:
        """Why ``c`` cannot act (:meth:`can_act` false), in words with the rule: dead,
        unconscious, fallen this round (CO-MELEE-4) or stunned out of this round's actions
        (CO-STUN-3), without the name, which the refusal says before it ("Bob cannot act:
        dead"). coc74 NIT 5: a refusal said only "Bob cannot act"."""
        if c.dead:
            return "dead"
        if c.unconscious:
            return "unconscious 気絶"
        if c.has(Condition.FALLEN, self.round):
            return "fell 転倒, no action this round (CO-MELEE-4)"
        return "no action this round 行動不能 (CO-STUN-3)"

    def spend(self, c: Combatant, ap: int, rule: str) -> Combatant:
        """CO-TURN-3: pay action points (003 only)."""
        if not self.p003:
            return c
        if c.ap < ap:
            raise IllegalAction(f"{c.name} has {c.ap} AP, needs {ap} ({rule})")
        return self.set(c, ap=c.ap - ap)

    def one_action(self, c: Combatant, rule: str, ap: int) -> Combatant:
        """Pay for an action: ``ap`` AP in 003 (CO-TURN-3), the turn's one action in 004."""
        if self.p003:
            c = self.spend(c, ap, rule)
            return self.set(c, spent_other=True)
        if c.attacks:
            raise IllegalAction("one action a turn (CO-BASE-5)")
        return self.set(c, attacks=1)

    def other_skill_ap(self) -> int:
        """CO-SKILL-1 (Default ``ap``): what an Other skill costs in 003 when its own rule
        gives no cost (First Aid, Psychoanalysis, Spot Hidden; a spell, unlisted, as one)."""
        ap: int = self.rules.default("CO-SKILL-1", "ap")
        return ap

    def once_a_round(self, c: Combatant, skill: str, rule: str) -> None:
        """CO-SKILL-1 (003): 「その他技能は例外を除き1回のみ選択ができる」, read as the spec does:
        each other skill once a round (revision 4): Spot Hidden and Jump, which leave
        attacking open (before, any number of times), and Medicine and Psychoanalysis (before,
        one treatment skill of the three a round); First Aid's retry after a failure is the
        exception (CO-SKILL-2)."""
        if self.engine >= 4 and skill in c.skills_used:
            raise IllegalAction(f"{self.rules.skill(skill).name} once a round (CO-SKILL-1, "
                                f"{rule})")

    def other_skill_chosen(self, c: Combatant) -> bool:
        """CO-SKILL-1 (003): has ``c`` chosen an other skill this round? First Aid, Medicine
        or Psychoanalysis (``other_skill``) and, from revision 4, Spot Hidden or Jump
        (``skills_used``): 〇その他技能について lists 目星 and 跳躍 among the other skills;
        their 「同R内で攻撃が可能」 lifts the no-attack rule only, not Iai's (CO-IAI-2)."""
        return c.other_skill or (self.engine >= 4 and bool(c.skills_used))

    def no_skill_after_iai(self, c: Combatant, skill: str, rule: str) -> None:
        """CO-IAI-2 (003): 「＜居合＞使用ラウンドはその他技能は選択できない」: no Spot Hidden or
        Jump in a round ``c`` used Iai, by an attack or a parry (revision 4; before, they
        were taken)."""
        if self.engine >= 4 and c.iai_used:
            raise IllegalAction(f"no {self.rules.skill(skill).name} in a round with Iai: "
                                f"no other skill that round (CO-IAI-2, {rule})")

    def weapon(self, c: Combatant, index: int, to: str) -> Weapon:
        """``c``'s weapon ``index`` (the sheet's [[weapons]] in order), else IllegalAction
        saying what it carries (:func:`no_weapon`; ``to``: what a weapon was wanted for)."""
        if not 0 <= index < len(c.sheet.weapons):
            raise IllegalAction(no_weapon(c, index, to))
        return c.sheet.weapons[index]

    def put_weapon(self, c: Combatant, index: int, w: Weapon) -> Combatant:
        weapons = list(c.sheet.weapons)
        weapons[index] = w
        return self.set(c, sheet=replace(c.sheet, weapons=tuple(weapons)))

    def wear(self, c: Combatant, index: int, why: str) -> None:
        """CO-WEAP-1: an improvised weapon loses 1 durability a use; at 0 it breaks."""
        w = self.cs[c.name].sheet.weapons[index]
        left = max(0, (w.durability or 0) - self.rules.num("CO-WEAP-1", "wear"))
        self.say(f"{w.info.name} durability {w.durability} → {left} ({why}, CO-WEAP-1)"
                 + (": broken" if left == 0 else ""))
        self.put_weapon(self.cs[c.name], index, replace(w, durability=left, broken=left == 0))

    def slot(self, c: Combatant) -> None:
        """Put a second turn of ``c`` into this round's order where its DEX/2 falls
        (CO-TURN-1, CO-BASE-5): after every turn at a higher DEX, and after or before those
        at a DEX equal to it by the Default ``half_dex_ties`` (the seeds give no tie rule).
        A DEX/2 turn declared earlier this round is compared by its actor's full DEX, which
        is at least ``c``'s (it acted first), so it stays ahead either way."""
        half = self.half_dex(c)
        after = self.rules.default("CO-TURN-1", "half_dex_ties") == "after"
        rest = list(self.order[self.turn + 1:])
        pos = 0
        while pos < len(rest) and (dex := self.cs[rest[pos]].sheet.stat("DEX")) >= half \
                and (after or dex > half):
            pos += 1
        self.order = (*self.order[:self.turn + 1], *rest[:pos], c.name, *rest[pos:])


#: :func:`no_weapon`'s ``to`` for an attack: bare hands are a weapon too, ``fist``
#: (CO-BASE-1), which a sheet lists as any other.
TO_ATTACK = ": to punch, list fist under [[weapons]] in its sheet (docs/sheets.md)"


def no_weapon(c: Combatant, index: int, to: str) -> str:
    """Why ``c`` has no weapon ``index``: the weapons it carries, the sheet's [[weapons]] in
    order (``Ann has no weapon 2 (carried: 0 ナイフ/Knife, 1 こぶし(パンチ)/Fist/Punch)``), or,
    carrying none, ``Ann carries no weapons`` and ``to``, what one was wanted for (" to
    reload", or :data:`TO_ATTACK`). The attack, reload, clear, pick-up, Iai draw, parry and
    disarm refusals all say it (coc63 N4, review63a NIT 5)."""
    weapons = c.sheet.weapons
    if not weapons:
        return f"{c.name} carries no weapons{to}"
    carried = ", ".join(f"{n} {w.info.name}" for n, w in enumerate(weapons))
    return f"{c.name} has no weapon {index} (carried: {carried})"
