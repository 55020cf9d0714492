"""Defects an audit of `companion coc` found, each pinned by the behaviour the seeds ask for:
bad saved fights and sheets refused with their place named, and the rules of seeds 003/004
the engine got wrong (Iai after three moves, treating at a distance, stunned grapples, the
one-handed restraint, attacks after dodging, forced hits, follow-ups, criticals with MA,
jams, the third shot, cover from gunfire, Iai parries) and the Defaults it never read.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import (
    Attack,
    ClearJam,
    Defence,
    Delay,
    EndTurn,
    Fight,
    Grapple,
    Move,
    Place,
    Reload,
    Side,
    Tackle,
    Treat,
    action_from_json,
)
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping
from tests.systems.coc.helpers import duel, hurt, pass_to, person, push

P003, P004 = Profile.P003, Profile.P004


GUN = {"weapons": ("automatic",), "handgun": 60}


# --- A1: a saved fight with a bad journal entry is refused naming the entry ----------------

def _saved(entry: Any) -> dict[str, Any]:
    f = duel(P003, {"fist": 60})
    push(f, Attack("Ann", "Cult"), (100, 90))
    data = json.loads(json.dumps(f.to_json()))
    data["journal"][0] = entry(data["journal"][0])
    return data


@pytest.mark.parametrize(("broken", "message"), [
    (lambda e: 5, "journal entry 1: not an action"),
    (lambda e: {**e, "dice": "abc"}, "journal entry 1: its dice must be"),
    (lambda e: {**e, "dice": None}, "journal entry 1: its dice must be"),
    (lambda e: {**e, "action": 7}, "journal entry 1: an action is a table"),
    (lambda e: {"dice": e["dice"]}, "journal entry 1: 'action' is missing"),
    (lambda e: {**e, "dice": []}, r"journal entry 1 \(attack by 'Ann'\) does not replay: "
                                  "the script has no die left"),
])
def test_a_bad_journal_entry_is_a_data_error_naming_it(broken: Any, message: str) -> None:
    with pytest.raises(DataError, match=message):
        Fight.from_json(load_rules(), _saved(broken))


def test_an_old_format_fight_replays_even_where_the_wording_changed() -> None:
    """A file written before the format number (and before a failed parry printed its
    damage roll) still loads; the entries that now read differently are listed."""
    f = duel(P003, {"fist": 60}, {"weapons": ("knife",), "knife": 50})
    push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 20), (3, 2), (4, 1),
         (100, 80))
    data = json.loads(json.dumps(f.to_json()))
    assert data["format"] == 2
    del data["format"]
    lines = data["journal"][0]["lines"]
    lines[lines.index("damage (1D3+1D4) ＞ 2[2]+1[1]=3 = 3")] = \
        "3 damage gets through the parry"  # the old wording
    old = Fight.from_json(load_rules(), data)
    assert old.reworded == [1] and old.state.get("Cult").hp == f.state.get("Cult").hp
    data["format"] = 2
    with pytest.raises(DataError, match="journal entry 1 \\(attack\\) replays differently"):
        Fight.from_json(load_rules(), data)


# --- A2: sheets and Defaults -------------------------------------------------------------

@pytest.mark.parametrize(("field", "value", "message"), [
    ("skills", 5, r"\[skills\] must be a table"),
    ("weapons", 5, r"weapons must be a list of \[\[weapons\]\] tables"),
    ("armour", 5, r"armour must be a list of \[\[armour\]\] tables"),
    ("weapons", {"key": "knife"}, r"\[weapons\] is one table; write each entry as "
                                  r"\[\[weapons\]\]"),
])
def test_a_sheet_of_the_wrong_shape_names_the_field(field: str, value: Any,
                                                    message: str) -> None:
    data = {"name": "Ann", "characteristics": {c: 10 for c in (
        "STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")}, field: value}
    with pytest.raises(DataError, match=message):
        sheet_from_mapping(load_rules(), data, "ann.toml")


@pytest.mark.parametrize(("rule", "key", "value"), [
    ("CO-BASE-10", "damage_divisor", 0), ("CO-BASE-11", "metres_per_d6", 0),
    ("CO-BASE-11", "metres_per_d6", -3), ("CO-TURN-1", "tie_break_die", 1),
    ("CO-MELEE-4", "weapon_break_face", 3),
])
def test_a_default_out_of_its_range_is_refused_where_it_is_set(rule: str, key: str,
                                                               value: int) -> None:
    with pytest.raises(DataError, match=f"--set: {rule}.{key} must be"):
        load_rules().with_overrides({rule: {key: value}}, "--set")


# --- A4: a missing field is named ---------------------------------------------------------

def test_an_action_without_its_target_says_so() -> None:
    with pytest.raises(DataError, match="the attack action needs its target"):
        action_from_json({"kind": "attack", "actor": "Ann", "weapon": 2})


# --- B5: CO-IAI-2, an Iai after three moves ----------------------------------------------

SWORD = {"weapons": ("japanese_sword",), "iai": 60, "japanese_sword": 50}


def _board(f: Fight) -> None:
    push(f, Place("Ann", "a1", "N"))
    push(f, Place("Cult", "a5", "S"))


def test_co_iai_2_an_iai_may_follow_three_moves_003() -> None:
    """「三回移動後に攻撃を行ってもよい」: at 0 AP the turn waits for the Iai (no AP)."""
    f = duel(P003, SWORD)
    _board(f)
    text = push(f, Move("Ann", to="a4"))
    assert f.state.current is not None and f.state.current.name == "Ann"
    assert f.state.get("Ann").ap == 0 and "Iai" in text and "CO-IAI-2" in text
    text = push(f, Attack("Ann", "Cult", iai=True), (100, 90))
    assert "Iai, no AP" in text
    assert f.state.current is not None and f.state.current.name == "Cult"


def test_co_iai_2_no_wait_without_an_iai_weapon_or_a_foe_next_to_it_003() -> None:
    for ann in ({"fist": 60}, {"weapons": ("japanese_sword",), "japanese_sword": 50}):
        f = duel(P003, ann)  # no Iai weapon; a sword but no Iai on the sheet
        _board(f)
        push(f, Move("Ann", to="a4"))
        assert f.state.current is not None and f.state.current.name == "Cult"
    f = duel(P003, SWORD)
    _board(f)
    push(f, Move("Ann", to="a3"))  # 2 squares: 1 AP left, Cult two squares off
    push(f, Move("Ann", to="b3"))  # still two squares off
    assert f.state.current is not None and f.state.current.name == "Cult"


def test_an_old_fight_that_ended_the_turn_at_0_ap_still_loads() -> None:
    """Files from before the format number ended the turn; they replay that way."""
    f = duel(P003, SWORD, legacy=True)
    _board(f)
    push(f, Move("Ann", to="a4"))
    push(f, EndTurn("Cult"))
    data = json.loads(json.dumps(f.to_json()))
    del data["format"]
    old = Fight.from_json(load_rules(), data)
    assert old.reworded == [] and len(old.journal) == 4


# --- B6: CO-SKILL-2/3 reach ----------------------------------------------------------------

def test_co_skill_2_3_first_aid_and_medicine_reach_oneself_or_an_adjacent_one_003() -> None:
    """「自分・隣接した者」: on the board a wounded ally two squares off cannot be treated."""
    f = duel(P003, {"first_aid": 60, "medicine": 60}, third={})
    hurt(f, "Bob")
    push(f, Place("Ann", "a1"))
    push(f, Place("Bob", "a3"))
    push(f, Place("Cult", "h8"))
    for skill in ("first_aid", "medicine", "psychoanalysis"):
        with pytest.raises(IllegalAction, match="not next to Ann"):
            f.push(Treat("Ann", "Bob", skill), ScriptedDice([]))
    push(f, Move("Ann", to="a2"))
    assert "First Aid" in push(f, Treat("Ann", "Bob"), (100, 90))


# --- B7: CO-STUN-1 bars grapples and tackles ----------------------------------------------

def test_co_stun_1_a_stunned_character_cannot_grapple_or_tackle_003() -> None:
    f = duel(P003, {"weapons": ("stun_gun",), "fist": 80}, {"grapple": 60, "tackle": 60},
             settings={"CO-TACKLE-1": {"p003": "optional_on"}})
    push(f, Attack("Ann", "Cult"), (100, 10))
    push(f, EndTurn("Ann"), (100, 99))  # Cult's CON×5 fails: still stunned
    assert f.state.get("Cult").stun
    with pytest.raises(IllegalAction, match=r"stunned.*CO-STUN-1"):
        f.push(Grapple("Cult", "Ann"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match=r"stunned.*CO-STUN-1"):
        f.push(Tackle("Cult", "Ann"), ScriptedDice([]))


# --- B8: 004's restraint allows one-handed weapons from the next round --------------------

def test_co_grap_6_a_restraining_grappler_fires_only_one_handed_weapons_004() -> None:
    """004 line 164「次Rから拘束したまま片手で扱える武器が使用可能(拳銃など)」."""
    f = duel(P004, {"weapons": ("automatic", "shotgun"), "grapple": 70, "handgun": 50})
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Ann")
    with pytest.raises(IllegalAction, match=r"only a one-handed weapon.*CO-GRAP-6"):
        f.push(Attack("Ann", "Cult", weapon=1), ScriptedDice([]))
    assert "拳銃" in push(f, Attack("Ann", "Cult", weapon=0), (100, 90))


# --- B9: CO-DODGE-5, an attack after dodging at −50% with the Keeper's OK -------------------

def test_co_dodge_5_an_attack_after_dodging_at_minus_50_when_the_keeper_allows_004() -> None:
    f = duel(P004, {"fist": 70, "dodge": 60}, {"fist": 60})
    push(f, Delay("Ann"))  # Ann acts at DEX/2, after Cult's attack
    push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    assert f.state.current is not None and f.state.current.name == "Ann"
    with pytest.raises(IllegalAction, match="after_dodge=true"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult", after_dodge=True), (100, 30))
    assert "-50 (after dodging, CO-DODGE-5) = 20" in text and "失敗" in text


# --- B10: CO-MA-3 against no dodge -----------------------------------------------------------

def test_co_ma_3_a_forced_hit_leaves_an_undeclared_dodge_alone_004() -> None:
    """「回避を行わない相手には意味がない」: the target's dodge of the round is not used up."""
    f = duel(P004, {"fist": 80, "martial_arts": 80})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="forced"), (100, 10), (3, 2),
                (4, 1))
    assert "declared no dodge" in text and f.state.get("Cult").dodges == 0


