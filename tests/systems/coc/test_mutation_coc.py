"""System `coc-house`: rules a mutation spot check (round 2) found untested.

Each test names its rule ID and asserts the outcome spec §3 (and BCDice's Cthulhu, which
the spec follows for the notation) gives.
"""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.checks import one_percent, resist, roll_command
from companion.systems.coc.combat import (
    Attack,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Move,
    Reload,
    Side,
    Throw,
)
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import Sheet, damage_bonus, sheet_from_mapping
from tests.systems.coc.helpers import duel, pass_to, person, push, sheet


@pytest.mark.parametrize(("str_siz", "db"), [
    (2, "-1D6"), (13, "-1D4"), (17, "0"), (25, "+1D4"), (33, "+1D6"), (41, "+2D6"),
    (57, "+3D6"), (73, "+4D6"), (89, "+5D6"), (104, "+5D6"), (105, "+6D6"),
])
def test_co_base_1_each_damage_bonus_band_starts_where_the_table_says(str_siz: int,
                                                                       db: str) -> None:
    """CO-BASE-1's DB table by the *bottom* of each band: 2–12 −1D6, 13–16 −1D4, 17–24 0,
    25–32 +1D4, 33–40 +1D6, 41–56 +2D6, 57–72 +3D6, then +1D6 per further 16 (73–88, …)."""
    assert damage_bonus(str_siz, load_rules().db_table) == db


@pytest.mark.parametrize(("active", "passive", "value", "success"), [
    (19, 10, 95, True),    # +9: 95%, rolled, and a 95 succeeds
    (19, 10, 96, False),   # ... a 96 does not: it is a roll, not an automatic success
    (10, 19, 5, True),     # −9: 5%, rolled, and a 5 succeeds
    (10, 19, 6, False),
])
def test_co_core_3_a_difference_of_9_is_rolled_not_automatic(active: int, passive: int,
                                                            value: int, success: bool) -> None:
    """CO-CORE-3 Default: only a difference of ±10 or more is automatic; at ±9 the chance is
    95% or 5% (50 + 5 × difference) and the d100 is rolled against it."""
    source = ScriptedDice([(100, value)])
    res = resist(source, active, passive, one_percent(load_rules()), rules=load_rules())
    assert source.remaining == []
    assert res.value == value
    assert res.success is success


def test_co_core_1_the_malfunction_number_itself_malfunctions() -> None:
    """CC(n): BCDice Cthulhu's 故障ナンバー, a roll *at or above* the number (``total >=
    broken_num``) is a malfunction, so CC(90) rolling exactly 90 malfunctions."""
    result = roll_command("CC(90)<=95", ScriptedDice([(100, 90)]), load_rules(Profile.P004))
    assert result.text == "(1D100<=95) ＞ 故障ナンバー[90] ＞ 90 ＞ 故障/malfunction"


def test_co_fire_8_a_burst_is_cut_to_the_rounds_loaded_and_hits_no_more() -> None:
    """CO-FIRE-8 Default: rounds fired = min(burst value, rounds loaded, 20) and hits =
    min(1D20, rounds fired): an SMG (burst 20) with 3 rounds left fires 3, and a 1D20 of 15
    is 3 hits, each 1D10+2 (CO-ARMOR-2: no armour here)."""
    f = duel(Profile.P004, {"weapons": ({"key": "smg", "loaded": 3},), "smg": 60})
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 30), (20, 15),
                (10, 1), (10, 1), (10, 1))
    assert "fires a burst of 3" in text and "1D20=15 ＞ 3 hit(s)" in text
    assert f.state.get("Ann").sheet.weapons[0].loaded == 0
    assert f.state.get("Cult").hp == 13 - 3 * 3


def test_co_base_12_a_cartridge_reload_never_overfills_the_cylinder() -> None:
    """CO-BASE-12 option (a cartridge at a time, 2 per action): a revolver (magazine 6) with
    5 rounds takes 1 more, not 2: it holds 6."""
    f = duel(Profile.P004, {"weapons": ({"key": "revolver", "loaded": 5},), "handgun": 50},
             settings={"CO-BASE-12": {"full_refill": False}})
    push(f, Reload("Ann"))
    assert f.state.get("Ann").sheet.weapons[0].loaded == 6


