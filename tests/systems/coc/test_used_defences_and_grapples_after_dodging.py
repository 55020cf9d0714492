"""Third round of coc fixes: a defence refused before any die (a two-attack weapon's later
blow, a grapple, a tackle), a grapple or tackle after dodging at −50% (CO-DODGE-5) and no
Iai wait at 0 AP for a grappler whose two-handed blade CO-GRAP-3 refuses (CO-IAI-2). Old
entries replay as they were played (format 1, and revision 2 for the Iai wait)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.dice.sources import ScriptExhausted
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Move,
    Side,
    Tackle,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import duel, held_roll, pass_to, person, push

CLAW = {"key": "claw", "ja": "爪", "en": "Claw", "kind": "unarmed", "skill": "fist",
        "damage": "1D6", "db": "none", "attacks": 2}


@pytest.mark.parametrize("defence", [Defence.DODGE, Defence.PARRY])
def test_a_two_attack_weapon_s_second_blow_lands_once_the_defence_is_used_004(
        defence: Defence) -> None:
    """004 (CO-DODGE-4, CO-BASE-7): Cult's two claws; Ann's one dodge (or parry) a round
    went on the first, so the second lands undefended; the action was refused after two
    d100 before. Format 1 still refuses it, as it played."""
    f = duel(Profile.P004, {"dodge": 60, "weapons": ("knife",), "knife": 60},
             {"weapons": (CLAW,), "fist": 60})
    pass_to(f, "Cult")
    used = [(100, 10)] if defence is Defence.DODGE else [(6, 3), (100, 10)]  # parried
    text = push(f, Attack("Cult", "Ann", shots=2, defence=defence),
                (100, 10), *used, (100, 10), (6, 3))
    rule = "CO-DODGE-4" if defence is Defence.DODGE else "CO-BASE-7"
    assert f"Ann's {defence.value} went on an earlier attack: once a round ({rule})" in text
    assert "Ann takes 3" in text
    old = duel(Profile.P004, {"dodge": 60, "weapons": ("knife",), "knife": 60},
               {"weapons": (CLAW,), "fist": 60}, legacy=True)
    pass_to(old, "Cult")
    with pytest.raises(IllegalAction, match="cannot"):
        old.push(Attack("Cult", "Ann", shots=2, defence=defence),
                 ScriptedDice([(100, 10), *used, (100, 10)]))


def test_the_second_claw_may_be_dodged_when_the_first_missed_004() -> None:
    f = duel(Profile.P004, {"dodge": 60}, {"weapons": (CLAW,), "fist": 60})
    pass_to(f, "Cult")
    text = push(f, Attack("Cult", "Ann", shots=2, defence=Defence.DODGE),
                (100, 90), (100, 10), (100, 10))
    assert "Ann 回避/Dodge" in text and "Ann takes" not in text


def dodged(profile: Profile) -> Fight:
    """Ann has attacked Cult, who dodged: Cult's one dodge of the round is used."""
    f = duel(profile, {"fist": 60}, {"dodge": 60}, third={"grapple": 60, "tackle": 60})
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 10), (100, 10))
    if profile is Profile.P004:
        pass_to(f, "Bob")
    return f


@pytest.mark.parametrize("profile, action", [
    (Profile.P003, Grapple("Ann", "Cult", defence=Defence.DODGE)),
    (Profile.P004, Grapple("Bob", "Cult", defence=Defence.DODGE)),
    (Profile.P004, Tackle("Bob", "Cult", defence=Defence.DODGE)),
])
def test_a_grapple_or_tackle_against_a_used_dodge_is_refused_before_any_die(
        profile: Profile, action: Any) -> None:
    """003/004 grapple, 004 tackle: the dodge is checked before the d100 is asked for (it
    was refused after one); format 1 still rolls first, as it played."""
    f = dodged(profile)
    with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
        f.push(action, ScriptedDice([]))
    f.engine = 1  # played as format 1 played it
    with pytest.raises(ScriptExhausted):
        f.push(action, ScriptedDice([]))


