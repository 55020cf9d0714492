"""System `genso` characters (spec §2.2, §2.7, §2.8, §2.10, Appendix A): data, creation, derived
values, sheets, gear, money, recovery and growth, checked against seed 002."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib.resources import files
from typing import Any

import pytest
import tomlkit

from companion.app.commands.genso import describe, sheet_document
from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.defaults import listing
from companion.systems.genso.character.core import (
    Character,
    Condition,
    Hand,
    Kind,
    condition,
    derive,
    numbered_weapons,
    rates,
)
from companion.systems.genso.character.creation import Creation, create_character
from companion.systems.genso.character.gear import equip, put_on_ring, take_off_ring, unequip
from companion.systems.genso.character.growth import award_experience, spend_experience
from companion.systems.genso.character.recovery import rest, sleep
from companion.systems.genso.character.shop import (
    HeldNotInPack,
    buy,
    buy_mana_stone,
    listed_about,
    price_coins,
    sale,
    sell,
)
from companion.systems.genso.combat import from_character
from companion.systems.genso.money import NotEnoughMoney, Purse, Rates, coins_text, price_text
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import load_sheet, preset

RULES = load_rules()
ABILITIES_654 = {"body": 6, "perception": 5, "magic": 4}


def d6(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


def new_pc(skill: str = "combat", faces: tuple[int, int, int] = (1, 6, 4),
           abilities: dict[str, int] | None = None) -> Creation:
    dice = d6(*faces)
    made = create_character(RULES, dice, name="Aki", sex="男性", age=15,
                            abilities=abilities or ABILITIES_654, skill=skill)
    assert dice.remaining == []
    return made


# --- data ------------------------------------------------------------------------------------


def test_every_data_file_loads_and_tables_cover_their_die() -> None:
    """GM-CHAR-1, GM-CHAR-2, GM-CHAR-3: the three 1D tables are data, size-checked."""
    assert {t.rule for t in RULES.tables.values()} == {"GM-CHAR-1", "GM-CHAR-2", "GM-CHAR-3"}
    for table in RULES.tables.values():
        assert sorted(f for row in table.rows for f in row.faces) == [1, 2, 3, 4, 5, 6]
    assert [row["ja"] for row in RULES.tables["birth"].rows] == [
        "貴族", "神官", "村人", "商人", "魔術師", "冒険者"]
    assert [row["ja"] for row in RULES.tables["want"].rows] == [
        "地位", "名誉", "家庭", "金", "知識", "力"]
    assert RULES.tables["dislike"].rows[3]["ja"] == "貪欲な商人"


def test_a_broken_data_file_is_refused_naming_the_field() -> None:
    text = files("companion.systems.genso").joinpath("data", "items.toml").read_text("utf-8")
    with pytest.raises(DataError, match=r"\[\[weapon\]\] 3 power: .1Q6. is not dice"):
        load_rules({"items.toml": text.replace('power = "1D6"\n', 'power = "1Q6"\n', 1)})
    with pytest.raises(DataError, match=r"rules\.toml: not TOML"):
        load_rules({"rules.toml": "[["})


def test_seed_numbers_are_refused_and_defaults_are_labelled() -> None:
    """GM-COMBAT-6, GM-COMBAT-8: a seed number (full dodge +6) cannot be overridden; a
    Default can, and loses its "(default)" label."""
    with pytest.raises(DataError,
                       match=r"GM-COMBAT-6.full_dodge is the book's rule \(seed 002: 6\)"):
        RULES.with_overrides({"GM-COMBAT-6": {"full_dodge": 9}})
    with pytest.raises(DataError, match="no Default is kept for rule 'GM-XX-1'"):
        RULES.with_overrides({"GM-XX-1": {"a": 1}})
    with pytest.raises(DataError, match=r"GM-COMBAT-8.strict_4_6 must be true or false"):
        RULES.with_overrides({"GM-COMBAT-8": {"strict_4_6": "yes"}})
    with pytest.raises(DataError, match=r"GM-MAGIC-5\.diameter_m must be one of 3, 5"):
        RULES.with_overrides({"GM-MAGIC-5": {"diameter_m": 4}})
    changed = RULES.with_overrides({"GM-COMBAT-8": {"strict_4_6": True}})
    assert changed.settings.tag("GM-COMBAT-8", "strict_4_6") == ""
    assert RULES.settings.tag("GM-COMBAT-8", "strict_4_6") == " (default)"
    assert ("GM-COMBAT-8", "strict_4_6", False, True) in RULES.settings.entries()


def test_source_numbers_match_the_seed() -> None:
    """GM-CORE-1, GM-CORE-2, GM-MOVE-1, GM-MOVE-2, GM-COMBAT-2, GM-COMBAT-5, GM-COMBAT-6,
    GM-HEAL-2: the numbers seed 002 states (min damage 0, 1R = 12 s, 3/12/48 m,
    720 m a turn, 3600 m an hour, 18 km a day, Body + 7, +4, +6, 8 hours)."""
    num = RULES.num
    assert num("GM-CORE-1", "weapon_minimum") == 0
    assert num("GM-CORE-2", "round_seconds") == 12
    assert [num("GM-MOVE-1", f"{m}_m") for m in ("combat", "normal", "full")] == [3, 12, 48]
    # 60 rounds a turn: a turn's travel is 60 normal moves of 12 m; 5 turns an hour.
    assert num("GM-MOVE-2", "turn_m") == 60 * num("GM-MOVE-1", "normal_m") == 720
    assert num("GM-MOVE-2", "hour_m") == 5 * num("GM-MOVE-2", "turn_m") == 3600
    assert num("GM-MOVE-2", "day_m") == 18000
    assert num("GM-COMBAT-2", "fixed") == 7
    assert (num("GM-COMBAT-5", "full_attack"), num("GM-COMBAT-6", "full_dodge")) == (4, 6)
    assert num("GM-HEAL-2", "sleep_hours") == 8


def test_item_and_price_tables() -> None:
    """GM-EQUIP-1, GM-EQUIP-2, GM-EQUIP-3, GM-ECON-2: weapons, armour, magic gear and goods as
    the seed prints them (prices in silver; "～" kept)."""
    item = RULES.item
    assert [(item(k).power, item(k).price) for k in ("fist", "staff", "club", "knife",
                                                      "dagger", "warhammer", "axe", "sword",
                                                      "spear", "bow")] == [
        ("1D6-4", None), ("1D6-2", 8), ("1D6", 16), ("2D6-4", 160), ("2D6-3", 240),
        ("2D6-2", 160), ("2D6-1", 160), ("2D6", 320), ("2D6+1", 320), ("2D6-2", 160)]
    assert item("剣").price_from and not item("club").price_from
    assert [(item(k).protection, item(k).price) for k in (
        "leather_armor", "chain_armor", "iron_armor", "shield")] == [
        (4, 640), (8, 1920), (12, 3840), (2, 320)]
    assert [item(k).power for k in ("warhammer_plus1", "sword_plus1", "spear_plus1")] == [
        "2D6-1", "2D6+1", "2D6+3"]
    assert [item(k).protection for k in ("chain_armor_plus1", "steel_armor_plus1",
                                         "shield_plus1")] == [9, 13, 3]
    assert item("sword_plus1").buyback == 50 * 80 and item("sword_plus1").price == 100 * 80
    assert item("旅人の服").price == 80 and item("villagers_clothes").price == 60
    assert item("torch").price == 1 and item("spellcasting").price == 4
    assert item("guild_stable").price == 0


# --- creation --------------------------------------------------------------------------------


def test_creation_rolls_the_three_tables_and_follows_the_seed() -> None:
    """GM-CHAR-1, GM-CHAR-2, GM-CHAR-3, GM-CHAR-5, GM-CHAR-6, GM-CHAR-7, GM-CORE-3: 1D each
    for birth, want and dislike; 6/5/4; Combat−1; free kit; 4 gold + 20 large silver."""
    made = new_pc("combat", (1, 6, 4))
    pc = made.character
    assert (pc.birth, pc.want, pc.dislike) == ("貴族", "力", "貪欲な商人")
    assert [line for _, _, line in made.rolls] == [
        "ＰＣの生まれ/Birth: 貴族/Noble", "ＰＣが望むもの/What the PC wants: 力/Power",
        "ＰＣが嫌うもの/What the PC dislikes: 貪欲な商人/Greedy merchants"]
    assert [r.text for _, r, _ in made.rolls] == ["(1D6) ＞ 1", "(1D6) ＞ 6", "(1D6) ＞ 4"]
    assert (pc.hp, pc.mp, pc.combat, pc.search, pc.spells) == (12, 8, 1, 0, ())
    assert pc.weapons == ("club", "knife")
    assert set(pc.equipment) == {"travellers_clothes", "travellers_shoes", "backpack", "purse"}
    assert pc.purse == Purse(4, 20, 0)
    # Sample PC 1 (駆け出し冒険者１) made the same way matches the printed sheet.
    printed = preset(RULES, "pc1")
    derived, sample = derive(RULES, pc), derive(RULES, printed)
    assert (derived.max_hp.total, derived.max_mp.total, derived.attack.total) == (12, 8, 7)
    assert (sample.max_hp.total, sample.max_mp.total, sample.attack.total) == (12, 8, 7)


def test_creation_magic_and_search_skills() -> None:
    """GM-CHAR-6, GM-CORE-4: Magic−1 gives Healing; Search−1 gives +2 to trap and enemy
    detection."""
    mage = new_pc("magic", abilities={"body": 5, "perception": 4, "magic": 6}).character
    assert mage.spells == ("healing",) and (mage.hp, mage.mp) == (10, 12)
    scout = new_pc("search").character
    derived = derive(RULES, scout)
    assert derived.trap_bonus.total == 2 and derived.enemy_bonus.total == 2
    assert derived.attack.total == 6


@pytest.mark.parametrize(("kw", "message"), [
    ({"age": 18}, "GM-CHAR-4: a PC's age must be from 15 to 17"),
    ({"age": 14}, "GM-CHAR-4"),
    ({"name": " "}, "GM-CHAR-4: a PC needs a name"),
    ({"abilities": {"body": 6, "perception": 6, "magic": 3}}, "GM-CHAR-5"),
    ({"abilities": {"body": 6, "perception": 5}}, "GM-CHAR-5"),
    ({"skill": "thief"}, "GM-CHAR-6: choose one starting skill"),
])
def test_creation_refuses_what_the_seed_forbids(kw: dict[str, Any], message: str) -> None:
    """GM-CHAR-4, GM-CHAR-5, GM-CHAR-6: age 15–17, name given, 6/5/4 one each, one skill."""
    args: dict[str, Any] = {"name": "A", "sex": "", "age": 16, "abilities": ABILITIES_654,
                            "skill": "combat", **kw}
    with pytest.raises(IllegalAction, match=message):
        create_character(RULES, d6(1, 1, 1), **args)


# --- sample characters -----------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(RULES.presets))
def test_every_sample_character_matches_its_printed_block(key: str) -> None:
    """GM-DATA-1, GM-CORE-3, GM-CORE-4: each sample PC and NPC reproduces its printed HP, MP,
    attack and defence (attack = defence = Body + Combat level)."""
    character = preset(RULES, key)
    derived = derive(RULES, character)
    got = {"hp": derived.max_hp.total, "mp": derived.max_mp.total,
           "attack": derived.attack.total, "defence": derived.defence.total}
    assert got == RULES.presets[key]["printed"]
    assert derived.attack.total == character.body + character.combat
    assert load_sheet(RULES, sheet_text_of(character)) == character


def test_sample_npcs_keep_their_printed_numbers() -> None:
    """GM-EQUIP-1, GM-EQUIP-2, GM-EQUIP-3, GM-CHECK-3: villagers' club 1D−1, shield 4, elves'
    Sword+1 2D are kept for the presets; PCs use the tables; the settler's printed 罠発見＋４
    is the Search bonus, not added to it."""
    villager = derive(RULES, preset(RULES, "villager_m"))
    assert [w.power for w in villager.weapons] == ["1D6-1", "2D6-4", "1D6-4"]
    knight = derive(RULES, preset(RULES, "knight_m"))
    assert knight.protection.total == 12 and knight.protection.text == (
        "12 = 鎖鎧/Chain armor 8 楯/Shield +4")
    elf = derive(RULES, preset(RULES, "forest_fairy"))
    assert elf.weapons[0].power == "2D6" and elf.weapons[0].magic
    settler = derive(RULES, preset(RULES, "settler_m"))
    assert settler.trap_bonus.total == 4 and settler.enemy_bonus.total == 4
    assert derive(RULES, preset(RULES, "adventurer_m")).trap_bonus.total == 4
    assert derive(RULES, preset(RULES, "mage_m")).magic_level == 4


def test_a_printed_bonus_that_disagrees_is_used_with_a_warning() -> None:
    """GM-CHECK-3 Default: a printed 罠発見＋N that differs from 2 × Search wins, with a
    warning."""
    odd = replace(preset(RULES, "settler_m"), trap_bonus=6)
    derived = derive(RULES, odd)
    assert derived.trap_bonus.total == 6
    assert any("printed 罠発見/trap detection +6 differs" in w for w in derived.warnings)


# --- sheets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "message"), [
    ("body = 0", "body must be from 1 to 99, found 0"),
    ("body = 1000000000000000000000000", "body must be from 1 to 99, found 10{24}$"),
    ("combat = 10000000", "combat must be from 0 to 999,999, found 10000000"),
    ("exp = 9223372036854775808", "exp must be from 0 to 999,999"),
    ("level = 1000000", "level must be from 0 to 999,999"),
    ("hp = -1000000000", "hp must be at least -999,999, found -1000000000"),
    ("body = \"six\"", "body must be a whole number"),
    ("kind = \"god\"", "kind must be pc or npc"),
    ("hp = 30", "hp 30 is above the maximum 12"),
    ("weapons = [\"lightsaber\"]", "weapons names unknown item 'lightsaber'"),
    ("weapons = [\"leather_armor\"]", "weapons holds 'leather_armor', which is not a weapon"),
    ("armor = \"club\"", "armor holds 'club', which is not armour$"),
    ("spells = [\"fireball\"]", "spells must list spell keys"),
    ("spells = [[\"healing\"]]", "spells must list spell keys"),  # a TypeError before
    ("spells = [\"healing\", \"healing\"]", "spells lists healing more than once"),
    ("armor = \"leather_armor\"\nprinted_protection = { leather_armor = true }",
     "printed_protection must map the character's armour and shield to whole numbers 0"),
    ("armor = \"leather_armor\"\nprinted_protection = { leather_armor = -5 }",
     "printed_protection must map the character's armour and shield to whole numbers 0"),
    ("money = { gold = -1 }", "money.gold must be from 0 to 1,000,000,000, found -1"),
    ("money = { silver = 100000000000000000000000 }",
     "money.silver must be from 0 to 1,000,000,000, found 10{23}$"),
    ("birth = \"王族\"", "birth must be one of"),
    ("max_hp = 20", "max_hp/max_mp are printed NPC numbers"),
    ("colour = 3", "unknown field 'colour'"),
    ("mana_stones = [7]", "mana_stones must list the MP left in each stone, 0–5"),
])
def test_a_bad_sheet_names_the_field(line: str, message: str) -> None:
    """Sheets are checked field by field; the error names the file and field."""
    text = sheet_text_of(preset(RULES, "pc1"))
    key = line.split(" = ")[0]
    kept = [row for row in text.splitlines() if not row.startswith(f"{key} = ")]
    with pytest.raises(DataError, match=f"my.toml: {message}"):
        load_sheet(RULES, "\n".join([*kept, line]), "my.toml")


def test_a_misspelt_field_is_answered_with_the_one_meant() -> None:
    """coc's sheets spell it armour, genso's armor (docs/sheets.md): coc said "did you mean
    'armour'?" of the slip, genso only "unknown field 'armour'". Both say it now, alike."""
    text = sheet_text_of(preset(RULES, "pc1"))
    with pytest.raises(DataError) as refused:
        load_sheet(RULES, f"{text}\narmour = \"leather_armor\"\nSpells = []\n", "z2.toml")
    assert str(refused.value) == ("z2.toml: unknown field 'armour' (did you mean 'armor'?); "
                                  "unknown field 'Spells' (did you mean 'spells'?)")


