"""Fifth round of coc fixes, each against its seed line, folded into engine revision 4: no
Spot Hidden or Jump in a 003 round with Iai, attack or parry, and no Iai in a round with
them (CO-IAI-2 with CO-SKILL-1/5/6); a 004 melee blow parried with Grapple, two successes
(CO-GRAP-5). Entries played by revision 3 replay as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Defence,
    EndTurn,
    Fight,
    Jump,
    Move,
    Place,
    Side,
    Spot,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import OLD, duel, pass_to, person, push, replays

P003, P004 = Profile.P003, Profile.P004
#: Ann's Japanese sword with Iai, Spot Hidden and Jump.
SAMURAI: dict[str, Any] = {"weapons": ("japanese_sword",), "iai": 60, "japanese_sword": 50,
                           "spot_hidden": 60, "jump": 60}


def board(f: Fight) -> None:
    """Ann on d4 facing north, Cult next to her on d5 (Jump lands on d6)."""
    push(f, Place("Ann", "d4", "N"))
    push(f, Place("Cult", "d5"))


# --- E1: CO-IAI-2 with CO-SKILL-1/5/6 (003) -------------------------------------------------

def test_no_spot_hidden_or_jump_in_a_round_with_iai_003() -> None:
    """003 「＜居合＞使用ラウンドはその他技能は選択できない」 (CO-IAI-2): Spot Hidden and Jump are
    other skills (〇その他技能について); their 「同R内で攻撃が可能」 lifts the no-attack rule
    only. After Ann's Iai both are refused before any die, naming CO-IAI-2; a plain attack
    still follows. Revision 3 took them."""
    f = duel(P003, SAMURAI)
    board(f)
    push(f, Attack("Ann", "Cult", iai=True), (100, 90))
    with pytest.raises(IllegalAction, match=r"no 目星/Spot Hidden in a round with Iai: no "
                                            r"other skill that round \(CO-IAI-2, CO-SKILL-5\)"):
        f.push(Spot("Ann", "Cult"), ScriptedDice([]))
    with pytest.raises(IllegalAction, match=r"no 跳躍/Jump in a round with Iai: no other "
                                            r"skill that round \(CO-IAI-2, CO-SKILL-6\)"):
        f.push(Jump("Ann", "Cult"), ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 90))
    assert f.state.get("Ann").ap == 2
    old = duel(P003, SAMURAI)
    old.engine = OLD
    board(old)
    push(old, Attack("Ann", "Cult", iai=True), (100, 90))
    assert "CO-SKILL-5" in push(old, Spot("Ann", "Cult"), (100, 30))
    push(old, Jump("Ann", "Cult"), (100, 30))
    assert old.state.get("Ann").square == "d6"
    replays(old)


@pytest.mark.parametrize("skill", ["spot", "jump"])
def test_no_iai_in_a_round_with_spot_hidden_or_jump_003(skill: str) -> None:
    """The other way round (CO-IAI-2): after Spot Hidden or Jump, Ann's Iai is refused before
    its die, naming the skill; next round the Iai is hers again. Revision 3 took it."""
    def fight(engine: int) -> Fight:
        f = duel(P003, SAMURAI)
        f.engine = engine
        board(f)
        push(f, Spot("Ann", "Cult") if skill == "spot" else Jump("Ann", "Cult"), (100, 30))
        return f

    name = "目星/Spot Hidden" if skill == "spot" else "跳躍/Jump"
    f = fight(ENGINE)
    with pytest.raises(IllegalAction, match=rf"no Iai in a round with {name}, an other skill "
                                            r"\(CO-IAI-2\)"):
        f.push(Attack("Ann", "Cult", iai=True), ScriptedDice([]))
    push(f, EndTurn("Ann"))
    pass_to(f, "Ann")
    assert "Iai, no AP" in push(f, Attack("Ann", "Cult", iai=True), (100, 90))
    old = fight(OLD)
    assert "Iai, no AP" in push(old, Attack("Ann", "Cult", iai=True), (100, 90))
    replays(old)


def test_no_iai_wait_at_0_ap_after_spot_hidden_003() -> None:
    """CO-IAI-2 「三回移動後に攻撃を行ってもよい」 keeps a turn open at 0 AP for an Iai; after
    Spot Hidden no Iai can come, so the turn passes. Revision 3 held it open."""
    def fight(engine: int) -> Fight:
        f = duel(P003, SAMURAI)
        f.engine = engine
        push(f, Place("Ann", "a2", "N"))
        push(f, Place("Cult", "a5", "S"))
        push(f, Spot("Ann", "Cult"), (100, 30))
        push(f, Move("Ann", to="a4"))  # 2 squares: 0 AP, next to Cult
        return f

    f = fight(ENGINE)
    assert f.state.current is not None and f.state.current.name == "Cult"
    old = fight(OLD)
    assert old.state.current is not None and old.state.current.name == "Ann"
    assert "may still strike with Iai" in old.journal[-1].text
    replays(old)


def cult_first(engine: int) -> Fight:
    """003: Cult (DEX 14, a fist) acts before Ann (DEX 10, SAMURAI)."""
    rules = load_rules(P003)
    f = Fight(rules, [(person(rules, "Cult", 14, fist=60), Side.FOES),
                      (person(rules, "Ann", 10, **SAMURAI), Side.INVESTIGATORS)],
              ScriptedDice([]))
    f.engine = engine
    return f


def test_an_iai_parry_is_the_round_s_iai_for_other_skills_too_003() -> None:
    """An Iai parry (CO-DODGE-2) is a use of Iai: the round's one Iai, the blade drawn
    (CO-IAI-3's Default: "any use of Iai, attack or parry"). So after parrying Cult's punch
    by Iai, Ann's Spot Hidden that round is refused (CO-IAI-2); and after her Spot Hidden an
    Iai parry is refused before any die. Revision 3 took both."""
    iai_parry = Attack("Cult", "Ann", defence=Defence.PARRY, parry_with="iai")
    f = cult_first(ENGINE)
    text = push(f, iai_parry, (100, 30), (3, 2), (4, 1), (100, 20))
    assert "parry 居合/Iai" in text and f.state.get("Ann").iai_used
    push(f, EndTurn("Cult"))
    with pytest.raises(IllegalAction, match=r"in a round with Iai.*\(CO-IAI-2, CO-SKILL-5\)"):
        f.push(Spot("Ann", "Cult"), ScriptedDice([]))
    old = cult_first(OLD)
    push(old, iai_parry, (100, 30), (3, 2), (4, 1), (100, 20))
    push(old, EndTurn("Cult"))
    assert "CO-SKILL-5" in push(old, Spot("Ann", "Cult"), (100, 30))
    replays(old)

    g = duel(P003, SAMURAI, {"fist": 60})
    push(g, Spot("Ann", "Cult"), (100, 30))
    push(g, EndTurn("Ann"))
    back = Attack("Cult", "Ann", defence=Defence.PARRY, parry_with="iai")
    with pytest.raises(IllegalAction, match=r"Ann cannot parry by Iai in a round with an other "
                                            r"skill \(CO-IAI-2\)"):
        g.push(back, ScriptedDice([]))
    assert "CO-DODGE-2" in push(g, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 30),
                                (100, 90), (3, 2), (4, 1))
    old = duel(P003, SAMURAI, {"fist": 60})
    old.engine = OLD
    push(old, Spot("Ann", "Cult"), (100, 30))
    push(old, EndTurn("Ann"))
    assert "parry 居合/Iai" in push(old, back, (100, 30), (3, 2), (4, 1), (100, 20))
    replays(old)


# --- E2: CO-GRAP-5 (004) --------------------------------------------------------------------

KNIFE = {"weapons": ("knife",), "knife": 60}
GRAPPLE_PARRY = Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="grapple")


def test_a_knife_parried_by_grapple_needs_two_successes_004() -> None:
    """004 「組み付き技能は近接戦闘技能を受け流す場合"技能を2回成功"させなければならない」
    (CO-GRAP-5): Cult parries Ann's knife (1D4+2+1D4 = 5) with Grapple 60 rolled twice. Both
    succeed: parried, no damage (the Default: as a bare-handed or MA parry, lines 19–23);
    the second fails: no parry, 5 damage; the first fails: the second is not rolled.
    Revision 3 refused the Grapple parry before any die."""
    f = duel(P004, KNIFE, {"grapple": 60})
    text = push(f, GRAPPLE_PARRY, (100, 30), (4, 2), (4, 1), (100, 20), (100, 40))
    assert "Cult 受け流し/parry 組み付き/Grapple 1/2 (1D100<=60) ＞ 20" in text
    assert "Cult 受け流し/parry 組み付き/Grapple 2/2 (1D100<=60) ＞ 40" in text
    assert "parried by Grapple: 0 damage to Cult (CO-GRAP-5)" in text
    cult = f.state.get("Cult")
    assert cult.hp == 13 and cult.parries == 1 and cult.held_by == "" and not cult.grappling
    replays(f)
    g = duel(P004, KNIFE, {"grapple": 60})
    text = push(g, GRAPPLE_PARRY, (100, 30), (4, 2), (4, 1), (100, 20), (100, 80))
    assert "parried" not in text and g.state.get("Cult").hp == 8  # 1D4+2+1D4 = 5
    h = duel(P004, KNIFE, {"grapple": 60})
    text = push(h, GRAPPLE_PARRY, (100, 30), (4, 2), (4, 1), (100, 80))
    assert "the Grapple parry needs 2 successes: it fails (CO-GRAP-5)" in text
    assert h.state.get("Cult").hp == 8 and h.state.get("Cult").parries == 1
    old = duel(P004, KNIFE, {"grapple": 60})
    old.engine = OLD
    with pytest.raises(IllegalAction, match="Cult cannot parry now"):
        old.push(GRAPPLE_PARRY, ScriptedDice([]))


def test_a_grapple_parry_is_the_round_s_parry_and_only_against_melee_004() -> None:
    """CO-GRAP-5 with CO-BASE-7: the Grapple parry is Cult's one parry of the round (Bob's
    punch after it cannot be parried, neither by Grapple nor bare-handed); an unarmed blow
    parried by Grapple hurts nobody (CO-PARRY-3, 「素手同士の受け流しあい」), an MA-boosted
    one still lets half through (line 23). A shot or a throw is no melee skill: refused."""
    f = duel(P004, KNIFE, {"grapple": 60}, third={"weapons": ("fist",), "fist": 60})
    push(f, GRAPPLE_PARRY, (100, 30), (4, 2), (4, 1), (100, 20), (100, 40))
    for way in ("grapple", "hands"):
        with pytest.raises(IllegalAction, match="Cult cannot parry now"):
            f.push(Attack("Bob", "Cult", defence=Defence.PARRY, parry_with=way),
                   ScriptedDice([]))
    fist = duel(P004, {"weapons": ("fist",), "fist": 60}, {"grapple": 60})
    text = push(fist, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="grapple"),
                (100, 30), (3, 3), (4, 4), (100, 20), (100, 40))
    assert "nobody is hurt (CO-PARRY-3)" in text and fist.state.get("Cult").hp == 13
    ma = duel(P004, {"weapons": ("fist",), "fist": 60, "martial_arts": 60}, {"grapple": 60})
    text = push(ma, Attack("Ann", "Cult", ma=True, defence=Defence.PARRY, parry_with="grapple"),
                (100, 30), (3, 3), (3, 2), (4, 4), (100, 20), (100, 40))
    assert "half, 4, gets through any parry (CO-PARRY-3)" in text  # 2D3+1D4 = 9
    assert "parried by Grapple: 4 damage to Cult (CO-GRAP-5)" in text
    assert ma.state.get("Cult").hp == 9
    for weapons in (("automatic",), ("rock",)):
        shooter = duel(P004, {"weapons": weapons, "handgun": 60, "throw": 60},
                       {"grapple": 60})
        with pytest.raises(IllegalAction, match="Cult cannot parry now"):
            shooter.push(Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="grapple"),
                         ScriptedDice([]))