def test_co_fire_7_first_strikers_of_equal_dex_may_both_shoot_first() -> None:
    """CO-FIRE-7 Default: first strikes go in DEX order among the first-strikers; only one of
    *higher* DEX still to shoot holds a shooter back, so two of DEX 14 both strike first."""
    rules = load_rules(Profile.P004)
    f = Fight(rules, [(person(rules, "Ann", 14, ("revolver",), handgun=50), Side.INVESTIGATORS),
                      (person(rules, "Cult", 14, ("revolver",), handgun=50), Side.FOES)],
              ScriptedDice([(100, 10), (100, 50)]))  # the DEX tie: Ann acts first
    assert "CO-FIRE-7" in push(f, Attack("Ann", "Cult", first_strike=True), (100, 99))
    assert "CO-FIRE-7" in push(f, Attack("Cult", "Ann", first_strike=True), (100, 99))


def test_co_armor_1_armour_stops_no_more_than_its_durability_left() -> None:
    """CO-ARMOR-1 Default: absorbed = min(armour, damage, durability left): a vest of armour 8
    with 3 durability left stops 3 of a 10-point shot, Cult (HP 13) takes 7, and the vest is
    destroyed."""
    cult = {"armour": [{"name": "vest", "value": 8, "durability": 3}]}
    f = duel(Profile.P003, {"weapons": ("revolver",), "handgun": 60}, cult)
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 10))
    assert "vest stops 3, durability 0 left (CO-ARMOR-1)" in text
    assert f.state.get("Cult").hp == 13 - 7
    assert f.state.get("Cult").sheet.armour == ()


def test_co_base_8_hp_2_is_unconscious() -> None:
    """CO-BASE-8 [BASE 6e] 「HP 1 or 2: unconscious」: Cult (HP 13) shot for 11 is at HP 2 and
    unconscious, not dying."""
    f = duel(Profile.P004, {"weapons": ("automatic",), "handgun": 60})
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 9))  # 1D10+2 = 11
    cult = f.state.get("Cult")
    assert cult.hp == 2 and cult.unconscious and not cult.dying_until
    assert "falls unconscious (CO-BASE-8)" in text


def test_co_base_9_general_trigger_a_blow_of_exactly_half_the_hp_calls_for_shock() -> None:
    """CO-BASE-9 option ``general_trigger``: 「a single blow that deals at least half the
    victim's current HP」: 6 damage on HP 12 is half, so Cult rolls CON×5 (a 99 fails)."""
    f = duel(Profile.P004, {"weapons": ("revolver",), "handgun": 60}, {"siz": 11},
             settings={"CO-BASE-9": {"general_trigger": True}})
    assert f.state.get("Cult").hp == 12  # ceil((CON 12 + SIZ 11) / 2)
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 6), (100, 99))
    assert "CO-BASE-9" in text and f.state.get("Cult").unconscious


def test_co_grap_4_the_human_shield_takes_only_the_hp_it_has() -> None:
    """CO-GRAP-4 Default: damage at the grappler goes first to the held one's current HP, and
    「whatever is left after that HP reaches 0 goes to the grappler」: Cult (HP 4 after the
    first shot) takes 4 of a 10, Ann the other 6."""
    rules = load_rules(Profile.P003)
    ann = sheet(rules, "Ann", dex=14, grapple=90)
    cult = sheet(rules, "Cult", dex=10)
    gun = sheet(rules, "Gun", dex=5, weapons=("revolver",), handgun=90)
    f = Fight(rules, [(ann, Side.INVESTIGATORS), (cult, Side.FOES), (gun, Side.FOES)],
              ScriptedDice([]))
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 90))  # Cult's STR fails (CO-GRAP-2)
    push(f, EndTurn("Cult"))
    push(f, Attack("Gun", "Ann"), (100, 30), (10, 9))
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 4)
    push(f, Attack("Gun", "Ann"), (100, 30), (10, 10))
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (7, 0)


def test_co_parry_1_damage_equal_to_the_durability_left_breaks_the_weapon() -> None:
    """CO-PARRY-1: 「if the damage reaches its remaining durability it breaks and the rest hits
    the parrier」: 14 damage on a knife with 14 durability left breaks it, and 0 gets through."""
    f = duel(Profile.P003, {"weapons": ("japanese_sword",), "japanese_sword": 60},
             {"weapons": ({"key": "knife", "durability_left": 14},), "knife": 60})
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 30), (10, 10), (4, 4),
                (100, 20))  # 1D10 + DB 1D4 = 14
    assert "the weapon breaks" in text
    knife = f.state.get("Cult").sheet.weapons[0]
    assert knife.broken and knife.durability == 0
    assert f.state.get("Cult").hp == 13