# --- money, gear and rings -------------------------------------------------------------------


def test_three_coins_and_change() -> None:
    """GM-ECON-1: 1 gold = 20 large silver = 80 silver; paying gives change; never below 0."""
    r = rates(RULES)
    assert r == Rates(20, 4)
    assert Purse(1, 0, 0).value(r) == Purse(0, 20, 0).value(r) == Purse(0, 0, 80).value(r) == 80
    assert Purse(0, 5, 0).pay(1, r) == Purse(0, 4, 3)
    assert Purse(1, 1, 0).pay(5, r) == Purse(0, 19, 3)
    assert Purse(4, 20, 0).pay(9, r) == Purse(4, 17, 3)
    assert Purse().receive(85, r) == Purse(1, 1, 1)
    assert price_text(85, r) == "金貨1枚 (1 gold)、大銀貨1枚 (1 large silver)、銀貨1枚 (1 silver)"
    with pytest.raises(NotEnoughMoney):
        Purse(0, 1, 0).pay(5, r)


def test_buying_gear_changes_derived_values() -> None:
    """GM-EQUIP-1, GM-EQUIP-2, GM-ECON-1: a new PC's 5 gold buys a shield (4 gold) but not
    leather armour (8 gold); wearing the shield raises protection; a readied warhammer is a
    weapon."""
    pc = new_pc().character
    with pytest.raises(NotEnoughMoney, match="金貨8枚"):
        buy(RULES, pc, "leather_armor")
    pc = buy(RULES, pc, "楯")
    assert pc.purse == Purse(1, 0, 0) and derive(RULES, pc).protection.total == 0
    pc = equip(RULES, pc, "shield")
    assert derive(RULES, pc).protection.total == 2
    pc = unequip(RULES, pc, "shield")
    assert derive(RULES, pc).protection.total == 0 and "shield" in pc.equipment
    rich = replace(pc, purse=Purse(10, 0, 0))
    with pytest.raises(IllegalAction,
                       match=r"costs 金貨2枚 \(2 gold\), that is 160 silver or more"):
        buy(RULES, rich, "warhammer", price=100)
    armed = equip(RULES, buy(RULES, rich, "warhammer", price=200), "warhammer")
    assert armed.purse.value(rates(RULES)) == 800 - 200
    assert derive(RULES, armed).weapons[0].power == "2D6-2"  # readied: weapon 0


