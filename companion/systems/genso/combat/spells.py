"""Spell casting in a `genso` fight: paying MP (own, mana stone, Ring of Storage), whom a
spell lands on, and what each tracked basic spell does.

Rules: GM-MAGIC-1 (casting, cost, targets, armour against spells), GM-ITEM-1 and
GM-ITEM-3 (paying from mana stones and a Ring of Storage), GM-COMBAT-8 (falling below
1 MP), GM-MAGIC-2 (Healing), GM-MAGIC-3 (Exorcism), GM-MON-5 (an exorcised corpse),
GM-MAGIC-4 (Dispel), GM-MAGIC-5 (Barrier), GM-MAGIC-10 (Fire), GM-MAGIC-11 (Lightning).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.genso.combat.actions import Cast
from companion.systems.genso.combat.combatants import Combatant, Effect, Stance, Status
from companion.systems.genso.combat.harm import (
    _after_harm,
    _harm,
    _heal,
    _status,
    full_already,
)
from companion.systems.genso.combat.journal import (
    EXORCISM_AIMED_SINCE,
    NOTHING_SPENT_SINCE,
    WEAPON_NUMBERED_SINCE,
    Line,
)
from companion.systems.genso.combat.state import FightState, _swap
from companion.systems.genso.rules import CreatureKind, Duration, GensoRules, Spell


def own_mp_paid(caster: Combatant, cost: int, stone: int | None, ring: bool = False) -> int:
    """GM-MAGIC-1, GM-ITEM-1, GM-ITEM-3: the caster's own MP a spell of ``cost`` takes, after
    a Ring of Storage's stored MP (``ring``) and then the mana stone ``stone`` paid what they
    hold, as :func:`_pay` takes them: what tells, before a cast, whether it leaves the caster
    below 1 MP (the table asks first, genso74 RISK 3)."""
    from_ring = min(caster.storage_mp, cost) if ring else 0
    from_stone = 0
    if stone is not None and cost > from_ring and 0 <= stone < len(caster.mana_stones):
        from_stone = min(caster.mana_stones[stone], cost - from_ring)
    return cost - from_ring - from_stone


def _pay(rules: GensoRules, caster: Combatant, cost: int, stone: int | None,
         lines: list[Line], ring: bool = False, said_whole: bool = True) -> Combatant:
    """GM-MAGIC-1, GM-ITEM-1, GM-ITEM-3: pay MP, from a Ring of Storage's stored MP first
    when asked, then a mana stone when one is named, then the caster's own
    (:func:`own_mp_paid`). With ``said_whole`` (engine revision
    :data:`~.journal.EXORCISM_AIMED_SINCE` on) a cast the ring or a stone paid in full says
    what paid it alone, not "MP −0, Ring of Storage −4" (genso74 NIT 8)."""
    if ring:
        if not rules.default("GM-ITEM-1", "stones_pay_for_spells"):
            raise IllegalAction("GM-ITEM-1 Default: stored MP does not pay for spells")
        if caster.storage_mp < 1:
            raise IllegalAction(f"GM-ITEM-3: {caster.name} wears no working Ring of Storage "
                                "with MP stored")
    from_ring = min(caster.storage_mp, cost) if ring else 0
    stones = list(caster.mana_stones)
    if stone is not None and cost > from_ring:
        if not rules.default("GM-ITEM-1", "stones_pay_for_spells"):
            raise IllegalAction("GM-ITEM-1 Default: mana stones do not pay for spells")
        if not 0 <= stone < len(stones) or stones[stone] == 0:
            raise IllegalAction(f"{caster.name} has no charged mana stone {stone}")
    own = own_mp_paid(caster, cost, stone, ring)
    from_stone = cost - from_ring - own
    if from_stone:
        assert stone is not None
        stones[stone] -= from_stone
    if caster.mp < own:
        # The shortfall is what lacks, not the whole cost: "needs 4 (1 more)" of 3 MP, where
        # it said "needs 4 more" (reviewg74 NIT 9).
        raise IllegalAction(f"GM-MAGIC-1: {caster.name} has {caster.mp} MP, the spell needs "
                            f"{own} of its own ({own - caster.mp} more)")
    if caster.mp - own < 1:
        lines.append(Line("GM-MAGIC-1", f"warning: {caster.name} falls below 1 MP and is "
                                        "incapacitated (GM-COMBAT-8)"))
    parts = [f"MP −{own}"] if own or not said_whole else []
    parts += [f"蓄積の指輪/Ring of Storage −{from_ring}"] if from_ring else []
    parts += [f"魔力石/mana stone −{from_stone}"] if from_stone else []
    paid = ", ".join(parts)
    lines.append(Line("GM-ITEM-3" if from_ring else "GM-MAGIC-1", f"{caster.name} pays {paid}"))
    return replace(caster, mp=caster.mp - own, mana_stones=tuple(stones),
                   storage_mp=caster.storage_mp - from_ring)


def _spell_damage(rules: GensoRules, state: FightState, caster: Combatant, target: Combatant,
                  amount: int, rule: str, lines: list[Line], engine: int) -> FightState:
    """Damage from a spell. GM-MON-2: 「通常攻撃無効」 names weapons, so by the Default
    ``attack_spells_harm_immune`` Fire and Lightning harm the immune (Ghost, Wight, Wraith)
    too; off, they do nothing to them (Exorcism harms the undead either way, its effect).
    Engine revision 3 and before had no such setting: they harmed them (review60a D2)."""
    if (rule in ("GM-MAGIC-10", "GM-MAGIC-11") and target.immune_normal and engine >= 4
            and not rules.default("GM-MON-2", "attack_spells_harm_immune")):
        lines.append(Line("GM-MON-2", f"{target.name} is immune to normal attacks "
                                      f"(通常攻撃無効), and to attack spells by the setting "
                                      "(設定により攻撃呪文も無効): no damage (ダメージなし)"))
        return state
    if rules.default("GM-MAGIC-1", "armor_reduces_spells"):
        amount = max(0, amount - target.protection)
    lines.append(Line(rule, f"{target.name} takes {amount} damage"))
    return _after_harm(rules, state, caster, _harm(rules, state.get(target.name), amount),
                       lines)


def _spell_targets(state: FightState, caster: Combatant, spell: Spell, named: tuple[str, ...],
                   legacy: bool) -> list[Combatant]:
    """GM-MAGIC-1: whom a spell lands on, by its ``aim`` (spells.toml, the seed's 対象).

    Only a spell aimed at the caster (a Barrier around it) falls on the caster when no
    target is named; any other needs its target named (a Lightning cast at nobody is
    refused, not loosed on its caster), and no target may be named twice: a second name
    is far likelier a slip for another target than a wish to hit one twice, so it is
    refused rather than quietly dropped.
    """
    if legacy:  # engine revision 1, for fights saved before the fix
        targets = [state.get(t) for t in named] or [caster]
        single = ("heal", "exorcise", "dispel", "ward", "conceal", "lightning")
        if spell.effect in single and len(targets) != 1:
            raise IllegalAction(f"{spell.name} takes one target")
        return targets
    twice = [name for name, count in Counter(named).items() if count > 1]
    if twice:
        raise IllegalAction(f"{spell.name}: {twice[0]} is named twice; name each target once "
                            "(a spell strikes each being once)")
    if spell.aim == "object" or (spell.aim == "one_or_object" and not named):
        if named:
            raise IllegalAction(f"{spell.name} goes on an object ({spell.target}), not on a "
                                "combatant: name no target")
        return []
    if spell.aim == "caster":
        return [state.get(t) for t in named] or [caster]
    if not named:
        need = "the one being it is cast on" if spell.aim == "one" else (
            "everyone the GM puts in its area")
        raise IllegalAction(f"{spell.name} needs a target ({spell.target}): name {need}")
    if spell.aim in ("one", "one_or_object") and len(named) != 1:
        raise IllegalAction(f"{spell.name} takes one target ({spell.target})")
    return [state.get(t) for t in named]


def _dispel(rules: GensoRules, state: FightState, caster: Combatant, target: Combatant,
            weapon: int | None, engine: int, lines: list[Line]) -> FightState:
    """GM-MAGIC-4: 「対象に付与された呪文を一つ無効化する」, oldest first, neither a permanent
    spell nor one of a caster with higher Magic. Exorcism 「武器に付与」 is the weapon's, so a
    Dispel on the being leaves it and a Dispel on that weapon (``weapon``) reaches only it,
    not another of its kind (engine revision 10, :data:`.journal.WEAPON_NUMBERED_SINCE`);
    engine revision 2 and before mixed the two (:data:`.journal.ENGINE`)."""
    on = target.name
    if engine < 3:
        mine = list(target.effects)
    elif weapon is None:
        mine = [e for e in target.effects if not e.weapon]
    else:
        if not 0 <= weapon < len(target.weapons):
            raise IllegalAction(f"{target.name} has no weapon {weapon}")
        held = target.weapons[weapon]
        on = f"{target.name}'s {held.name}"
        mine = target.weapon_effects(weapon)
    eligible = [e for e in mine if e.duration is not Duration.PERMANENT
                and e.caster_magic <= caster.magic]
    if not eligible:
        lines.append(Line("GM-MAGIC-4", f"no spell on {on} can be cancelled"))
        return state
    oldest = min(eligible, key=lambda e: e.order)
    first = min(mine, key=lambda e: e.order)
    if first != oldest:  # the oldest cannot be cancelled: the Default says what then
        reading = rules.default("GM-MAGIC-4", "oldest_cannot_be_cancelled")
        tag = rules.settings.tag("GM-MAGIC-4", "oldest_cannot_be_cancelled")
        if reading == "cancel_none":
            lines.append(Line("GM-MAGIC-4", f"the oldest spell on {on}, "
                                            f"{rules.spell(first.spell).name} by {first.caster}, "
                                            f"cannot be cancelled, so none is (cancel_none{tag})"))
            return state
        lines.append(Line("GM-MAGIC-4", f"the oldest spell on {on}, "
                                        f"{rules.spell(first.spell).name} by {first.caster}, "
                                        f"cannot be cancelled: the next is (cancel_next{tag})"))
    lines.append(Line("GM-MAGIC-4", f"{rules.spell(oldest.spell).name} by {oldest.caster} "
                                    f"on {on} is cancelled"))
    return _swap(state, replace(target, effects=tuple(e for e in target.effects
                                                      if e != oldest)))


class MisaimedExorcism(IllegalAction):
    """An Exorcism refused for its target (:func:`_exorcism_aimed`), with the undead it could
    go on kept apart, so a command line names each as it is typed (``ワイト Wight = wight``)
    and says how a weapon is aimed at (reviewg74 NIT 4); its plain text names them as the
    fight does, for the table, which adds the English."""

    def __init__(self, head: str, undead: tuple[str, ...]) -> None:
        self.head, self.undead = head, undead
        super().__init__(self.said())

    def said(self, name: Callable[[str], str] = str, weapon: str = "a weapon") -> str:
        """The refusal, each undead as ``name`` gives it, a weapon's aim as ``weapon``."""
        where = (f"an undead ({', '.join(name(u) for u in self.undead)})" if self.undead
                 else "an undead (none is in the fight)")
        return f"{self.head}; it goes on {where}, a victim's corpse before it rises, or " \
               f"{weapon} till sunrise"


def _exorcism_aimed(state: FightState, target: Combatant) -> None:
    """GM-MAGIC-3, GM-MON-5: refuse, before any MP is paid, an Exorcism on a being it does
    nothing to: 「一体の不死族に…ダメージ」 harms only the undead, and on a corpse it only
    stops a Wight's or Wraith's victim rising. Revision 8 paid 4 MP and the turn for "no
    effect" (genso74 RISK 4), as an Enchant Stone on a foe not immune was used up."""
    undead = tuple(c.name for c in state.order
                   if c.creature is CreatureKind.UNDEAD
                   and c.status not in (Status.DEAD, Status.VANISHED, Status.FLED))
    if target.status is Status.DEAD and not target.rises_as:
        why = (f"rose at sunset already ({target.risen_as}'s kind): too late, 「あらかじめ」"
               if target.risen_as else "has no rising to stop")
        raise MisaimedExorcism(f"GM-MAGIC-3 退魔呪/Exorcism: {target.name}'s corpse {why} "
                               "(GM-MON-5): the MP would be spent for nothing", undead)
    if target.status is not Status.DEAD and target.creature is not CreatureKind.UNDEAD:
        raise MisaimedExorcism(f"GM-MAGIC-3 退魔呪/Exorcism: {target.name} is not undead "
                               "(不死族), the only being it harms: the MP would be spent for "
                               "nothing", undead)


def _cast(rules: GensoRules, state: FightState, action: Cast, lines: list[Line],
          engine: int) -> FightState:
    legacy = engine < 2
    caster = state.get(action.actor)
    spell = rules.spell(action.spell)
    if spell.group != "basic" or spell.mp is None:
        raise IllegalAction(f"{spell.name} ({spell.rule}) is told by the GM, not tracked")
    if rules.default("GM-MAGIC-1", "known_spells_only") and spell.key not in caster.spells:
        raise IllegalAction(f"GM-MAGIC-1: {caster.name} does not know {spell.name}")
    targets = _spell_targets(state, caster, spell, action.targets, legacy)
    for target in targets:
        if target.status in (Status.VANISHED, Status.FLED) or (
                target.status is Status.DEAD and spell.effect != "exorcise"):
            raise IllegalAction(f"{target.name} {target.status.said}")
    if spell.effect == "exorcise" and action.weapon is None and targets \
            and engine >= EXORCISM_AIMED_SINCE:
        _exorcism_aimed(state, targets[0])
    caster = _pay(rules, caster, spell.mp, action.stone, lines, action.ring,
                  said_whole=engine >= EXORCISM_AIMED_SINCE)
    caster = replace(caster, stance=Stance.NONE, status=_status(rules, caster))
    order = state.spells_cast + 1
    state = replace(_swap(state, caster), spells_cast=order)
    caster = state.get(caster.name)
    if not targets:  # Mark and Seal Lock act on objects outside the tracker
        lines.append(Line(spell.rule, f"{caster.name} casts {spell.name} on an object "
                                      f"({spell.target})"))
        return state
    lines.append(Line(spell.rule, f"{caster.name} casts {spell.name} on "
                                  f"{', '.join(t.name for t in targets)}"))

    def effect(weapon: str = "", members: tuple[str, ...] = (),
               index: int | None = None) -> Effect:
        # GM-MAGIC-3: Exorcism is permanent on a being but lasts until sunrise on a weapon.
        duration = Duration.DAY if weapon else spell.duration
        return Effect(spell.key, caster.name, caster.magic, duration, order, weapon, members,
                      index)

    target = state.get(targets[0].name)
    if spell.effect == "heal":
        healed = _heal(target, caster.magic, rules.default("GM-MAGIC-2", "cap_at_max_hp"))
        lines.append(Line("GM-MAGIC-2", f"{target.name} regains up to {caster.magic} HP: "
                                        f"HP {healed.hp}/{healed.max_hp}"
                          + (full_already(rules, target) if engine >= NOTHING_SPENT_SINCE else "")))
        return _swap(state, replace(healed, status=_status(rules, healed)))
    if spell.effect == "exorcise":
        if action.weapon is not None:
            if not 0 <= action.weapon < len(target.weapons):
                raise IllegalAction(f"{target.name} has no weapon {action.weapon}")
            weapon = target.weapons[action.weapon]
            lines.append(Line("GM-MAGIC-3", f"{target.name}'s {weapon.name} carries Exorcism "
                                            "until the next sunrise"))
            # GM-MAGIC-3 「武器に付与」: that weapon, not every one of its kind (revision 9
            # and before: by its key, so of two clubs both harmed a Wight)
            index = action.weapon if engine >= WEAPON_NUMBERED_SINCE else None
            return _swap(state, replace(target, effects=(
                *target.effects, effect(weapon=weapon.key, index=index))))
        if target.status is Status.DEAD and target.rises_as:
            lines.append(Line("GM-MON-5", f"{target.name}'s corpse is exorcised and will not "
                                          "rise"))
            return _swap(state, replace(target, rises_as=""))
        if target.status is Status.DEAD:  # 「あらかじめ」: once risen at sunset, too late
            lines.append(Line("GM-MON-5", f"{target.name}'s corpse is exorcised: no rising to "
                                          "stop (a Wight's or Wraith's victim before sunset)"))
            return state
        if target.creature is not CreatureKind.UNDEAD:
            lines.append(Line("GM-MAGIC-3", f"{target.name} is not undead: no effect"))
            return state
        return _spell_damage(rules, state, caster, target, caster.magic, "GM-MAGIC-3", lines,
                             engine)
    if spell.effect == "dispel":
        return _dispel(rules, state, caster, target, action.weapon, engine, lines)
    if spell.effect == "barrier":
        members = tuple(dict.fromkeys((caster.name, *action.targets)))
        lines.append(Line("GM-MAGIC-5", f"barrier {rules.default('GM-MAGIC-5', 'diameter_m')} m "
                                        f"across around {caster.name} holding "
                                        f"{', '.join(members)}: undead with Magic below "
                                        f"{caster.magic} cannot enter"))
        return _swap(state, replace(caster, effects=(*caster.effects, effect(members=members))))
    if spell.effect in ("ward", "conceal"):
        return _swap(state, replace(target, effects=(*target.effects, effect())))
    if spell.effect == "fire":
        for each in targets:
            state = _spell_damage(rules, state, caster, each, caster.magic, "GM-MAGIC-10",
                                  lines, engine)
        return state
    if spell.effect == "lightning":
        times = rules.num("GM-MAGIC-11", "magic_multiplier")  # 魔力値ｘ２
        return _spell_damage(rules, state, caster, target, caster.magic * times,
                             "GM-MAGIC-11", lines, engine)
    return state  # Mark and Seal Lock act on objects outside the tracker
