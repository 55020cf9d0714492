"""The second pass of rules, each in every profile where it is on, and refused or silent where
it is off: range and aiming, surprise, disarming, body parts, burns, spells, tackle (004);
Iai, the third shot at DEX/2, point-blank shots (003); first strike, counters, dodge
concentration, unarmed parries, knockout, falls, shock, insanity, Psychoanalysis, Spot Hidden.
"""

from __future__ import annotations

from importlib.resources import files

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import (
    Attack,
    Burn,
    Cast,
    Concentrate,
    Condition,
    Defence,
    Delay,
    EndTurn,
    Fall,
    Fight,
    Grapple,
    Move,
    PickUp,
    Reload,
    SanLoss,
    Sheathe,
    Side,
    Spot,
    Tackle,
    Throw,
    Treat,
)
from companion.systems.coc.rules import Profile, load_rules, weapon_from_mapping
from companion.systems.coc.sheet import sheet_from_mapping, sheet_mapping
from tests.systems.coc.helpers import SWORD, at, duel, hurt, pass_to, person, push

P003, P004 = Profile.P003, Profile.P004


GUN = {"weapons": ("revolver",), "handgun": 50}
ON_003 = "optional_on"


# --- range and aiming (CO-RANGE-1..3, CO-AIM-1..3) ----------------------------------------

@pytest.mark.parametrize("profile", [P003, P004])
def test_co_range_1_large_targets_are_easier_where_on(profile: Profile) -> None:
    on = {"CO-RANGE-1": {"p003": ON_003}} if profile is P003 else {}
    f = duel(profile, GUN, {"siz": 52}, on)
    text = push(f, Attack("Ann", "Cult"), (100, 99))
    assert "+10 (SIZ 52, CO-RANGE-1 (default)) = 60" in text and "(1D100<=60)" in text
    g = duel(profile, GUN, {"siz": 39}, on)  # SIZ 31–39: +0 (spec Default)
    assert "CO-RANGE-1" not in push(g, Attack("Ann", "Cult"), (100, 99))
    if profile is P003:  # optional and off by Default: it never fires
        h = duel(P003, GUN, {"siz": 52})
        assert "CO-RANGE-1" not in push(h, Attack("Ann", "Cult"), (100, 99))


def test_co_range_2_bands_divide_skill_and_damage_004() -> None:
    f = duel(P004, GUN)
    text = push(f, Attack("Ann", "Cult", distance_m=40), (100, 10), (10, 9))
    assert "×1/3 (40 m, 3× range, CO-RANGE-2) = 16" in text
    assert "÷3 = 3 (CO-RANGE-2)" in text and f.state.get("Cult").hp == 10
    with pytest.raises(IllegalAction, match="CO-RANGE-2"):
        duel(P004, GUN).push(Attack("Ann", "Cult", distance_m=61), ScriptedDice([]))
    far = duel(P004, GUN, settings={"CO-RANGE-2": {"beyond_last_band": True}})
    assert "×1/5" in push(far, Attack("Ann", "Cult", distance_m=61), (100, 99))


def test_co_range_3_touch_triples_004_and_co_fire_5_adjacent_adds_15_003() -> None:
    f = duel(P004, GUN)
    assert "×3 (touch, CO-RANGE-3) = 150" in push(f, Attack("Ann", "Cult", adjacent=True),
                                                   (100, 100))
    g = duel(P003, GUN)
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(g, Attack("Ann", "Cult", adjacent=True),
                                                     (100, 90))


def test_co_aim_1_careful_aim_only_at_dex_2_and_never_with_a_first_strike_004() -> None:
    f = duel(P004, GUN, {"weapons": ("knife",)})
    with pytest.raises(IllegalAction, match="CO-AIM-1"):
        f.push(Attack("Ann", "Cult", aim=True), ScriptedDice([]))
    assert "DEX/2 (7) (CO-BASE-5)" in push(f, Delay("Ann"))
    assert f.state.current.name == "Cult"  # type: ignore[union-attr]
    assert f.state.order == ("Ann", "Cult", "Ann")
    push(f, EndTurn("Cult"))
    text = push(f, Attack("Ann", "Cult", aim=True), (100, 100))
    assert "×2 (careful aim, CO-AIM-1) = 100" in text
    g = duel(P003, GUN)  # optional in 003, off by Default
    with pytest.raises(IllegalAction, match="CO-AIM-1"):
        g.push(Attack("Ann", "Cult", aim=True), ScriptedDice([]))


def test_co_aim_2_laser_and_co_aim_3_scope_multiply_004() -> None:
    laser = {"key": "laser_pistol", "ja": "レーザー付き拳銃", "en": "Pistol with laser",
             "kind": "firearm", "skill": "handgun", "damage": "1D10", "db": "none",
             "attacks": 1, "magazine": 6, "range_m": 15, "laser": True}
    f = duel(P004, {"weapons": (laser,), "handgun": 30})
    assert "×2 (laser sight, CO-AIM-2) = 60" in push(f, Attack("Ann", "Cult"), (100, 99))
    g = duel(P004, {"weapons": ("rifle",), "rifle": 30})
    push(g, Delay("Ann"))
    push(g, EndTurn("Cult"))
    text = push(g, Attack("Ann", "Cult", aim=True), (100, 100))
    assert "×2 (careful aim, CO-AIM-1) ×2 (2× scope, CO-AIM-3) = 120" in text
    h = duel(P003, {"weapons": ("rifle",), "rifle": 30})  # optional in 003: the scope is off
    assert "CO-AIM-3" not in push(h, Attack("Ann", "Cult"), (100, 90))


# --- surprise (CO-SURP-1..3) ----------------------------------------------------------------

def test_co_surp_1_2_3_surprise_no_dodge_luck_to_spot_004() -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 60, "hide": 95}, {"dodge": 90})
    text = push(f, Attack("Ann", "Cult", surprise="hide", defence=Defence.DODGE, dark=True),
                (100, 40), (100, 20), (4, 3), (4, 2), (100, 70))
    assert "CO-SURP-1" in text and "cannot dodge or parry a surprise" in text
    assert "×1/2 (dark, CO-SURP-3) = 30" in text
    hiding = duel(P004, {"weapons": ("knife",), "hide": 95})
    with pytest.raises(IllegalAction, match=r"^the Keeper's hiding penalty must be from -50 to "
                                            r"-10 \(CO-SURP-3\), found -5$"):
        hiding.push(Attack("Ann", "Cult", surprise="hide", hidden=-5), ScriptedDice([(100, 40)]))
    assert "(1D100<=10)" in text  # Luck 50 −10 −30 (the Keeper's Default for hiding)
    assert "stays hidden" in text and f.state.get("Cult").hp == 13 - 3 - 2 - 2
    assert f.state.get("Ann").hidden
    push(f, Attack("Cult", "Ann", weapon=0), (100, 99))
    assert "−30 (Ann is hidden, CO-SURP-3)" in f.journal[-1].text.replace("-30", "−30")
    # Spotted: a 95% hider may try again at −80%; a 60% one may not.
    g = duel(P004, {"weapons": ("knife",), "knife": 60, "hide": 60})
    push(g, Attack("Ann", "Cult", surprise="hide"), (100, 40), (100, 99), (100, 5))
    assert g.state.get("Ann").found
    pass_to(g, "Ann")
    with pytest.raises(IllegalAction, match="CO-SURP-2"):
        g.push(Attack("Ann", "Cult", surprise="hide"), ScriptedDice([]))
    h = duel(P004, {"weapons": ("knife",), "knife": 60, "hide": 95})
    push(h, Attack("Ann", "Cult", surprise="hide"), (100, 40), (100, 99), (100, 5))
    pass_to(h, "Ann")
    text = push(h, Attack("Ann", "Cult", surprise="hide"), (100, 16))
    assert "(1D100<=15)" in text and "CO-SURP-2" in text and "not hidden" in text
    with pytest.raises(IllegalAction, match="CO-SURP-1"):  # optional in 003, off
        duel(P003, {"hide": 90}).push(Attack("Ann", "Cult", surprise="hide"),
                                      ScriptedDice([(100, 1)]))