def test_rings_one_per_hand_striking_protection_storage() -> None:
    """GM-ITEM-3: Striking +1 damage, Protection +1 armour (Default); two rings on one hand
    stop every ring, a Ring of Storage put on there too (it absorbs nothing)."""
    pc = replace(preset(RULES, "pc2"), equipment=("ring_striking", "ring_protection",
                                                  "ring_storage"))
    pc = put_on_ring(RULES, pc, "ring_striking", Hand.LEFT)
    pc = put_on_ring(RULES, pc, "ring_protection", Hand.RIGHT)
    derived = derive(RULES, pc)
    assert derived.striking == 1 and derived.protection.total == 1 and derived.rings_work
    pc = put_on_ring(RULES, pc, "ring_storage", Hand.RIGHT)
    assert (pc.mp, pc.storage_mp) == (12, 0)
    derived = derive(RULES, pc)
    assert not derived.rings_work and derived.striking == 0 and derived.protection.total == 0
    pc = take_off_ring(RULES, pc, "ring_storage")
    assert pc.storage_mp == 0 and derive(RULES, pc).rings_work
    as_defence = RULES.with_overrides({"GM-ITEM-3": {"protection_ring_adds_to": "defence"}})
    derived = derive(as_defence, pc)
    assert derived.protection.total == 0 and derived.defence.total == derived.attack.total + 1