def slow_ann() -> Fight:
    """004: Ann (DEX 10, Grapple/Tackle 70) dodged Cult (DEX 14), who went first."""
    rules = load_rules(Profile.P004)
    f = Fight(rules, [(person(rules, "Ann", 10, grapple=70, tackle=70, dodge=60),
                       Side.INVESTIGATORS),
                      (person(rules, "Cult", 14, fist=60), Side.FOES)], ScriptedDice([]))
    push(f, Attack("Cult", "Ann", defence=Defence.DODGE), (100, 10), (100, 10))
    assert f.state.current is not None and f.state.current.name == "Ann"
    return f


@pytest.mark.parametrize("action", [Grapple("Ann", "Cult", after_dodge=True),
                                    Tackle("Ann", "Cult", after_dodge=True)])
def test_a_grapple_or_tackle_after_dodging_at_minus_50_004(action: Any) -> None:
    """004 lines 6 and 11 (CO-DODGE-4/5): a grapple or tackle is an attack, barred after a
    dodge unless the Keeper allows it at −50%, as the refusal says (after_dodge=true)."""
    plain = Grapple("Ann", "Cult") if isinstance(action, Grapple) else Tackle("Ann", "Cult")
    with pytest.raises(IllegalAction, match="after_dodge=true"):
        slow_ann().push(plain, ScriptedDice([]))
    f = slow_ann()
    text = push(f, action, (100, 25))  # 25 > 70 − 50
    assert "(1D100<=20)" in text and "-50%, after dodging, CO-DODGE-5" in text
    f = slow_ann()
    text = push(f, action, (100, 15), *([(6, 3), (4, 2)] if isinstance(action, Tackle) else []))
    assert "(1D100<=20)" in text
    assert json.loads(json.dumps(f.to_json()))["journal"][-1]["action"]["after_dodge"]
    with pytest.raises(IllegalAction, match="has not dodged"):
        duel(Profile.P004, {"grapple": 70}).push(Grapple("Ann", "Cult", after_dodge=True),
                                                ScriptedDice([]))


def grappler(engine: int = ENGINE) -> Fight:
    """003: Ann, with a Japanese sword (two-handed) and Iai, holds Cult; next round she has
    the 1 AP CO-GRAP-3 allows. Played by revision ``engine`` (before 4 her turn went on
    after the grapple)."""
    f = duel(Profile.P003, {"weapons": ("japanese_sword",), "japanese_sword": 60, "iai": 70,
                            "grapple": 70})
    f.engine = engine
    push(f, Grapple("Ann", "Cult"), (100, 10), *held_roll(engine))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    return f


def test_no_iai_wait_for_a_grappler_whose_blade_is_two_handed_003() -> None:
    """CO-IAI-2 and CO-GRAP-3: at 0 AP the turn stayed open for an Iai the two-handed sword
    could not make; now it passes. A revision-2 entry replays as it was played."""
    f = grappler()
    text = push(f, Move("Ann", 1), (100, 90))  # Cult's turn: its STR fails (CO-GRAP-2)
    assert "may still strike with Iai" not in text
    assert f.state.current is not None and f.state.current.name == "Cult"
    old = grappler(2)  # as the fix's previous revision played it
    text = push(old, Move("Ann", 1))
    assert "may still strike with Iai" in text
    push(old, EndTurn("Ann"))
    data = old.to_json()
    assert data["engine"] == ENGINE and data["journal"][-1]["engine"] == 2
    again = Fight.from_json(load_rules(Profile.P003), json.loads(json.dumps(data)))
    assert again.to_json() == data and again.state == old.state
    del data["engine"]  # a format-2 file written before revision 3: its entries are 2's
    for entry in data["journal"]:
        entry.pop("engine", None)
    assert Fight.from_json(load_rules(Profile.P003), data).state == old.state