# --- disarming (CO-DISARM-1) --------------------------------------------------------------

def test_co_disarm_1_penalty_unless_trained_and_the_weapon_falls_004() -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 60}, {"weapons": ("knife",)})
    text = push(f, Attack("Ann", "Cult", disarm=True), (100, 15))
    assert "−40 (disarm, CO-DISARM-1) = 20".replace("−", "-") in text.replace("−", "-")
    cult = f.state.get("Cult")
    assert cult.sheet.weapons[0].dropped and cult.hp == 13  # no damage (Default)
    with pytest.raises(IllegalAction, match="dropped"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    assert "one action, CO-DISARM-1" in push(f, PickUp("Cult"))
    g = duel(P004, {"weapons": ("knife",), "knife": 60, "martial_arts": 30},
             {"weapons": ("knife",)})  # a weapon to lose: bare hands are none (coc70)
    assert "no penalty, CO-DISARM-1) = 60" in push(g, Attack("Ann", "Cult", disarm=True),
                                                   (100, 99))
    with pytest.raises(IllegalAction, match=r"^the disarm penalty must be from -60 to -20 "
                                            r"\(CO-DISARM-1\), found -70$"):
        duel(P004, {"weapons": ("knife",)}, {"weapons": ("knife",)}).push(
            Attack("Ann", "Cult", disarm=True, penalty=-70), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-DISARM-1"):  # optional in 003, off
        duel(P003, {"weapons": ("knife",)}).push(Attack("Ann", "Cult", disarm=True),
                                                 ScriptedDice([]))


# --- body parts (CO-BODY-1..6) ------------------------------------------------------------


def test_co_body_2_5_6_cut_off_an_arm_recomputes_and_bleeds_004() -> None:
    f = duel(P004, SWORD)
    text = push(f, Attack("Ann", "Cult", body="cut", part="arm"),
                (100, 50), (10, 5), (4, 2), (3, 2), (4, 3))
    assert "−26 (cut the arm: SIZ 13×2, CO-BODY-2) = 64".replace("−", "-") in \
        text.replace("−", "-")
    assert "Cult loses the arm (CO-BODY-2, CO-BODY-5)" in text
    cult = f.state.get("Cult")
    # 7 damage; STR 13−2, SIZ 13−1, DEX 10−3: max HP ceil((12+12)/2) = 12, HP 12 − 7 = 5.
    assert (cult.sheet.stat("STR"), cult.sheet.stat("SIZ"), cult.sheet.stat("DEX")) == (11, 12, 7)
    assert cult.sheet.max_hp == 12 and cult.hp == 5 and cult.lost == ("arm",)
    assert cult.bleeding == ("1D4",)
    text = push(f, EndTurn("Cult"), (4, 3))  # round 2 opens with the bleeding
    assert "bleeds" in text and "CO-BODY-6" in text and f.state.get("Cult").hp == 2


def test_co_body_5_a_severed_head_kills_at_hp_0_and_staunching_stops_no_head_bleed_004(
) -> None:
    f = duel(P004, SWORD)
    text = push(f, Attack("Ann", "Cult", body="cut", part="head"), (100, 25), (10, 1), (4, 1))
    assert "−60 (cut the head, CO-BODY-2, CO-BODY-5) = 30".replace("−", "-") in \
        text.replace("−", "-")
    assert "extra damage 15 (CO-BODY-5)" in text and f.state.get("Cult").dead


def test_co_body_3_gouge_an_eye_halves_spot_hidden_and_co_body_4_blow_off_needs_damage_004(
) -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 90}, {"spot_hidden": 60})
    text = push(f, Attack("Ann", "Cult", body="gouge", part="eye"), (100, 5), (4, 1), (4, 1))
    assert "CO-BODY-3" in text and "目星/Spot Hidden 60 → 30 (CO-BODY-5)" in text
    g = duel(P004, {"weapons": ("knife",), "knife": 90})
    text = push(g, Attack("Ann", "Cult", body="gouge", part="arm", penalty=-65), (100, 20),
                (4, 1), (4, 1), (3, 1), (4, 1))
    assert "−65 (gouge the arm, CO-BODY-3) = 25".replace("−", "-") in text.replace("−", "-")
    with pytest.raises(IllegalAction, match=r"^the gouging penalty must be from -80 to -60 "
                                            r"\(CO-BODY-3\), found -50$"):
        duel(P004, {"weapons": ("knife",)}).push(
            Attack("Ann", "Cult", body="gouge", part="arm", penalty=-50), ScriptedDice([]))
    h = duel(P004, {"weapons": ("smg",), "smg": 90})
    text = push(h, Attack("Ann", "Cult", body="blow_off", part="leg"), (100, 30), (10, 3))
    assert "5 damage < SIZ×2 = 26: the leg holds (CO-BODY-4)" in text
    with pytest.raises(IllegalAction, match="CO-BODY-2"):
        duel(P004, {"weapons": ("knife",)}).push(
            Attack("Ann", "Cult", body="cut", part="arm"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-BODY-1"):  # optional in 003, off
        duel(P003, SWORD).push(Attack("Ann", "Cult", body="cut", part="arm"),
                               ScriptedDice([]))


def test_co_body_1_nothing_is_lost_unless_declared_and_treatment_staunches_004() -> None:
    f = duel(P004, SWORD, third={"first_aid": 80})
    text = push(f, Attack("Ann", "Cult", body="cut", part="leg"),
                (100, 10), (10, 2), (4, 1), (4, 1), (3, 1), (6, 1))
    assert "CO-BODY-5" in text and f.state.get("Cult").bleeding == ("1D4",)
    text = push(f, Treat("Bob", "Cult"), (100, 10), (3, 1))
    assert "staunched (CO-BODY-6)" in text and f.state.get("Cult").bleeding == ()
    g = duel(P004, SWORD)
    assert "CO-BODY" not in push(g, Attack("Ann", "Cult"), (100, 10), (10, 2), (4, 1))


# --- burns (CO-BURN-1), spells (CO-SPELL-1/2) -----------------------------------------------

def test_co_burn_1_half_the_hp_to_fire_costs_app_or_con_once_004() -> None:
    f = duel(P004, {})
    push(f, Burn("Cult", 4, "blaze"))
    assert f.state.get("Cult").sheet.stat("APP") == 10
    text = push(f, Burn("Cult", 3, "blaze"), (6, 4))
    assert "APP −(1D6) ＞ 4 = 6" in text and "CO-BURN-1" in text
    assert push(f, Burn("Cult", 1, "blaze")).count("APP") == 0  # once per incident
    text = push(f, Burn("Ann", 7, "oil", lose="CON"), (6, 2))
    ann = f.state.get("Ann")  # CON 12 → 10: max HP 12, HP 13−7 → 12−7 = 5
    assert ann.sheet.stat("CON") == 10 and ann.sheet.max_hp == 12 and ann.hp == 5
    with pytest.raises(IllegalAction, match="CO-BURN-1"):
        duel(P003, {}).push(Burn("Cult", 7), ScriptedDice([]))


def test_co_spell_1_no_chant_while_held_and_co_spell_2_pow_x1_or_interrupted() -> None:
    """004 (on) and 003 (optional, switched on: a grappled character still has 1 AP)."""
    on = {"CO-SPELL-1": {"p003": ON_003}, "CO-SPELL-2": {"p003": ON_003}}
    f = duel(P003, {"grapple": 90}, {"weapons": ("knife",), "knife": 90}, on)
    # Ann's 1 AP while grappling: Cult's turn, its STR roll failing (CO-GRAP-2)
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 90))
    with pytest.raises(IllegalAction, match="CO-SPELL-1"):
        f.push(Cast("Cult", "萎縮/Shrivelling", mp=5), ScriptedDice([]))
    text = push(f, Cast("Cult", "門/Gate", mp=3, automatic=True))
    assert "CO-SPELL-1" in text and f.state.get("Cult").mp == 7
    with pytest.raises(IllegalAction, match="CO-SPELL-1"):  # optional in 003, off by Default
        duel(P003, {}).push(Cast("Ann", "門/Gate"), ScriptedDice([]))
    g = duel(P004, {"weapons": ("knife",), "knife": 90}, {"weapons": ("knife",)})
    push(g, EndTurn("Ann"))
    push(g, Cast("Cult", "萎縮/Shrivelling", mp=5))
    text = push(g, Attack("Ann", "Cult"), (100, 30), (4, 1), (4, 1), (100, 50))
    assert "POW×1" in text and "interrupted (CO-SPELL-2)" in text
    assert g.state.get("Cult").chanting == ""
    h = duel(P004, {}, {})
    push(h, EndTurn("Ann"))
    push(h, Cast("Cult", "萎縮/Shrivelling", mp=5))
    assert "takes effect (CO-SPELL-2)" in push(h, EndTurn("Ann"))


