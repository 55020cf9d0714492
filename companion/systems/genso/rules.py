"""System `genso`: the editable rules data of seed 002 「幻想迷宮冒険譚 Ver2.5」 (spec §2).

Tables, the seed's numbers, items, spells, monster stat blocks, sample characters and
every Default live in ``data/*.toml``. The seed's numbers (``[source]``) are the book's
rules: an override of one is refused, and each number counted with is ranged
(``[source_limits]``, :mod:`.seed_numbers`). The user may override Defaults, and output
labels each value that is still the packaged Default "(default)"; the mechanism is the
systems' shared one (:mod:`companion.systems.defaults`).
"""

from __future__ import annotations

import difflib
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from companion.dice.notation import parse
from companion.dice.tables import DiceTable, load_table
from companion.errors import DataError, InvalidNotation
from companion.systems.defaults import (
    Settings,
    Wording,
    check_apart,
    packaged_text,
    read_choices,
    read_limits,
    read_source_limits,
)
from companion.systems.genso.money import Purse
from companion.systems.genso.names import fold_name
from companion.systems.genso.seed_numbers import check_source

#: How `genso` words a refused override (seed 002 is "the book").
WORDING = Wording(seed="{rule}.{name} is the book's rule (seed 002: {value!r}), not a Default")
DATA_FILES = ("rules.toml", "items.toml", "spells.toml", "monsters.toml", "presets.toml")
ABILITIES = ("body", "perception", "magic")
DIFFICULTIES = ("extremely_hard", "very_hard", "hard", "easy")
#: The traps of GM-CHECK-3, each a difficulty of the seed's ([source."GM-CHECK-3"]).
TRAPS = ("cleverly_set", "normally_set", "hastily_set")
#: Whom a spell lands on in the fight tracker (spells.toml ``aim``, from the seed's 対象):
#: "caster" the caster (named targets are the others it holds, as a Barrier's); "one"
#: exactly one named combatant; "area" every combatant the GM names in it, each once;
#: "object" an object outside the tracker, so no combatant is named; "one_or_object" one
#: named combatant, or with none named an object (「生物あるいは物品」).
AIMS = ("caster", "one", "area", "object", "one_or_object")


class Slot(Enum):
    """What kind of thing an item is (GM-EQUIP-1/2/3, GM-ITEM-2/3, GM-ECON-2)."""

    WEAPON = "weapon"
    ARMOR = "armor"
    SHIELD = "shield"
    RING = "ring"
    STONE = "stone"
    GOODS = "goods"
    SERVICE = "service"


class Grip(Enum):
    """A weapon's 使用法 (GM-EQUIP-1 PG 6-2, GM-EQUIP-3 GM 3): held in one hand or two."""

    ONE_HAND = "one_hand"
    TWO_HANDS = "two_hands"

    @property
    def text(self) -> str:
        """As a list shows it, the seed's word first: 片手/one hand."""
        return {Grip.ONE_HAND: "片手/one hand", Grip.TWO_HANDS: "両手/two hands"}[self]


class Duration(Enum):
    """Spell durations (GM-CORE-2, GM-MAGIC-1): 永久, 1日 (until sunrise), 1R, 特殊."""

    PERMANENT = "permanent"
    DAY = "day"
    ROUND = "round"
    SPECIAL = "special"


class CreatureKind(Enum):
    """What a monster is for GM-COMBAT-8 and the spells: 生物, 不死族, 擬似生物."""

    LIVING = "living"
    UNDEAD = "undead"
    PSEUDO = "pseudo"


