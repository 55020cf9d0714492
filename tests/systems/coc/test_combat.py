"""The fight tracker, rule by rule, in each profile where the rule is on (spec §3.1–§3.21)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.dice.sources import ScriptExhausted
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    Attack,
    BreakFree,
    Choke,
    ClearJam,
    Condition,
    Defence,
    EndTurn,
    Fall,
    Fight,
    Grapple,
    Move,
    Reload,
    Side,
    Throw,
    Treat,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import Told, hurt, sheet

P003, P004 = Profile.P003, Profile.P004


def fight(profile: Profile, ann: dict[str, Any] | None = None,
          cult: dict[str, Any] | None = None, **overrides: Any) -> Fight:
    rules = load_rules(profile).with_overrides(overrides)
    a = sheet(rules, "Ann", dex=14, **(ann or {}))
    b = sheet(rules, "Cult", dex=10, **(cult or {}))
    return Fight(rules, [(a, Side.INVESTIGATORS), (b, Side.FOES)], ScriptedDice([]))


def push(f: Fight, action: Any, *dice: tuple[int, int]) -> str:
    source = ScriptedDice(dice)
    entry = f.push(action, source)
    assert source.remaining == []
    return entry.text


@pytest.mark.parametrize("profile", [P003, P004])
def test_co_turn_1_co_base_5_dex_order_and_turns(profile: Profile) -> None:
    f = fight(profile)
    assert f.state.current is not None and f.state.current.name == "Ann"
    with pytest.raises(IllegalAction, match="Ann's turn"):
        f.push(EndTurn("Cult"), ScriptedDice([]))
    if profile is P003:
        push(f, Move("Ann", 2))  # CO-TURN-5: 1 AP a square
        assert f.state.get("Ann").ap == 1 and f.state.current.name == "Ann"
        with pytest.raises(IllegalAction, match="CO-TURN-5"):
            f.push(Move("Ann", 2), ScriptedDice([]))
        push(f, Move("Ann", 1))  # CO-TURN-3: the turn ends with the AP
    else:
        push(f, Move("Ann", 5))  # CO-BASE-5: one action, then the next
    assert f.state.current is not None and f.state.current.name == "Cult"


def test_co_turn_1_ties_roll_1d100_lowest_first() -> None:
    rules = load_rules(P003)
    a, b = sheet(rules, "A", dex=12), sheet(rules, "B", dex=12)
    f = Fight(rules, [(a, Side.INVESTIGATORS), (b, Side.FOES)],
              ScriptedDice([(100, 70), (100, 20)]))
    assert f.state.order == ("B", "A")


def test_co_turn_6_attack_ap_limited_by_weapon_and_co_turn_4_no_other_skill() -> None:
    f = fight(P003, {"weapons": ("knife",)})
    hurt(f, "Ann")
    push(f, Attack("Ann", "Cult"), (100, 90))
    with pytest.raises(IllegalAction, match="CO-TURN-6"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([(100, 1)]))
    with pytest.raises(IllegalAction, match="CO-TURN-4"):
        f.push(Treat("Ann", "Ann"), ScriptedDice([(100, 1)]))


def test_co_melee_3_critical_doubles_when_no_defence_was_possible_003() -> None:
    f = fight(P003)
    text = push(f, Attack("Ann", "Cult", from_behind=True), (100, 3), (3, 2), (4, 3))
    assert "CO-MELEE-3" in text and "×2" in text and f.state.get("Cult").hp == 3


def test_co_melee_3_critical_stops_a_declared_dodge_without_doubling_003() -> None:
    f = fight(P003)
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 3), (3, 2), (4, 3))
    assert f.state.get("Cult").hp == 8 and f.state.get("Cult").dodges == 0


def test_co_melee_4_fumble_fall_loses_next_round_003_and_is_off_in_004() -> None:
    f = fight(P003)
    text = push(f, Attack("Ann", "Cult"), (100, 95))
    assert "CO-MELEE-4" in text
    push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))  # round 2: Ann has fallen and is skipped
    assert f.state.round == 2 and f.state.current.name == "Cult"  # type: ignore[union-attr]
    g = fight(P004)
    assert "CO-MELEE-4" not in push(g, Attack("Ann", "Cult"), (100, 97))


@pytest.mark.parametrize(("profile", "rule"), [(P003, "CO-MA-1"), (P004, "CO-BASE-6")])
def test_ma_combination_success_doubles_partial_is_normal(profile: Profile, rule: str) -> None:
    ann = {"weapons": ("kick",), "kick": 50, "martial_arts": 60}
    f = fight(profile, ann)
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 30), (6, 3), (6, 4), (4, 2))
    assert rule in text and "doubled" in text and f.state.get("Cult").hp == 4
    g = fight(profile, ann)
    text = push(g, Attack("Ann", "Cult", ma=True), (100, 55), (6, 3), (4, 2))
    assert "部分的成功/partial success" in text and g.state.get("Cult").hp == 8


def test_co_ma_3_forced_hit_and_co_ma_4_follow_up_004() -> None:
    ann = {"weapons": ("fist",), "fist": 60, "martial_arts": 60}
    f = fight(P004, ann)
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="forced", defence=Defence.DODGE),
                (100, 30), (3, 2), (4, 1))
    assert "CO-MA-3" in text and f.state.get("Cult").hp == 10
    g = fight(P004, ann)
    text = push(g, Attack("Ann", "Cult", ma=True, ma_option="follow_up"),
                (100, 30), (3, 1), (3, 1), (4, 1), (3, 1), (3, 1), (4, 1))
    assert "CO-MA-4" in text and g.state.get("Cult").hp == 7
    with pytest.raises(IllegalAction, match="off"):
        fight(P003, ann).push(Attack("Ann", "Cult", ma=True, ma_option="forced"),
                              ScriptedDice([]))


def test_co_grap_1_to_4_and_co_ma_2_choke_and_throw_003() -> None:
    f = fight(P003, {"grapple": 60, "martial_arts": 60}, {"weapons": ("knife",)})
    # the grapple was Ann's 1 AP of the round: Cult's turn, whose STR roll comes first
    text = push(f, Grapple("Ann", "Cult", ma=True), (100, 40), (100, 80))
    assert "CO-GRAP-1" in text and "CO-MA-2" in text and "CO-GRAP-3" in text
    assert "Ann still holds Cult (CO-GRAP-2)" in text
    assert f.state.get("Cult").held_by == "Ann"
    assert f.state.get("Cult").ap == 1  # CO-GRAP-3: 1 AP while grappling
    push(f, EndTurn("Cult"))
    assert f.state.get("Ann").ap == 1  # CO-GRAP-3 applies to the grappler too
    push(f, Choke("Ann"), (6, 4), (4, 2), (100, 80))
    assert f.state.get("Cult").hp == 7
    push(f, EndTurn("Cult"))
    push(f, Throw("Ann"), (6, 1), (2, 1))
    assert f.state.get("Cult").held_by == "" and f.state.get("Cult").hp == 5


def test_co_grap_4_human_shield_003() -> None:
    rules = load_rules(P003)
    ann = sheet(rules, "Ann", dex=14, grapple=90)
    cult = sheet(rules, "Cult", dex=10)
    gun = sheet(rules, "Gun", dex=5, weapons=("revolver",), handgun=90)
    f = Fight(rules, [(ann, Side.INVESTIGATORS), (cult, Side.FOES), (gun, Side.FOES)],
              ScriptedDice([]))
    # Ann's 1 AP while grappling (CO-GRAP-3); Cult's STR fails to break free (CO-GRAP-2)
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 90))
    push(f, EndTurn("Cult"))
    text = push(f, Attack("Gun", "Ann"), (100, 30), (10, 9))
    assert "CO-GRAP-4" in text and f.state.get("Ann").hp == 13 and f.state.get("Cult").hp == 4


def test_co_grap_6_7_8_restraint_choke_throw_and_co_stun_3_004() -> None:
    f = fight(P004, {"grapple": 60}, {"weapons": ("knife",)})
    text = push(f, Grapple("Ann", "Cult"), (100, 40))
    assert "CO-GRAP-6" in text
    with pytest.raises(IllegalAction, match="CO-GRAP-6"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    push(f, BreakFree("Cult"), (100, 99))
    text = push(f, Choke("Ann"), (100, 30), (6, 3), (4, 1))
    assert "CO-GRAP-7" in text and f.state.get("Cult").hp == 9
    push(f, EndTurn("Cult"))
    text = push(f, Throw("Ann"), (100, 30), (6, 2), (4, 1), (100, 90))
    assert "CO-GRAP-8" in text and "CO-STUN-3" in text
    cult = f.state.get("Cult")
    assert cult.hp == 6 and cult.unconscious and cult.held_by == ""


@pytest.mark.parametrize("profile", [P003, P004])
def test_burst_fire_and_reload(profile: Profile) -> None:
    ann = {"weapons": ("smg",), "smg": 60}
    cult = {"armour": [{"name": "vest", "value": 2, "durability": 20}]}
    f = fight(profile, ann, cult)
    if profile is P003:
        text = push(f, Attack("Ann", "Cult", burst=True, defence=Defence.DODGE),
                    (100, 30), (20, 2), (100, 90), (10, 5), (10, 1))
        assert "CO-FIRE-6" in text and "Dodge − 2 hits" in text
        assert f.state.get("Ann").sheet.weapons[0].loaded == 0
        assert f.state.get("Cult").hp == 13 - 5 - 1  # 7-2 and 3-2 after armour
    else:
        text = push(f, Attack("Ann", "Cult", burst=True, defence=Defence.DODGE),
                    (100, 30), (20, 3), (100, 10), (10, 5), (10, 1))
        assert "CO-FIRE-8" in text and "CO-DODGE-7" in text and "CO-ARMOR-2" in text
        assert f.state.get("Cult").sheet.armour[0].uses == 0
        assert f.state.get("Cult").hp == 13 - 5 - 1
        push(f, EndTurn("Cult"))
        assert f.state.get("Cult").sheet.armour == ()  # broken at the end of the round
    while f.state.current is not None and f.state.current.name != "Ann":
        push(f, EndTurn(f.state.current.name))
    rule = "CO-FIRE-1" if profile is P003 else "CO-BASE-12"
    assert rule in push(f, Reload("Ann"))
    assert f.state.get("Ann").sheet.weapons[0].loaded == 20


def test_co_fire_3_critical_ignores_armour_and_co_armor_1_pool_003() -> None:
    cult = {"armour": [{"name": "防弾ベスト/vest", "value": 8, "durability": 20}]}
    f = fight(P003, {"weapons": ("revolver",), "handgun": 60}, cult)
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 10))
    assert "CO-ARMOR-1" in text and f.state.get("Cult").hp == 11
    assert f.state.get("Cult").sheet.armour[0].durability == 12
    text = push(f, Attack("Ann", "Cult"), (100, 2), (10, 4), (10, 1))
    assert "CO-FIRE-3" in text and "CO-BASE-2" in text and f.state.get("Cult").hp == 6


def test_co_fire_4_jam_and_clear_and_revolver_drop_003() -> None:
    f = fight(P003, {"weapons": ("automatic", "revolver"), "handgun": 60})
    assert "jams" in push(f, Attack("Ann", "Cult"), (100, 96))
    with pytest.raises(IllegalAction, match="CO-FIRE-4"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    # 「次回戦闘ラウンドで…弾を取り除かない限り」: not cleared in the round it jammed
    with pytest.raises(IllegalAction, match=r"next round.*CO-FIRE-4"):
        f.push(ClearJam("Ann"), ScriptedDice([]))
    assert "dropped" in push(f, Attack("Ann", "Cult", weapon=1), (100, 99))
    push(f, EndTurn("Ann"))
    push(f, EndTurn("Cult"))
    assert "cleared" in push(f, ClearJam("Ann"), (100, 10))


@pytest.mark.parametrize("profile", [P003, P004])
def test_weapon_parry(profile: Profile) -> None:
    f = fight(profile, {"weapons": ("japanese_sword",), "japanese_sword": 60},
              {"weapons": ("knife",), "knife": 60})
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 30), (10, 10), (4, 4),
                (100, 20))
    cult = f.state.get("Cult")
    if profile is P003:  # 14 damage vs durability 15: the knife holds with 1 left
        assert "CO-PARRY-1" in text and cult.sheet.weapons[0].durability == 1 and cult.hp == 13
    else:
        assert "CO-PARRY-4" in text and cult.sheet.weapons[0].durability == 15
        assert cult.hp == 13


def test_co_parry_1_a_parry_that_breaks_the_weapon_003() -> None:
    f = fight(P003, {"weapons": ("japanese_sword",), "japanese_sword": 60},
              {"weapons": ("shinai",), "japanese_sword": 60})
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 30), (10, 9), (4, 4),
                (100, 20))
    assert "breaks" in text and f.state.get("Cult").sheet.weapons[0].broken
    assert f.state.get("Cult").hp == 10


def test_co_weap_1_improvised_weapon_wears_004() -> None:
    f = fight(P004, {"weapons": ("blackjack",), "club": 50})
    assert "CO-WEAP-1" in push(f, Attack("Ann", "Cult"), (100, 90))
    assert f.state.get("Ann").sheet.weapons[0].durability == 9


def test_dodge_limits_co_dodge_2_003_and_co_dodge_4_co_base_7_004() -> None:
    """CO-DODGE-2 (003): one dodge a round; CO-DODGE-4 and CO-BASE-7 (004): the limits there."""
    f = fight(P003, {"weapons": ("revolver",), "handgun": 60})
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    with pytest.raises(IllegalAction, match="cannot dodge"):
        f.push(Attack("Ann", "Cult", defence=Defence.DODGE), ScriptedDice([(100, 30)]))
    g = fight(P004, {"weapons": ("knife",)}, {"weapons": ("knife",)})
    push(g, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 10), (100, 10))
    with pytest.raises(IllegalAction, match="CO-DODGE-4"):
        g.push(Attack("Cult", "Ann"), ScriptedDice([]))


def test_co_death_1_dying_rolls_con_x5_each_round_003() -> None:
    rules = load_rules(P003)
    ann = sheet(rules, "Ann", dex=14, weapons=("japanese_sword",), japanese_sword=90)
    cult = sheet(rules, "Cult", dex=10)
    boss = sheet(rules, "Boss", dex=5)
    f = Fight(rules, [(ann, Side.INVESTIGATORS), (cult, Side.FOES), (boss, Side.FOES)],
              ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 3))
    assert "CO-DEATH-1" in text and f.state.get("Cult").has(Condition.DYING, 1)
    push(f, EndTurn("Ann"))  # Cult is skipped
    text = push(f, EndTurn("Boss"), (100, 90))  # round 2 opens with Cult's CON×5
    assert "CO-DEATH-1" in text and f.state.get("Cult").dead


def test_co_death_2_first_aid_saves_or_kills_003() -> None:
    rules = load_rules(P003)
    ann = sheet(rules, "Ann", dex=14, weapons=("japanese_sword",), japanese_sword=90)
    doc = sheet(rules, "Doc", dex=12, first_aid=90)
    cult = sheet(rules, "Cult", dex=10)
    f = Fight(rules, [(ann, Side.INVESTIGATORS), (doc, Side.INVESTIGATORS),
                      (cult, Side.FOES)], ScriptedDice([]))
    push(f, Attack("Ann", "Doc"), (100, 30), (10, 10), (4, 2))
    assert f.state.get("Doc").hp == 1
    push(f, EndTurn("Ann"))
    text = push(f, Treat("Doc", "Doc"), (100, 10), (3, 2))
    assert "CO-SKILL-2" in text and f.state.get("Doc").hp == 3


def test_co_base_8_dying_deadline_and_treatment_004() -> None:
    rules = load_rules(P004)
    ann = sheet(rules, "Ann", dex=14, weapons=("japanese_sword",), japanese_sword=90)
    doc = sheet(rules, "Doc", dex=12, first_aid=90)
    cult = sheet(rules, "Cult", dex=10)
    f = Fight(rules, [(ann, Side.FOES), (doc, Side.INVESTIGATORS), (cult, Side.INVESTIGATORS)],
              ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 4))
    assert "dies at end of round 2" in text
    push(f, Treat("Doc", "Cult"), (100, 95))
    push(f, EndTurn("Ann"))
    text = push(f, Treat("Doc", "Cult"), (100, 10), (3, 2))
    assert "no longer dying" in text and f.state.get("Cult").hp == 1
    assert f.state.get("Cult").unconscious  # CO-BASE-8: HP 1–2 stays unconscious
    g = Fight(rules, [(ann, Side.FOES), (doc, Side.INVESTIGATORS), (cult, Side.INVESTIGATORS)],
              ScriptedDice([]))
    push(g, Attack("Ann", "Cult"), (100, 30), (10, 10), (4, 4))
    push(g, EndTurn("Doc"))
    push(g, EndTurn("Ann"))
    push(g, EndTurn("Doc"))
    assert g.state.get("Cult").dead and "CO-BASE-8" in g.journal[-1].text


def test_co_stun_1_and_2_stun_weapon_003() -> None:
    f = fight(P003, {"weapons": ("stun_gun",), "fist": 90})
    text = push(f, Attack("Ann", "Cult"), (100, 10))
    assert "CO-STUN-1" in text and f.state.get("Cult").stun == 1
    push(f, EndTurn("Ann"), (100, 90))  # Cult's CON×5 at its turn's start fails
    cult = f.state.get("Cult")
    assert (cult.stun, cult.ap) == (1, 2)
    with pytest.raises(IllegalAction, match="CO-STUN-1"):
        f.push(Attack("Cult", "Ann"), ScriptedDice([(100, 10)]))


def test_co_skill_3_medicine_costs_2_ap_and_not_oneself_003() -> None:
    f = fight(P003, {"medicine": 70})
    hurt(f, "Ann")
    hurt(f, "Cult")
    with pytest.raises(IllegalAction, match="CO-SKILL-3"):
        f.push(Treat("Ann", "Ann", "medicine"), ScriptedDice([]))
    push(f, Treat("Ann", "Cult", "medicine"), (100, 10), (3, 1))
    assert f.state.get("Ann").ap == 1


def test_undo_replay_and_power_cut() -> None:
    f = fight(P004, {"weapons": ("revolver",), "handgun": 60})
    push(f, Attack("Ann", "Cult", shots=2), (100, 30), (10, 5), (100, 90))
    saved = f.to_json()
    again = Fight.from_json(load_rules(P003), saved)  # the file names its profile
    assert again.state == f.state and [e.lines for e in again.journal] == [
        e.lines for e in f.journal]
    f.pop()
    assert f.state.get("Cult").hp == 13 and f.state.get("Ann").sheet.weapons[0].loaded == 6


def test_co_dodge_3_no_dodge_from_behind_003() -> None:
    f = fight(P003, {"weapons": ("knife",), "knife": 60})
    with pytest.raises(IllegalAction, match="cannot dodge"):
        f.push(Attack("Ann", "Cult", defence=Defence.DODGE, from_behind=True),
               ScriptedDice([(100, 30), (4, 1), (4, 1)]))


def test_co_dodge_5_dodging_after_attacking_is_at_minus_60_004() -> None:
    f = fight(P004, {"weapons": ("knife",)}, {"weapons": ("knife",), "knife": 60})
    push(f, Attack("Ann", "Cult"), (100, 90))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 30), (4, 1), (4, 1))
    assert "CO-DODGE-5" in text and "(1D100<=0) ＞ cannot succeed, not rolled" in text


def test_co_grap_5_the_first_grapple_can_be_parried_004() -> None:
    f = fight(P004, {"grapple": 60}, {"weapons": ("knife",), "knife": 60})
    text = push(f, Grapple("Ann", "Cult", defence=Defence.PARRY), (100, 30), (100, 10))
    assert "CO-GRAP-5" in text and f.state.get("Cult").held_by == ""


def test_co_parry_2_a_handgun_cannot_parry_in_004_but_can_in_003() -> None:
    cult = {"weapons": ("revolver",), "handgun": 60}
    with pytest.raises(IllegalAction, match="cannot parry"):
        fight(P004, {"weapons": ("knife",)}, cult).push(
            Attack("Ann", "Cult", defence=Defence.PARRY), ScriptedDice([(100, 10), (4, 1),
                                                                        (4, 1)]))
    f = fight(P003, {"weapons": ("knife",), "knife": 60}, cult)
    assert "CO-PARRY-1" in push(f, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 30),
                                (4, 1), (4, 1), (100, 10))


def test_co_skill_1_first_aid_again_only_after_a_failure_003() -> None:
    f = fight(P003, {"first_aid": 90})
    hurt(f, "Ann")
    push(f, Treat("Ann", "Ann"), (100, 10), (3, 1))
    with pytest.raises(IllegalAction, match="CO-SKILL-1"):
        f.push(Treat("Ann", "Ann"), ScriptedDice([(100, 10), (3, 1)]))


def test_co_stun_2_three_stuns_leave_no_ap_and_knock_out_003() -> None:
    rules = load_rules(P003)
    attackers = [sheet(rules, n, dex=d, weapons=("stun_gun",), fist=90)
                 for n, d in (("A", 14), ("B", 13), ("C", 12))]
    cult = sheet(rules, "Cult", dex=10)
    f = Fight(rules, [*((s, Side.INVESTIGATORS) for s in attackers), (cult, Side.FOES)],
              ScriptedDice([]))
    for name in ("A", "B", "C"):
        text = push(f, Attack(name, "Cult"), (100, 30))
        if name != "C":
            push(f, EndTurn(name))
    assert "CO-STUN-2" in text and f.state.get("Cult").unconscious


def test_every_die_is_asked_for_with_what_it_is_for() -> None:
    """The engine says what each roll is for (a screen's or a typist's prompt shows it): a
    d100's label and target, to hit 命中 for an attack roll; damage with who, weapon and
    dice; a parry with its weapon; a fall with its height. The journal is as it was."""
    f = fight(P004, ann={"weapons": ("kick",), "kick": 60},
              cult={"weapons": ("knife",), "knife": 50})
    dice = Told([(100, 10), (6, 3), (4, 2), (100, 90)])
    entry = f.push(Attack("Ann", "Cult", defence=Defence.PARRY), dice)
    assert dice.purposes == ["Ann キック/Kick (1D100<=60) to hit 命中",
                             "Ann キック/Kick damage ダメージ 1D6+1D4",
                             "Ann キック/Kick damage ダメージ 1D6+1D4",
                             "Cult 受け流し/parry ナイフ/Knife (1D100<=50)"]
    assert entry.text.splitlines()[:2] == [
        "Ann キック/Kick (1D100<=60) ＞ 10 ＞ スペシャル/special",
        "Cult 受け流し/parry ナイフ/Knife (1D100<=50) ＞ 90 ＞ 失敗/failure"]
    dice = Told([(6, 3), (6, 4)])
    f.push(Fall("Cult", 7), dice)
    assert dice.purposes == ["Cult's fall damage 落下ダメージ (7 m) 2D6"]


def test_a_push_its_source_stopped_keeps_what_it_said_and_changes_nothing() -> None:
    """A table's dice come one throw at a time: the action's lines up to the throw awaited
    (its check with the verdict) are there to show, and the fight is as it was."""
    f = fight(P003, ann={"weapons": ("japanese_sword",), "japanese_sword": 90})
    with pytest.raises(ScriptExhausted):
        f.push(Attack("Ann", "Cult"), ScriptedDice([(100, 30)]))  # the damage not thrown
    assert f.said[0].startswith("Ann ") and f.said[0].endswith("＞ 30 ＞ 成功/success")
    assert not f.journal
    entry = f.push(Attack("Ann", "Cult"), ScriptedDice([(100, 30), (10, 10), (4, 3)]))
    assert f.said == entry.lines and entry.lines[0] == f.said[0]
