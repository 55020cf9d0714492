"""Character sheets as TOML: read field by field (a bad field is a DataError naming it), and
written back as text; the command layer writes the text to disk atomically.

The presets of ``data/presets.toml`` (GM-DATA-1) are sheets in the same shape.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from companion.dice.notation import parse
from companion.errors import DataError, InvalidNotation, bound_text, refuse_unknown
from companion.systems.defaults import refuse_control, toml_value
from companion.systems.genso.character.core import Character, Kind, derive
from companion.systems.genso.character.gear import storage_capacity
from companion.systems.genso.money import Purse
from companion.systems.genso.rules import ABILITIES, GensoRules, Slot, near

_TEXT = ("name", "race", "sex", "job", "birth", "want", "dislike", "class_name")
_COUNTS = ("level", "exp", "hp_bonus", "mp_bonus", "combat", "search", "storage_mp", "rest_days")
_OPTIONAL_COUNTS = ("age", "max_hp", "max_mp", "trap_bonus", "enemy_bonus")
# The presets' own, ignored on a sheet.
_SHEET_ONLY = ("key", "name_en", "former_names", "printed")
_KNOWN = {*_TEXT, *_COUNTS, *_OPTIONAL_COUNTS, *_SHEET_ONLY, *ABILITIES, "kind", "hp", "mp",
          "spells", "weapons", "armor", "shield", "printed_power", "printed_protection",
          "equipment", "rings", "mana_stones", "money"}


#: Sanity bounds, not rule values: the seed caps no sheet number (GM-GROW-2's Default buys
#: HP+1, Combat +1 … any number of times; GM-CORE-3's guide calls 10–12 "very high" but sets
#: no top). They stop a slip of the keyboard (body = 10**24) becoming 2×10**24 HP, or an
#: attack of 2D6+10**30 that dice notation refuses in the middle of a fight, while leaving
#: each far above anything the seed's samples hold (an ability of 12, exp 3200). Money's
#: matches JongRogue's pc.gold.
MOST_ABILITY = 99
MOST_COUNT = 999_999
MOST_MONEY = 1_000_000_000


def _int(raw: Mapping[str, Any], name: str, where: str, least: int | None = 0,
         most: int | None = None) -> int:
    value = raw[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(f"{where}: {name} must be a whole number, found {toml_value(value)}")
    if least is not None and most is not None and not least <= value <= most:
        raise DataError(f"{where}: {name} must be from {bound_text(least)} to {bound_text(most)}, "
                        f"found {value}")
    if least is not None and value < least:
        raise DataError(f"{where}: {name} must be at least {bound_text(least)}, found {value}")
    return value


def _keys(rules: GensoRules, raw: Any, name: str, where: str,
          slots: tuple[Slot, ...] | None = None) -> tuple[str, ...]:
    """Item keys of one field; ``used:KEY`` only in the pack (``equipment``) and only for a
    magic stone, which is what a fight marks so when it is used up (GM-ITEM-2)."""
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        raise DataError(f"{where}: {name} must be a list of item keys, found {toml_value(raw)}")
    for key in raw:
        bare = key.removeprefix("used:")
        if bare not in rules.items:
            # A sheet holds keys: one written by its name (剣, Sword) is told its key.
            named = next((k for k, i in rules.items.items()
                          if bare in (i.ja, i.en) or bare.lower() == i.en.lower()), None)
            listed = "`companion genso list items` lists the keys"
            raise DataError(f"{where}: {name} names unknown item {key!r}"
                            + (f"; write its key {named!r} ({listed})" if named else
                               near(bare, rules.items, listed)))
        if bare != key and (name != "equipment" or rules.items[bare].slot is not Slot.STONE):
            raise DataError(f"{where}: {name} holds {key!r}, but \"used:\" marks only a used "
                            "magic stone (治癒石, 付与石) in the pack (equipment); write "
                            f"{bare!r}")
        if slots and rules.items[key].slot not in slots:
            # "not armour", not "not a armor" (genso72 NIT 8)
            kinds = " or ".join("armour" if s is Slot.ARMOR else f"a {s.value}" for s in slots)
            raise DataError(f"{where}: {name} holds {key!r}, which is not {kinds}")
    return tuple(raw)


def character_from_mapping(rules: GensoRules, raw: Mapping[str, Any],
                           origin: str = "sheet", kept: bool = False) -> Character:
    """A Character from a sheet mapping; every field is checked and a fault names it.

    ``kept``: the copy a saved fight keeps of a sheet it began with, read as the version
    that began the fight read it, without the checks made since of what the player wrote:
    a spell listed twice, a ``printed_protection`` of true or below 0, a PC's printed
    numbers, a control character in a name. The player could mend the sheet, never the
    fight's copy, and the fight would not open."""
    where = origin
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: a sheet is a TOML table")
    if isinstance(raw.get("characteristics"), Mapping):
        # Said before its unknown fields, whose did-you-means (skills → spells) would have
        # the player "fix" a sheet that is right for the other system.
        raise DataError(f"{where} looks like a Call of Cthulhu sheet ([characteristics]); "
                        "genso takes 幻想迷宮冒険譚 sheets (docs/sheets.md)")
    refuse_unknown(raw, _KNOWN, where, "field")
    for name in ("name", "kind", *ABILITIES):
        if name not in raw:
            raise DataError(f"{where}: missing field {name!r}")
    fields: dict[str, Any] = {}
    for name in _TEXT:
        if name in raw:
            if not isinstance(raw[name], str):
                raise DataError(f"{where}: {name} must be text, found {toml_value(raw[name])}")
            if not kept:  # each is printed on the sheet; a fight's copy opens as it began
                refuse_control(raw[name], f"{where}: {name}")
            fields[name] = raw[name]
    if not fields["name"].strip():
        raise DataError(f"{where}: name must not be empty")
    try:
        fields["kind"] = Kind(raw["kind"])
    except ValueError as exc:
        raise DataError(f"{where}: kind must be pc or npc, "
                        f"found {toml_value(raw['kind'])}") from exc
    # A fight's kept copy is read without the bounds, as it began (see ``kept``).
    for name in ABILITIES:
        fields[name] = _int(raw, name, where, 1, None if kept else MOST_ABILITY)
    for name in _COUNTS + _OPTIONAL_COUNTS:
        if name in raw:
            fields[name] = _int(raw, name, where, 1 if name in ("max_hp", "max_mp") else 0,
                                None if kept else MOST_COUNT)
    if fields["kind"] is Kind.PC and ("max_hp" in fields or "max_mp" in fields):
        raise DataError(f"{where}: max_hp/max_mp are printed NPC numbers; a PC's follow "
                        f"HP = Body × {rules.num('GM-CORE-3', 'hp_per_body')}, MP = Magic × "
                        f"{rules.num('GM-CORE-3', 'mp_per_magic')} (GM-CORE-3)")
    for name in ("birth", "want", "dislike"):
        rows = {row.fields.get(k, "") for row in rules.tables[name].rows
                for k in ("ja", "short_ja")} - {""}
        if fields["kind"] is Kind.PC and fields.get(name, "") not in rows | {""}:
            raise DataError(f"{where}: {name} must be one of {', '.join(sorted(rows))}")
    spells = raw.get("spells", [])
    if not isinstance(spells, list) or any(not isinstance(s, str) or s not in rules.spells
                                           for s in spells):
        raise DataError(f"{where}: spells must list spell keys ({', '.join(rules.spells)})")
    twice = sorted({s for s in spells if spells.count(s) > 1})
    if twice and not kept:  # the Magic level counts the spells known: twice would count twice
        raise DataError(f"{where}: spells lists {', '.join(twice)} more than once")
    fields["spells"] = tuple(spells)
    fields["weapons"] = _keys(rules, raw.get("weapons", []), "weapons", where, (Slot.WEAPON,))
    fields["equipment"] = _keys(rules, raw.get("equipment", []), "equipment", where)
    for name, slot in (("armor", Slot.ARMOR), ("shield", Slot.SHIELD)):
        if name in raw:
            fields[name] = _keys(rules, [raw[name]], name, where, (slot,))[0]
    # A printed number belongs to the NPC's own item, worn or carried in the pack.
    owned = {*fields["weapons"], *fields["equipment"], fields.get("armor"),
             fields.get("shield")}
    power = raw.get("printed_power", {})
    if not isinstance(power, Mapping) or any(
        k not in owned or not isinstance(v, str) for k, v in power.items()
    ):
        raise DataError(f"{where}: printed_power must map the character's weapons to dice")
    for key, text in power.items():
        try:
            parse(text)
        except InvalidNotation as exc:
            raise DataError(f"{where}: printed_power.{key} {text!r} is not dice notation") from exc
    fields["printed_power"] = dict(power)
    protection = raw.get("printed_protection", {})
    if not isinstance(protection, Mapping) or any(
        k not in owned or not isinstance(v, int)
        or (not kept and (isinstance(v, bool) or v < 0))
        for k, v in protection.items()
    ):
        raise DataError(f"{where}: printed_protection must map the character's armour and "
                        "shield to whole numbers 0 or more")
    fields["printed_protection"] = dict(protection)
    # Like max_hp/max_mp: a stat block's printed numbers are an NPC's. On a PC they would
    # silently replace what its weapon and armour give in a fight. An empty table changes
    # nothing and is taken.
    if fields["kind"] is Kind.PC and not kept:
        for name, follows in (("printed_power", "striking power follows its weapons (GM-EQUIP-1, "
                                                "GM-EQUIP-3)"),
                              ("printed_protection", "protection follows its armour and shield "
                                                     "(GM-EQUIP-2, GM-EQUIP-3)")):
            if fields[name]:
                raise DataError(f"{where}: {name} is a printed NPC stat-block number, for NPCs "
                                f"only; a PC's {follows}")
    rings = raw.get("rings", {})
    if not isinstance(rings, Mapping) or set(rings) - {"left", "right"}:
        raise DataError(f"{where}: rings must be a table of left and right")
    fields["rings_left"] = _keys(rules, rings.get("left", []), "rings.left", where, (Slot.RING,))
    fields["rings_right"] = _keys(rules, rings.get("right", []), "rings.right", where,
                                  (Slot.RING,))
    stones = raw.get("mana_stones", [])
    top = rules.mana_stone["max_mp"]
    if not isinstance(stones, list) or any(
        not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= top for s in stones
    ):
        raise DataError(f"{where}: mana_stones must list the MP left in each stone, 0–{top}")
    fields["mana_stones"] = tuple(stones)
    money = raw.get("money", {})
    if not isinstance(money, Mapping) or set(money) - {"gold", "large_silver", "silver"}:
        raise DataError(f"{where}: money must be a table of gold, large_silver, silver")
    fields["purse"] = Purse(*(_int({"money." + k: money.get(k, 0)}, "money." + k, where,
                                   most=None if kept else MOST_MONEY)
                              for k in ("gold", "large_silver", "silver")))
    start = Character(hp=0, mp=0, **fields)
    # GM-ITEM-3 蓄積の指輪 「５ＭＰを蓄積できる指輪。」: stored MP no worn Ring of Storage holds
    # would be spent in a fight (fight cast --ring). A fight's copy is read as it played.
    holds = storage_capacity(rules, start)
    if start.storage_mp > holds and not kept:
        raise DataError(f"{where}: storage_mp {start.storage_mp} is more than the Rings of "
                        f"Storage (蓄積の指輪) worn hold: {holds} "
                        f"({rules.num('GM-ITEM-3', 'storage')} MP for each ring_storage in "
                        "rings.left and rings.right, GM-ITEM-3)")
    derived = derive(rules, start)
    # Below 1 is down or dead (GM-COMBAT-8), but no blow takes a bounded character this low.
    floor = None if kept else -MOST_COUNT
    hp = _int(raw, "hp", where, floor) if "hp" in raw else derived.max_hp.total
    mp = _int(raw, "mp", where, floor) if "mp" in raw else derived.max_mp.total
    if hp > derived.max_hp.total:
        raise DataError(f"{where}: hp {hp} is above the maximum {derived.max_hp.total}")
    if mp > derived.max_mp.total:
        raise DataError(f"{where}: mp {mp} is above the maximum {derived.max_mp.total}")
    return Character(hp=hp, mp=mp, **fields)