# --- tackle (CO-TACKLE-1..3), shock (CO-BASE-9) -----------------------------------------------

def test_co_tackle_1_2_3_and_co_base_9_shock_004() -> None:
    f = duel(P004, {"tackle": 60})
    text = push(f, Tackle("Ann", "Cult"), (100, 30), (6, 3), (4, 2))
    assert "CO-TACKLE-1" in text and f.state.get("Cult").hp == 8
    g = duel(P004, {"tackle": 60})
    text = push(g, Tackle("Ann", "Cult", "blow_back", obstacle=True), (100, 30), (4, 2), (4, 1),
                (6, 4), (100, 80))
    assert "CO-TACKLE-2" in text and "CO-BASE-9" in text and g.state.get("Cult").hp == 6
    assert g.state.get("Cult").unconscious
    h = duel(P004, {"tackle": 60}, {"dodge": 50})
    text = push(h, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    assert "CO-TACKLE-3" in text and h.state.get("Cult").has(Condition.PRONE, 1)
    push(h, EndTurn("Cult"))
    assert h.state.get("Cult").held_by == "Ann" and "CO-GRAP-6" in h.journal[-1].text
    with pytest.raises(IllegalAction, match="CO-TACKLE-1"):  # optional in 003, off
        duel(P003, {"tackle": 60}).push(Tackle("Ann", "Cult"), ScriptedDice([]))


# --- Iai (CO-IAI-1..4) ---------------------------------------------------------------------

IAI = {"weapons": ("japanese_sword",), "iai": 70, "japanese_sword": 60}


def test_co_iai_1_2_3_iai_costs_no_ap_once_a_round_then_sheathe_003() -> None:
    f = duel(P003, IAI)
    text = push(f, Attack("Ann", "Cult", iai=True), (100, 30), (10, 2), (4, 1))
    assert "CO-IAI-2" in text and "居合/Iai" in text and f.state.get("Ann").ap == 3
    with pytest.raises(IllegalAction, match="CO-IAI-2"):
        f.push(Attack("Ann", "Cult", iai=True), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-IAI-2"):
        f.push(Treat("Ann", "Ann"), ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 90))  # the normal follow-up attack (1 AP)
    push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))
    with pytest.raises(IllegalAction, match="CO-IAI-3"):
        f.push(Attack("Ann", "Cult", iai=True), ScriptedDice([]))
    assert "CO-IAI-3" in push(f, Sheathe("Ann"))
    with pytest.raises(IllegalAction, match="CO-IAI-3"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-IAI-1"):
        duel(P003, {"weapons": ("knife",), "iai": 70}).push(
            Attack("Ann", "Cult", iai=True), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-IAI"):  # off in 004
        duel(P004, IAI).push(Attack("Ann", "Cult", iai=True), ScriptedDice([]))


def test_co_iai_1_draw_an_allys_blade_and_co_iai_4_pommel_strike_stuns_003() -> None:
    f = duel(P003, {"weapons": ("fist",), "iai": 70}, third={"weapons": ("bokuto",)})
    text = push(f, Attack("Ann", "Cult", iai=True, borrow="Bob", pommel=True), (100, 30))
    assert "draws Bob's 木刀/Wooden Sword (CO-IAI-1)" in text
    assert "CO-IAI-4" in text and f.state.get("Cult").stun == 1 and f.state.get("Cult").hp == 13
    # from revision 20 the blade keeps its number in Bob's list, in Ann's hands (coc72 D2)
    assert [(w.info.key, w.lent) for w in f.state.get("Bob").sheet.weapons] == [
        ("bokuto", "Ann")]


# --- firearms: third shot at DEX/2 (CO-FIRE-2), first strike (CO-FIRE-7) ---------------------

def test_co_fire_2_the_third_shot_comes_at_dex_2_003() -> None:
    rules = load_rules(P003)
    ann = person(rules, "Ann", 14, ("revolver",), handgun=50)
    cult = person(rules, "Cult", 10)
    kid = person(rules, "Kid", 5)
    f = Fight(rules, [(ann, Side.INVESTIGATORS), (cult, Side.FOES), (kid, Side.FOES)],
              ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 90))
    push(f, Attack("Ann", "Cult"), (100, 90))
    text = push(f, Attack("Ann", "Cult"))
    assert "third shot comes at DEX/2 (7) (CO-FIRE-2)" in text
    assert f.state.order == ("Ann", "Cult", "Ann", "Kid")
    text = push(f, EndTurn("Cult"))
    assert "Ann acts at DEX/2 (7): 1 AP" in text
    push(f, Attack("Ann", "Cult"), (100, 90))
    assert f.state.current.name == "Kid"  # type: ignore[union-attr]
    g = Fight(rules, [(ann, Side.INVESTIGATORS), (cult, Side.FOES)], ScriptedDice([]))
    push(g, Move("Ann"))
    push(g, Attack("Ann", "Cult"), (100, 90))
    push(g, Attack("Ann", "Cult"), (100, 90))  # not every AP on attacks: no DEX/2 slot
    assert g.state.current.name == "Cult"  # type: ignore[union-attr]


def test_co_fire_7_first_strike_before_the_dex_order_004() -> None:
    f = duel(P004, {"weapons": ("knife",)}, {"weapons": ("revolver",), "handgun": 50})
    text = push(f, Attack("Cult", "Ann", first_strike=True), (100, 99))
    assert "CO-FIRE-7" in text and f.state.current.name == "Ann"  # type: ignore[union-attr]
    push(f, EndTurn("Ann"))
    with pytest.raises(IllegalAction, match="1 to 2"):
        f.push(Attack("Cult", "Ann", shots=3), ScriptedDice([]))
    push(f, Attack("Cult", "Ann", shots=2), (100, 99), (100, 99))
    g = duel(P004, {"weapons": ("knife",)}, {"weapons": ("smg",), "smg": 50})
    with pytest.raises(IllegalAction, match="CO-FIRE-7"):
        g.push(Attack("Cult", "Ann", first_strike=True, burst=True), ScriptedDice([]))
    push(g, EndTurn("Ann"))
    with pytest.raises(IllegalAction, match="CO-FIRE-7"):  # the round has begun
        g.push(Attack("Cult", "Ann", first_strike=True), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-FIRE-7"):  # off in 003
        duel(P003, {}, {"weapons": ("revolver",)}).push(
            Attack("Cult", "Ann", first_strike=True), ScriptedDice([]))


def test_co_fire_5_a_parried_point_blank_shot_ends_the_shots_003() -> None:
    f = duel(P003, GUN, {"weapons": ("japanese_sword",), "japanese_sword": 60})
    text = push(f, Attack("Ann", "Cult", adjacent=True, defence=Defence.PARRY), (100, 30),
                (10, 4), (100, 20))
    assert "CO-FIRE-5" in text and "shoots no more this round" in text
    with pytest.raises(IllegalAction, match="CO-FIRE-5"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="cannot parry"):  # not adjacent: no parry
        duel(P003, GUN, {"weapons": ("japanese_sword",)}).push(
            Attack("Ann", "Cult", defence=Defence.PARRY), ScriptedDice([(100, 30), (10, 4)]))


def test_co_fire_9_shotgun_and_co_fire_10_reload_004() -> None:
    f = duel(P004, {"weapons": ("shotgun",), "shotgun": 50})
    assert "CO-FIRE-9" in push(f, Attack("Ann", "Cult", shots=2), (100, 99), (100, 99))
    push(f, EndTurn("Cult"))
    assert "CO-BASE-12, CO-FIRE-10" in push(f, Reload("Ann"))
    g = duel(P003, {"weapons": ("shotgun",), "shotgun": 50})  # optional in 003, off
    assert "CO-FIRE-9" not in push(g, Attack("Ann", "Cult"), (100, 99))


SHOTGUN = {"weapons": ("shotgun",), "shotgun": 50}


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_fire_9_a_shotgun_does_its_printed_band_damage_where_on(profile: Profile) -> None:
    """CO-FIRE-9 with CO-RANGE-2's proviso: the shotgun's printed bands (the CoC6 12-gauge's
    4D6/2D6/1D6 at 10/20/50 m, a Default) give the damage at full skill; beyond 50 m it
    cannot hit. 004: on; 003: optional, switched on here."""
    on = {"CO-FIRE-9": {"p003": ON_003}} if profile is P003 else {}
    near = duel(profile, SHOTGUN, settings=on)
    text = push(near, Attack("Ann", "Cult"), (100, 30), (6, 1), (6, 2), (6, 3), (6, 4))
    assert ("damage 4D6 up to 10 m (printed bands 4D6/2D6/1D6 @ 10/20/50 m (gauge_12) "
            "(default), CO-FIRE-9)") in text
    assert "(1D100<=50)" in text and near.state.get("Cult").hp == 13 - 10
    mid = duel(profile, SHOTGUN, settings=on)
    text = push(mid, Attack("Ann", "Cult", distance_m=18), (100, 30), (6, 5), (6, 6))
    assert "Ann ショットガン/Shotgun 18 m: damage 2D6 up to 20 m" in text
    assert "(1D100<=50)" in text and "CO-RANGE-2" not in text  # no ÷k on the skill or damage
    assert mid.state.get("Cult").hp == 13 - 11
    far = duel(profile, SHOTGUN, settings=on)
    text = push(far, Attack("Ann", "Cult", distance_m=50), (100, 30), (6, 6))
    assert "damage 1D6 up to 50 m" in text and far.state.get("Cult").hp == 13 - 6
    with pytest.raises(IllegalAction, match="beyond ショットガン/Shotgun's last band 50 m"):
        duel(profile, SHOTGUN, settings=on).push(Attack("Ann", "Cult", distance_m=51),
                                                 ScriptedDice([]))
    # the Keeper's own bands (set by the user: no "(default)"), and a sheet's printed ones
    mine = duel(profile, SHOTGUN, settings={**on, "CO-FIRE-9": {
        **on.get("CO-FIRE-9", {}), "gauge_12": "3D6/1D6 @ 5/25"}})
    text = push(mine, Attack("Ann", "Cult", distance_m=20), (100, 30), (6, 2))
    assert "damage 1D6 up to 25 m (printed bands 3D6/1D6 @ 5/25 m (gauge_12), CO-FIRE-9)" \
        in text
    own = {"key": "sawn_off", "ja": "ソードオフ", "en": "Sawn-off", "kind": "firearm",
           "skill": "shotgun", "damage": "4D6", "db": "none", "attacks": 2, "magazine": 2,
           "range_m": 5, "bands": "4D6/1D6 @ 5/10"}
    text = push(duel(profile, {"weapons": (own,), "shotgun": 50}, settings=on),
                Attack("Ann", "Cult", distance_m=9), (100, 30), (6, 2))
    assert "damage 1D6 up to 10 m (printed bands 4D6/1D6 @ 5/10 m, CO-FIRE-9)" in text


def test_co_fire_9_off_in_003_the_shotgun_uses_its_plain_damage() -> None:
    """003 by Default: CO-FIRE-9 is optional and off, so the bands never fire: 4D6 at any
    distance the Keeper gives (003 has no range rule on)."""
    f = duel(P003, SHOTGUN)
    text = push(f, Attack("Ann", "Cult", distance_m=45), (100, 30), (6, 1), (6, 1), (6, 1),
                (6, 1))
    assert "CO-FIRE-9" not in text and "printed bands" not in text
    assert f.state.get("Cult").hp == 13 - 4


def test_co_fire_9_bands_are_checked_on_load_and_as_overrides() -> None:
    rules = load_rules(P004)
    assert rules.weapon("shotgun").bands == "gauge_12"
    assert rules.default("CO-FIRE-9", "gauge_12") == "4D6/2D6/1D6 @ 10/20/50"
    assert ("CO-FIRE-9", "gauge_20", "2D6/1D6/1D3 @ 10/20/50", True) in rules.entries()
    for bad in ("4D6/2D6 @ 10", "4D6/2D6 @ 20/10", "4D6/XD @ 10/20", "far"):
        with pytest.raises(DataError, match="CO-FIRE-9"):
            rules.with_overrides({"CO-FIRE-9": {"gauge_12": bad}})
    base = {"key": "x", "ja": "x", "en": "x", "kind": "firearm", "skill": "shotgun",
            "damage": "4D6", "db": "none", "attacks": 1, "magazine": 1}
    with pytest.raises(DataError, match="bands"):
        weapon_from_mapping({**base, "bands": "gauge_16"}, "w", rules.skills,
                            rules.defaults.values["CO-FIRE-9"])
    with pytest.raises(DataError, match="only a firearm or a thrown weapon"):
        weapon_from_mapping({**base, "kind": "melee", "bands": "gauge_12"}, "w", rules.skills,
                            rules.defaults.values["CO-FIRE-9"])
    packaged = files("companion.systems.coc").joinpath("data", "weapons.toml").read_text(
        encoding="utf-8")
    with pytest.raises(DataError, match=r"weapons\.toml.*bands"):
        load_rules(texts={"weapons.toml": packaged.replace('bands = "gauge_12"',
                                                           'bands = "gauge_99"')})
    sheet = person(rules, "Ann", 10, ("shotgun",))
    again = sheet_from_mapping(rules, sheet_mapping(sheet))
    assert again.weapons[0].info.bands == "gauge_12"


# --- counters, unarmed parries, dodge concentration and assists ------------------------------

def test_co_ma_5_counter_parries_and_hits_back_004() -> None:
    f = duel(P004, {"weapons": ("kick",), "kick": 60},
             {"weapons": ("fist",), "fist": 60, "martial_arts": 40})
    text = push(f, Attack("Ann", "Cult", defence=Defence.COUNTER), (100, 30), (6, 5), (4, 2),
                (100, 50), (3, 2), (4, 1))
    assert "CO-MA-5" in text and "部分的成功/partial success" in text
    assert f.state.get("Cult").hp == 13 and f.state.get("Ann").hp == 10
    g = duel(P004, {"weapons": ("kick",), "kick": 60},
             {"weapons": ("fist",), "fist": 60, "martial_arts": 40},
             {"CO-MA-5": {"both_required": True}})
    push(g, Attack("Ann", "Cult", defence=Defence.COUNTER), (100, 30), (6, 5), (4, 2),
         (100, 50))
    assert g.state.get("Ann").hp == 13 and g.state.get("Cult").hp == 13
    with pytest.raises(IllegalAction, match="counter"):  # optional in 003, off
        duel(P003, {"weapons": ("kick",), "kick": 60}).push(
            Attack("Ann", "Cult", defence=Defence.COUNTER), ScriptedDice([(100, 30), (6, 5),
                                                                          (4, 2)]))


def test_co_parry_3_unarmed_parries_004() -> None:
    f = duel(P004, {"weapons": ("fist",), "fist": 60}, {"fist": 60})
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="hands"),
                (100, 30), (3, 3), (4, 4), (100, 20))
    assert "nobody is hurt (CO-PARRY-3)" in text and f.state.get("Cult").hp == 13
    g = duel(P004, {"weapons": ("fist",), "fist": 60, "martial_arts": 60},
             {"martial_arts": 60})
    text = push(g, Attack("Ann", "Cult", ma=True, defence=Defence.PARRY, parry_with="ma"),
                (100, 30), (3, 3), (3, 2), (4, 4), (100, 20))
    assert "half, 4, gets through any parry (CO-PARRY-3)" in text  # 2D3+1D4 = 9
    assert g.state.get("Cult").hp == 9
    with pytest.raises(IllegalAction, match="cannot parry"):  # CO-PARRY-2: no bare hands
        duel(P004, {"weapons": ("knife",), "knife": 60}, {"fist": 60}).push(
            Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="hands"),
            ScriptedDice([(100, 30), (4, 1), (4, 1)]))