#: Settings whose value must be one of a closed set: the branches the engine plays, so they
#: stay beside it in code. Checked wherever a Default is set, and shown by `genso defaults`
#: (:mod:`companion.systems.defaults`).
CHOICES: dict[tuple[str, str], tuple[Any, ...]] = {
    ("GM-CHECK-1", "difficulty"): DIFFICULTIES,
    ("GM-CHECK-2", "difficulty"): DIFFICULTIES,
    ("GM-CHECK-2", "ability"): ABILITIES,
    ("GM-CHECK-3", "difficulty"): TRAPS,
    ("GM-MON-7", "orc_warrior"): ("gm", "wg"),
    ("GM-MAGIC-4", "oldest_cannot_be_cancelled"): ("cancel_next", "cancel_none"),
    ("GM-EQUIP-2", "shield_protection"): (2, 4),
    ("GM-MAGIC-5", "diameter_m"): (3, 5),
    ("GM-MAGIC-7", "version"): ("pg", "gm"),
    ("GM-ITEM-3", "protection_ring_adds_to"): ("armor", "defence"),
}


@dataclass(frozen=True, slots=True)
class Item:
    """One row of an item or price table; prices are in silver (GM-ECON-1).

    ``price_coins`` (and ``buyback_coins``, ``used_buyback_coins``) keep the coins the seed
    writes the price in (普通の宿 銀貨４枚 is 4 silver, not 1 large silver), for showing it.
    ``price_from`` is the seed's "～" (that price or more); ``price_about`` its おおよそ
    (GM-EQUIP-3: about that much, for the sale and the buy-back alike).
    """

    key: str
    slot: Slot
    ja: str
    en: str
    rule: str
    price: int | None
    price_from: bool = False
    buyback: int | None = None
    used_buyback: int | None = None
    power: str = ""
    protection: int = 0
    magic: bool = False
    price_coins: Purse | None = None
    buyback_coins: Purse | None = None
    used_buyback_coins: Purse | None = None
    price_about: bool = False
    #: A weapon's 使用法 (片手/両手); None for anything else.
    grip: Grip | None = None
    #: The seed's note on the item (弓 射程約５０ｍ, 松明 持続時間は１時間), and its English.
    note_ja: str = ""
    note_en: str = ""

    @property
    def name(self) -> str:
        return f"{self.ja}/{self.en}"


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell row (GM-MAGIC-1, -12, -13); ``mp`` is None for a 特殊 cost."""

    key: str
    ja: str
    en: str
    group: str
    mp: int | None
    duration: Duration
    effect: str
    rule: str
    target: str
    range: str
    text_ja: str
    text_en: str
    aim: str = "one"
    #: One of the 「禁呪ではないが忌避されている呪文」 (not forbidden, but shunned): Fire and
    #: Lightning, under that heading in PG 1-2 and GM 2.
    shunned: bool = False

    @property
    def name(self) -> str:
        return f"{self.ja}/{self.en}"


@dataclass(frozen=True, slots=True)
class SpellVariant:
    """A spell's target and text as the PG prints them and as the GM guide does
    (``[spell.gm]``): the GM guide's are shown while the Default ``chosen_by`` (rule, name)
    holds ``value`` (GM-MAGIC-5's 5 m Barrier, GM-MAGIC-7's "gm" Protection)."""

    chosen_by: tuple[str, str]
    value: Any
    pg: tuple[str, str, str]  # target, text_ja, text_en
    gm: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Monster:
    """A monster stat block (GM-MON-7); ``body``/``hp`` are None where the seed leaves them
    blank."""

    key: str
    ja: str
    en: str
    kind: CreatureKind
    body: int | None
    perception: int
    magic: int
    hp: int | None
    mp: int
    move: tuple[int, int, int]
    attack_ja: str
    attack_en: str
    power: str
    drain_hp: int
    drain_mp: int
    protection: int
    immune_normal: bool
    magic_weapons_harm: bool
    raises_victims: bool
    checks_with_magic: bool
    senses_life: bool = False
    smell: bool = False
    #: The fighter this block is in a fight (オーク1), by whose name a check rolled for it
    #: says it (GM-CHECK-5: the table's opposed check named オーク/Orc for オーク1 and オーク2
    #: alike, reviewg70 NIT H); "" for the block itself.
    fighter: str = ""

    @property
    def name(self) -> str:
        return self.fighter or f"{self.ja}/{self.en}"

    @property
    def incorporeal(self) -> bool:
        """実体のない魔物: the seed leaves its HP blank (GM-MON-4)."""
        return self.hp is None

    @property
    def senses(self) -> str:
        """GM-MON-6: how it finds the living, for the GM's reminder."""
        if self.senses_life:
            return ("生物感知: senses the living; only magic hides you "
                    "(隠蔽呪/Concealment, 隠蔽の指輪/Ring of Concealment)")
        if self.smell:
            return "嗅覚で索敵: hunts by smell; staying out of sight is not hiding"
        return ""


