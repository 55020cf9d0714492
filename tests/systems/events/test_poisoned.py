"""System `events`: the poisons a party carries and time passing for them (EV-POI-1..3, 8, 9)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.poisoned import Poison, describe, pass_time
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member
from tests.deadline import ends_within

RULES = load_rules()
AKI = Member("Aki", vitality=2)
BEN = Member("Ben", sage=2, intelligence=3)


def poisoned(table: str, dice: list[int | tuple[int, int]],
             **kw: Any) -> tuple[str | None, Poison]:
    """Who the one EV-POI-3 step of a walk poisons, and the poison it gives (a die is a D6
    unless written (sides, value))."""
    script = [d if isinstance(d, tuple) else (6, d) for d in dice]
    report = run_event(table, ScriptedDice(script), rules=RULES, **kw)
    (step,) = report.find("EV-POI-3")
    return step.member, Poison.from_json(step.data["poison"], "test")


def test_ev_poi_2_end_of_block_ticks_every_poison_once() -> None:
    """EV-POI-2: "End block" ticks each character's poison once, by the Default's hours."""
    poisons = {"Aki": Poison(1, "EV-POI-5", 8, hours_left=2),
               "Ben": Poison(4, "EV-POI-8", 9, damage_max=3, damage_done=1)}
    passed = pass_time(poisons, RULES)
    assert passed.poisons == {"Aki": Poison(1, "EV-POI-5", 8, hours_left=1),
                              "Ben": Poison(4, "EV-POI-8", 9, damage_max=3, damage_done=2)}
    assert passed.steps[0].text == ("ブロック終了/End of block: poisons tick once "
                                    "(1 h (default))")
    assert [s.text for s in passed.steps[1:]] == [
        "Aki: 判定－１/Check −1: 1 h left",
        "Ben: 毒/Poison: 1 HP lost (2/3); HP lost heals with Cure Wounds"]
    assert passed.steps[2].data == {"hp_lost": 1, "ended": False}
    longer = RULES.with_overrides({"EV-POI-2": {"hours_per_tick": 2}})
    assert pass_time(poisons, longer).poisons.keys() == {"Ben"}  # 2 h gone: Aki's wore off


def test_ev_poi_2_rest_ticks_every_hour_and_poisons_wear_off() -> None:
    """EV-POI-2: a rest ticks each hour; EV-POI-8 damage stops at its maximum; EV-POI-9's
    ability change is undone when it wears off; an EV-POI-12 permanent one stays."""
    poisons = {"Aki": Poison(6, "EV-POI-9", 8, hours_left=2, ability="strength", change=-6),
               "Ben": Poison(5, "EV-POI-8", 9, damage_max=3, damage_done=1),
               "Cara": Poison(2, "EV-POI-6", 8)}
    passed = pass_time(poisons, RULES, rest_hours=4)
    assert passed.poisons == {"Cara": Poison(2, "EV-POI-6", 8)}
    assert [s.text for s in passed.steps] == [
        "休息/Rest 4 h: poisons tick every hour",
        "Aki: 能力値±６/Ability ±6 wears off; 筋力/STR −6 is undone",
        "Ben: 毒/Poison: 2 HP lost (3/3); the poison ends; HP lost heals with Cure Wounds",
        "Cara: 異性化/Gender swap: permanent (EV-POI-12 option), unchanged"]
    assert [s.data["hp_lost"] for s in passed.steps[1:]] == [0, 2, 0]
    with pytest.raises(DataError, match="a rest must last 1 hour or more, found 0"):
        pass_time(poisons, RULES, rest_hours=0)
    assert pass_time({}, RULES).steps[1].text == "No poison tracked: nothing ticks"


def test_ev_poi_2_a_rest_of_a_trillion_hours_is_worked_out_at_once() -> None:
    """EV-POI-2: a rest of 10**12 hours over a long, a permanent (EV-POI-12) and a damage
    poison answers at once with what an hour-by-hour tick gives; it looped an hour at a
    time and never returned (fuzz audit 2, finding 4). A deadline turns a hang into a failure."""
    poisons = {"Aki": Poison(1, "EV-POI-5", 8, hours_left=10**15),
               "Ben": Poison(5, "EV-POI-8", 9, damage_max=6, damage_done=2),
               "Cara": Poison(2, "EV-POI-6", 8)}
    with ends_within(5, "pass_time"):
        passed = pass_time(poisons, RULES, rest_hours=10**12)
    assert passed.poisons == {"Aki": Poison(1, "EV-POI-5", 8, hours_left=10**15 - 10**12),
                              "Cara": Poison(2, "EV-POI-6", 8)}
    assert [s.data["hp_lost"] for s in passed.steps[1:]] == [0, 4, 0]


@pytest.mark.parametrize("hours", [1, 2, 3, 4, 5])
def test_ev_poi_2_many_ticks_at_once_match_one_at_a_time(hours: int) -> None:
    """EV-POI-2/8: ``tick(ticks=n)`` is n single ticks, a damage poison's end included (a
    hand-edited damage_done == damage_max still deals its one last HP)."""
    for start in (Poison(4, "EV-POI-8", 9, damage_max=3, damage_done=d) for d in range(4)):
        left: Poison | None = start
        lost = 0
        for _ in range(hours):
            if left is None:
                break
            left, hp = left.tick()
            lost += hp
        assert start.tick(1, hours) == (left, lost)


def test_ev_poi_10_tick_says_hp_heals_only_once_cured() -> None:
    """EV-POI-10 (option on): HP lost to the poison heals only once it is cured."""
    rules = RULES.with_overrides({"EV-POI-10": {"enabled": True}})
    passed = pass_time({"Ben": Poison(4, "EV-POI-8", 9, damage_max=3)}, rules)
    assert passed.steps[1].text.endswith("HP lost heals once the poison is cured (EV-POI-10)")


def test_ev_poi_1_describe_shows_name_identification_toxicity_and_time_left() -> None:
    """EV-POI-1 Show: the poison's name, identified?, the toxicity and what is left."""
    assert describe(Poison(3, "EV-POI-7", 10, hours_left=4, identified=False), RULES) == (
        "惚れ薬/Love potion — ラブ・パッション試/Love Passion, trial, 魔法・精神/magic, mental; "
        "not identified; 毒性値/toxicity 10; 4 h left")
    assert describe(Poison(4, "EV-POI-8", 9, damage_max=5, damage_done=2), RULES).endswith(
        "identified: GM's check; 毒性値/toxicity 9; 2/5 HP dealt")
    assert "(知力/INT +6)" in describe(
        Poison(6, "EV-POI-9", 8, hours_left=1, ability="intelligence", change=6), RULES)