def test_co_ma_3_a_forced_hit_uses_a_declared_dodge_004() -> None:
    f = duel(P004, {"fist": 80, "martial_arts": 80})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="forced", defence=Defence.DODGE),
                (100, 10), (3, 2), (4, 1))
    assert "the dodge is used up" in text and f.state.get("Cult").dodges == 1


# --- B11: CO-MA-4, armour on each of the two rolls ---------------------------------------

def test_co_ma_4_armour_takes_each_follow_up_roll_apart_004() -> None:
    """Spec Default: 「Armor (and one armor use under CO-ARMOR-2) applies to each roll
    separately」: 2D3+1D4 = 5 and 4, armour 3 → 2 + 1 = 3 damage, 2 uses spent."""
    f = duel(P004, {"fist": 80, "martial_arts": 80},
             {"armour": [{"name": "vest", "value": 3}]})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up"), (100, 10),
                (3, 2), (3, 2), (4, 1), (3, 1), (3, 2), (4, 1))
    cult = f.state.get("Cult")
    assert cult.hp == cult.sheet.max_hp - 3, text
    assert cult.sheet.armour[0].uses == 1


# --- B12, B13: CO-MELEE-3 critical with MA, and any weapon that could parry --------------

def test_co_melee_3_a_critical_ma_blow_doubles_the_doubled_dice_003() -> None:
    """A critical MA fist from behind: (2D3+1D4)×2, not (1D3+1D4)×2."""
    f = duel(P003, {"fist": 80, "martial_arts": 80})
    text = push(f, Attack("Ann", "Cult", ma=True, from_behind=True), (100, 3),
                (3, 3), (3, 3), (4, 2))
    assert "doubled" in text and "×2 (CO-MELEE-3)" in text
    cult = f.state.get("Cult")
    assert cult.hp == cult.sheet.max_hp - 16


