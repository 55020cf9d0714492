"""The `genso` character sheet and what is derived from it (GM-CHAR, GM-CORE-3/4, GM-ITEM-3,
GM-COMBAT-8).

A :class:`Character` is what a sheet holds; :func:`derive` computes HP/MP maxima,
attack and defence values, protection, weapons and detection bonuses from it, term
by term, every time it is asked, so a change of gear, rings or skills shows at once.
Every change (the sibling modules) is a function that returns a new character.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Protocol, TypeVar

from companion.errors import IllegalAction
from companion.systems.genso.money import Purse, Rates
from companion.systems.genso.rules import ABILITIES, GensoRules, Grip


class Kind(Enum):
    """PC or NPC (GM-COMBAT-8 and GM-CHAR: PCs follow the formulas, NPCs keep printed numbers)."""

    PC = "pc"
    NPC = "npc"


class Condition(Enum):
    """What GM-COMBAT-8 makes of a sheet's HP and MP: able to act, 行動不能 or 死亡."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"  # 行動不能
    DEAD = "dead"  # 死亡

    @property
    def badge(self) -> str:
        return {Condition.ACTIVE: "", Condition.INCAPACITATED: "INCAPACITATED 行動不能",
                Condition.DEAD: "DEAD 死亡"}[self]


class Hand(Enum):
    """Which hand a magic ring is worn on (GM-ITEM-3)."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def text(self) -> str:
        """The hand in Japanese and English, as a sheet shows it: 左手/left, 右手/right."""
        return f"{'左手' if self is Hand.LEFT else '右手'}/{self.value}"


@dataclass(frozen=True, slots=True)
class Term:
    """One addend of a derived value or check, shown as ``体力/Body 6``."""

    label: str
    value: int

    def __str__(self) -> str:
        return f"{self.label} {self.value:+d}"


@dataclass(frozen=True, slots=True)
class Value:
    """A derived number with the terms it is the sum of (or a printed number as one term)."""

    total: int
    terms: tuple[Term, ...]

    @property
    def text(self) -> str:
        shown = " ".join(f"{t.label} {t.value}" if i == 0 else str(t)
                         for i, t in enumerate(self.terms))
        if len(self.terms) == 1:
            return f"{self.total} ({self.terms[0].label})"
        return f"{self.total} = {shown}"


def _value(*terms: Term) -> Value:
    kept = tuple(t for i, t in enumerate(terms) if i == 0 or t.value)
    return Value(sum(t.value for t in kept), kept)


@dataclass(frozen=True)
class Character:
    """A PC or NPC sheet (GM-CHAR, GM-DATA-1). ``hp``/``mp`` are current values.

    ``max_hp``/``max_mp`` are set only for NPCs whose block prints numbers that do not
    follow HP = Body × 2 (Appendix A.3 Default); ``hp_bonus``/``mp_bonus`` are growth.
    ``mana_stones`` holds the MP left in each carried mana stone (0 = used).
    ``rest_days`` are days rested without a healer that have not yet made a whole HP
    (GM-HEAL-1: 1 HP per 2 days), so single days of rest add up.
    """

    name: str
    kind: Kind
    body: int
    perception: int
    magic: int
    hp: int
    mp: int
    race: str = "人間"
    sex: str = ""
    age: int | None = None
    job: str = "冒険者"
    birth: str = ""
    want: str = ""
    dislike: str = ""
    class_name: str = ""
    level: int = 1
    exp: int = 0
    max_hp: int | None = None
    max_mp: int | None = None
    hp_bonus: int = 0
    mp_bonus: int = 0
    combat: int = 0
    search: int = 0
    trap_bonus: int | None = None
    enemy_bonus: int | None = None
    spells: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    armor: str | None = None
    shield: str | None = None
    printed_power: Mapping[str, str] = field(default_factory=dict)
    printed_protection: Mapping[str, int] = field(default_factory=dict)
    equipment: tuple[str, ...] = ()
    rings_left: tuple[str, ...] = ()
    rings_right: tuple[str, ...] = ()
    storage_mp: int = 0
    mana_stones: tuple[int, ...] = ()
    purse: Purse = field(default_factory=Purse)
    rest_days: int = 0

    def ability(self, name: str) -> int:
        if name not in ABILITIES:
            raise IllegalAction(f"no ability {name!r}; the abilities are {', '.join(ABILITIES)}")
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as it strikes: its striking power (打撃力) and whether it is magic."""

    key: str
    name: str
    power: str
    magic: bool