def near(key: str, known: Mapping[str, object], where: str) -> str:
    """What to add to a refusal of an unknown key: the key it is nearest to (chain_mail →
    chain_armor), or where the keys are listed. The coc sheets suggest one; genso gave
    "no item 'chain_mail'" alone (a sheet's item lists too: :mod:`.sheet`).

    A name typed in Japanese is matched to the Japanese names (an item's or spell's ``ja``)
    as the seed varies them: 盾 for 楯 (盾＋１, 「魔法の武器、鎧、盾」), and a name without its
    count (矢 for 矢ｘ１２), in either width (剣+1 for 剣＋１); each came back with no
    suggestion (a77data NIT 6)."""
    if key.isascii():
        close = difflib.get_close_matches(key.lower(), list(known), n=1)
        return f"; did you mean {close[0]!r}? ({where})" if close else f"; {where}"
    names: dict[str, str] = {}
    for k, value in known.items():
        ja = getattr(value, "ja", "")
        for name in (ja, ja.split("ｘ")[0]):
            names.setdefault(unicodedata.normalize("NFKC", name), k)
    typed = unicodedata.normalize("NFKC", key)
    spellings = (typed, typed.replace("盾", "楯"), typed.replace("楯", "盾"))
    found = next((name for name in spellings if name in names), None) or next(
        iter(difflib.get_close_matches(typed, list(names), n=1)), None)
    if found is None:
        return f"; {where}"
    ja = getattr(known[names[found]], "ja", found)
    return f"; did you mean {ja!r} ({names[found]})? ({where})"