def test_ev_poi_3_the_walk_gives_the_poison_to_its_victim() -> None:
    """EV-POI-3: the poison the walk gives carries what a tracker needs: whose it is, the
    pharmacology result (EV-POI-1) and an EV-POI-9 change to undo."""
    who, poison = poisoned("poison", [6, 2, 3, 5, (4, 2), 4], mode="sw", party=(AKI, BEN),
                           victim="Ben")
    assert who == "Ben"
    assert poison == Poison(6, "EV-POI-9", 8, hours_left=5, identified=True,
                            ability="agility", change=6)
    assert poisoned("poison", [1, 6], mode="sw", party=(AKI,))[1].identified is False  # no Sage
    who, poison = poisoned("poison", [2, 3], victim="Dora")  # generic: anyone the GM names
    assert (who, poison.identified, poison.hours_left) == ("Dora", None, 3)
    with pytest.raises(DataError, match=re.escape("no 'Dora' in the party (it has Aki, Ben)")):
        poisoned("poison", [1], mode="sw", party=(AKI, BEN), victim="Dora")
    with pytest.raises(DataError, match=re.escape("a victim ('Aki') goes with the poison table")):
        run_event("door", ScriptedDice([]), rules=RULES, victim="Aki")


@pytest.mark.parametrize(("fields", "wrong"), [
    ({"rule": "EV-POI-5", "toxicity": 8}, "missing 'face'"),
    ({"face": True, "rule": "EV-POI-5", "toxicity": 8}, "face must be int, found true"),
    ({"face": 1, "rule": "EV-POI-5", "toxicity": "8"}, 'toxicity must be int, found "8"'),
    ({"face": 1, "rule": "EV-POI-5", "toxicity": 8, "hours": 2}, "unknown field 'hours'"),
    ({"face": 9, "rule": "EV-POI-5", "toxicity": 8}, "face must be from 1 to 6"),
    ({"face": 4, "rule": "EV-POI-8", "toxicity": 8, "damage_max": -2},
     "damage_max must be 0 or more, found -2"),
    ({"face": 4, "rule": "EV-POI-8", "toxicity": 8, "damage_max": 2, "damage_done": 3},
     "damage_done 3 is over damage_max 2"),
    ({"face": 6, "rule": "EV-POI-9", "toxicity": 8, "ability": "luck"},
     "ability must be one of dexterity, agility, intelligence, strength, vitality, found 'luck'"),
])
def test_a_poison_written_wrong_is_named(fields: dict[str, Any], wrong: str) -> None:
    with pytest.raises(DataError, match=re.escape(f"Aki's poison: {wrong}")):
        Poison.from_json(fields, "Aki's poison")