def test_two_rings_of_a_kind_each_add_under_the_default() -> None:
    """genso72 RISK 2: a Ring of Striking (or Protection) on each hand added +1 between them
    while two Rings of Storage held 5 MP each; the seed is silent, and 「打撃の指輪
    武器のダメージに＋１する」 reads per ring. GM-ITEM-3 ``rings_of_a_kind_add`` (on) counts
    each working ring; off, a kind counts once."""
    pc = replace(preset(RULES, "pc2"), equipment=("ring_striking", "ring_striking",
                                                  "ring_protection", "ring_protection"))
    striking = put_on_ring(RULES, put_on_ring(RULES, pc, "ring_striking", Hand.LEFT),
                           "ring_striking", Hand.RIGHT)
    protected = put_on_ring(RULES, put_on_ring(RULES, pc, "ring_protection", Hand.LEFT),
                            "ring_protection", Hand.RIGHT)
    assert derive(RULES, striking).striking == 2
    assert derive(RULES, protected).protection.total == 2
    as_defence = RULES.with_overrides({"GM-ITEM-3": {"protection_ring_adds_to": "defence"}})
    derived = derive(as_defence, protected)
    assert derived.defence.total == derived.attack.total + 2
    once = RULES.with_overrides({"GM-ITEM-3": {"rings_of_a_kind_add": False}})
    assert derive(once, striking).striking == 1
    assert derive(once, protected).protection.total == 1


def test_a_fist_the_sheet_lists_is_shown_once() -> None:
    """genso72 NIT 8: a sheet with ``weapons = ["fist"]`` listed "0 拳/Fist 1D6-4, 1 拳/Fist
    1D6-4", the fist every character has added last; it is left out where one is listed,
    and kept in the weapons (weapon 1 of a fight saved so still strikes)."""
    fisted = replace(preset(RULES, "pc1"), weapons=("fist",))
    derived = derive(RULES, fisted)
    assert [w.key for w in derived.weapons] == ["fist", "fist"]
    assert [(n, w.key) for n, w in numbered_weapons(derived.weapons)] == [(0, "fist")]
    shown = describe(RULES, fisted, derived)
    assert "打撃力/striking power: 0 拳/Fist 1D6-4\n" in shown and "1 拳/Fist" not in shown
    armed = derive(RULES, preset(RULES, "pc1"))
    assert [w.key for _, w in numbered_weapons(armed.weapons)] == ["club", "knife", "fist"]


def test_selling_by_the_buy_back_prices() -> None:
    """GM-ITEM-1, GM-ITEM-2, GM-ITEM-3, GM-EQUIP-3: the guild pays 1 silver per MP left in a
    mana stone (1 silver for a used one); a magic stone 2 large silver (1 used); a ring 25
    gold; a magic weapon 50 gold; ordinary goods have no buy-back price."""
    pc = replace(preset(RULES, "pc1"), purse=Purse(), mana_stones=(4, 0),
                 equipment=("healing_stone", "used:enchant_stone", "ring_striking",
                            "sword_plus1", "torch"))
    pc, paid = sell(RULES, pc, "mana_stone:0")
    assert paid == 4 and pc.mana_stones == (0,)
    pc, paid = sell(RULES, pc, "mana_stone:0")
    assert paid == 1 and pc.mana_stones == ()
    pc, paid = sell(RULES, pc, "healing_stone")
    assert paid == 8
    pc, paid = sell(RULES, pc, "used:enchant_stone")
    assert paid == 4
    pc, paid = sell(RULES, pc, "ring_striking")
    assert paid == 25 * 80
    pc, paid = sell(RULES, pc, "sword_plus1")
    assert paid == 50 * 80
    with pytest.raises(IllegalAction, match=r"no buy-back price for .*: give the price the GM"):
        sell(RULES, pc, "torch")
    assert pc.purse == Purse(75, 4, 1)