@dataclass(frozen=True)
class Derived:
    """Everything GM-CORE-3/4, GM-EQUIP and GM-ITEM-3 derive from a sheet."""

    max_hp: Value
    max_mp: Value
    attack: Value
    defence: Value
    protection: Value
    trap_bonus: Value
    enemy_bonus: Value
    weapons: tuple[Weapon, ...]
    striking: int
    rings_work: bool
    magic_level: int
    warnings: tuple[str, ...] = ()


def rates(rules: GensoRules) -> Rates:
    """GM-ECON-1: the exchange rates the seed states."""
    econ = rules.source["GM-ECON-1"]
    return Rates(econ["large_silver_per_gold"], econ["silver_per_large_silver"])


def rings_work(rules: GensoRules, character: Character) -> bool:
    """GM-ITEM-3: two or more magic rings on one hand stop every ring working."""
    most: int = rules.num("GM-ITEM-3", "rings_per_hand")
    return len(character.rings_left) <= most and len(character.rings_right) <= most


def _worn_rings(rules: GensoRules, character: Character) -> tuple[str, ...]:
    if not rings_work(rules, character):
        return ()
    return character.rings_left + character.rings_right


def _working(rules: GensoRules, rings: tuple[str, ...], key: str) -> int:
    """How many of the worn, working rings ``rings`` of kind ``key`` add their bonus: each
    (GM-ITEM-3 Default ``rings_of_a_kind_add``, one on each hand), or the kind once."""
    worn = rings.count(key)
    return worn if rules.default("GM-ITEM-3", "rings_of_a_kind_add") else min(worn, 1)


def _detection(rules: GensoRules, character: Character, printed: int | None, label: str,
               warnings: list[str], rule: str) -> Value:
    per_level = rules.num("GM-CORE-4", "search_per_level")
    derived = character.search * per_level
    if printed is not None and rules.default("GM-CHECK-3", "printed_bonus_replaces_search"):
        if printed != derived:
            warnings.append(f"{rule}: printed {label} +{printed} differs from {per_level} × "
                            f"Search {character.search} = +{derived}; the printed number is "
                            "used")
        return Value(printed, (Term(f"{label}（記載）/printed", printed),))
    return _value(Term(f"探索/Search {character.search}×{per_level}", derived))


def derive(rules: GensoRules, character: Character) -> Derived:
    """GM-CORE-3, GM-CORE-4, GM-EQUIP-1/2/3, GM-ITEM-3: the derived values of a sheet.

    HP = Body × 2 and MP = Magic × 2 for PCs (NPC blocks keep printed maxima); attack =
    defence = Body + Combat level (Default); protection = armour + shield (+1 for a
    working Ring of Protection under its Default); weapon damage +1 for a Ring of Striking.
    """
    warnings: list[str] = []
    hp_label = f"体力/Body {character.body}×{rules.num('GM-CORE-3', 'hp_per_body')}"
    mp_label = f"魔力/Magic {character.magic}×{rules.num('GM-CORE-3', 'mp_per_magic')}"
    base_hp = (Term("記載/printed", character.max_hp) if character.max_hp is not None
               else Term(hp_label, character.body * rules.num("GM-CORE-3", "hp_per_body")))
    base_mp = (Term("記載/printed", character.max_mp) if character.max_mp is not None
               else Term(mp_label, character.magic * rules.num("GM-CORE-3", "mp_per_magic")))
    max_hp = _value(base_hp, Term("成長/growth", character.hp_bonus))
    max_mp = _value(base_mp, Term("成長/growth", character.mp_bonus))
    rings = _worn_rings(rules, character)
    if not rings_work(rules, character):
        warnings.append("GM-ITEM-3: two or more rings on one hand; no magic ring works")
    combat = Term("戦闘/Combat",
                  character.combat * rules.num("GM-CORE-4", "combat_per_level"))
    protecting = _working(rules, rings, "ring_protection")
    ring_defence = (protecting > 0
                    and rules.default("GM-ITEM-3", "protection_ring_adds_to") == "defence")
    attack = _value(Term("体力/Body", character.body), combat)
    defence = _value(Term("体力/Body", character.body), combat,
                     Term("防護の指輪/Ring of Protection",
                          protecting * rules.num("GM-ITEM-3", "protection")
                          if ring_defence else 0))
    # Shown alone when nothing protects: "0 (防具なし/no armour or shield)"; the rule's own
    # name there read "防護力/protection 0 (防護力/protection)" on the sheet.
    armour_terms = [Term("防具なし/no armour or shield", 0)]
    for key in (character.armor, character.shield):
        if key is None:
            continue
        item = rules.item(key)
        points = character.printed_protection.get(key, item.protection)
        armour_terms.append(Term(item.name, points))
    if protecting and not ring_defence:
        armour_terms.append(Term("防護の指輪/Ring of Protection",
                                 protecting * rules.num("GM-ITEM-3", "protection")))
    held_two = [rules.item(k).name for k in character.weapons
                if rules.item(k).grip is Grip.TWO_HANDS]
    if character.shield and held_two and rules.default("GM-EQUIP-1", "two_hands_no_shield"):
        # A sheet written so by hand, or from before the Default: warned, not changed, so a
        # fight saved with it keeps its numbers (`genso gear` refuses to make one).
        warnings.append(f"GM-EQUIP-1: {', '.join(held_two)} held in two hands (両手) beside "
                        f"{rules.item(character.shield).name}: the Default two_hands_no_shield "
                        "leaves no hand for a shield; its protection still counts here, so "
                        "put one of them in the pack")
    protection = Value(sum(t.value for t in armour_terms),
                       tuple(armour_terms[1:]) or (armour_terms[0],))
    weapons = []
    for key in character.weapons:
        item = rules.item(key)
        printed = character.printed_power.get(key)
        weapons.append(Weapon(key, item.name, printed or item.power, item.magic))
    # Anyone can strike with a fist (拳 1D−4); it comes last so a readied weapon is weapon 0.
    weapons.append(Weapon("fist", rules.item("fist").name, rules.item("fist").power, False))
    striking = _working(rules, rings, "ring_striking") * rules.num("GM-ITEM-3", "striking")
    return Derived(
        max_hp, max_mp, attack, defence, protection,
        _detection(rules, character, character.trap_bonus, "罠発見/trap detection", warnings,
                   "GM-CHECK-3"),
        _detection(rules, character, character.enemy_bonus, "敵発見/enemy detection", warnings,
                   "GM-CHECK-6"),
        tuple(weapons), striking, rings_work(rules, character), len(character.spells),
        tuple(warnings),
    )


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