def load_sheet(rules: GensoRules, text: str, origin: str = "sheet") -> Character:
    """A Character from sheet text (TOML); a UTF-8 byte-order mark before it is dropped
    (genso67 NIT 7), as the app's file reader drops one (``overrides.read_text``, which the
    genso and coc commands and the tables' fight reader use; reviewg67 NIT 8: not every
    reader of the companion does)."""
    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc
    except RecursionError:  # thousands of brackets deep: the parser runs out of stack
        raise DataError(f"{origin}: not TOML (nested too deeply to read)") from None
    return character_from_mapping(rules, raw, origin)


def preset_names(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """GM-DATA-1: the names a preset's sheet goes by: the seed's heading, then any it was
    packaged under before (``former_names``: 森妖精の冒険者 became 一般的な森妖精の冒険者,
    a77data NIT 5), which a fight saved then keeps in its copy of the sheet."""
    return (str(raw.get("name", "")), *(str(n) for n in raw.get("former_names", ())))


def preset(rules: GensoRules, key: str) -> Character:
    """GM-DATA-1: a sample PC or typical NPC of the seed, by preset key."""
    if key not in rules.presets:
        raise DataError(f"no preset {key!r}; presets: {', '.join(rules.presets)}")
    return character_from_mapping(rules, rules.presets[key], f"presets.toml: {key}")


def sheet_mapping(character: Character) -> dict[str, Any]:
    """The sheet fields of a character, leaving out empty and zero-growth ones."""
    out: dict[str, Any] = {"name": character.name, "kind": character.kind.value}
    for name in (*_TEXT[1:], "age", *ABILITIES, "hp", "mp", *_COUNTS, "max_hp", "max_mp",
                 "trap_bonus", "enemy_bonus"):
        value = getattr(character, name)
        if value not in (None, "") and not (name in _COUNTS and value == 0
                                           and name not in ("exp", "level")):
            out[name] = value
    for name in ("spells", "weapons", "equipment", "mana_stones"):
        if getattr(character, name):
            out[name] = list(getattr(character, name))
    for name in ("armor", "shield"):
        if getattr(character, name):
            out[name] = getattr(character, name)
    for name in ("printed_power", "printed_protection"):
        if getattr(character, name):
            out[name] = dict(getattr(character, name))
    if character.rings_left or character.rings_right:
        out["rings"] = {"left": list(character.rings_left), "right": list(character.rings_right)}
    purse = character.purse
    out["money"] = {"gold": purse.gold, "large_silver": purse.large_silver,
                    "silver": purse.silver}
    return out