def test_selling_what_is_held_or_not_carried_says_so_before_any_price() -> None:
    """GM-EQUIP-3: pc1's club (readied in its hand) was "not in the pack", with no word of
    taking it off; and a sword pc1 does not have asked for the GM's price first, then said it
    was not there. The held club says to take it off first, in game words (review #11: it
    named `companion genso gear SHEET club --off`, a command line the table's screen cannot
    run; the command adds it); the sword, that it is not carried."""
    pc1 = preset(RULES, "pc1")
    with pytest.raises(HeldNotInPack) as held:
        sale(RULES, pc1, "club", 3)
    assert str(held.value) == ("駆け出し冒険者１ holds 棍棒/Club (readied or worn, not in the "
                               "pack): take it off first, then sell it")
    assert held.value.item == "club"
    with pytest.raises(IllegalAction, match=r"carries no 剣/Sword in the pack"):
        sale(RULES, pc1, "sword")
    off = unequip(RULES, pc1, "club")
    assert sale(RULES, off, "club", 3)[1] == 3


def test_ordinary_goods_sell_at_the_price_the_gm_sets() -> None:
    """GM-EQUIP-3: the seed gives buy-back prices for magic goods only; a club or a torch
    sells at the GM's price, in silver, or not at all."""
    pc = replace(preset(RULES, "pc1"), purse=Purse(), equipment=("torch", "club"))
    pc, paid, coins = sale(RULES, pc, "club", 6)
    assert (paid, coins) == (6, Purse(silver=6)) and pc.equipment == ("torch",)
    assert pc.purse == Purse(0, 1, 2)
    with pytest.raises(IllegalAction, match="holds 棍棒/Club"):  # the one in its hand
        sale(RULES, pc, "club", 6)
    for price in (-1, 0):  # a76gensofight RISK 2: the shop has no gift
        with pytest.raises(IllegalAction, match=f"a price the GM sets is 1 silver .銀貨. or "
                                                 f"more, found {price}; the shop has no gift"):
            sale(RULES, pc, "torch", price)


def test_mana_stones_are_bought_by_the_mp() -> None:
    """GM-ITEM-1: a shop's 4 MP stone costs 2 large silver; others 2 silver per MP, 1–5 MP."""
    pc = replace(preset(RULES, "pc1"), purse=Purse(0, 3, 0))
    pc = buy_mana_stone(RULES, pc)
    assert pc.mana_stones == (4,) and pc.purse == Purse(0, 1, 0)
    pc = buy_mana_stone(RULES, pc, 2)
    assert pc.mana_stones == (4, 2) and pc.purse == Purse()
    with pytest.raises(IllegalAction, match="1–5 MP"):
        buy_mana_stone(RULES, pc, 6)


# --- recovery and growth ---------------------------------------------------------------------


def test_recovery_with_and_without_a_healer() -> None:
    """GM-HEAL-1, GM-HEAL-2: a healer heals 1 HP a day for 1 silver each; alone 1 HP per two
    days; never above the maximum; 8 hours' sleep restores all MP."""
    pc = replace(preset(RULES, "pc2"), hp=3, mp=1)
    healed, fee = rest(RULES, pc, 4, healer=True)
    assert (healed.hp, fee) == (7, 4) and healed.purse == Purse(4, 19, 0)
    alone, fee = rest(RULES, pc, 5, healer=False)
    assert (alone.hp, fee) == (5, 0)
    full, fee = rest(RULES, pc, 30, healer=True)
    assert (full.hp, fee) == (10, 7)
    assert sleep(RULES, pc).mp == 12
    with pytest.raises(NotEnoughMoney):
        rest(RULES, replace(pc, purse=Purse()), 2, healer=True)


def test_the_healers_fee_is_a_default_the_user_may_change() -> None:
    """GM-HEAL-1 Default "1 silver per HP": a setting, listed as the default, within 1 silver
    to 1 large silver; an override changes what a healer's care costs."""
    assert RULES.settings.tag("GM-HEAL-1", "fee_silver") == " (default)"
    row = next(r for r in listing(RULES.settings.entries(), RULES.settings)
               if (r["rule"], r["key"]) == ("GM-HEAL-1", "fee_silver"))
    assert row["value"] == 1 and row["default"] is True and row["range"]
    pc = replace(preset(RULES, "pc2"), hp=3)
    dearer = RULES.with_overrides({"GM-HEAL-1": {"fee_silver": 4}})
    healed, fee = rest(dearer, pc, 2, healer=True)
    assert (healed.hp, fee) == (5, 8)
    assert dearer.settings.tag("GM-HEAL-1", "fee_silver") == ""
    with pytest.raises(DataError, match=r"GM-HEAL-1\.fee_silver"):
        RULES.with_overrides({"GM-HEAL-1": {"fee_silver": 5}})


def test_experience_and_what_it_buys() -> None:
    """GM-GROW-1, GM-GROW-2: 1 point per scenario; 1 buys HP+1 or MP+1; 2 buy a basic spell,
    Combat +1 or Search +1; derived values follow."""
    pc = award_experience(RULES, preset(RULES, "pc1"), 3)
    assert pc.exp == 3
    pc = spend_experience(RULES, pc, "hp")
    assert (pc.exp, derive(RULES, pc).max_hp.total, pc.hp) == (2, 13, 13)
    pc = spend_experience(RULES, pc, "combat")
    assert (pc.exp, derive(RULES, pc).attack.total, derive(RULES, pc).defence.total) == (0, 8, 8)
    with pytest.raises(IllegalAction, match="costs 1 experience"):
        spend_experience(RULES, pc, "mp")
    pc = award_experience(RULES, pc, 6)
    pc = spend_experience(RULES, pc, "search")
    assert derive(RULES, pc).trap_bonus.total == 2
    pc = spend_experience(RULES, pc, "spell", "lightning")
    assert pc.spells == ("lightning",)
    with pytest.raises(IllegalAction, match="not a basic spell"):
        spend_experience(RULES, pc, "spell", "death_curse")
    assert pc.kind is Kind.PC


