"""The profile table (CO-CORE-2), Defaults, sheets (CO-BASE-1) and ½DB (CO-BASE-4)."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from companion.dice import ScriptedDice, roll
from companion.errors import DataError
from companion.systems.coc.checks import Grade, grade, ranges, resistance_target
from companion.systems.coc.rules import Profile, Status, load_rules
from companion.systems.coc.sheet import (
    Sheet,
    carried_hp,
    damage_bonus,
    double_dice,
    half_db,
    sheet_from_mapping,
    sheet_mapping,
    skill_value,
    with_characteristic,
)
from tests.systems.coc.helpers import sheet


def test_co_core_2_profile_table_totals_match_spec() -> None:
    rules = load_rules()
    for profile, want in ((Profile.P003, {"on": 55, "optional": 31, "off": 21}),
                          (Profile.P004, {"on": 60, "optional": 5, "off": 42})):
        cells = Counter(rules.table[r][f"p{profile.value}"] for r in rules.table)
        assert cells == want and len(rules.table) == 107


def test_co_core_2_a_cell_can_be_changed_and_optional_rules_start_off() -> None:
    rules = load_rules(Profile.P003)
    assert rules.status("CO-FIRE-9") is Status.OPTIONAL and not rules.on("CO-FIRE-9")
    changed = rules.with_overrides({"CO-FIRE-9": {"p003": "optional_on"}})
    assert changed.on("CO-FIRE-9") and changed.tag("CO-FIRE-9", "p003") == ""
    with pytest.raises(DataError, match="on, off"):
        rules.with_overrides({"CO-FIRE-9": {"p003": "maybe"}})


def test_seed_numbers_are_refused_as_overrides_and_defaults_are_labelled() -> None:
    rules = load_rules()
    with pytest.raises(DataError, match="seed's rule"):
        rules.with_overrides({"CO-TURN-3": {"action_points": 4}})
    with pytest.raises(DataError, match=r"must be (a int|a whole number)"):
        rules.with_overrides({"CO-BASE-7": {"parries_per_round": "two"}})
    assert rules.tag("CO-BASE-7", "parries_per_round") == " (default)"
    assert rules.with_overrides({"CO-BASE-7": {"parries_per_round": 2}}).default(
        "CO-BASE-7", "parries_per_round") == 2


def test_co_core_1_ranges_per_profile() -> None:
    p003, p004 = ranges(load_rules(Profile.P003)), ranges(load_rules(Profile.P004))
    assert grade(95, 60, p003) is Grade.FUMBLE and grade(95, 60, p004) is Grade.FAILURE
    assert grade(96, 97, p003) is Grade.SUCCESS  # in the range but under the skill
    assert grade(4, 3, p004) is Grade.FAILURE  # 01-05 above the skill is a failure
    assert grade(3, 45, p004) is Grade.CRITICAL_SPECIAL
    assert grade(1, 0, p004) is Grade.FAILURE  # a skill of 0 cannot succeed


def test_co_core_4_special_is_labelled_in_004_without_impale() -> None:
    rules = load_rules(Profile.P004)
    assert rules.on("CO-CORE-4") and not rules.on("CO-BASE-2")
    assert grade(9, 50, ranges(rules)) is Grade.SPECIAL


def test_co_core_3_resistance_table() -> None:
    rules = load_rules()
    assert resistance_target(12, 10, rules) == 60 and resistance_target(10, 20, rules) == 0


def test_co_base_1_derived_hp_and_db_recomputed() -> None:
    rules = load_rules()
    s = sheet(rules, "Ann")
    assert s.max_hp == 13 and s.db == "+1D4"  # CON 12 + SIZ 13 → 12.5 rounds up
    smaller = with_characteristic(s, "SIZ", -2)
    assert smaller.max_hp == 12 and smaller.db == "0"
    assert carried_hp(13, 8, smaller.max_hp) == 7  # the spec's example
    assert [damage_bonus(n, rules.db_table) for n in (12, 16, 24, 32, 40, 56, 72, 88, 89)] == [
        "-1D6", "-1D4", "0", "+1D4", "+1D6", "+2D6", "+3D6", "+4D6", "+5D6"]
    assert skill_value(rules, s, "dodge") == 20 and skill_value(rules, s, "luck") == 50


def test_co_base_1_a_missing_number_is_named_missing_not_found_none() -> None:
    """A sheet with STR alone was "CON must be a whole number 0 or more, found None"."""
    rules = load_rules()
    with pytest.raises(DataError) as err:
        sheet_from_mapping(rules, {"name": "X", "characteristics": {"STR": 1}}, "x.toml")
    assert str(err.value) == ("x.toml [characteristics]: missing CON, POW, DEX, APP, SIZ, "
                              "INT, EDU (each a whole number 0 or more)")
    data = sheet_mapping(sheet(rules, "Ann"))
    data["armour"] = [{"name": "vest"}]
    with pytest.raises(DataError) as err:
        sheet_from_mapping(rules, data, "ann.toml")
    assert str(err.value) == ("ann.toml the 1st [[armour]]: missing value (a whole number 0 "
                              "or more)")


def test_co_base_1_sheet_round_trips_and_refuses_bad_fields() -> None:
    rules = load_rules()
    s = sheet(rules, "Ann", weapons=("revolver",), armour=[{"name": "vest", "value": 8,
                                                             "durability": 20}])
    assert sheet_from_mapping(rules, sheet_mapping(s)) == s
    data = sheet_mapping(s)
    data["characteristics"]["STR"] = -1
    with pytest.raises(DataError, match="STR must be a whole number"):
        sheet_from_mapping(rules, data)
    data = sheet_mapping(s)
    data["weapons"][0]["loaded"] = 99
    with pytest.raises(DataError, match="loaded must be"):
        sheet_from_mapping(rules, data)
    with pytest.raises(DataError, match="no skill"):
        sheet_from_mapping(rules, {**sheet_mapping(s), "skills": {"flying": 5}})


@pytest.mark.parametrize(("table", "field", "value"), [
    ("weapons", "broken", "false"), ("weapons", "jammed", 0), ("weapons", "dropped", "no"),
    ("armour", "natural", "no"), ("weapons", "loaded", True),
])
def test_co_base_1_a_sheet_flag_is_true_or_false_and_loaded_a_number(
        table: str, field: str, value: object) -> None:
    """A quoted "false" used to count as true (a revolver broken before the fight) and
    ``loaded = true`` as one round: each is refused, naming the weapon as the fight
    numbers it (``--with weapon=0``)."""
    rules = load_rules()
    s = sheet(rules, "Ann", weapons=("revolver",), armour=[{"name": "hide", "value": 2}])
    data = sheet_mapping(s)
    data[table][0][field] = value
    where = "weapon 0 (the 1st [[weapons]])" if table == "weapons" else "the 1st [[armour]]"
    with pytest.raises(DataError, match=rf"^sheet {re.escape(where)}: {field} must be "):
        sheet_from_mapping(rules, data)
    for flag in ("foe", "humanoid"):
        with pytest.raises(DataError, match=f"{flag} must be true or false, found 'yes'"):
            sheet_from_mapping(rules, {**sheet_mapping(s), flag: "yes"})


def test_co_base_4_half_db() -> None:
    assert [half_db(d) for d in ("0", "+1D4", "-1D4", "+1D6", "-1D6", "+2D6", "+3D6")] == [
        "0", "+1D2", "-1D2", "+1D3", "-1D3", "+1D6", "+1D6+1D3"]
    assert roll("1D6" + half_db("+3D6"), ScriptedDice([(6, 2), (6, 5), (3, 3)])).total == 10


def test_co_ma_1_doubles_dice_not_flat() -> None:
    assert double_dice("1D6") == "2D6" and double_dice("1D4+2") == "2D4+2"


# --- a user's slips on a TOML sheet: refused, naming the field -----------------------------

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
ANN = (EXAMPLES / "ann.toml").read_text(encoding="utf-8")
CULTIST = (EXAMPLES / "cultist.toml").read_text(encoding="utf-8")
ROW = "weapon 0 (the 1st [[weapons]])"


def _load(text: str, old: str = "", new: str = "") -> Sheet:
    """The example sheet with ``old`` replaced by ``new``, loaded as `fight new` loads it."""
    assert old in text
    return sheet_from_mapping(load_rules(), tomllib.loads(text.replace(old, new, 1)),
                              "ann.toml")


def test_the_example_sheets_load() -> None:
    ann, cultist = _load(ANN), _load(CULTIST)
    assert [w.info.key for w in ann.weapons] == ["revolver", "kick"]
    assert ann.weapons[0].durability == 10 and ann.armour[0].durability == 6
    assert cultist.weapons[0].info.impaling


@pytest.mark.parametrize(("text", "old", "new", "message"), [
    (ANN, "[[armour]]", "[[armor]]", "ann.toml: unknown key 'armor' (did you mean 'armour'?)"),
    (ANN, "[skills]", "[skill]", "ann.toml: unknown key 'skill' (did you mean 'skills'?)"),
    (ANN, "[[weapons]]", "[[weapon]]",
     "ann.toml: unknown key 'weapon' (did you mean 'weapons'?)"),
    (ANN, "san = 60", "SAN = 20", "ann.toml: unknown key 'SAN' (did you mean 'san'?)"),
    (ANN, "san = 60", "humaniod = false",
     "ann.toml: unknown key 'humaniod' (did you mean 'humanoid'?)"),
    (ANN, "san = 60", "max-hp = 30", "ann.toml: unknown key 'max-hp' (did you mean 'max_hp'?)"),
    (ANN, "san = 60", "colour = 'red'", "ann.toml: unknown key 'colour'"),
    (ANN, "STR = 11", "Str = 11",
     "ann.toml [characteristics]: unknown key 'Str' (did you mean 'STR'?)"),
    (ANN, 'key = "revolver"', 'key = "revolver"\ndurabilty_left = 3',
     f"ann.toml {ROW}: unknown key 'durabilty_left' (did you mean 'durability_left'?)"),
    (ANN, 'key = "revolver"', 'key = "revolver"\nload = 3',
     f"ann.toml {ROW}: unknown key 'load' (did you mean 'loaded'?)"),
    (ANN, 'key = "revolver"', 'key = "revolver"\nbrokn = true',
     f"ann.toml {ROW}: unknown key 'brokn' (did you mean 'broken'?)"),
    (ANN, 'key = "revolver"', 'kye = "revolver"',
     f"ann.toml {ROW}: unknown key 'kye' (did you mean 'key'?)"),
    (CULTIST, "impaling = true", "impailing = true",
     f"ann.toml {ROW}: unknown key 'impailing' (did you mean 'impaling'?)"),
    (ANN, "durability = 6", "durabilty = 6",
     "ann.toml the 1st [[armour]]: unknown key 'durabilty' (did you mean 'durability'?)"),
    (ANN, "durability = 6", "natual = true",
     "ann.toml the 1st [[armour]]: unknown key 'natual' (did you mean 'natural'?)"),
])
def test_co_base_1_a_misspelt_table_or_key_is_refused_naming_the_known_one(
        text: str, old: str, new: str, message: str) -> None:
    """A misspelt key was silently ignored: [[armor]] (genso's spelling) gave no armour."""
    with pytest.raises(DataError) as caught:
        _load(text, old, new)
    assert str(caught.value) == message


def test_co_base_1_each_unknown_key_of_a_table_is_named() -> None:
    with pytest.raises(DataError, match=r"^ann\.toml: unknown key 'SAN' \(did you mean 'san'\?\); "
                                        r"unknown key 'armor' \(did you mean 'armour'\?\)$"):
        _load(ANN.replace("[[armour]]", "[[armor]]"), "san = 60", "SAN = 20")


@pytest.mark.parametrize("field", ["laser = true", "scope = 4", "magazine = 8", "ja = 'x'"])
def test_co_base_1_a_packaged_weapon_takes_only_its_key_and_state(field: str) -> None:
    """Without damage only the key was read: a laser on the packaged revolver was lost."""
    with pytest.raises(DataError) as caught:
        _load(ANN, 'key = "revolver"', f'key = "revolver"\nloaded = 3\n{field}')
    name = field.split(" ")[0]
    assert str(caught.value) == (
        f"ann.toml {ROW}: a packaged weapon takes only its key and its state "
        f"(durability_left, durability, loaded, broken, jammed, dropped), not {name}; a row "
        "with damage defines a weapon of your own, every field written out (docs/sheets.md)")


@pytest.mark.parametrize(("field", "message"), [
    ("durability_left = 99", "durability_left must be from 0 to the full durability 10 of "
                             "拳銃(リボルバー)/Revolver, found 99"),
    ("durability = 11", "durability must be from 0 to the full durability 10 of "
                        "拳銃(リボルバー)/Revolver, found 11"),
    ("durability_left = -1", "durability_left must be a whole number 0 or more, found -1"),
    ("durability_left = true", "durability_left must be a whole number 0 or more, found True"),
])
def test_co_base_1_durability_left_is_at_most_the_weapons_full_durability(
        field: str, message: str) -> None:
    with pytest.raises(DataError, match=f"^ann.toml {re.escape(ROW)}: {re.escape(message)}$"):
        _load(ANN, 'key = "revolver"', f'key = "revolver"\n{field}')
    assert _load(ANN, 'key = "revolver"', 'key = "revolver"\ndurability_left = 10'
                 ).weapons[0].durability == 10
    assert _load(ANN, 'key = "revolver"', 'key = "revolver"\ndurability = 4'
                 ).weapons[0].durability == 4


def test_co_base_1_an_own_weapons_durability_left_is_at_most_its_durability() -> None:
    assert _load(CULTIST, "durability = 15", "durability = 15\ndurability_left = 15"
                 ).weapons[0].durability == 15
    with pytest.raises(DataError, match="durability_left must be from 0 to the full durability 15 "
                                        "of 儀式の短剣/Ritual Dagger, found 16"):
        _load(CULTIST, "durability = 15", "durability = 15\ndurability_left = 16")
    with pytest.raises(DataError, match="has no durability"):
        _load(CULTIST, "durability = 15", "durability_left = 4")


def test_co_base_1_a_weapon_without_durability_takes_none_it_cannot_parry() -> None:
    """A kick given durability 5 would have parried (CO-PARRY-2 reads the durability)."""
    with pytest.raises(DataError, match=r"^ann\.toml weapon 1 \(the 2nd \[\[weapons\]\]\): "
                                        r"キック/Kick has no durability \(it cannot parry\): "
                                        r"leave durability out, found 5$"):
        _load(ANN, 'key = "kick"', 'key = "kick"\ndurability = 5')


def test_co_base_1_a_skill_given_twice_under_two_names_is_refused() -> None:
    with pytest.raises(DataError, match=r"^ann\.toml \[skills\]: 'dodge' and '回避' are the "
                                        r"same skill \(回避/Dodge\); give it once$"):
        _load(ANN, "dodge = 45", 'dodge = 45\n"回避" = 80')
    with pytest.raises(DataError, match="'dodge' and 'Dodge' are the same skill"):
        _load(ANN, "dodge = 45", "dodge = 45\nDodge = 80")
    with pytest.raises(DataError, match=r"^ann\.toml \[skills\]: no skill 'flying'"):
        _load(ANN, "dodge = 45", "flying = 5")


@pytest.mark.parametrize(("text", "old", "new", "message"), [
    (ANN, 'key = "revolver"', 'key = ["revolver"]',
     "key must be text (a weapon's key or name), found ['revolver']"),
    (ANN, 'key = "revolver"', "key = 3", "key must be text (a weapon's key or name), found 3"),
    (ANN, 'key = "revolver"', 'key = "revolvr"', "no weapon 'revolvr' (known: fist, "),
    (CULTIST, 'skill = "knife"', 'skill = ["knife"]', "skill must be text, found ['knife']"),
    (CULTIST, 'ja = "儀式の短剣"', 'ja = ["儀式の短剣"]', "ja must be text"),
    (CULTIST, 'key = "ritual_dagger"', 'key = ["ritual_dagger"]', "key must be text"),
    (CULTIST, "impaling = true", 'bands = ["gauge_12"]', "bands must be text"),
])
def test_co_base_1_a_list_where_text_belongs_is_a_data_error(
        text: str, old: str, new: str, message: str) -> None:
    """key = ["revolver"] crashed with TypeError: unhashable type: 'list'."""
    with pytest.raises(DataError, match=f"^ann.toml {re.escape(ROW)}: {re.escape(message)}"):
        _load(text, old, new)
    with pytest.raises(DataError, match="named by its key as text"):
        load_rules().weapon(["revolver"])  # type: ignore[arg-type]


def test_co_base_1_every_sheet_the_program_writes_loads_back() -> None:
    """sheet_mapping writes every weapon out in full (a fight file carries it so): its
    fields, its state, a worn durability, and a worn-out improvised weapon without one."""
    rules = load_rules()
    s = sheet(rules, "Ann", weapons=("revolver", "fist", "shotgun", "blackjack"),
              armour=[{"name": "hide", "value": 2, "natural": True, "uses": 1},
                      {"name": "vest", "value": 8, "durability": 20}], dodge=40)
    s = replace(s, san=40, printed_hp=15, printed_db="+1D4", humanoid=False, foe=True)
    revolver, fist, shotgun, blackjack = s.weapons
    # coc72 NIT 7: states the weapons can be in (a revolver never jams, a fist never drops)
    s = replace(s, weapons=(replace(revolver, durability=3, loaded=2, dropped=True), fist,
                            replace(shotgun, jammed=True),
                            replace(blackjack, durability=0, broken=True)))  # CO-WEAP-1 wear
    assert sheet_from_mapping(rules, sheet_mapping(s)) == s
    cultist = _load(CULTIST)
    assert sheet_from_mapping(rules, sheet_mapping(cultist), "ann.toml") == cultist


def test_co_base_1_a_sheet_without_a_name_says_the_field_is_missing() -> None:
    """CO-BASE-1: a sheet with no `name` line said "annx.toml: name must be text", sending
    the player to look for a name that was never written; it now says the field is missing."""
    rules = load_rules()
    data = sheet_mapping(sheet(rules, "Ann"))
    del data["name"]
    with pytest.raises(DataError, match=r"^annx\.toml: missing field 'name' \(the combatant's "
                       r"name, e\.g\. name = \"Ann\"\)$"):
        sheet_from_mapping(rules, data, "annx.toml")
    data["name"] = " "
    with pytest.raises(DataError, match=r"^annx\.toml: name must be text, not empty, found ' '$"):
        sheet_from_mapping(rules, data, "annx.toml")