@dataclass(frozen=True)
class GensoRules:
    """Everything the `genso` engine reads: tables, numbers, items, spells, monsters, presets."""

    title: str
    tables: Mapping[str, DiceTable]
    abilities: Mapping[str, Mapping[str, str]]
    difficulties: Mapping[str, Mapping[str, int]]
    difficulty_names: Mapping[str, Mapping[str, str]]
    source: Mapping[str, Mapping[str, Any]]
    settings: Settings
    items: Mapping[str, Item]
    mana_stone: Mapping[str, Any]
    spells: Mapping[str, Spell]
    monsters: Mapping[str, Monster]
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: GM-MON-7: the Orc Warrior's numbers in the GM guide ("gm") and world guide ("wg").
    warrior_variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: The spells whose target or text the GM guide prints otherwise, by key.
    spell_variants: Mapping[str, SpellVariant] = field(default_factory=dict)
    #: A sheet's race and sex words with their English (``[sheet_words]``).
    sheet_words: Mapping[str, str] = field(default_factory=dict)
    #: The Defaults as rules.toml gives them, before any user's setting: what a key a saved
    #: fight lacks was played by, the key not existing yet (review60a D2).
    packaged: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def num(self, rule: str, name: str) -> Any:
        """A number the seed states (``[source]``)."""
        return self.source[rule][name]

    def ability_guide(self, value: int) -> str:
        """GM-CORE-3 (PG 1-3-5, l.1085–1090) 「能力値の目安は １０～１２ 非常に高い ７～ ９ 高い
        ４～ ６ 平均的 １～ ３ 低い」: the seed's word for an ability's value, as
        ``平均的/average``; "" for a value the guide does not reach (0, above 12)."""
        for row in self.num("GM-CORE-3", "ability_guide"):
            if row["min"] <= value <= row["max"]:
                return f"{row['ja']}/{row['en']}"
        return ""

    def sheet_word(self, value: str, table: str = "") -> str:
        """A sheet's word with its English, as ``神官/Priest``: a row of the character-making
        ``table`` (GM-CHAR-1 to 3; a dislike by its last word too), else a race or sex of
        ``[sheet_words]``; a word of neither (a sheet's own) as it is."""
        for row in self.tables[table].rows if table else ():
            if value and value in (row.fields.get("ja"), row.fields.get("short_ja")):
                return f"{value}/{row.fields['en']}"
        return f"{value}/{self.sheet_words[value]}" if value in self.sheet_words else value

    def default(self, rule: str, name: str) -> Any:
        """A Default's current value."""
        return self.settings[rule, name]

    def item(self, key: str) -> Item:
        """The item by key or by its Japanese or English name."""
        if key in self.items:
            return self.items[key]
        for item in self.items.values():
            if key in (item.ja, item.en) or key.lower() == item.en.lower():
                return item
        raise DataError(f"no item {key!r} in the item tables (GM-EQUIP, GM-ITEM, GM-ECON-2)"
                        + near(key, self.items, "`companion genso list items` lists them"))

    def spell(self, key: str) -> Spell:
        """The spell by key or by its Japanese or English name."""
        if key in self.spells:
            return self.spells[key]
        for spell in self.spells.values():
            if key in (spell.ja, spell.en) or key.lower() == spell.en.lower():
                return spell
        raise DataError(f"no spell {key!r} in the spell lists (GM-MAGIC-1)"
                        + near(key, self.spells, "`companion genso list spells` lists them"))

    def monster(self, key: str) -> Monster:
        """A monster block by key or name, the key and English in any case and width
        (``ORC``, ``orc warrior``, ``ＯＲＣ`` from an IME: a fight's ACTOR and TARGET take
        them so, and a sheet's name is, fixg72b, reviewa73 NIT 8); the Orc Warrior follows
        the GM-MON-7 Default."""
        folded = fold_name(key)
        lower = folded.casefold()
        found = self.monsters.get(key) or next(
            (m for m in self.monsters.values()
             if folded == fold_name(m.ja) or lower in (m.key.casefold(), m.en.casefold())),
            None,
        )
        if found is None:
            raise DataError(f"no monster {key!r} (GM-MON-7: {', '.join(self.monsters)})")
        return found

    def with_overrides(
        self, overrides: Mapping[str, Any], origin: str = "overrides", limits: bool = True
    ) -> GensoRules:
        """New rules with ``overrides`` of Defaults; the seed's own numbers are refused, and
        a value none of its :data:`CHOICES` or a number outside its range (``[limits]``:
        GM-CHECK-6, GM-COMBAT-8, GM-MAGIC-3, GM-HEAL-1) unless ``limits`` is False: a saved
        fight replays with what it was played with. The chosen variants follow: the Orc
        Warrior (GM-MON-7), spell texts (GM-MAGIC-5/7) and the shield (GM-EQUIP-2)."""
        settings = self.settings.with_overrides(overrides, origin, self.source, limits)
        monsters = _orc_warrior(dict(self.monsters), self.warrior_variants, settings.values)
        spells = {key: _as_chosen(spell, self.spell_variants.get(key), settings.values)
                  for key, spell in self.spells.items()}
        return replace(self, settings=settings, monsters=monsters, spells=spells,
                       items=_shield(self.items, settings.values))