def test_co_melee_3_the_target_could_parry_with_another_weapon_so_no_doubling_003() -> None:
    """Cult's dodge of the round is spent on Bob's blow; its slot 0 is a fist (no
    durability) but slot 1 a knife: it could still have parried, so no doubling."""
    f = duel(P003, {"weapons": ("fire_poker",), "club": 80},
             {"weapons": ("fist", "knife"), "knife": 50, "dodge": 50}, third={"fist": 60})
    push(f, Delay("Ann"))
    push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 10), (100, 10))
    pass_to(f, "Ann")
    text = push(f, Attack("Ann", "Cult"), (100, 3), (6, 2), (4, 1))
    assert "critical: no dodge or parry" in text and "×2" not in text
    cult = f.state.get("Cult")
    assert cult.hp == cult.sheet.max_hp - 3


# --- B15: CO-FIRE-2 counts shots --------------------------------------------------------

def test_co_fire_2_a_fist_and_two_shots_is_not_a_third_shot_003() -> None:
    f = duel(P003, {"weapons": ("fist", "automatic"), "fist": 60, "handgun": 60})
    push(f, Attack("Ann", "Cult", weapon=0), (100, 90))
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    text = push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    assert "DEX/2" not in text and f.state.get("Ann").ap == 0


def test_co_fire_2_the_third_shot_still_waits_for_dex_2_003() -> None:
    f = duel(P003, {"weapons": ("automatic",), "handgun": 60})
    push(f, Attack("Ann", "Cult"), (100, 90))
    push(f, Attack("Ann", "Cult"), (100, 90))
    assert "third shot comes at DEX/2" in push(f, Attack("Ann", "Cult"))