def test_co_dodge_1_concentration_003_and_co_dodge_8_004() -> None:
    f = duel(P003, {"weapons": ("knife",), "knife": 60}, {"dodge": 30})
    assert "CO-DODGE-1" in push(f, Concentrate("Cult"))
    text = push(f, Attack("Ann", "Cult", from_behind=True, defence=Defence.DODGE), (100, 30),
                (100, 45))
    assert "+20 (CO-DODGE-1)" in text and "(1D100<=50)" in text
    pass_to(f, "Cult")
    with pytest.raises(IllegalAction, match="CO-DODGE-1"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    push(f, Move("Cult"))
    knife = {"weapons": ("knife",), "knife": 60}
    g = duel(P004, knife, {"dodge": 30}, third=knife)
    assert "CO-DODGE-8" in push(g, Concentrate("Cult"))
    for name in ("Ann", "Bob"):  # any number of dodges, each at +10
        text = push(g, Attack(name, "Cult", defence=Defence.DODGE), (100, 30), (100, 35))
        assert "+10 (CO-DODGE-8)" in text and "(1D100<=40)" in text
    assert g.state.get("Cult").dodges == 2 and g.state.get("Cult").hp == 13
    with pytest.raises(IllegalAction, match="CO-DODGE-4"):
        g.push(Attack("Cult", "Ann"), ScriptedDice([]))
    k = duel(P004, knife, {"dodge": 30})
    push(k, Concentrate("Cult"))
    push(k, EndTurn("Ann"))
    with pytest.raises(IllegalAction, match="CO-DODGE-8"):  # no attack, even undodged
        k.push(Attack("Cult", "Ann"), ScriptedDice([]))
    h = duel(P004, {"weapons": ("knife",), "knife": 60}, {"dodge": 30})
    push(h, EndTurn("Ann"))
    with pytest.raises(IllegalAction, match="before the round's first action"):
        h.push(Concentrate("Cult"), ScriptedDice([]))


def test_co_dodge_6_navigate_or_jump_assists_the_dodge_004() -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 60}, {"dodge": 30, "navigate": 50})
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE, dodge_assist="navigate"),
                (100, 30), (100, 20), (100, 38))
    assert "CO-DODGE-6" in text and "(1D100<=40)" in text and f.state.get("Cult").hp == 13
    with pytest.raises(IllegalAction, match="CO-DODGE-6"):  # optional in 003, off
        duel(P003, {"weapons": ("knife",), "knife": 60}).push(
            Attack("Ann", "Cult", defence=Defence.DODGE, dodge_assist="jump"),
            ScriptedDice([]))


