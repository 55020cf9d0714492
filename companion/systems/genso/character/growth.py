"""`genso` growth: experience awarded and spent (GM-GROW-1/2)."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.genso.character.core import Character, refuse_dead
from companion.systems.genso.rules import GensoRules


def award_experience(rules: GensoRules, character: Character, scenarios: int = 1) -> Character:
    """GM-GROW-1: the GM gives each PC 1 experience point per finished scenario. Not to the
    dead, who can spend none (GM-GROW-2 refuses them) and whom nothing in the seed brings
    back (reviewg70: a Death Curse's dead were refused and the HP-dead awarded); the
    incapacitated (行動不能) are alive, and awarded."""
    refuse_dead(rules, character, "experience (GM-GROW-1)")
    if scenarios < 1:
        raise IllegalAction("award experience for at least one scenario")
    return replace(character, exp=character.exp + scenarios * rules.num("GM-GROW-1",
                                                                        "per_scenario"))


GROWTH_CHOICES = ("hp", "mp", "spell", "combat", "search")


def _grown(printed: int | None, step: int) -> int | None:
    return None if printed is None else printed + step


def spend_experience(rules: GensoRules, character: Character, choice: str,
                     spell: str | None = None) -> Character:
    """GM-GROW-2: 1 point buys HP+1 or MP+1; 2 points buy a basic spell, Combat +1 or Search +1.

    HP+1 and MP+1 raise the maximum, and the current value with it (Default); Search +1
    gives +2 to trap and enemy detection, printed bonuses (an NPC's block) too. A dead
    character grows no more: HP+1 would lift it back above GM-COMBAT-8's line.
    """
    refuse_dead(rules, character, "growth (GM-GROW-2)")
    if choice not in GROWTH_CHOICES:
        raise IllegalAction(f"GM-GROW-2: choose one of {', '.join(GROWTH_CHOICES)}")
    cost = rules.num("GM-GROW-2", choice)
    if character.exp < cost:
        raise IllegalAction(f"GM-GROW-2: {choice} costs {cost} experience; "
                            f"{character.name} has {character.exp}")
    paid = replace(character, exp=character.exp - cost)
    if choice == "hp":
        return replace(paid, hp_bonus=paid.hp_bonus + 1, hp=paid.hp + 1)
    if choice == "mp":
        return replace(paid, mp_bonus=paid.mp_bonus + 1, mp=paid.mp + 1)
    if choice == "combat":
        return replace(paid, combat=paid.combat + 1)
    if choice == "search":
        # 「探索に＋１ 罠発見と敵発見に＋２する」: a printed detection bonus grows with it.
        step = rules.num("GM-CORE-4", "search_per_level")
        return replace(paid, search=paid.search + 1,
                       trap_bonus=_grown(paid.trap_bonus, step),
                       enemy_bonus=_grown(paid.enemy_bonus, step))
    if spell is None:
        raise IllegalAction("GM-GROW-2: name the basic spell (基本呪文) to learn")
    learnt = rules.spell(spell)
    if learnt.group != "basic":
        raise IllegalAction(f"GM-GROW-2: {learnt.name} is not a basic spell (基本呪文)")
    if learnt.key in character.spells:
        raise IllegalAction(f"{character.name} already knows {learnt.name}")
    return replace(paid, spells=(*character.spells, learnt.key))
