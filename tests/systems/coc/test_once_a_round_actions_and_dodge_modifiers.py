"""Fourth round of coc fixes, each against its seed line: a 003 grapple that holds is the
grappler's 1 AP of the round and MA's choke or throw comes once a round (CO-GRAP-3,
CO-MA-2); a grapple parried while concentrating on dodging gets the +20 (CO-DODGE-1); a 004
burst dodged after attacking is at −60 (CO-DODGE-5); Spot Hidden and Jump once a round
(CO-SKILL-1); the 004 MA counter only against an unarmed humanoid (CO-MA-5); a lost
tongue's −50 to skills that need taste (CO-BODY-5). Entries played by revision 3 replay as
they were played."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Choke,
    Concentrate,
    Defence,
    Delay,
    EndTurn,
    Fight,
    Grapple,
    Jump,
    Place,
    Side,
    Spot,
    Throw,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import OLD, duel, pass_to, person, push, replays

P003, P004 = Profile.P003, Profile.P004
MA_GRAPPLE = {"grapple": 60, "martial_arts": 60}


# --- D1: CO-GRAP-3, CO-MA-2 (003) -----------------------------------------------------------

def test_a_grapple_that_holds_is_the_grappler_s_1_ap_of_the_round_003() -> None:
    """003 「＜組みつき＞中は毎ラウンド1ポイントしか行動選択ができない」 (CO-GRAP-3): an MA grapple
    made with 3 AP leaves no choke in the same round (Ann's turn passes); from the next
    round 1 AP, so one choke (締め上げ「毎ラウンド1D6+DB」, CO-MA-2). Revision 3 let the
    grapple and two chokes be played in one round: 3 AP while grappling."""
    f = duel(P003, MA_GRAPPLE)
    text = push(f, Grapple("Ann", "Cult", ma=True), (100, 20), (100, 90))  # Cult's STR fails
    assert "the grapple is Ann's 1 AP this round while grappling: 2 AP left unused " \
           "(CO-GRAP-3)" in text
    assert f.state.get("Ann").ap == 0 and f.state.current is not None
    assert f.state.current.name == "Cult" and f.state.get("Cult").ap == 1
    with pytest.raises(IllegalAction, match="Cult's turn"):
        f.push(Choke("Ann"), ScriptedDice([]))
    push(f, EndTurn("Cult"))
    assert f.state.round == 2 and f.state.get("Ann").ap == 1
    push(f, Choke("Ann"), (6, 3), (4, 1), (100, 90))  # 1D6+1D4 = 4
    assert f.state.get("Cult").hp == 9 and f.state.current.name == "Cult"
    replays(f)
    old = duel(P003, MA_GRAPPLE)
    old.engine = OLD
    push(old, Grapple("Ann", "Cult", ma=True), (100, 20))
    push(old, Choke("Ann"), (6, 3), (4, 1))
    push(old, Choke("Ann"), (6, 3), (4, 1))
    assert old.state.get("Cult").hp == 5 and old.state.round == 1
    replays(old)


def test_one_choke_or_throw_a_round_even_without_the_ap_cap_003() -> None:
    """CO-MA-2 「毎ラウンド次の行動に派生できる」, 締め上げ「毎ラウンド1D6+DB」: with CO-GRAP-3
    switched off (the grappler keeps 3 AP), still one choke or throw a round."""
    f = duel(P003, MA_GRAPPLE, settings={"CO-GRAP-3": {"p003": "off"}})
    push(f, Grapple("Ann", "Cult", ma=True), (100, 20))
    push(f, Choke("Ann"), (6, 3), (4, 1))
    assert f.state.get("Ann").ap == 1
    for again in (Choke("Ann"), Throw("Ann")):
        with pytest.raises(IllegalAction, match=r"one choke or throw a round \(CO-MA-2\)"):
            f.push(again, ScriptedDice([]))
    push(f, EndTurn("Ann"), (100, 90))  # Cult's STR roll at its turn fails (CO-GRAP-2)
    pass_to(f, "Ann")
    push(f, Choke("Ann"), (6, 3), (4, 1))
    assert f.state.get("Cult").hp == 5


def test_a_dex_half_turn_in_a_grapple_has_1_ap_003() -> None:
    """CO-GRAP-3 Default, both participants: Cult delayed to DEX/2 with its 3 AP, then was
    grappled; its DEX/2 turn that round has 1 AP. Revision 3 gave it the 3."""
    def fight(engine: int) -> Fight:
        rules = load_rules(P003)
        f = Fight(rules, [(person(rules, "Cult", 14), Side.FOES),
                          (person(rules, "Ann", 10, grapple=60), Side.INVESTIGATORS)],
                  ScriptedDice([]))
        f.engine = engine
        push(f, Delay("Cult"))
        return f

    f = fight(ENGINE)
    text = push(f, Grapple("Ann", "Cult"), (100, 20), (100, 90))  # Cult's STR fails
    assert "Cult acts at DEX/2 (7): 1 AP (CO-TURN-1, CO-GRAP-3)" in text
    assert f.state.get("Cult").ap == 1
    old = fight(OLD)
    push(old, Grapple("Ann", "Cult"), (100, 20))
    push(old, EndTurn("Ann"))
    assert old.state.get("Cult").ap == 3
    replays(old)


# --- D2: CO-DODGE-1 (003) -------------------------------------------------------------------

def test_a_grapple_parried_while_concentrating_gets_the_20_003() -> None:
    """003 「回避集中」…「武器での受け流しの成功率を+20%」 (CO-DODGE-1): a grapple parried with
    the knife (50) while concentrating is parried at 70, as an attack's parry is; revision 3
    parried it at 50."""
    cult = {"weapons": ("knife",), "knife": 50}
    parry = Grapple("Ann", "Cult", defence=Defence.PARRY)
    f = duel(P003, {"grapple": 60}, cult)
    push(f, Concentrate("Cult"))
    text = push(f, parry, (100, 20), (100, 60))
    assert "(1D100<=70)" in text and "the grapple is parried (CO-PARRY-1)" in text
    assert f.state.get("Cult").held_by == ""
    old = duel(P003, {"grapple": 60}, cult)
    old.engine = OLD
    push(old, Concentrate("Cult"))
    text = push(old, parry, (100, 20), (100, 60))
    assert "(1D100<=50)" in text and old.state.get("Cult").held_by == "Ann"
    replays(old)


# --- D3: CO-DODGE-5 with CO-FIRE-8 (004) ----------------------------------------------------

def test_a_burst_dodged_after_attacking_is_at_minus_60_as_a_shot_004() -> None:
    """004 「"攻撃した後の回避"は"-60％の下方補正"」 (CO-DODGE-5): Ann punched, then dodges
    Cult's burst at 80−60 = 20 (30 fails: all 3 bullets hit), as she would a single shot;
    revision 3 let her dodge the burst at 80, stopping the first bullet (CO-DODGE-7)."""
    def fight(engine: int) -> Fight:
        f = duel(P004, {"fist": 60, "dodge": 80}, {"weapons": ("smg",), "smg": 60})
        f.engine = engine
        push(f, Attack("Ann", "Cult"), (100, 90))
        return f

    burst = Attack("Cult", "Ann", burst=True, defence=Defence.DODGE)
    f = fight(ENGINE)
    text = push(f, burst, (100, 10), (20, 3), (100, 30), (10, 1), (10, 1), (10, 1))
    assert "(1D100<=20)" in text and "(CO-DODGE-4, −60 after attacking, CO-DODGE-5)" in text
    assert f.state.get("Ann").hp == 13 - 9
    shot = fight(ENGINE)
    text = push(shot, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 30),
                (10, 1))
    assert "(1D100<=20)" in text and "−60 after attacking, CO-DODGE-5" in text
    old = fight(OLD)
    text = push(old, burst, (100, 10), (20, 3), (100, 30), (10, 1), (10, 1))
    assert "(1D100<=80)" in text and old.state.get("Ann").hp == 13 - 6
    replays(old)


# --- D4: CO-SKILL-1, CO-SKILL-5, CO-SKILL-6 (003) -------------------------------------------

def test_spot_hidden_once_a_round_and_an_attack_after_it_003() -> None:
    """003 「その他技能は例外を除き1回のみ選択ができる」 (CO-SKILL-1) and 目星「同R内で攻撃が可能」
    (CO-SKILL-5): a second Spot Hidden in the round is refused before its die, an attack
    still follows; next round Spot Hidden again. Revision 3 took any number."""
    f = duel(P003, {"spot_hidden": 60, "fist": 60})
    push(f, Spot("Ann", "Cult"), (100, 30))
    with pytest.raises(IllegalAction, match=r"Spot Hidden once a round \(CO-SKILL-1"):
        f.push(Spot("Ann", "Cult"), ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 90))
    push(f, EndTurn("Ann"))
    pass_to(f, "Ann")
    assert "CO-SKILL-5" in push(f, Spot("Ann", "Cult"), (100, 30))
    old = duel(P003, {"spot_hidden": 60})
    old.engine = OLD
    for _ in range(3):
        push(old, Spot("Ann", "Cult"), (100, 30))
    assert old.state.round == 1
    replays(old)


def test_jump_once_a_round_003() -> None:
    """CO-SKILL-1 for Jump (跳躍, CO-SKILL-6): its 2 AP of 3 already barred a second jump;
    the refusal now names the once-a-round rule."""
    f = duel(P003, {"jump": 60})
    push(f, Place("Ann", "d4", "N"))
    push(f, Place("Cult", "d5"))
    push(f, Jump("Ann", "Cult"), (100, 30))
    assert f.state.get("Ann").square == "d6"
    with pytest.raises(IllegalAction, match=r"Jump once a round \(CO-SKILL-1, CO-SKILL-6\)"):
        f.push(Jump("Ann", "Cult"), ScriptedDice([]))


# --- D5: CO-MA-5 (004) ----------------------------------------------------------------------

def test_the_ma_counter_only_against_an_unarmed_humanoid_004() -> None:
    """004 「相手が素手による受け流し可能な攻撃を行ってきた時に宣言可能」 and 「素手での受け流しは…
    "相手が人型"かつ"素手での戦闘"の場合は可能」 (CO-MA-5): a knife cannot be countered,
    refused before any die; the seed overrides the spec's Default (an MA parry's
    conditions, a melee weapon too), which revision 3 played."""
    ann = {"weapons": ("knife",), "knife": 60}
    cult = {"weapons": ("fist",), "fist": 60, "martial_arts": 40}
    counter = Attack("Ann", "Cult", defence=Defence.COUNTER)
    with pytest.raises(IllegalAction, match="Cult cannot counter now"):
        duel(P004, ann, cult).push(counter, ScriptedDice([]))
    fist = duel(P004, {"weapons": ("fist",), "fist": 60}, cult)
    text = push(fist, counter, (100, 30), (3, 2), (4, 1), (100, 20), (3, 1), (4, 1))
    assert "CO-MA-5" in text
    old = duel(P004, ann, cult)
    old.engine = OLD
    text = push(old, counter, (100, 30), (4, 2), (4, 1), (100, 20), (3, 1), (4, 1))
    assert "the counter parries" in text
    replays(old)


# --- D6: CO-BODY-5 (004) --------------------------------------------------------------------

def test_a_lost_tongue_costs_listen_10_and_skills_that_need_taste_50_004() -> None:
    """004 舌: 「聞き耳に-10％の持続的な下方補正」と「味覚を必要とする技能に-50％の持続的な下方
    補正」 (CO-BODY-5): Listen is lowered on the sheet; no sheet skill needs taste, so the −50
    is said as an after-effect for the Keeper. Revision 3 left it unsaid."""
    knife = {"weapons": ("knife",), "knife": 90}
    gouge = Attack("Ann", "Cult", body="gouge", part="tongue")
    f = duel(P004, knife, {"listen": 50})
    text = push(f, gouge, (100, 5), (4, 1), (4, 1))
    assert "聞き耳/Listen 50 → 40 (CO-BODY-5)" in text
    assert "味覚を要する技能/skills that need taste -50% from now on, an after-effect for " \
           "the Keeper (no skill on the sheet) (CO-BODY-5)" in text
    cult = f.state.get("Cult")
    assert cult.lost == ("tongue",) and cult.sheet.skills["listen"] == 40
    old = duel(P004, knife, {"listen": 50})
    old.engine = OLD
    text = push(old, gouge, (100, 5), (4, 1), (4, 1))
    assert "taste" not in text and "聞き耳/Listen 50 → 40" in text
    replays(old)