# --- B16: CO-DODGE-7 cover, and the Iai parry of CO-DODGE-2 -------------------------------

def test_co_dodge_7_a_dodge_covers_the_first_of_several_shots_only_004() -> None:
    """The later shots hit; declaring a dodge no longer breaks the second shot."""
    f = duel(P004, {"dodge": 60}, GUN)
    pass_to(f, "Cult")
    text = push(f, Attack("Cult", "Ann", shots=2, defence=Defence.DODGE),
                (100, 10), (100, 10), (100, 10), (10, 3))
    assert "stopped the first only (CO-DODGE-7)" in text
    ann = f.state.get("Ann")
    assert ann.hp == ann.sheet.max_hp - 5


@pytest.mark.parametrize(("cover", "skill_line"), [
    ("hide", "takes cover: 隠れる/Hide (1D100<=40)"),
    ("dodge", "takes cover: 回避/Dodge (1D100<=10)"),  # Dodge 60 − 50
])
def test_co_dodge_7_cover_avoids_every_bullet_004(cover: str, skill_line: str) -> None:
    f = duel(P004, {"dodge": 60, "hide": 40}, GUN)
    pass_to(f, "Cult")
    text = push(f, Attack("Cult", "Ann", shots=3, cover=cover),
                (100, 10), (100, 5), (100, 10), (100, 20))
    assert skill_line in text and text.count("stays behind cover") == 2
    ann = f.state.get("Ann")
    assert ann.hp == ann.sheet.max_hp


def test_co_dodge_7_cover_is_refused_where_it_does_not_apply() -> None:
    f = duel(P003, {"dodge": 60}, GUN)
    pass_to(f, "Cult")
    with pytest.raises(IllegalAction, match="CO-DODGE-7"):
        f.push(Attack("Cult", "Ann", cover="hide"), ScriptedDice([]))


def test_co_dodge_2_an_iai_parries_and_draws_the_blade_003() -> None:
    """「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回」."""
    f = duel(P003, {"weapons": ("knife",), "knife": 80}, SWORD)
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="iai"),
                (100, 30), (4, 2), (4, 1), (100, 20))
    assert "parry 居合/Iai" in text and "CO-PARRY-1" in text
    cult = f.state.get("Cult")
    assert cult.drawn and cult.iai_used and cult.hp == cult.sheet.max_hp
    assert cult.sheet.weapons[0].durability == 20 - 5


# --- C: Defaults that were listed and never read -----------------------------------------

def test_co_core_1_all_checks_003_off_leaves_95_a_plain_failure_outside_attacks() -> None:
    f = duel(P003, {"fist": 60}, {"dodge": 50},
             settings={"CO-CORE-1": {"all_checks_003": False}})
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 10), (100, 95),
                (3, 1), (4, 1))
    assert "(1D100<=50) ＞ 95 ＞ 失敗" in text
    f = duel(P003, {"fist": 60}, {"dodge": 50})
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 10), (100, 95),
                (3, 1), (4, 1))
    assert "(1D100<=50) ＞ 95 ＞ 致命的失敗" in text


def test_co_base_4_roll_then_halve_rounds_up() -> None:
    """+1D4 rolls 3 → +2 on a thrown rock (db/2)."""
    f = duel(P003, {"weapons": ("rock",), "throw": 60},
             settings={"CO-BASE-4": {"roll_then_halve": True}})
    text = push(f, Attack("Ann", "Cult"), (100, 10), (4, 1), (4, 3))
    cult = f.state.get("Cult")
    assert "½(" in text and cult.hp == cult.sheet.max_hp - 3