def sheet_text_of(character: Character) -> str:
    """The sheet as `companion genso` writes it."""
    return tomlkit.dumps(sheet_document(character))


@pytest.mark.parametrize("name", ['say "hi"', "back\\slash", "雀 'quoted'"])
def test_a_sheet_with_awkward_text_loads_back_as_written(name: str) -> None:
    """Sheets are written through tomlkit: quotes and backslashes survive. (A tab or a line
    break, a control character, is refused in a name: test_names_with_control_characters.)"""
    character = replace(preset(RULES, "pc1"), name=name)
    assert load_sheet(RULES, sheet_text_of(character)) == character


# --- the audit's defects: rest, the dead, selling, sheets, prices ----------------------------


def test_single_days_of_rest_add_up() -> None:
    """GM-HEAL-1: alone, 1 HP per 2 days (「２日で１ＨＰ回復する」): four single days heal as
    one four-day rest; the odd day is kept on the sheet (and round-trips); a healer's days
    leave it; once HP is full nothing is banked."""
    pc = replace(preset(RULES, "pc1"), hp=4)
    one_by_one = pc
    for _ in range(4):
        one_by_one, fee = rest(RULES, one_by_one, 1, healer=False)
        assert fee == 0
    assert (one_by_one.hp, one_by_one.rest_days) == (rest(RULES, pc, 4, healer=False)[0].hp, 0)
    assert one_by_one.hp == 6
    odd, _ = rest(RULES, pc, 3, healer=False)
    assert (odd.hp, odd.rest_days) == (5, 1)
    assert load_sheet(RULES, sheet_text_of(odd)) == odd
    assert load_sheet(RULES, sheet_text_of(pc)).rest_days == 0  # an old sheet has none
    healed, fee = rest(RULES, odd, 2, healer=True)
    assert (healed.hp, healed.rest_days, fee) == (7, 1, 2)
    full, _ = rest(RULES, replace(pc, hp=11), 3, healer=False)
    assert (full.hp, full.rest_days) == (12, 0)


def test_the_dead_do_not_rest_back_to_life() -> None:
    """GM-COMBAT-8, GM-HEAL-1, GM-HEAL-2: a PC at −6 or below is dead (the glossary's Default)
    and neither rest nor sleep brings it back; one at 0 to −5 is incapacitated and heals;
    under strict 4-6 a PC dies below 1."""
    dead = replace(preset(RULES, "pc1"), hp=-9)
    assert condition(RULES, dead) is Condition.DEAD
    with pytest.raises(IllegalAction, match=r"is dead .*rest does not bring the dead back"):
        rest(RULES, dead, 30, healer=False)
    with pytest.raises(IllegalAction, match="sleep does not bring the dead back"):
        sleep(RULES, dead)
    down = replace(dead, hp=-5)
    assert condition(RULES, down) is Condition.INCAPACITATED
    assert rest(RULES, down, 4, healer=False)[0].hp == -3
    strict = RULES.with_overrides({"GM-COMBAT-8": {"strict_4_6": True}})
    assert condition(strict, down) is Condition.DEAD
    assert condition(RULES, replace(down, hp=12, mp=0)) is Condition.INCAPACITATED


def test_search_growth_raises_printed_detection_bonuses() -> None:
    """GM-GROW-2 「探索に＋１ 罠発見と敵発見に＋２する」: a settler's printed 罠発見＋４ grows to
    +6 with Search 3, with no warning that the printed number differs from 2 × Search."""
    settler = replace(preset(RULES, "settler_m"), exp=2)
    before = derive(RULES, settler)
    grown = spend_experience(RULES, settler, "search")
    after = derive(RULES, grown)
    assert grown.search == settler.search + 1
    assert after.trap_bonus.total == before.trap_bonus.total + 2 == 6
    assert after.enemy_bonus.total == before.enemy_bonus.total + 2
    assert not [w for w in after.warnings if "differs from 2 × Search" in w]


def test_the_dead_do_not_grow_back_to_life() -> None:
    """GM-COMBAT-8, GM-GROW-2: HP+1 bought with experience would lift a dead PC (−6) to −5,
    incapacitated; growth is refused to the dead, and the incapacitated still grow."""
    dead = replace(preset(RULES, "pc1"), hp=-6, exp=3)
    for choice in ("hp", "mp", "combat"):
        with pytest.raises(IllegalAction,
                           match=r"is dead .*growth \(GM-GROW-2\) does not bring the dead back"):
            spend_experience(RULES, dead, choice)
    grown = spend_experience(RULES, replace(dead, hp=-5), "hp")
    assert (grown.hp, grown.exp) == (-4, 2)


def test_selling_a_mana_stone_by_its_name() -> None:
    """GM-ITEM-1: `mana_stone` (or 魔力石), as `buy` takes it, sells the only stone; with
    several, mana_stone:N names one; a number that is not one is a clear refusal."""
    pc = replace(preset(RULES, "pc1"), purse=Purse(), mana_stones=(3,))
    after, paid = sell(RULES, pc, "mana_stone")
    assert paid == 3 and after.mana_stones == ()
    assert sell(RULES, pc, "魔力石")[1] == 3
    two = replace(pc, mana_stones=(3, 0))
    with pytest.raises(IllegalAction, match=r"name one: mana_stone:0 \(3 MP\), mana_stone:1"):
        sell(RULES, two, "mana_stone")
    with pytest.raises(IllegalAction, match="sold as mana_stone:N, N its number from 0"):
        sell(RULES, two, "mana_stone:x")
    with pytest.raises(IllegalAction, match="has no mana stone 2"):
        sell(RULES, two, "mana_stone:2")
    assert sell(RULES, two, "mana_stone:1")[1] == 1
    with pytest.raises(IllegalAction, match="carries no mana stone"):
        sell(RULES, after, "mana_stone")