def test_co_grap_9_ma_with_grapple_is_a_note_004() -> None:
    f = duel(P004, {"grapple": 60, "martial_arts": 60})
    text = push(f, Grapple("Ann", "Cult", ma=True), (100, 30))
    assert "CO-GRAP-9" in text and f.state.get("Cult").held_by == "Ann"


# --- knockout, falls, insanity, Psychoanalysis, Spot Hidden -----------------------------------

@pytest.mark.parametrize("profile", [P003, P004])
def test_co_base_10_knockout_where_switched_on(profile: Profile) -> None:
    on = {"CO-BASE-10": {f"p{profile.value}": ON_003}}
    f = duel(profile, {"weapons": ("fire_poker",), "club": 70}, settings=on)
    text = push(f, Attack("Ann", "Cult", knockout=True), (100, 30), (6, 6), (4, 4),
                (100, 40))
    # 10 damage vs HP 13: 50 − 15 = 35% ＞ 40 fails; the blow lands as usual.
    assert "CO-BASE-10" in text and f.state.get("Cult").hp == 3
    g = duel(profile, {"weapons": ("fire_poker",), "club": 70}, settings=on)
    text = push(g, Attack("Ann", "Cult", knockout=True), (100, 30), (6, 6), (4, 4),
                (100, 20))
    cult = g.state.get("Cult")
    assert "knocked out and loses 3" in text and cult.unconscious and cult.hp == 10
    with pytest.raises(IllegalAction, match="CO-BASE-10"):  # optional: off by Default
        duel(profile, {"weapons": ("fire_poker",)}).push(
            Attack("Ann", "Cult", knockout=True), ScriptedDice([]))


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_base_11_falls_and_co_base_13_insanity(profile: Profile) -> None:
    f = duel(profile, {})
    text = push(f, Fall("Cult", 7), (6, 3), (6, 4))
    assert "fall 7 m ＞ (2D6)" in text and "CO-BASE-11" in text and f.state.get("Cult").hp == 6
    assert f.state.current.name == "Ann"  # type: ignore[union-attr]  # the Keeper's: no turn
    text = push(f, SanLoss("Ann", 6), (100, 40))
    ann = f.state.get("Ann")
    assert "INT×5" in text and ann.has(Condition.TEMPORARY_INSANITY, 1) and ann.san == 44
    text = push(f, SanLoss("Ann", 4))  # 10 of 50 within the hour: 1/5
    assert "indefinite insanity (CO-BASE-13)" in text


