"""Characters of `genso`: creation, derived values, gear, money, recovery and growth.

A :class:`Character` is what a sheet holds; :func:`derive` computes HP/MP maxima,
attack and defence values, protection, weapons and detection bonuses from it, term
by term, every time it is asked, so a change of gear, rings or skills shows at once.
Every change is a function that returns a new character.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from companion.dice import DiceSource, Result
from companion.errors import IllegalAction
from companion.systems.genso.money import Purse, Rates, times
from companion.systems.genso.rules import ABILITIES, GensoRules, Item, Slot


class HeldNotInPack(IllegalAction):
    """A sale of an item the character holds or wears (only the pack's goods are sold):
    ``item`` is its key, for a caller that names how it is taken off."""

    def __init__(self, message: str, item: str) -> None:
        super().__init__(message)
        self.item = item


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


def _detection(rules: GensoRules, character: Character, printed: int | None, label: str,
               warnings: list[str], rule: str) -> Value:
    per_level = rules.num("GM-CORE-4", "search_per_level")
    derived = character.search * per_level
    if printed is not None and rules.default("GM-CHECK-3", "printed_bonus_replaces_search"):
        if printed != derived:
            warnings.append(f"{rule}: printed {label} +{printed} differs from 2 × Search "
                            f"{character.search} = +{derived}; the printed number is used")
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
    ring_defence = ("ring_protection" in rings
                    and rules.default("GM-ITEM-3", "protection_ring_adds_to") == "defence")
    attack = _value(Term("体力/Body", character.body), combat)
    defence = _value(Term("体力/Body", character.body), combat,
                     Term("防護の指輪/Ring of Protection",
                          rules.num("GM-ITEM-3", "protection") if ring_defence else 0))
    armour_terms = [Term("防護力/protection", 0)]
    for key in (character.armor, character.shield):
        if key is None:
            continue
        item = rules.item(key)
        points = character.printed_protection.get(key, item.protection)
        armour_terms.append(Term(item.name, points))
    if "ring_protection" in rings and not ring_defence:
        armour_terms.append(Term("防護の指輪/Ring of Protection",
                                 rules.num("GM-ITEM-3", "protection")))
    protection = Value(sum(t.value for t in armour_terms),
                       tuple(armour_terms[1:]) or (armour_terms[0],))
    weapons = []
    for key in character.weapons:
        item = rules.item(key)
        printed = character.printed_power.get(key)
        weapons.append(Weapon(key, item.name, printed or item.power, item.magic))
    # Anyone can strike with a fist (拳 1D−4); it comes last so a readied weapon is weapon 0.
    weapons.append(Weapon("fist", rules.item("fist").name, rules.item("fist").power, False))
    striking = rules.num("GM-ITEM-3", "striking") if "ring_striking" in rings else 0
    return Derived(
        max_hp, max_mp, attack, defence, protection,
        _detection(rules, character, character.trap_bonus, "罠発見/trap detection", warnings,
                   "GM-CHECK-3"),
        _detection(rules, character, character.enemy_bonus, "敵発見/enemy detection", warnings,
                   "GM-CHECK-6"),
        tuple(weapons), striking, rings_work(rules, character), len(character.spells),
        tuple(warnings),
    )


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


def _not_dead(rules: GensoRules, character: Character, what: str) -> None:
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


# --- creation (GM-CHAR-1 to GM-CHAR-7) ----------------------------------------------------


@dataclass(frozen=True)
class Creation:
    """A new PC and the rolls that made it (GM-CHAR-1/2/3), each with its table and row."""

    character: Character
    rolls: tuple[tuple[str, Result, str], ...]


def create_character(
    rules: GensoRules,
    source: DiceSource,
    *,
    name: str,
    sex: str,
    age: int,
    abilities: Mapping[str, int],
    skill: str,
) -> Creation:
    """GM-CHAR-1 to GM-CHAR-7: a PC by the seed's tables, every roll from ``source``.

    Birth, want and dislike are rolled on 1D tables; age is 15–17; 6, 5 and 4 go to
    Body, Perception and Magic one each; one starting skill is chosen; the basic kit is
    free and the purse holds the seed's starting money.
    """
    low, high = rules.num("GM-CHAR-4", "age_min"), rules.num("GM-CHAR-4", "age_max")
    if not low <= age <= high:
        raise IllegalAction(f"GM-CHAR-4: a PC's age is {low}–{high} (１５～１７才), not {age}")
    if not name.strip():
        raise IllegalAction("GM-CHAR-4: a PC needs a name")
    wanted = sorted(rules.num("GM-CHAR-5", "ability_values"), reverse=True)
    if set(abilities) != set(ABILITIES) or sorted(abilities.values(), reverse=True) != wanted:
        raise IllegalAction(
            "GM-CHAR-5: give Body, Perception and Magic (体力・知覚力・魔力) the values "
            f"{', '.join(map(str, wanted))}, one each; got {dict(abilities)}"
        )
    skills = rules.num("GM-CHAR-6", "skills")
    if skill not in skills:
        raise IllegalAction(f"GM-CHAR-6: choose one starting skill of {', '.join(skills)}")
    rolls = []
    picked: dict[str, str] = {}
    for key in ("birth", "want", "dislike"):
        table = rules.tables[key]
        result, row = table.roll_on(source)
        picked[key] = row["ja"]
        rolls.append((table.rule, result, f"{table.title}: {row['ja']}/{row['en']}"))
    kit = [rules.item(k) for k in rules.num("GM-CHAR-7", "kit")]
    money = rules.source["GM-CHAR-7"]
    body, magic = abilities["body"], abilities["magic"]
    character = Character(
        name=name.strip(), kind=Kind.PC, body=body, perception=abilities["perception"],
        magic=magic, hp=body * rules.num("GM-CORE-3", "hp_per_body"),
        mp=magic * rules.num("GM-CORE-3", "mp_per_magic"), sex=sex, age=age,
        birth=picked["birth"], want=picked["want"], dislike=picked["dislike"],
        combat=1 if skill == "combat" else 0, search=1 if skill == "search" else 0,
        spells=(rules.num("GM-CHAR-6", "magic_spell"),) if skill == "magic" else (),
        weapons=tuple(i.key for i in kit if i.slot is Slot.WEAPON),
        equipment=tuple(i.key for i in kit if i.slot is not Slot.WEAPON),
        purse=Purse(money["gold"], money["large_silver"], money["silver"]),
    )
    return Creation(character, tuple(rolls))


# --- gear, rings and money (GM-EQUIP, GM-ITEM, GM-ECON) ---------------------------------------


def _set(character: Character, attr: str, value: Any, **more: Any) -> Character:
    """``replace`` with a field chosen at run time (armour or shield, left or right hand)."""
    changes: dict[str, Any] = {attr: value, **more}
    return replace(character, **changes)


def _drop(items: tuple[str, ...], key: str) -> tuple[str, ...]:
    index = items.index(key)
    return items[:index] + items[index + 1:]


def equip(rules: GensoRules, character: Character, key: str) -> Character:
    """GM-EQUIP-1/2/3: ready a carried weapon, or wear carried armour or a shield.

    The armour or shield taken off goes back into the pack.
    """
    item = rules.item(key)
    if item.key not in character.equipment:
        raise IllegalAction(f"{character.name} carries no {item.name} to equip")
    pack = _drop(character.equipment, item.key)
    if item.slot is Slot.WEAPON:
        return replace(character, equipment=pack, weapons=(*character.weapons, item.key))
    if item.slot in (Slot.ARMOR, Slot.SHIELD):
        attr = "armor" if item.slot is Slot.ARMOR else "shield"
        old = getattr(character, attr)
        return _set(character, attr, item.key, equipment=pack + ((old,) if old else ()))
    raise IllegalAction(f"{item.name} cannot be equipped: only weapons, armour, shields and "
                        "magic rings (worn on a hand) are")


def unequip(rules: GensoRules, character: Character, key: str) -> Character:
    """Put a readied weapon, worn armour or shield back into the pack."""
    item = rules.item(key)
    if item.key in character.weapons:
        return replace(character, weapons=_drop(character.weapons, item.key),
                       equipment=(*character.equipment, item.key))
    for attr in ("armor", "shield"):
        if getattr(character, attr) == item.key:
            return _set(character, attr, None, equipment=(*character.equipment, item.key))
    raise IllegalAction(f"{character.name} has no {item.name} readied or worn")


def storage_capacity(rules: GensoRules, character: Character) -> int:
    """GM-ITEM-3 蓄積の指輪/Ring of Storage 「５ＭＰを蓄積できる指輪。」: the most MP the worn
    Rings of Storage hold, 5 for each one worn, one on each hand at most while rings work.

    ``storage_mp`` is the MP they hold together, one pool: the seed does not say which of two
    rings a spell's MP comes from, and ``fight cast --ring`` pays from what they hold. A ring
    stopped by a second ring on its hand counts too: it keeps what it holds, which is not
    to be spent while it is stopped (a fight counts none, :func:`.combatants.from_character`).
    """
    worn = (*character.rings_left, *character.rings_right).count("ring_storage")
    return worn * int(rules.num("GM-ITEM-3", "storage"))


def put_on_ring(rules: GensoRules, character: Character, key: str, hand: Hand) -> Character:
    """GM-ITEM-3: wear a carried magic ring; a Ring of Storage absorbs up to 5 MP at once.

    「指輪をつけた時点で５ＭＰをつけた生物から吸収する。」: each Ring of Storage takes its own 5
    (MP the wearer has), added to what the rings already worn hold (:func:`storage_capacity`),
    so one on each hand (「片手に２個以上」 is what stops them) take 10 and hold 10.
    MP taken below 1 leaves the wearer incapacitated (GM-COMBAT-8, shown by the tracker).
    A Ring of Storage put on where no ring works (two on one hand) absorbs nothing: 「全ての
    魔法の指輪が機能しなくなる」 takes in its own absorbing, which happens 「指輪をつけた時点で」,
    so it holds no MP until it is put on again where rings work. A second ring put on over
    a Ring of Storage that holds MP stops it and takes nothing from it: the MP stays stored,
    not to be spent while it is stopped.
    """
    item = rules.item(key)
    if item.slot is not Slot.RING or item.key not in character.equipment:
        raise IllegalAction(f"{character.name} carries no magic ring {item.name}")
    attr = "rings_left" if hand is Hand.LEFT else "rings_right"
    worn = _set(character, attr, (*getattr(character, attr), item.key),
                equipment=_drop(character.equipment, item.key))
    if item.key == "ring_storage" and rings_work(rules, worn):
        taken = min(rules.num("GM-ITEM-3", "storage"), max(character.mp, 0))
        worn = replace(worn, mp=character.mp - taken, storage_mp=character.storage_mp + taken)
    return worn


def take_off_ring(rules: GensoRules, character: Character, key: str) -> Character:
    """GM-ITEM-3: take a ring off; a Ring of Storage keeps no MP once off (refills on wearing).

    With two Rings of Storage worn, the one taken off takes away only what the other cannot
    hold (:func:`storage_capacity`): of their one pool, the MP spent is counted against the
    ring taken off, so the ring still worn keeps up to its 5. That is the most the player
    could have kept by paying from that ring first, and the sheet needs no MP per ring.
    """
    item = rules.item(key)
    for attr in ("rings_left", "rings_right"):
        worn: tuple[str, ...] = getattr(character, attr)
        if item.key in worn:
            changed = _set(character, attr, _drop(worn, item.key),
                           equipment=(*character.equipment, item.key))
            return replace(changed, storage_mp=min(changed.storage_mp,
                                                   storage_capacity(rules, changed)))
    raise IllegalAction(f"{character.name} wears no {item.name}")


def _set_price(item: Item, price: int) -> int:
    """GM-EQUIP-3: a price the GM sets for an おおよそ (about) one; the seed bounds it no
    further, but a price is never below 0."""
    if price < 0:
        raise IllegalAction(f"{item.name}: a price is 0 silver or more, not {price}")
    return price


def price_of(rules: GensoRules, item: Item, price: int | None = None) -> int:
    """GM-EQUIP, GM-ECON-2: an item's price in silver; a "～" price may be set higher, an
    おおよそ (about) one higher or lower (GM-EQUIP-3: 販売はおおよそ金貨１００枚)."""
    if item.price is None:
        raise IllegalAction(f"{item.name} is not for sale in the price tables")
    if price is None:
        return item.price
    if item.price_about:
        return _set_price(item, price)
    if price < item.price or (price != item.price and not item.price_from):
        written = f"{item.price_coins.text()}, that is " if item.price_coins else ""
        raise IllegalAction(f"{item.name} costs {written}{item.price} silver"
                            + (" or more (～)" if item.price_from else ""))
    return price


def price_coins(rules: GensoRules, item: Item, price: int | None = None) -> Purse:
    """GM-ECON-2: what :func:`price_of` charges, in the coins the seed writes the price in;
    a price set otherwise ("～", おおよそ) is given in silver, so it is shown in silver."""
    silver = price_of(rules, item, price)
    if silver == item.price and item.price_coins is not None:
        return item.price_coins
    return Purse(silver=silver)


def is_mana_stone(rules: GensoRules, name: str) -> bool:
    """Is ``name`` the mana stone (魔力石), by key or by its Japanese or English name?"""
    stone = rules.mana_stone
    return name in ("mana_stone", stone["ja"]) or name.lower() == str(stone["en"]).lower()


def buy(rules: GensoRules, character: Character, key: str, price: int | None = None) -> Character:
    """GM-EQUIP-1/2/3, GM-ITEM-2/3, GM-ECON-1/2: pay for an item and put it in the pack.

    Services are paid and leave nothing in the pack. Money never goes below zero.
    """
    item = rules.item(key)
    purse = character.purse.pay(price_of(rules, item, price), rates(rules),
                                price_coins(rules, item, price))
    if item.slot is Slot.SERVICE:
        return replace(character, purse=purse)
    return replace(character, purse=purse, equipment=(*character.equipment, item.key))


def buy_mana_stone(rules: GensoRules, character: Character, mp: int | None = None) -> Character:
    """GM-ITEM-1: a mana stone of 1–5 MP at 2 silver per MP (PG 6-4: 4 MP for 2 large silver)."""
    stone = rules.mana_stone
    mp = stone["shop_mp"] if mp is None else mp
    if not stone["min_mp"] <= mp <= stone["max_mp"]:
        raise IllegalAction(f"GM-ITEM-1: a mana stone holds {stone['min_mp']}–"
                            f"{stone['max_mp']} MP")
    shop = mp == stone["shop_mp"]
    cost = stone["shop_price"] if shop else mp * stone["sale_per_mp"]
    coins = (stone["coins"]["shop_price"] if shop
             else times(stone["coins"]["sale_per_mp"], mp))
    purse = character.purse.pay(cost, rates(rules), coins)
    return replace(character, purse=purse, mana_stones=(*character.mana_stones, mp))


def _mana_stone_index(rules: GensoRules, character: Character, key: str) -> int | None:
    """Which carried mana stone ``key`` names (``mana_stone:N``, N counted from 0, or just
    ``mana_stone`` when there is one), or None when ``key`` is no mana stone."""
    name, sep, number = key.partition(":")
    if not is_mana_stone(rules, name):
        return None
    stones = character.mana_stones
    listed = ", ".join(f"mana_stone:{i} ({mp} MP)" for i, mp in enumerate(stones))
    if not stones:
        raise IllegalAction(f"{character.name} carries no mana stone (魔力石)")
    if not sep:
        if len(stones) == 1:
            return 0
        raise IllegalAction(f"{character.name} carries {len(stones)} mana stones; name one: "
                            f"{listed}")
    if not number.strip().isdecimal():
        raise IllegalAction(f"{key!r}: a mana stone is sold as mana_stone:N, N its number "
                            f"from 0 ({listed})")
    index = int(number)
    if index >= len(stones):
        raise IllegalAction(f"{character.name} has no mana stone {index} ({listed})")
    return index


def sale(rules: GensoRules, character: Character, key: str,
         price: int | None = None) -> tuple[Character, int, Purse]:
    """GM-EQUIP-3, GM-ITEM-1/2/3: sell an item the rules give a buy-back price for.

    Returns the character, the silver received and that sum in the coins the seed prices
    it in. A mana stone is ``mana_stone`` (or 魔力石) when only one is carried, else
    ``mana_stone:N`` (N counted from 0); it fetches 1 silver per MP left, or 1 silver used.
    A used magic stone is ``used:KEY``. ``price`` (silver) is the GM's: for an おおよそ
    buy-back (GM-EQUIP-3: 買取はおおよそ金貨５０枚), and for ordinary goods, which have no
    buy-back price in the seed (only magic weapons, armour, shields, stones and rings do), so
    they sell only at a price the GM sets. Every other buy-back is the seed's own number.
    """
    index = _mana_stone_index(rules, character, key)
    own = ("the seed's buy-back for {} is its own number, not an おおよそ (about) one the "
           "GM sets: sell it without a price")
    if index is not None:
        if price is not None:
            raise IllegalAction(own.format(f"{rules.mana_stone['ja']}/{rules.mana_stone['en']}"))
        left = character.mana_stones[index]
        stone = rules.mana_stone
        paid = left * stone["buyback_per_mp"] if left else stone["used_buyback"]
        coins = (times(stone["coins"]["buyback_per_mp"], left) if left
                 else stone["coins"]["used_buyback"])
        stones = character.mana_stones[:index] + character.mana_stones[index + 1:]
        return replace(character, mana_stones=stones,
                       purse=character.purse.receive(paid, rates(rules))), paid, coins
    used = key.startswith("used:")
    item = rules.item(key.removeprefix("used:"))
    # What is carried is asked before any price: a sale of what the character does not have
    # asked for a price first, then said it was not there.
    carried = f"used:{item.key}" if used else item.key
    if carried not in character.equipment:
        if not used and item.key in _worn(character):
            raise HeldNotInPack(f"{character.name} holds {item.name} (readied or worn, not in "
                                "the pack): take it off first, then sell it", item.key)
        raise IllegalAction(f"{character.name} carries no {'used ' if used else ''}"
                            f"{item.name} in the pack")
    paid_or_none = item.used_buyback if used else item.buyback
    coins_or_none = item.used_buyback_coins if used else item.buyback_coins
    if paid_or_none is None or coins_or_none is None:
        if price is None:
            raise IllegalAction(f"the seed gives no buy-back price for {item.name}: give the "
                                "price the GM sets (the silver received)")
        paid_or_none, coins_or_none = _set_price(item, price), Purse(silver=price)
    elif price is not None:
        if used or not item.price_about:
            raise IllegalAction(own.format(("used " if used else "") + item.name))
        paid_or_none, coins_or_none = _set_price(item, price), Purse(silver=price)
    return (_printed_kept(replace(character, equipment=_drop(character.equipment, carried),
                                  purse=character.purse.receive(paid_or_none, rates(rules)))),
            paid_or_none, coins_or_none)


def _worn(character: Character) -> tuple[str | None, ...]:
    """The items ``character`` holds or wears (readied weapons, armour, shield, rings)."""
    return (*character.weapons, character.armor, character.shield, *character.rings_left,
            *character.rings_right)


def _printed_kept(character: Character) -> Character:
    """An NPC's printed striking power and protection (Appendix A.3) belong to its own item:
    sold, the item takes its printed number with it, and one bought again is the shop's.
    Kept, the sheet would name an item it no longer has and not load."""
    owned = {*character.weapons, *character.equipment, character.armor, character.shield}
    return replace(character,
                   printed_power={k: v for k, v in character.printed_power.items()
                                  if k in owned},
                   printed_protection={k: v for k, v in character.printed_protection.items()
                                       if k in owned})


def sell(rules: GensoRules, character: Character, key: str) -> tuple[Character, int]:
    """:func:`sale` without the coins: the character and the silver received."""
    after, paid, _ = sale(rules, character, key)
    return after, paid


# --- recovery (GM-HEAL-1/2) and growth (GM-GROW-1/2) ------------------------------------------


def rest(rules: GensoRules, character: Character, days: int, healer: bool) -> tuple[Character,
                                                                                    int]:
    """GM-HEAL-1: 1 HP a day in a healer's care at 1 silver per HP (Default), else 1 HP per
    2 days.

    「医者の手当てを受けない場合は２日で１ＨＰ回復する」: days rested without a healer add up
    on the sheet (``rest_days``) until they make an HP, so four single days heal as one
    four-day rest. Returns the character and the fee paid. HP never rises above the
    maximum (and days rested at full HP are not banked); a purse that cannot pay the
    healer refuses the care; the dead (GM-COMBAT-8) do not rest back to life.
    """
    if days < 0:
        raise IllegalAction("days of rest cannot be negative")
    _not_dead(rules, character, "rest")
    heal = rules.source["GM-HEAL-1"]
    maximum = derive(rules, character).max_hp.total
    missing = max(0, maximum - character.hp)
    carried = character.rest_days
    if healer:
        gained = min(days // heal["healer_days_per_hp"], missing)
    else:
        whole, carried = divmod(character.rest_days + days, heal["alone_days_per_hp"])
        gained = min(whole, missing)
    if character.hp + gained >= maximum:
        carried = 0
    fee = gained * rules.default("GM-HEAL-1", "fee_silver") if healer else 0
    purse = character.purse.pay(fee, rates(rules), Purse(silver=fee))
    return replace(character, hp=character.hp + gained, purse=purse, rest_days=carried), fee


def sleep(rules: GensoRules, character: Character) -> Character:
    """GM-HEAL-2: a night's sleep (``sleep_hours``, 8) restores MP in full (not a dead
    character's, GM-COMBAT-8)."""
    _not_dead(rules, character, "sleep")
    return replace(character, mp=derive(rules, character).max_mp.total)


def award_experience(rules: GensoRules, character: Character, scenarios: int = 1) -> Character:
    """GM-GROW-1: the GM gives each PC 1 experience point per finished scenario."""
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
    _not_dead(rules, character, "growth (GM-GROW-2)")
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