#: Settings read only as a fighter or a character is built, and never again: GM-MON-7's
#: Orc Warrior numbers (:func:`_orc_warrior`) are a monster's HP and abilities as it enters
#: a fight; GM-CHAR-7's starting money is a PC's purse as `genso new` makes it (no fight
#: reads it). A fight in progress keeps them; an action's ``--set`` of one is refused, where
#: the gear settings of a sheet are counted again (``Fight.push``). Each maps to why, and to
#: the command that takes it: (what is set as what is built, the command after ``genso``).
BUILT_ONLY: dict[tuple[str, str], tuple[str, str]] = {
    ("GM-MON-7", "orc_warrior"): ("a monster's numbers are set as the fight is built",
                                  "fight new"),
    **{("GM-CHAR-7", coin): ("a PC's 所持金/starting money is counted as the character is "
                             "made, and no fight reads it", "new")
       for coin in ("gold", "large_silver", "silver")},
}

#: Settings no fight reads at all: each is read by one other command, so an action's (or
#: ``fight new``'s) ``--set`` of one said "from this action on" and changed nothing
#: (calendar73 RISK 2). Each maps to why, and to that command as it takes the setting
#: (after ``genso``).
NOT_READ_BY_FIGHTS: dict[tuple[str, str], tuple[str, str]] = {
    ("GM-MAGIC-13", "year_days"): ("a 呪殺呪/Death Curse's day of death is counted as "
                                   "`genso calendar curse` keeps it",
                                   "calendar curse CASTER TARGET"),
    ("GM-HEAL-1", "fee_silver"): ("a healer's fee is paid by `genso rest --healer`",
                                  "rest NAME DAYS --healer"),
    ("GM-MOVE-2", "begun_turn_counts"): ("a journey's turns are counted by `genso travel`",
                                         "travel METRES"),
}

def _orc_warrior(
    monsters: dict[str, Monster], variants: Mapping[str, Mapping[str, Any]],
    values: Mapping[str, Mapping[str, Any]],
) -> dict[str, Monster]:
    """GM-MON-7 Default: the GM guide's Orc Warrior, or the world guide's when chosen."""
    chosen = variants.get(values["GM-MON-7"]["orc_warrior"], {})
    monsters["orc_warrior"] = replace(monsters["orc_warrior"], **chosen)
    return monsters


def _shield(items: Mapping[str, Item], values: Mapping[str, Mapping[str, Any]]) \
        -> dict[str, Item]:
    """GM-EQUIP-2 Default: the shield of the table (楯, not a magic one) protects as chosen,
    2 by the table or 4 by the sample stat blocks."""
    points = values["GM-EQUIP-2"]["shield_protection"]
    return {key: replace(item, protection=points)
            if item.slot is Slot.SHIELD and item.rule == "GM-EQUIP-2" else item
            for key, item in items.items()}


def _as_chosen(spell: Spell, variant: SpellVariant | None,
               values: Mapping[str, Mapping[str, Any]]) -> Spell:
    """The spell's target and text as the Defaults choose: the GM guide's or the PG's."""
    if variant is None:
        return spell
    rule, name = variant.chosen_by
    target, text_ja, text_en = variant.gm if values[rule][name] == variant.value else variant.pg
    return replace(spell, target=target, text_ja=text_ja, text_en=text_en)