def test_co_skill_4_psychoanalysis_003_and_co_skill_5_spot_hidden() -> None:
    f = duel(P003, {"psychoanalysis": 60, "weapons": ("knife",), "knife": 50, "spot_hidden": 70},
             third={})
    push(f, SanLoss("Bob", 5), (100, 10))
    text = push(f, Treat("Ann", "Bob", "psychoanalysis"), (100, 30))
    assert "recovers from temporary insanity (CO-SKILL-4)" in text
    g = duel(P003, {"weapons": ("knife",), "knife": 50, "spot_hidden": 70})
    text = push(g, Spot("Ann", "Cult"), (100, 30))
    assert "CO-SKILL-5" in text and "weapons こぶし(パンチ)/Fist/Punch" in text
    push(g, Attack("Ann", "Cult"), (100, 90))  # an attack still allowed (CO-TURN-4)
    h = duel(P004, {"spot_hidden": 70})
    assert "CO-BASE-5" in push(h, Spot("Ann", "Cult"), (100, 30))
    with pytest.raises(IllegalAction, match="CO-SKILL-4"):
        duel(P004, {"psychoanalysis": 60}).push(Treat("Ann", "Cult", "psychoanalysis"),
                                                ScriptedDice([]))


# --- thrown weapons, called shots, knockback (003) ---------------------------------------

def test_co_throw_1_range_and_half_db_and_co_throw_2_critical_and_stray_fumble_003() -> None:
    rock = {"weapons": ("rock",), "throw": 60}
    f = duel(P003, rock, third={})
    with pytest.raises(IllegalAction, match="CO-THROW-1"):
        f.push(Attack("Ann", "Cult", distance_m=4), ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult", distance_m=3), (100, 3), (4, 2), (2, 1), (3, 3))
    assert "(1D4+1D2)" in text and "+ critical (1D3) ＞ 3 = 6 (CO-THROW-2)" in text
    assert f.state.get("Cult").hp == 7
    g = duel(P003, rock, third={})
    text = push(g, Attack("Ann", "Cult", stray="Bob"), (100, 96), (100, 40), (4, 4), (2, 2))
    assert "flies off towards Bob (CO-THROW-2)" in text and g.state.get("Bob").hp == 7
    h = duel(P003, rock)
    assert "lands harmlessly" in push(h, Attack("Ann", "Cult"), (100, 96))
    k = duel(P004, rock)  # off in 004: a fumbled rock is only a miss (no distance_m: the
    # rock has no base range for CO-RANGE-2, refused from engine revision 24)
    assert "CO-THROW" not in push(k, Attack("Ann", "Cult"), (100, 97))


def test_co_call_1_called_shots_003() -> None:
    f = duel(P003, GUN, {"weapons": ("revolver",), "handgun": 50})
    text = push(f, Attack("Ann", "Cult", called="head"), (100, 20), (10, 4), (6, 5))
    assert "−30 (called shot: head, CO-CALL-1) = 20".replace("−", "-") in \
        text.replace("−", "-")
    assert "+ head (1D6) ＞ 5 = 9 (CO-CALL-1)" in text and f.state.get("Cult").hp == 4
    g = duel(P003, GUN, {"weapons": ("revolver", "automatic"), "handgun": 50})
    text = push(g, Attack("Ann", "Cult", called="arm"), (100, 20), (10, 1), (100, 80))
    assert "drops 拳銃(リボルバー)/Revolver (CO-CALL-1)" in text
    cult = g.state.get("Cult")
    assert cult.arm_hits == 1 and cult.sheet.weapons[0].dropped
    pass_to(g, "Cult")
    push(g, Attack("Cult", "Ann", weapon=1), (100, 90))
    push(g, Attack("Cult", "Ann", weapon=1), (100, 90))
    with pytest.raises(IllegalAction, match="CO-CALL-1"):  # 3 attacks → 2 after an arm hit
        g.push(Attack("Cult", "Ann", weapon=1), ScriptedDice([]))
    h = duel(P003, GUN)
    push(h, Attack("Ann", "Cult", called="leg"), (100, 20), (10, 1))
    pass_to(h, "Cult")
    with pytest.raises(IllegalAction, match="CO-CALL-1"):
        h.push(Move("Cult", 3), ScriptedDice([]))
    push(h, Move("Cult", 2))
    with pytest.raises(IllegalAction, match="CO-FIRE-6"):
        duel(P003, {"weapons": ("smg",)}).push(Attack("Ann", "Cult", burst=True, called="arm"),
                                               ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-CALL-1"):  # off in 004
        duel(P004, GUN).push(Attack("Ann", "Cult", called="head"), ScriptedDice([]))


def test_co_melee_2_knockback_after_armour_hits_whoever_stands_behind_003() -> None:
    f = duel(P003, SWORD, {"dodge": 20}, third={"dodge": 20})
    text = push(f, Attack("Ann", "Cult", behind="Bob"), (100, 30), (10, 9), (4, 2), (100, 70),
                (3, 2))
    assert "knockback! Cult is pushed back a square (11 damage, CO-MELEE-2)" in text
    assert "Bob is struck by Cult" in text and f.state.get("Bob").hp == 11
    g = duel(P003, SWORD)
    assert "knockback" not in push(g, Attack("Ann", "Cult"), (100, 30), (10, 5), (4, 2))
    h = duel(P004, SWORD)  # off in 004
    assert "knockback" not in push(h, Attack("Ann", "Cult"), (100, 30), (10, 9), (4, 2))


# --- the board (CO-TURN-2, CO-TURN-5, CO-TURN-7, CO-MELEE-1, CO-SKILL-6) ---------------------

def test_co_turn_2_board_places_facing_and_behind_co_turn_5_moves_around_003() -> None:
    from companion.systems.coc.combat import Face, Place

    f = duel(P003, {"weapons": ("knife",), "knife": 60}, {"dodge": 40}, third={})
    assert "Cult stands on d4 facing N (CO-TURN-2)" in push(f, Place("Cult", "d4", "N"))
    push(f, Place("Ann", "d1", "N"))
    push(f, Place("Bob", "d2"))
    with pytest.raises(IllegalAction, match="CO-TURN-2"):
        f.push(Place("Ann", "d2"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="CO-MELEE-1"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    text = push(f, Move("Ann", to="d3"))  # Bob stands on d2: around him, 2 squares
    assert "moves 2 square(s) to d3 (CO-TURN-5, CO-TURN-2)" in text
    assert f.state.get("Ann").ap == 1
    # Ann on d3 is at the back of Cult facing N: no dodge (CO-DODGE-3).
    with pytest.raises(IllegalAction, match="cannot dodge"):
        f.push(Attack("Ann", "Cult", defence=Defence.DODGE),
               ScriptedDice([(100, 30), (4, 1), (4, 1)]))
    push(f, EndTurn("Ann"))
    pass_to(f, "Cult")
    assert "no AP (CO-TURN-5)" in push(f, Face("Cult", "S"))
    assert f.state.get("Cult").ap == 3
    with pytest.raises(IllegalAction, match="CO-TURN-2"):  # off in 004
        duel(P004, {}).push(Place("Ann", "a1"), ScriptedDice([]))


def test_co_turn_7_throw_range_and_the_line_of_fire_003() -> None:
    from companion.systems.coc.combat import Place

    f = duel(P003, {"weapons": ("rock", "revolver"), "throw": 60, "handgun": 60}, {},
             third={})
    push(f, Place("Ann", "a1"))
    push(f, Place("Cult", "a5"))
    push(f, Place("Bob", "a3"))
    with pytest.raises(IllegalAction, match="CO-TURN-7"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))  # 4 squares: too far to throw
    with pytest.raises(IllegalAction, match="CO-TURN-7"):
        f.push(Attack("Ann", "Cult", weapon=1), ScriptedDice([]))  # Bob is in the way
    push(f, Place("Bob", "b3"))
    push(f, Attack("Ann", "Cult", weapon=1), (100, 90))  # the whole board for a firearm


def test_co_turn_7_a_blocked_shot_names_who_blocks_it_003() -> None:
    """a76cocother NIT 3: a diagonal line blocks at the corners it passes too (b1 for a1 to
    e3), so the refusal names whom to move, nearest the shooter first; it said "somebody".
    r76coc N2: it says "is between", true of Bob lying unconscious too ("stands")."""
    from companion.systems.coc.combat import Fall, Place

    rules = load_rules(P003)
    f = Fight(rules, [(person(rules, "Ann", 14, ("revolver",), handgun=60), Side.INVESTIGATORS),
                      (person(rules, "Bob", 12), Side.INVESTIGATORS),
                      (person(rules, "Dan", 11), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10), Side.FOES)], ScriptedDice([]))
    for name, square in (("Ann", "a1"), ("Cult", "e3"), ("Bob", "b1"), ("Dan", "h8")):
        push(f, Place(name, square))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    assert str(refused.value) == "Bob on b1 is between Ann and Cult (CO-TURN-7)"
    push(f, Place("Dan", "d3"))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    assert str(refused.value) == "Bob on b1 and Dan on d3 are between Ann and Cult (CO-TURN-7)"
    push(f, Place("Dan", "h8"))
    assert "Bob is unconscious" in push(f, Fall("Bob", metres=6), (6, 6), (6, 6)) + push(
        f, Fall("Bob", metres=3), (6, 2))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    assert str(refused.value) == "Bob on b1 is between Ann and Cult (CO-TURN-7)"


def test_co_melee_2_knockback_on_the_board_and_co_throw_2_stray_by_lot_003() -> None:
    from companion.systems.coc.combat import Place

    f = duel(P003, SWORD, {}, third={"dodge": 20})
    push(f, Place("Ann", "d3", "N"))
    push(f, Place("Cult", "d4", "S"))
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 9), (4, 2))
    assert "pushed to d5" in text and f.state.get("Cult").square == "d5"
    g = duel(P003, SWORD, {}, third={"dodge": 20})
    push(g, Place("Ann", "d3", "N"))
    push(g, Place("Cult", "d4", "S"))
    push(g, Place("Bob", "d5"))
    text = push(g, Attack("Ann", "Cult"), (100, 30), (10, 9), (4, 2), (100, 70), (3, 2))
    assert "pushed into Bob and stays" in text and g.state.get("Bob").hp == 11
    rock = {"weapons": ("rock",), "throw": 60}
    h = duel(P003, rock, {}, third={})
    push(h, Place("Ann", "a1"))
    push(h, Place("Cult", "a3"))
    push(h, Place("Bob", "c1"))
    text = push(h, Attack("Ann", "Cult"), (100, 97), (100, 40), (4, 4), (2, 2))
    assert "flies off towards Bob" in text and h.state.get("Bob").hp == 7