@pytest.mark.parametrize(("field", "text"), [
    ("weapons", 'weapons = ["used:club"]'),
    ("rings.left", '[rings]\nleft = ["used:ring_striking"]'),
    ("equipment", 'equipment = ["used:torch"]'),
])
def test_used_marks_only_a_used_stone_in_the_pack(field: str, text: str) -> None:
    """GM-ITEM-2: a fight marks a used-up magic stone ``used:`` in the pack; anywhere else a
    hand-edited ``used:`` is a clear error naming the file and the field."""
    base = 'name = "X"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 4\n'
    with pytest.raises(DataError, match=f"^x.toml: {field} holds 'used:"):
        load_sheet(RULES, base + text + "\n", "x.toml")
    kept = load_sheet(RULES, base + 'equipment = ["used:healing_stone"]\n', "x.toml")
    assert kept.equipment == ("used:healing_stone",)


def test_equipping_what_cannot_be_equipped_says_so_plainly() -> None:
    with pytest.raises(IllegalAction) as refused:
        equip(RULES, replace(preset(RULES, "pc1"), equipment=("torch",)), "torch")
    assert str(refused.value) == ("松明/Torch cannot be equipped: only weapons, armour, shields "
                                  "and magic rings (worn on a hand) are")


def test_prices_are_shown_in_the_coins_the_seed_writes() -> None:
    """GM-ECON-1, GM-ECON-2, GM-ITEM-1: 普通の宿 銀貨４枚 shows as 銀貨4枚, not 大銀貨1枚; 豪華な宿
    銀貨６枚～ as 銀貨6枚; the value in silver is unchanged; a price paid above a "～" price is
    in silver; a mana stone sells at 1 silver per MP, shown in silver."""
    inn, luxury = RULES.item("ordinary_inn"), RULES.item("luxury_inn")
    assert (inn.price, coins_text(price_coins(RULES, inn))) == (4, "銀貨4枚 (4 silver)")
    assert (luxury.price, coins_text(price_coins(RULES, luxury))) == (6, "銀貨6枚 (6 silver)")
    assert coins_text(price_coins(RULES, luxury, 9)) == "銀貨9枚 (9 silver)"
    assert coins_text(price_coins(RULES, RULES.item("warhammer"))) == "金貨2枚 (2 gold)"
    assert coins_text(price_coins(RULES, RULES.item("guild_stable"))) == "無料 (free)"
    pc = replace(preset(RULES, "pc1"), mana_stones=(4,), equipment=("used:healing_stone",))
    assert coins_text(sale(RULES, pc, "mana_stone")[2]) == "銀貨4枚 (4 silver)"
    assert coins_text(sale(RULES, pc, "used:healing_stone")[2]) == "大銀貨1枚 (1 large silver)"
    with pytest.raises(NotEnoughMoney, match=r"^銀貨4枚 \(4 silver\) is more than the purse"):
        buy(RULES, replace(pc, purse=Purse(silver=3)), "ordinary_inn")


def test_about_prices_are_the_gms_either_way() -> None:
    """GM-EQUIP-3: 「魔法の武器、鎧、盾の買取はおおよそ金貨５０枚。」 and 「…販売はおおよそ
    金貨１００枚。」 say about (おおよそ), not "from" (～): the GM may set the sale lower as
    well as higher, and the buy-back too; a "～" price stays a floor and every other
    buy-back the seed's own."""
    sword = RULES.item("sword_plus1")
    assert sword.price_about and not sword.price_from and sword.price == 100 * 80
    rich = replace(preset(RULES, "pc1"), purse=Purse(gold=200))
    assert price_coins(RULES, sword) == Purse(gold=100)
    bought = buy(RULES, rich, "sword_plus1", price=90 * 80)
    assert bought.purse == Purse(gold=110)
    assert buy(RULES, rich, "sword_plus1", price=120 * 80).purse == Purse(gold=80)
    for price in (-1, 0):  # 0 bought it for nothing, unsaid (a76gensofight RISK 2)
        with pytest.raises(IllegalAction, match=f"1 silver .銀貨. or more, found {price}"):
            buy(RULES, rich, "sword_plus1", price=price)
        with pytest.raises(IllegalAction, match=f"1 silver .銀貨. or more, found {price}"):
            sale(RULES, bought, "sword_plus1", price=price)
    assert listed_about(sword) == (8000, Purse(gold=100))
    assert listed_about(sword, sold=True) == (4000, Purse(gold=50))
    assert listed_about(RULES.item("sword")) is None
    with pytest.raises(IllegalAction, match=r"or more \(～\)"):
        buy(RULES, rich, "sword", price=300)
    sold, paid, coins = sale(RULES, bought, "sword_plus1", price=45 * 80)
    assert (paid, coins, sold.purse) == (3600, Purse(silver=3600), Purse(gold=155))
    assert sale(RULES, bought, "sword_plus1")[1] == 50 * 80
    ringed = replace(rich, equipment=("ring_striking",), mana_stones=(4,))
    for key in ("ring_striking", "mana_stone"):
        with pytest.raises(IllegalAction, match="its own number"):
            sale(RULES, ringed, key, price=1)


def test_a_ring_of_storage_that_does_not_work_absorbs_nothing() -> None:
    """GM-ITEM-3: 「片手に２個以上の魔法の指輪をつけると全ての魔法の指輪が機能しなくなる。」
    and 蓄積の指輪 「指輪をつけた時点で５ＭＰをつけた生物から吸収する。」: put on as a second
    ring on one hand it works no more than the other, so it takes no MP; put on alone it
    takes 5, which stay stored, though not to be spent in a fight, while a second ring
    stops it."""
    pc = replace(preset(RULES, "pc2"), equipment=("ring_striking", "ring_storage"))
    crowded = put_on_ring(RULES, put_on_ring(RULES, pc, "ring_striking", Hand.LEFT),
                          "ring_storage", Hand.LEFT)
    assert not derive(RULES, crowded).rings_work
    assert (crowded.mp, crowded.storage_mp) == (12, 0)
    alone = put_on_ring(RULES, pc, "ring_storage", Hand.LEFT)
    assert (alone.mp, alone.storage_mp) == (7, 5)
    stopped = put_on_ring(RULES, alone, "ring_striking", Hand.LEFT)
    assert stopped.storage_mp == 5 and from_character(RULES, stopped).storage_mp == 0
    assert from_character(RULES, alone).storage_mp == 5