def _purse(raw: Any, where: str) -> Purse | None:
    """A price as the data writes it, in its own coins (GM-ECON-1)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) - {"gold", "large_silver", "silver"} or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in raw.values()):
        raise DataError(f"{where} must be coins {{ gold, large_silver, silver }}, each a "
                        "whole number 0 or more")
    return Purse(raw.get("gold", 0), raw.get("large_silver", 0), raw.get("silver", 0))


def _coins(raw: Any, where: str, rates: tuple[int, int]) -> int | None:
    """A price in silver (GM-ECON-1: 1 gold = 20 large silver = 80 silver)."""
    coins = _purse(raw, where)
    if coins is None:
        return None
    per_gold, per_large = rates
    return coins.gold * per_gold * per_large + coins.large_silver * per_large + coins.silver


def _need(raw: Mapping[str, Any], names: tuple[str, ...], where: str) -> None:
    for name in names:
        if name not in raw:
            raise DataError(f"{where} lacks {name!r}")


def _dice(text: str, where: str) -> str:
    try:
        parse(text)
    except InvalidNotation as exc:
        raise DataError(f"{where}: {text!r} is not dice notation") from exc
    return text


def _load_items(data: Mapping[str, Any], origin: str, rates: tuple[int, int]) -> dict[str, Item]:
    items: dict[str, Item] = {}
    for slot in Slot:
        for number, raw in enumerate(data.get(slot.value, []), 1):
            where = f"{origin}: [[{slot.value}]] {number}"
            _need(raw, ("key", "ja", "en"), where)
            if raw["key"] in items:
                raise DataError(f"{where}: key {raw['key']!r} is used twice")
            grip = None
            if slot is Slot.WEAPON:
                _need(raw, ("power", "grip"), where)
                _dice(raw["power"], f"{where} power")
                try:
                    grip = Grip(raw["grip"])
                except ValueError:
                    raise DataError(f"{where}: grip must be one of "
                                    f"{', '.join(g.value for g in Grip)}") from None
            if bool(raw.get("note_ja")) != bool(raw.get("note_en")):
                raise DataError(f"{where}: a note needs both note_ja and note_en")
            if slot in (Slot.ARMOR, Slot.SHIELD):
                _need(raw, ("protection",), where)
            items[raw["key"]] = Item(
                raw["key"], slot, raw["ja"], raw["en"], raw.get("rule", "GM-ECON-2"),
                _coins(raw.get("price"), f"{where} price", rates), raw.get("from", False),
                _coins(raw.get("buyback"), f"{where} buyback", rates),
                _coins(raw.get("used_buyback"), f"{where} used_buyback", rates),
                raw.get("power", ""), raw.get("protection", 0),
                raw.get("magic", False), _purse(raw.get("price"), f"{where} price"),
                _purse(raw.get("buyback"), f"{where} buyback"),
                _purse(raw.get("used_buyback"), f"{where} used_buyback"),
                raw.get("about", False), grip, raw.get("note_ja", ""), raw.get("note_en", ""),
            )
    return items


def _load_spells(data: Mapping[str, Any], origin: str, defaults: Mapping[str, Any]) \
        -> tuple[dict[str, Spell], dict[str, SpellVariant]]:
    spells = {}
    variants = {}
    effects = ("heal", "exorcise", "dispel", "barrier", "ward", "conceal", "fire", "lightning",
               "note")
    for number, raw in enumerate(data.get("spell", []), 1):
        where = f"{origin}: [[spell]] {number}"
        _need(raw, ("key", "ja", "en", "group", "duration", "effect", "rule", "target_ja",
                    "target_en", "range_ja", "range_en", "text_ja", "text_en", "aim"), where)
        if raw["effect"] not in effects:
            raise DataError(f"{where}: effect must be one of {', '.join(effects)}")
        if raw["aim"] not in AIMS:
            raise DataError(f"{where}: aim must be one of {', '.join(AIMS)}")
        try:
            duration = Duration(raw["duration"])
        except ValueError as exc:
            raise DataError(f"{where}: duration {raw['duration']!r} is not "
                            f"{', '.join(d.value for d in Duration)}") from exc
        spells[raw["key"]] = Spell(
            raw["key"], raw["ja"], raw["en"], raw["group"], raw.get("mp"), duration,
            raw["effect"], raw["rule"], f"{raw['target_ja']}/{raw['target_en']}",
            f"{raw['range_ja']}/{raw['range_en']}", raw["text_ja"], raw["text_en"], raw["aim"],
            raw.get("shunned", False),
        )
        if "gm" in raw:
            variants[raw["key"]] = _spell_variant(spells[raw["key"]], raw["gm"],
                                                  f"{where} [spell.gm]", defaults)
    return spells, variants


def _spell_variant(spell: Spell, gm: Any, where: str, defaults: Mapping[str, Any]) \
        -> SpellVariant:
    """A spell's ``[spell.gm]``: the Default that chooses it, and the target or text it gives."""
    if not isinstance(gm, Mapping):
        raise DataError(f"{where} must be a table")
    _need(gm, ("chosen_by", "value"), where)
    rule, _, name = str(gm["chosen_by"]).partition(".")
    if name not in defaults.get(rule, {}):
        raise DataError(f"{where}: chosen_by {gm['chosen_by']!r} is not a Default (RULE.name "
                        "in rules.toml [defaults])")
    texts = {k: v for k, v in gm.items() if k not in ("chosen_by", "value")}
    if not texts or set(texts) - {"target_ja", "target_en", "text_ja", "text_en"} \
            or ("target_ja" in texts) != ("target_en" in texts):
        raise DataError(f"{where}: give text_ja and text_en, target_ja and target_en, or both")
    target_ja, target_en = spell.target.split("/", 1)
    chosen = (f"{texts.get('target_ja', target_ja)}/{texts.get('target_en', target_en)}",
              texts.get("text_ja", spell.text_ja), texts.get("text_en", spell.text_en))
    return SpellVariant((rule, name), gm["value"], (spell.target, spell.text_ja, spell.text_en),
                        chosen)