def test_co_skill_6_jump_over_003() -> None:
    from companion.systems.coc.combat import Jump, Place

    f = duel(P003, {"jump": 60}, {}, third={})
    push(f, Place("Ann", "b2"))
    push(f, Place("Cult", "c3"))
    text = push(f, Jump("Ann", "Cult"), (100, 30))
    assert "leaps over Cult to d4 (CO-SKILL-6)" in text and f.state.get("Ann").ap == 1
    push(f, Attack("Ann", "Cult"), (100, 90))  # still allowed to attack (CO-TURN-4)
    with pytest.raises(IllegalAction, match="CO-SKILL-6"):  # off in 004
        duel(P004, {"jump": 60}).push(Jump("Ann", "Cult"), ScriptedDice([]))


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_core_4_a_special_is_only_labelled_in_004_and_co_base_2_impales_in_003(
        profile: Profile) -> None:
    f = duel(profile, GUN)
    text = push(f, Attack("Ann", "Cult"), *((100, 8), (10, 4)),
                *(((10, 3),) if profile is P003 else ()))
    assert "スペシャル/special" in text
    if profile is P004:
        assert "CO-CORE-4" in text and "CO-BASE-2" not in text and f.state.get("Cult").hp == 9
    else:
        assert "CO-BASE-2" in text and "CO-CORE-4" not in text and f.state.get("Cult").hp == 6


def test_co_spell_2_a_longer_chant_and_co_body_4_threshold_after_armour_when_set_004(
) -> None:
    f = duel(P004, {}, {}, {"CO-SPELL-2": {"chant_turns": 2}})
    push(f, EndTurn("Ann"))
    push(f, Cast("Cult", "門/Gate", mp=2))
    assert "in 1 turn(s) (CO-SPELL-2)" in push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))
    assert "takes effect (CO-SPELL-2)" in push(f, EndTurn("Ann"))
    rules = load_rules(P004).with_overrides({"CO-BODY-4": {"threshold_before_armour": False}})
    shooter = person(rules, "Ann", 14, ("ak47",), rifle=90)
    vest = sheet_from_mapping(rules, {
        "name": "Cult", "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": 10,
                                            "APP": 10, "SIZ": 5, "INT": 12, "EDU": 12},
        "armour": [{"name": "vest", "value": 3}]})
    g = Fight(rules, [(shooter, Side.INVESTIGATORS), (vest, Side.FOES)], ScriptedDice([]))
    text = push(g, Attack("Ann", "Cult", body="blow_off", part="leg"), (100, 30), (6, 5),
                (6, 5))
    assert "8 damage < SIZ×2 = 10: the leg holds (CO-BODY-4)" in text  # 11 − 3 armour


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_dodge_4_a_second_dodge_by_luck_when_the_keeper_allows_004(profile: Profile) -> None:
    """CO-DODGE-4 (004): once the round's dodge is used, the Keeper may allow a second one
    rolled on Luck (POW×5), and no third; in 003 (off) the flag changes nothing."""
    knife = {"weapons": ("knife",), "knife": 60}
    f = duel(profile, knife, {"dodge": 30}, third=knife)
    pass_to(f, "Ann")
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 20))
    pass_to(f, "Bob")
    with pytest.raises(IllegalAction, match="cannot dodge"):
        f.push(Attack("Bob", "Cult", defence=Defence.DODGE),
               ScriptedDice([(100, 30), (100, 20)]))
    if profile is P003:  # from revision 20 the flag is refused by name (coc72 NIT 6)
        with pytest.raises(IllegalAction, match="luck_dodge=true changes nothing here: a "
                                                "second dodge by Luck is 004's CO-DODGE-4"):
            f.push(Attack("Bob", "Cult", defence=Defence.DODGE, luck_dodge=True),
                   ScriptedDice([(100, 30), (100, 20)]))
        return
    text = push(f, Attack("Bob", "Cult", defence=Defence.DODGE, luck_dodge=True), (100, 30),
                (100, 45))
    assert "Cult dodges again: 幸運/Luck (1D100<=50)" in text and "CO-DODGE-4" in text
    assert f.state.get("Cult").hp == 13 and f.state.get("Cult").dodges == 2
    g = duel(profile, knife, {"dodge": 30}, third=knife)
    push(g, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 20))
    push(g, Attack("Bob", "Cult", defence=Defence.DODGE, luck_dodge=True), (100, 30), (100, 80),
         (4, 3), (4, 2))
    assert g.state.get("Cult").hp == 6  # the Luck dodge failed: the knife (1D4+2) +1D4 lands


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_skill_2_the_third_first_aid_comes_at_dex_2_003(profile: Profile) -> None:
    """CO-SKILL-2 (003): after two failed First Aid tries, the third waits for the DEX/2
    turn with the AP left; off in 004, where treating is one action (CO-BASE-8)."""
    f = duel(profile, {"first_aid": 40}, {}, third={})
    hurt(f, "Ann")
    text = push(f, Treat("Ann", "Ann"), (100, 90))
    assert "DEX/2" not in text
    if profile is P004:
        assert "CO-SKILL-2" not in text and "CO-BASE-8" not in text
        assert f.state.current.name == "Bob"  # type: ignore[union-attr]
        return
    push(f, Treat("Ann", "Ann"), (100, 90))
    text = push(f, Treat("Ann", "Ann"))
    assert "Ann's third First Aid comes at DEX/2 (7) (CO-SKILL-2)" in text
    assert f.state.order == ("Ann", "Bob", "Cult", "Ann")
    push(f, EndTurn("Bob"))
    assert "Ann acts at DEX/2 (7): 1 AP" in push(f, EndTurn("Cult"))
    text = push(f, Treat("Ann", "Ann"), (100, 20), (3, 2))
    assert "heals" in text and "(CO-SKILL-2)" in text
    assert f.state.round == 2  # the DEX/2 turn was the last of round 1