def test_two_rings_of_storage_hold_5_mp_each() -> None:
    """GM-ITEM-3 蓄積の指輪 「５ＭＰを蓄積できる指輪。／指輪をつけた時点で５ＭＰをつけた生物から
    吸収する。」 and 「片手に２個以上」 stopping them: one on each hand is legal, so each takes
    and holds its own 5. Taken off, a ring takes away only what the one still worn cannot
    hold; the MP spent counts against the ring taken off."""
    pc = replace(preset(RULES, "pc2"), equipment=("ring_storage", "ring_storage"))
    left = put_on_ring(RULES, pc, "ring_storage", Hand.LEFT)
    both = put_on_ring(RULES, left, "ring_storage", Hand.RIGHT)
    assert (left.mp, left.storage_mp) == (7, 5)
    assert (both.mp, both.storage_mp) == (2, 10)
    assert from_character(RULES, both).storage_mp == 10
    one = take_off_ring(RULES, both, "ring_storage")
    assert (one.rings_left, one.rings_right, one.storage_mp) == ((), ("ring_storage",), 5)
    spent = take_off_ring(RULES, replace(both, storage_mp=3), "ring_storage")
    assert spent.storage_mp == 3
    assert take_off_ring(RULES, one, "ring_storage").storage_mp == 0
    # The wearer has only 4 MP left for the second ring: it holds those 4.
    short = put_on_ring(RULES, replace(left, mp=4), "ring_storage", Hand.RIGHT)
    assert (short.mp, short.storage_mp) == (0, 9)


@pytest.mark.parametrize(("rings", "stored"), [
    ("", 1),
    ('left = ["ring_storage"]', 6),
    ('left = ["ring_storage"]\nright = ["ring_storage"]', 11),
])
def test_stored_mp_no_worn_ring_holds_is_refused(rings: str, stored: int) -> None:
    """GM-ITEM-3: a sheet's ``storage_mp`` is at most 5 for each Ring of Storage worn; more
    (which a fight would let be spent) is a clear error naming the file and the field. A
    stopped ring (two on one hand) keeps what it holds, so it counts."""
    base = ('name = "X"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 4\n'
            f"storage_mp = {stored}\n[rings]\n{rings}\n")
    with pytest.raises(DataError, match=f"^x.toml: storage_mp {stored} is more than the Rings "
                                        f"of Storage .*hold: {stored - 1} "):
        load_sheet(RULES, base, "x.toml")
    fits = load_sheet(RULES, base.replace(f"storage_mp = {stored}", f"storage_mp = {stored - 1}"),
                      "x.toml")
    assert fits.storage_mp == stored - 1
    stopped = load_sheet(RULES, base.replace(f"storage_mp = {stored}", "storage_mp = 5")
                         .replace("[rings]\n", '[rings]\nleft = ["ring_storage", '
                                                '"ring_striking"]\n#'), "x.toml")
    assert stopped.storage_mp == 5 and from_character(RULES, stopped).storage_mp == 0


@pytest.mark.parametrize("value, word", [
    (12, "非常に高い/very high"), (10, "非常に高い/very high"), (9, "高い/high"), (7, "高い/high"),
    (6, "平均的/average"), (4, "平均的/average"), (3, "低い/low"), (1, "低い/low"), (0, ""),
    (13, ""),
])
def test_the_ability_guide_is_the_seeds(value: int, word: str) -> None:
    """GM-CORE-3 (PG 1-3-5, l.1085–1090) 「能力値の目安は １０～１２ 非常に高い ７～ ９ 高い
    ４～ ６ 平均的 １～ ３ 低い」, kept in rules.toml; it was nowhere in the program."""
    assert RULES.ability_guide(value) == word


def test_a_sheet_reads_each_ability_by_the_guide(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CORE-3: `genso sheet` (and `genso new`, which shows the same sheet) says what each
    ability's value means by the seed's guide: a fairy's Magic 12 is very high."""
    from companion.app.cli import main
    assert main(["genso", "sheet", "forest_fairy"]) == 0
    assert ("体力/Body 6 (平均的/average)  知覚力/Perception 6 (平均的/average)  "
            "魔力/Magic 12 (非常に高い/very high)") in capsys.readouterr().out.splitlines()
    assert main(["genso", "sheet", "forest_fairy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["derived"]["ability_guide"] == {
        "body": "平均的/average", "perception": "平均的/average", "magic": "非常に高い/very high"}
    text = files("companion.systems.genso").joinpath("data", "rules.toml").read_text("utf-8")
    with pytest.raises(DataError, match="ability_guide must be rows"):
        load_rules({"rules.toml": text.replace('min = 7, max = 9', 'min = 9, max = 7')})


def test_an_unknown_item_or_spell_suggests_the_nearest_key() -> None:
    """GM-EQUIP, GM-MAGIC-1: `genso buy SHEET chain_mail` said "no item 'chain_mail'" and
    nothing more (the coc sheets suggest a name); it now asks "did you mean 'chain_armor'?",
    and a key near nothing says where the keys are listed."""
    with pytest.raises(DataError, match=r"no item 'chain_mail' .*; did you mean 'chain_armor'\?"):
        RULES.item("chain_mail")
    with pytest.raises(DataError, match=r"no item 'xyzzy' .*`companion genso list items`"):
        RULES.item("xyzzy")
    with pytest.raises(DataError, match=r"no spell 'healng' .*did you mean 'healing'\?"):
        RULES.spell("healng")