def _load_monsters(data: Mapping[str, Any], origin: str) -> tuple[dict[str, Monster],
                                                                   dict[str, Any]]:
    monsters = {}
    variants: dict[str, Any] = {}
    for number, raw in enumerate(data.get("monster", []), 1):
        where = f"{origin}: [[monster]] {number}"
        _need(raw, ("key", "ja", "en", "kind", "perception", "magic", "mp", "move", "attack",
                    "protection"), where)
        attack = raw["attack"]
        if "power" in attack:
            _dice(attack["power"], f"{where} attack power")
        elif "drain_hp" not in attack and "drain_mp" not in attack:
            raise DataError(f"{where}: attack needs a power or a drain")
        try:
            kind = CreatureKind(raw["kind"])
        except ValueError as exc:
            raise DataError(f"{where}: kind must be living, undead or pseudo") from exc
        monster = Monster(
            raw["key"], raw["ja"], raw["en"], kind, raw.get("body"), raw["perception"],
            raw["magic"], raw.get("hp"), raw["mp"], tuple(raw["move"]),
            attack["ja"], attack["en"], attack.get("power", ""), attack.get("drain_hp", 0),
            attack.get("drain_mp", 0), raw["protection"], raw.get("immune_normal", False),
            raw.get("magic_weapons_harm", False), raw.get("raises_victims", False),
            raw.get("checks_with_magic", False), raw.get("senses_life", False),
            raw.get("smell", False),
        )
        monsters[raw["key"]] = monster
        if "world_guide" in raw:
            variants = {"wg": dict(raw["world_guide"]),
                        "gm": {k: getattr(monster, k) for k in raw["world_guide"]}}
    if "orc_warrior" not in monsters or not variants:
        raise DataError(f"{origin}: the Orc Warrior block and its world_guide numbers are needed "
                        "(GM-MON-7)")
    return monsters, variants


def _read(name: str) -> str:
    return data_text(name)


def data_text(name: str) -> str:
    """Genso's packaged data file ``name`` as text
    (:func:`~companion.systems.defaults.packaged_text`): a UTF-8 byte-order mark before it
    dropped (genso67 NIT 7: a data file edited in an older Windows Notepad), a bad byte or a
    file that cannot be read a DataError naming it, not a traceback (reviewj68)."""
    return packaged_text("companion.systems.genso", name)