def strong(rules: object, name: str, strength: int, dex: int, **skills: int) -> Sheet:
    return sheet_from_mapping(rules, {  # type: ignore[arg-type]
        "name": name, "skills": skills, "weapons": [{"key": "fist"}],
        "characteristics": {"STR": strength, "CON": 12, "POW": 10, "DEX": dex, "APP": 10,
                            "SIZ": 13, "INT": 12, "EDU": 12}})


def test_co_core_3_the_one_breaking_free_is_the_active_side() -> None:
    """CO-GRAP-2 with CO-CORE-3's Default 「The side trying to break free or escape is the
    active side」: Cult (STR 16) held by Ann (STR 13) breaks free on 50 + 5 × (16 − 13) = 65%,
    not 35%; a 60, at the start of its turn, frees it."""
    rules = load_rules(Profile.P003)
    f = Fight(rules, [(strong(rules, "Ann", 13, 14, grapple=90), Side.INVESTIGATORS),
                      (strong(rules, "Cult", 16, 10), Side.FOES)], ScriptedDice([]))
    text = push(f, Grapple("Ann", "Cult"), (100, 10), (100, 60))
    assert "(1d100<=65) ＞ 60" in text
    assert f.state.get("Cult").held_by == "" and f.state.get("Ann").grappling == ""


def test_co_stun_3_a_stun_from_a_throw_costs_the_next_round_not_this_one() -> None:
    """CO-STUN-3: a thrown target that passes CON×4 has 「no action next round」: Cult, thrown
    on Ann's turn, still takes its own turn this round; the round after, it has none."""
    rules = load_rules(Profile.P004)
    f = Fight(rules, [(sheet(rules, "Ann", dex=14, grapple=60), Side.INVESTIGATORS),
                      (sheet(rules, "Cult", dex=10, weapons=("knife",)), Side.FOES)],
              ScriptedDice([]))
    push(f, Grapple("Ann", "Cult"), (100, 40))
    push(f, EndTurn("Cult"))
    text = push(f, Throw("Ann"), (100, 30), (6, 2), (4, 1), (100, 10))
    assert "cannot act next round (CO-STUN-3)" in text
    thrown_in = f.state.round
    assert f.state.current is not None and f.state.current.name == "Cult"  # still this round
    push(f, EndTurn("Cult"))
    assert f.state.round == thrown_in + 1
    assert "Cult is skipped (cannot act)" in push(f, EndTurn("Ann"))
    assert f.state.round == thrown_in + 2


SWORD = {"weapons": ("japanese_sword",), "japanese_sword": 90}
GUN = {"weapons": ("revolver",), "handgun": 50}


@pytest.mark.parametrize(("sword", "pushed"), [(8, True), (7, False)])
def test_co_melee_2_a_hit_of_exactly_10_knocks_back(sword: int, pushed: bool) -> None:
    """CO-MELEE-2: 「10+ damage in one hit」 knocks the target back: a sword's 1D10 + DB 1D4
    of 8 + 2 = 10 does, 7 + 2 = 9 does not."""
    f = duel(Profile.P003, SWORD)
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, sword), (4, 2))
    assert ("knockback! Cult is pushed back a square (10 damage, CO-MELEE-2)" in text) is pushed
    assert ("knockback" in text) is pushed


def test_co_call_1_an_arm_hit_drops_the_weapon_only_on_a_failed_str_x5() -> None:
    """CO-CALL-1: an arm hit 「forces a STR×5 roll or the weapon is dropped」: Cult (STR 13)
    rolls against 65, and a 60 keeps the revolver."""
    f = duel(Profile.P003, GUN, {"weapons": ("revolver",), "handgun": 50})
    text = push(f, Attack("Ann", "Cult", called="arm"), (100, 20), (10, 1), (100, 60))
    assert "Cult STR×5 (1D100<=65) ＞ 60" in text
    assert not f.state.get("Cult").sheet.weapons[0].dropped


def test_co_call_1_leg_hits_add_up() -> None:
    """CO-CALL-1 Default: 「the maximum AP usable for movement each round drops by 1 per hit
    (cumulative)」: two leg hits leave Cult at most 1 square a round."""
    f = duel(Profile.P003, GUN)
    push(f, Attack("Ann", "Cult", called="leg"), (100, 20), (10, 1))
    text = push(f, Attack("Ann", "Cult", called="leg"), (100, 20), (10, 1))
    assert "Cult's leg is hit: at most 1 square(s) a round (CO-CALL-1)" in text
    assert f.state.get("Cult").leg_hits == 2
    pass_to(f, "Cult")
    with pytest.raises(IllegalAction, match="CO-CALL-1"):
        f.push(Move("Cult", 2), ScriptedDice([]))
    push(f, Move("Cult", 1))