MA_GRAPPLE = {"grapple": 60, "martial_arts": 60}


def test_co_ma_2_a_throw_moves_the_thrown_two_squares_on_the_board_003() -> None:
    """CO-MA-2 (003): on the board the thrown one flies 2 squares toward the Keeper's
    compass point (Default: the thrower's facing); whoever stands there is landed on and the
    thrown one takes the nearest free square; a wall stops it on the last free square."""
    from companion.systems.coc.combat import Place

    f = duel(P003, MA_GRAPPLE, {}, third={})
    push(f, Place("Ann", "d4", "N"))
    push(f, Place("Cult", "d5"))
    push(f, Place("Bob", "f4"))
    push(f, Grapple("Ann", "Cult", ma=True), (100, 20))
    assert f.state.get("Cult").square == "d4"
    pass_to(f, "Ann", (100, 90))  # the grapple was Ann's 1 AP of the round (CO-GRAP-3)
    text = push(f, Throw("Ann", toward="E"), (6, 3), (2, 1), (3, 2))
    assert "Cult lands on g4 (CO-MA-2, CO-TURN-2)" in text and "Bob is landed on" in text
    assert f.state.get("Cult").square == "g4" and f.state.get("Bob").hp == 11
    g = duel(P003, MA_GRAPPLE, {})
    push(g, Place("Ann", "b4", "W"))
    push(g, Place("Cult", "a4"))
    push(g, Grapple("Ann", "Cult", ma=True), (100, 20), (100, 90))
    pass_to(g, "Ann")
    with pytest.raises(IllegalAction, match="Bob"):
        g.push(Throw("Ann", at="Bob"), ScriptedDice([(6, 3), (2, 1)]))
    text = push(g, Throw("Ann"), (6, 3), (2, 1))  # facing W: the wall stops it on a4
    assert "Cult lands on a4" in text and g.state.get("Cult").square == "a4"
    # no board: nobody moves; revision 24 took toward there and dropped it, 25 refuses it
    # (r77coc, tests/systems/coc/test_throw_and_tackle_fields_that_apply.py)
    h = at(24, duel(P003, MA_GRAPPLE, {}))
    push(h, Grapple("Ann", "Cult", ma=True), (100, 20), (100, 90))
    pass_to(h, "Ann")
    assert "lands on" not in push(h, Throw("Ann", toward="E"), (6, 3), (2, 1))
    k = duel(P004, {"grapple": 60}, {})  # 004: no board, no squares (CO-GRAP-8)
    with pytest.raises(IllegalAction, match="CO-TURN-2"):
        k.push(Place("Ann", "d4"), ScriptedDice([]))


def test_co_grap_1_2_a_freed_character_steps_to_a_free_adjacent_square_003() -> None:
    """CO-GRAP-1/CO-GRAP-2 (003): on breaking free (or when the grappler is out) the held
    one leaves the grappler's square for the free adjacent square nearest its front."""
    from companion.systems.coc.combat import Place

    f = duel(P003, {"grapple": 60}, {}, third={})
    push(f, Place("Ann", "d4", "N"))
    push(f, Place("Cult", "d5"))
    push(f, Place("Bob", "e5"))
    push(f, Grapple("Ann", "Cult"), (100, 20))
    assert f.state.get("Cult").square == "d4"
    pass_to(f, "Bob")
    text = push(f, EndTurn("Bob"), (100, 10))  # Cult's turn: its STR roll wins
    assert "Cult breaks free (CO-GRAP-2)" in text
    assert "Cult steps free to d5 (CO-GRAP-1, CO-TURN-2)" in text
    assert f.state.get("Cult").square == "d5" and f.state.get("Ann").square == "d4"
    g = duel(P003, {"grapple": 60}, {})
    push(g, Place("Ann", "d4", "N"))
    push(g, Place("Cult", "d5"))
    # Ann's 1 AP while grappling: Cult's turn, its STR roll failing
    push(g, Grapple("Ann", "Cult"), (100, 20), (100, 90))
    push(g, Place("Cult", "d4"))
    push(g, Fall("Ann", 9), (6, 5), (6, 5), (6, 4))  # 14: the grappler is knocked out
    assert g.state.get("Ann").out and g.state.get("Cult").square != "d4"
    h = duel(P004, {"grapple": 60}, {})  # 004: no board, nothing to place
    push(h, Grapple("Ann", "Cult"), (100, 20))
    assert h.state.get("Cult").square == "" and h.state.get("Cult").held_by == "Ann"


def test_co_tackle_2_blow_back_moves_three_squares_on_the_board_when_on_in_003() -> None:
    """CO-TACKLE-2: where 003's board is used (the rule switched on there), the target is
    blown 3 squares straight away; an edge or someone in the way stops it and counts as the
    obstacle (+1D6); 004 has no board and takes the Keeper's word."""
    from companion.systems.coc.combat import Place

    on = {"CO-TACKLE-1": {"p003": ON_003}, "CO-TACKLE-2": {"p003": ON_003}}
    f = duel(P003, {"tackle": 60}, {}, settings=on)
    push(f, Place("Ann", "b2", "NE"))
    push(f, Place("Cult", "c3"))
    text = push(f, Tackle("Ann", "Cult", "blow_back"), (100, 30), (4, 2), (4, 1), (100, 10))
    assert "Cult is blown back to f6 (CO-TACKLE-2" in text and "obstacle" not in text
    assert f.state.get("Cult").square == "f6"
    g = duel(P003, {"tackle": 60}, {}, settings=on)
    push(g, Place("Ann", "g1", "E"))
    push(g, Place("Cult", "h1"))
    text = push(g, Tackle("Ann", "Cult", "blow_back"), (100, 30), (4, 2), (4, 1), (6, 4),
                (100, 10))
    assert "blown back to h1, into an obstacle" in text and g.state.get("Cult").hp == 6
    k = duel(P004, {"tackle": 60}, {})
    text = push(k, Tackle("Ann", "Cult", "blow_back"), (100, 30), (4, 2), (4, 1), (100, 10))
    assert "blown back to" not in text and k.state.get("Cult").square == ""