def _parse(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc


def load_rules(texts: Mapping[str, str] | None = None) -> GensoRules:
    """Load and shape-check the packaged data; ``texts`` replaces files by name (tests)."""
    data = {name: _parse((texts or {}).get(name) or _read(name), name) for name in DATA_FILES}
    rules = data["rules.toml"]
    for section in ("system", "abilities", "tables", "difficulties", "difficulty_names",
                    "source", "source_limits", "defaults", "limits"):
        if section not in rules:
            raise DataError(f"rules.toml: missing [{section}]")
    tables = {
        key: load_table(key, rules["tables"].get(key, {}), ("ja", "en", "note_ja", "note_en"),
                        "rules.toml")
        for key in ("birth", "want", "dislike")
    }
    for kind, table in rules["difficulties"].items():
        missing = [d for d in DIFFICULTIES if not isinstance(table.get(d), int)]
        if missing:
            raise DataError(f"rules.toml: [difficulties.{kind}] lacks {missing[0]!r}")
    source = rules["source"]
    check_source(source, read_source_limits(rules["source_limits"], source, "rules.toml"))
    econ = source.get("GM-ECON-1", {})
    rates = (econ.get("large_silver_per_gold", 0), econ.get("silver_per_large_silver", 0))
    if rates[0] < 1 or rates[1] < 1:
        raise DataError("rules.toml: [source.\"GM-ECON-1\"] needs the exchange rates")
    guide = source.get("GM-CORE-3", {}).get("ability_guide")
    if not isinstance(guide, list) or not guide or not all(
            isinstance(row, Mapping) and isinstance(row.get("min"), int)
            and isinstance(row.get("max"), int) and row["min"] <= row["max"]
            and isinstance(row.get("ja"), str) and isinstance(row.get("en"), str)
            for row in guide):
        raise DataError("rules.toml: [source.\"GM-CORE-3\"] ability_guide must be rows of "
                        "min, max, ja and en (能力値の目安)")
    check_apart(source, rules["defaults"], "rules.toml")
    choices = read_choices(CHOICES, rules["defaults"], "rules.toml")
    items = _load_items(data["items.toml"], "items.toml", rates)
    for key in source["GM-CHAR-7"]["kit"]:
        if key not in items:
            raise DataError(f"rules.toml: GM-CHAR-7 kit names unknown item {key!r}")
    mana = data["items.toml"].get("mana_stone", {})
    _need(mana, ("max_mp", "min_mp", "sale_per_mp", "buyback_per_mp", "used_buyback", "shop_mp",
                 "shop_price", "ja", "en", "note_ja", "note_en"), "items.toml: [mana_stone]")
    priced = ("sale_per_mp", "buyback_per_mp", "used_buyback", "shop_price")
    mana_stone = {**mana, **{k: _coins(mana[k], f"items.toml: mana_stone {k}", rates)
                             for k in priced},
                  "coins": {k: _purse(mana[k], f"items.toml: mana_stone {k}") for k in priced}}
    spells, spell_variants = _load_spells(data["spells.toml"], "spells.toml", rules["defaults"])
    monsters, variants = _load_monsters(data["monsters.toml"], "monsters.toml")
    words = rules.get("sheet_words", {})
    if not all(isinstance(en, str) and en for en in words.values()):
        raise DataError("rules.toml: [sheet_words] maps each word to its English, a string")
    presets = {p["key"]: p for p in data["presets.toml"].get("preset", []) if "key" in p}
    system = rules["system"]
    title = f"{system['name_ja']}/{system['name_en']}"
    packaged = GensoRules(
        title, tables, rules["abilities"], rules["difficulties"], rules["difficulty_names"],
        source, Settings(rules["defaults"], wording=WORDING, limits=read_limits(
            rules["limits"], rules["defaults"], source, "rules.toml"), choices=choices),
        items, mana_stone, spells, monsters, presets, variants, spell_variants, words,
        rules["defaults"],
    )
    return packaged.with_overrides({}, "rules.toml")