_W = TypeVar("_W", bound=_Keyed)


def numbered_weapons(weapons: Sequence[_W]) -> list[tuple[int, _W]]:
    """``weapons`` with the numbers `fight attack --weapon N` takes, as a sheet or a menu
    lists them: the fist :func:`derive` adds last left out when the sheet lists one already
    (genso72 NIT 8: "0 拳/Fist 1D6-4, 1 拳/Fist 1D6-4"). It stays in the list, so a fight
    saved striking with it replays."""
    listed = list(enumerate(weapons))
    if len(listed) > 1 and listed[-1][1].key == "fist" and any(
            w.key == "fist" for _, w in listed[:-1]):
        listed.pop()
    return listed


def death_below(rules: GensoRules, pc: bool) -> int:
    """GM-COMBAT-8: HP below this is death. A PC dies below −5 by the glossary (Default), or
    below 1 under "strict 4-6"; an NPC or a monster with a body dies below 1 (PG 4-6)."""
    if pc and not rules.default("GM-COMBAT-8", "strict_4_6"):
        return int(rules.default("GM-COMBAT-8", "pc_death_below"))
    return 1


def condition(rules: GensoRules, character: Character) -> Condition:
    """GM-COMBAT-8 on a sheet: dead below :func:`death_below`, else incapacitated (行動不能)
    with HP or MP below 1."""
    if character.hp < death_below(rules, character.kind is Kind.PC):
        return Condition.DEAD
    if character.hp < 1 or character.mp < 1:
        return Condition.INCAPACITATED
    return Condition.ACTIVE


def refuse_dead(rules: GensoRules, character: Character, what: str) -> None:
    """Refuse ``what`` for a dead character: nothing in the seed brings the dead back."""
    if condition(rules, character) is Condition.DEAD:
        raise IllegalAction(
            f"{character.name} is dead (死亡: HP {character.hp}, below "
            f"{death_below(rules, character.kind is Kind.PC)}, GM-COMBAT-8); {what} does not "
            "bring the dead back")


def clamp(rules: GensoRules, character: Character) -> Character:
    """Keep current HP and MP at or below their maxima after anything changes them."""
    derived = derive(rules, character)
    return replace(character, hp=min(character.hp, derived.max_hp.total),
                   mp=min(character.mp, derived.max_mp.total))