def test_a_poison_round_trips_through_its_plain_values() -> None:
    poison = Poison(6, "EV-POI-9", 8, hours_left=3, identified=False, ability="strength",
                    change=-6)
    assert Poison.from_json(poison.to_json(), "test") == poison
    assert Poison(2, "EV-POI-6", 8).to_json() == {"face": 2, "rule": "EV-POI-6", "toxicity": 8}


def test_ev_poi_5_a_poisoned_member_s_later_checks_are_at_minus_one() -> None:
    """EV-POI-5: 「すべての判定に－１」: Aki, poisoned by the door's needle (判定－１), opens
    its lock at −1 (2D6+6-1, 9 < 10: it holds; without the −1 it opened), and the check
    says an active action first needs a vitality check vs the toxicity, for the GM. A
    poison tracked from before (``poisoned``) counts too; one of another effect does not."""
    aki = Member("Aki", adventurer=3, thief=3, dexterity=3, vitality=2)
    # door 1 (trap + lock); disarm 1,1 (fumble); needle; resist 1,1; poison face 1;
    # no Sage to identify; duration 3; the lock 2,2
    dice = [(6, v) for v in (1, 1, 1, 4, 1, 1, 1, 3, 2, 2)]
    report = run_event("door", ScriptedDice(dice), rules=RULES, mode="sw", party=(aki,),
                       dm_level=3)
    (lock,) = [s for s in report.find("EV-DOOR-2") if "鍵開け" in s.text]
    assert lock.roll is not None and lock.roll.formula == "2D6+5>=10" and not lock.roll.success
    assert (" −1 (毒/poison 判定－１, EV-POI-5; an active action first needs vitality vs "
            "toxicity 10: `companion events act --who Aki`)") in lock.text
    assert lock.data["act"] == "Aki"  # whom the app names it with the run's options
    tracked = {"Aki": Poison(1, "EV-POI-5", 9, hours_left=2)}
    explore = run_event("explore", ScriptedDice([(6, 2), (6, 3), (6, 3)]), rules=RULES,
                        mode="sw", party=(aki,), poisoned=tracked)
    (search,) = [s for s in explore.find("EV-EXP-2") if s.roll is not None]
    assert search.roll is not None and search.roll.formula == "2D6+2>=8"  # thief 3 + INT 0 − 1
    other = {"Aki": Poison(2, "EV-POI-6", 9, hours_left=2)}
    explore = run_event("explore", ScriptedDice([(6, 2), (6, 3), (6, 3)]), rules=RULES,
                        mode="sw", party=(aki,), poisoned=other)
    assert [s.roll.formula for s in explore.find("EV-EXP-2") if s.roll] == ["2D6+3>=8"]