def test_co_turn_1_tie_break_die_is_the_die_rolled() -> None:
    rules = load_rules().with_overrides({"CO-TURN-1": {"tie_break_die": 6}})
    f = Fight(rules, [(person(rules, "A", 12), Side.INVESTIGATORS),
                      (person(rules, "B", 12), Side.FOES)], ScriptedDice([(6, 5), (6, 2)]))
    assert f.state.order == ("B", "A") and "1D6=5" in f.opening.text


def test_co_base_12_full_refill_off_loads_two_cartridges_a_revolver_004() -> None:
    f = duel(P004, {"weapons": ({"key": "revolver", "loaded": 1}, {"key": "automatic",
                                                                    "loaded": 1})},
             settings={"CO-BASE-12": {"full_refill": False}})
    assert "2 cartridge(s)" in push(f, Reload("Ann"))
    assert f.state.get("Ann").sheet.weapons[0].loaded == 3
    pass_to(f, "Ann")
    push(f, Reload("Ann", weapon=1))  # a magazine still refills at once
    assert f.state.get("Ann").sheet.weapons[1].loaded == 7


@pytest.mark.parametrize(("pool", "taken"), [(False, 2), (True, 1)])
def test_co_armor_2_pool_across_bullets(pool: bool, taken: int) -> None:
    """Armour 4 against bullets of 3 and 6: per bullet 0 + 2; pooled, the 1 the first did
    not need stops one more of the second."""
    f = duel(P004, {"armour": [{"name": "vest", "value": 4}]},
             {"weapons": ({"key": "automatic"},), "handgun": 60},
             settings={"CO-ARMOR-2": {"pool_across_bullets": pool}})
    pass_to(f, "Cult")
    text = push(f, Attack("Cult", "Ann", shots=2), (100, 10), (10, 1), (100, 10), (10, 4))
    ann = f.state.get("Ann")
    assert ann.hp == ann.sheet.max_hp - taken, text


# --- D: a defence is checked before the dice; a failed parry shows the damage ------------

def test_an_impossible_defence_is_refused_before_any_die() -> None:
    """Cult (fist only, no durability) cannot parry: no d100 is asked for first."""
    f = duel(P003, {"fist": 60})
    with pytest.raises(IllegalAction, match="Cult cannot parry now"):
        f.push(Attack("Ann", "Cult", defence=Defence.PARRY), ScriptedDice([]))


def test_a_failed_parry_shows_the_damage_roll() -> None:
    f = duel(P003, {"fist": 60}, {"weapons": ("knife",), "knife": 50})
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 20), (3, 2), (4, 3),
                (100, 80))
    assert "damage (1D3+1D4)" in text and "through the parry" not in text


def test_jams_clear_only_from_the_next_round_003() -> None:
    f = duel(P003, GUN)
    push(f, Attack("Ann", "Cult"), (100, 96))
    with pytest.raises(IllegalAction, match="clear it from the next round"):
        f.push(ClearJam("Ann"), ScriptedDice([]))


# --- old files ----------------------------------------------------------------------------

def test_a_fight_saved_before_the_fixes_still_loads_and_stays_as_played() -> None:
    """A real format-1 file (saved by the code before these fixes): its fist, shot, shot
    sent the last AP to DEX/2 (entry 3, the old CO-FIRE-2). It replays as it was played,
    and saving it marks each old entry (and the opening) with engine 1, so it loads the same
    way next time."""
    data = json.loads((files("tests.systems.coc") / "data" / "fight_format1.json")
                      .read_text(encoding="utf-8"))
    assert "format" not in data
    f = Fight.from_json(load_rules(), data)
    assert len(f.journal) == len(data["journal"]) and "DEX/2" in f.journal[2].text
    again = json.loads(json.dumps(f.to_json()))
    assert again["format"] == 2 and again["opening_engine"] == 1
    assert all(e["engine"] == 1 for e in again["journal"])
    assert Fight.from_json(load_rules(), again).state == f.state


def test_fire_2_as_format_1_played_it() -> None:
    f = duel(P003, {"weapons": ("fist", "automatic"), "fist": 60, "handgun": 60}, legacy=True)
    push(f, Attack("Ann", "Cult", weapon=0), (100, 90))
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))
    assert "DEX/2" in push(f, Attack("Ann", "Cult", weapon=1))
