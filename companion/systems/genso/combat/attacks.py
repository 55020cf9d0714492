"""Attacks in a `genso` fight: the ability checked, who cannot dodge, the Barrier against
undead, the roll to hit, the Protection ward against undead, and damage or draining.

Rules: GM-COMBAT-2/3/4 (to hit by role), GM-COMBAT-5 (full attack), GM-COMBAT-6 (full
dodge), GM-MOVE-1 (no dodging after a full move), GM-COMBAT-7 and GM-CORE-1 (damage),
GM-MON-2 (immune to normal attacks), GM-MON-3 (Magic in place of Body, on both sides of
a Ghost's checks), GM-MON-4
(draining), GM-MAGIC-3 (Exorcism on a weapon), GM-MAGIC-5 (Barrier), GM-MAGIC-7
(Protection against undead).
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import DiceSource, roll
from companion.errors import IllegalAction
from companion.systems.genso.combat.actions import Attack
from companion.systems.genso.combat.combatants import Combatant, Role, Stance, Status
from companion.systems.genso.combat.harm import _after_harm, _harm
from companion.systems.genso.combat.journal import (
    BLANK_BODY_FOES_SINCE,
    ENGINE,
    LINES_SAID_SINCE,
    NOTHING_SPENT_SINCE,
    Line,
)
from companion.systems.genso.combat.state import FightState, _swap
from companion.systems.genso.rules import CreatureKind, GensoRules


def _magic_by_mon3(rules: GensoRules, c: Combatant) -> bool:
    """GM-MON-3: does ``c`` check with Magic in place of Body: the Ghost (its block's
    ``checks_with_magic``), or by the Default ``blank_body_uses_magic`` any monster with a
    blank Body (the spec's "this covers the Wraith")?"""
    return c.checks_with_magic or (c.body is None
                                   and bool(rules.default("GM-MON-3", "blank_body_uses_magic")))


def _check_ability(rules: GensoRules, c: Combatant, opponent: Combatant,
                   engine: int = ENGINE) -> tuple[str, int]:
    """GM-MON-3: the Ghost (and by Default any blank-Body monster) checks with Magic.

    Seed GM 4 ゴースト (l.1740): 「魔力によって生物へ攻撃するので、攻撃判定と防御判定は魔力を
    使う。」 Monsters never roll (PG 4-2/4-3, l.1175–1186), so the 攻撃判定 and 防御判定 of a
    fight with a Ghost are its foe's rolls: by the setting ``living_side_uses_magic`` (the
    seed's reading) they add the foe's Magic, not its Body; off, only the Ghost's own side
    is its Magic (the spec's reading). Engine revisions before 4 played the spec's.

    From engine revision 10 (:data:`~.journal.BLANK_BODY_FOES_SINCE`) the foe's side
    follows the monster's: a Wraith checked with Magic by ``blank_body_uses_magic`` is
    fought with Magic too, as the Ghost is (a78gensofight item 3: the same fairy rolled
    Magic against the Ghost and Body against the Wraith, a half-Ghost no reading names)."""
    if _magic_by_mon3(rules, c):
        return "魔力/Magic", c.magic
    foe_magic = (_magic_by_mon3(rules, opponent) if engine >= BLANK_BODY_FOES_SINCE
                 else opponent.checks_with_magic)
    if foe_magic and engine >= 4 and rules.default("GM-MON-3", "living_side_uses_magic"):
        return "魔力/Magic", c.magic
    if c.body is None:
        raise IllegalAction(f"{c.name} has no Body (GM-MON-3 Default is off)")
    return "体力/Body", c.body


def _cannot_dodge(rules: GensoRules, c: Combatant) -> tuple[str, str]:
    """The rule by which an attack on ``c`` hits with no defence check, and why, as the
    Defaults say (empty: it defends): GM-COMBAT-8 incapacitated, GM-COMBAT-5 full attack,
    GM-MOVE-1 full move."""
    if c.status is Status.INCAPACITATED and rules.default("GM-COMBAT-8",
                                                          "incapacitated_hit_automatically"):
        return "GM-COMBAT-8", "行動不能/incapacitated"
    if c.stance is Stance.FULL_ATTACK and rules.default("GM-COMBAT-5",
                                                         "full_attack_hits_automatically"):
        return "GM-COMBAT-5", "全力攻撃中/full attack"
    if c.stance is Stance.FULL_MOVE and rules.default("GM-MOVE-1",
                                                       "full_move_hits_automatically"):
        return "GM-MOVE-1", "全力移動後/after a full move"
    return "", ""


def _in_barrier(rules: GensoRules, state: FightState, attacker: Combatant,
                target: Combatant) -> Combatant | None:
    """GM-MAGIC-5: undead with lower Magic than the caster cannot enter the barrier, which
    holds until sunrise or Dispel, its caster fallen or not; a fled caster's goes with it
    only under the Default ``leaves_with_caster``."""
    if attacker.creature is not CreatureKind.UNDEAD:
        return None
    gone = bool(rules.default("GM-MAGIC-5", "leaves_with_caster"))
    for caster in state.combatants:
        if gone and caster.status is Status.FLED:
            continue
        for effect in caster.effects:
            if (effect.spell == "barrier" and target.name in effect.members
                    and attacker.magic < effect.caster_magic):
                return caster
    return None


def kept_out_by_barrier(rules: GensoRules, state: FightState, attacker: Combatant,
                        target: Combatant) -> Combatant | None:
    """GM-MAGIC-5: the caster of the Barrier (結界呪) that keeps ``attacker`` from attacking
    ``target``, or None: the engine's own check (:func:`_in_barrier`), for the table to
    offer no attack it would refuse (calendar73 RISK 3)."""
    return _in_barrier(rules, state, attacker, target)


def _defence_terms(label: str, value: int, target: Combatant) -> str:
    """GM-COMBAT-2 (PG 4-2, l.1176–1177)
    「攻撃側の体力＋２Ｄ＋各種修正＞防御側の体力＋７＋各種修正」: the target's every term but
    the 7 and a full dodge, as its number adds them up: Body (or Magic, GM-MON-3), the
    Combat skill of an NPC fought as a monster (魔物扱いのＮＰＣ, GM-CORE-4) and a Ring of
    Protection on defence (GM-ITEM-3). The line showed Body alone, ``vs 体力/Body 6 + 7``
    against a knight's 18 (Body 6 + Combat 5 + 7)."""
    shown = f"{label} {value}"
    if target.combat or target.role is Role.NPC_AS_MONSTER:
        shown += f" + 戦闘/Combat {target.combat}"
    if target.defence_extra:
        shown += f" + 防護の指輪/Ring of Protection {target.defence_extra}"
    return shown


def _hit(rules: GensoRules, attacker: Combatant, target: Combatant, full: bool,
         source: DiceSource, lines: list[Line], engine: int = ENGINE) -> bool:
    """GM-COMBAT-2/3/4/5/6: does the attack hit?"""
    full_bonus = rules.num("GM-COMBAT-5", "full_attack") if full else 0
    dodge = (rules.num("GM-COMBAT-6", "full_dodge")
             if target.stance is Stance.FULL_DODGE else 0)
    a_label, a_value = _check_ability(rules, attacker, target, engine)
    d_label, d_value = _check_ability(rules, target, attacker, engine)
    attack_mod = a_value + attacker.combat + full_bonus
    defence_mod = d_value + target.combat + target.defence_extra + dodge
    rule, why = _cannot_dodge(rules, target)
    if why:
        # Tagged by the rule that says so (fixg64b: a finishing blow on the fallen said
        # GM-COMBAT-5); engine revisions before 5 tagged every one GM-COMBAT-5.
        lines.append(Line(rule if engine >= 5 else "GM-COMBAT-5",
                          f"{target.name} cannot dodge ({why}): the attack hits / 自動命中"))
        return True
    terms = (f"{a_label} {a_value} + 戦闘/Combat {attacker.combat}"
             + (f" + 全力攻撃/full attack {full_bonus}" if full_bonus else ""))
    fixed = rules.num("GM-COMBAT-2", "fixed")
    if target.role.monster_like:
        target_text = f"{defence_mod - dodge}+{fixed}" + (f"+{dodge}" if dodge else "")
        result = roll(f"2D6+{attack_mod}>{target_text}", source, purpose="to hit 命中")
        lines.append(Line("GM-COMBAT-2", f"{attacker.name} → {target.name}: {terms} vs "
                                         f"{_defence_terms(d_label, d_value, target)} + "
                                         f"{fixed}"
                          + (f" + 全力回避/full dodge {dodge}" if dodge else "")
                          + f": {result.text}", result))
        return result.success
    if attacker.role.monster_like and not rules.default("GM-COMBAT-3", "literal_4_2"):
        fixed_side = f"{attack_mod}+{fixed}"
        result = roll(f"2D6+{defence_mod}>={fixed_side}", source,
                      purpose=f"{target.name}'s defence 防御")
        verdict = "防御成功/defended" if result.success else "防御失敗/hit"
        # Both sides named, as the GM-COMBAT-2 line names them: "Aki defends against オーク
        # (体力/Body 6 + …)" read as Aki's Body, though the terms were the orc's.
        shown = (_defence_terms(d_label, d_value, target)
                 + (f" + 全力回避/full dodge {dodge}" if dodge else ""))
        lines.append(Line("GM-COMBAT-3", f"{target.name} defends: {shown} vs {attacker.name} "
                                         f"{terms} + {fixed}: {result.text} ＞ {verdict}",
                          result))
        return not result.success
    rule = "GM-COMBAT-4" if not attacker.role.monster_like else "GM-COMBAT-3"
    attack = roll(f"2D6+{attack_mod}", source, purpose=f"{attacker.name}'s attack roll 命中")
    defence = roll(f"2D6+{defence_mod}", source, purpose=f"{target.name}'s defence roll 防御")
    hit = attack.total > defence.total
    # Each roll with its terms, as the GM-COMBAT-2/3 lines give them (genso67 NIT 3: the
    # knight's +11, Body 6 + Combat 5, and a full attack's or dodge's bonus went unsaid).
    defended = (_defence_terms(d_label, d_value, target)
                + (f" + 全力回避/full dodge {dodge}" if dodge else ""))
    if engine < LINES_SAID_SINCE:  # as revisions before 7 said them
        terms, defended = "", ""
    lines.append(Line(rule, f"{attacker.name} attacks: "
                            + (f"{terms}: " if terms else "") + attack.text, attack))
    lines.append(Line(rule, f"{target.name} defends: " + (f"{defended}: " if defended else "")
                            + f"{defence.text} ＞ "
                            + ("命中/hit" if hit else "防御成功/defended"), defence))
    return hit


def _undead_ward(rules: GensoRules, attacker: Combatant, target: Combatant) -> str:
    """GM-MAGIC-7 on the target against an undead attacker: "pg" (the damage less
    ``undead_damage_reduction``) or "gm" (as much more armour)."""
    if attacker.creature is CreatureKind.UNDEAD and target.has("protection"):
        return str(rules.default("GM-MAGIC-7", "version"))
    return ""


def _harmless(rules: GensoRules, attacker: Combatant, target: Combatant, weapon: int) -> bool:
    """GM-MON-2: is ``attacker``'s weapon ``weapon`` a normal one against a target immune to
    normal attacks (通常攻撃無効): no Exorcism on it, and no magic weapon the target's kind
    is harmed by (the Ghost's, unless ``strict_ghost``)?"""
    held = attacker.weapons[weapon]
    return target.immune_normal and not attacker.enchanted(weapon) and not (
        target.magic_weapons_harm and held.magic
        and not rules.default("GM-MON-2", "strict_ghost"))


def _immune_line(attacker: Combatant, target: Combatant, weapon: int) -> Line:
    return Line("GM-MON-2", f"{target.name} is immune to normal attacks (通常攻撃無効): "
                            f"{attacker.weapons[weapon].name} does nothing")


def _attack(rules: GensoRules, state: FightState, action: Attack, source: DiceSource,
            lines: list[Line], engine: int = ENGINE) -> FightState:
    attacker, target = state.get(action.actor), state.get(action.target)
    if target.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        raise IllegalAction(f"{target.name} {target.status.said} and cannot be attacked")
    if attacker.name == target.name:
        raise IllegalAction("a combatant cannot attack itself")
    caster = _in_barrier(rules, state, attacker, target)
    if caster is not None:
        raise IllegalAction(f"GM-MAGIC-5: {attacker.name} (Magic {attacker.magic}) cannot "
                            f"enter {caster.name}'s barrier (Magic {caster.magic})")
    drains = attacker.drain_hp or attacker.drain_mp
    if not drains and not 0 <= action.weapon < len(attacker.weapons):
        raise IllegalAction(f"{attacker.name} has no weapon {action.weapon}")
    stance = Stance.FULL_ATTACK if action.full else Stance.NONE
    state = _swap(state, replace(attacker, stance=stance))
    attacker = state.get(attacker.name)
    if not drains and engine >= NOTHING_SPENT_SINCE \
            and _harmless(rules, attacker, target, action.weapon):
        # Said before any roll (genso72 NIT 4): the to-hit dice were asked for (typed, or
        # thrown before the camera) for an attack whose end was known already.
        lines.append(_immune_line(attacker, target, action.weapon))
        return state
    if not _hit(rules, attacker, target, action.full, source, lines, engine):
        return state
    ward = _undead_ward(rules, attacker, target)
    reduce = rules.num("GM-MAGIC-7", "undead_damage_reduction")
    if drains:
        hp_loss, mp_loss = attacker.drain_hp, attacker.drain_mp
        if ward == "pg":
            hp_loss, mp_loss = max(0, hp_loss - reduce), max(0, mp_loss - reduce)
        # Only what the monster drains (genso67 NIT 4: a Ghost's "HP −0, MP −4"), as the
        # monster list gives it; a drain Protection took to 0 is still named.
        drained = ", ".join(f"{what} −{loss}" for what, loss, listed in (
            ("HP", hp_loss, attacker.drain_hp), ("MP", mp_loss, attacker.drain_mp))
            if listed or engine < LINES_SAID_SINCE)
        lines.append(Line("GM-MON-4", f"{attacker.attack_name}: {drained} "
                                      "(防御点無効/ignores protection"
                                      + (f", 防護呪/Protection −{reduce} each"
                                         if ward == "pg" else "")
                                      + ")"))
        hurt = _harm(rules, target, hp_loss, mp_loss)
    else:
        weapon = attacker.weapons[action.weapon]
        enchanted = attacker.enchanted(action.weapon)
        if _harmless(rules, attacker, target, action.weapon):  # revision 7: after the roll
            lines.append(_immune_line(attacker, target, action.weapon))
            return state
        power = roll(weapon.power, source,
                     purpose=f"damage ダメージ with {weapon.name} {weapon.power}")
        floor = rules.num("GM-CORE-1", "weapon_minimum")
        base = (max(floor, power.total) if rules.default("GM-COMBAT-7", "floor_weapon_roll")
                else power.total)
        extra = attacker.striking + (rules.default("GM-MAGIC-3", "enchanted_extra_damage")
                                     if enchanted else 0)
        armour = target.protection + (reduce if ward == "gm" else 0)
        damage = max(floor, base + extra - armour)
        parts = [f"{weapon.name} {power.text}"]
        if extra:
            parts.append(f"+{extra}")
        parts.append(f"− 防護力/protection {armour}")
        if ward == "pg":
            damage = max(floor, damage - reduce)
            parts.append(f"− 防護呪/Protection {reduce}")
        lines.append(Line("GM-COMBAT-7", " ".join(parts) + f" ＞ {damage} damage", power))
        hurt = _harm(rules, target, damage)
    return _after_harm(rules, state, attacker, hurt, lines)
