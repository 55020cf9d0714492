"""GM-COMBAT-1 (fixg64): a party down (全滅) does not end the fight by itself.

Seed 002 PG 4-1 (l.1173-1174): 「敵が全て戦闘不能、逃亡、降伏した時に戦闘は終了する。ＧＭは戦闘
終了を宣言する。」 Only the enemy's side ends a fight, and the GM declares it. From engine
revision 5, with the Default ``party_down_ends_fight`` off, the party's turns are passed
over and the monsters' blows on the fallen (GM-COMBAT-8) and a Wight's kill (GM-MON-5) are
played until the GM ends it; on, the fight ends at once, as revision 4 ended it whatever
the setting. A fight revision 4 played and ended so, with a spell after its end, replays as
it was played.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.genso.combat import (
    ENGINE,
    FILE_VERSION,
    Attack,
    Cast,
    EndFight,
    Entrant,
    Fight,
    Flee,
    Move,
    Outcome,
    Side,
    Sleep,
    Status,
    Sunset,
    Wait,
    entrants_for,
)
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
DATA = Path(__file__).parent / "data"
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
GOES_ON = ("全滅 the party is down: the fight goes on until the GM declares its end "
           "(ＧＭは戦闘終了を宣言する; party_down_ends_fight off)")


def one_pc_at_1_hp(monster: str, rules: GensoRules = RULES) -> Fight:
    """PC 1 at 1 HP against one monster, PC 1 waiting: the monster's turn."""
    fight = Fight(rules, entrants_for(rules, [replace(preset(rules, "pc1"), hp=1)],
                                      [(monster, 1)]))
    fight.push(Wait(PC1), ScriptedDice([]))
    return fight


def felled_by_the_orc(rules: GensoRules = RULES) -> Fight:
    """The Orc's club hits PC 1 (its defence 1+1, the club's 6): HP 1 → −5, 行動不能."""
    fight = one_pc_at_1_hp("orc", rules)
    fight.push(Attack("オーク", PC1), ScriptedDice([(6, 1), (6, 1), (6, 6)]))
    assert fight.state.get(PC1).status is Status.INCAPACITATED
    return fight


def test_the_party_down_leaves_the_fight_going_until_the_gm_ends_it() -> None:
    fight = felled_by_the_orc()
    state = fight.state
    assert state.outcome is None and state.party_down_going_on
    assert state.party_out is Outcome.PARTY_DOWN
    assert state.current is not None and state.current.name == "オーク"  # PC 1 passed over
    lines = [line.text for line in fight.journal[-1].lines]
    assert GOES_ON in lines and not any("the fight is over" in text for text in lines)
    assert lines[-1] == "round 2 (12 s each, GM-CORE-2)"
    with pytest.raises(IllegalAction, match="it is オーク's turn"):
        fight.push(Wait(PC1), ScriptedDice([]))
    # GM-COMBAT-8: the incapacitated cannot dodge, so the Orc's finishing blow needs no roll
    blow = fight.push(Attack("オーク", PC1), ScriptedDice([(6, 2)]))
    assert "cannot dodge (行動不能/incapacitated)" in blow.text
    assert fight.state.get(PC1).hp == -7 and fight.state.get(PC1).status is Status.DEAD
    assert GOES_ON not in blow.text  # said once, when the party fell
    end = fight.push(EndFight(), ScriptedDice([]))
    assert end.lines[-1].text == "the GM declares the end of the fight"
    assert fight.state.outcome is Outcome.DECLARED and fight.state.current is None


def test_a_wights_kill_of_the_fallen_is_played_and_rises_at_sunset() -> None:
    """GM-MON-5: the Wight drains PC 1 (HP 1 → −5, 行動不能), then kills it where it lies; it
    will rise as the Wight's kind, and does at sunset. Revision 4 had closed the fight at
    the first drain, so the kill could not be played."""
    fight = one_pc_at_1_hp("wight")
    fight.push(Attack("ワイト", PC1), ScriptedDice([(6, 1), (6, 1)]))
    assert fight.state.party_down_going_on
    kill = fight.push(Attack("ワイト", PC1), ScriptedDice([]))
    assert fight.state.get(PC1).status is Status.DEAD
    assert fight.state.get(PC1).rises_as == "ワイト"
    assert any(line.rule == "GM-MON-5" for line in kill.lines)
    fight.push(EndFight(), ScriptedDice([]))
    dusk = fight.push(Sunset(), ScriptedDice([]))
    assert dusk.lines[0].text == f"{PC1} rises as ワイト's kind"


def test_party_down_ends_fight_on_ends_it_at_once() -> None:
    """The Default on: the fight is over when the party is down, as revision 4 played."""
    on = RULES.with_overrides({"GM-COMBAT-1": {"party_down_ends_fight": True}})
    fight = felled_by_the_orc(on)
    assert fight.state.outcome is Outcome.PARTY_DOWN and fight.state.current is None
    assert fight.journal[-1].lines[-1].text == "the fight is over: 全滅 the party is down"
    with pytest.raises(IllegalAction, match="the fight is over"):
        fight.push(Attack("オーク", PC1), ScriptedDice([(6, 2)]))


def test_the_setting_turned_on_with_an_action_ends_a_fight_going_on() -> None:
    """A setting changed with an action holds from it on: the Orc waits with the Default
    turned on, and the fight with the party down is over."""
    fight = felled_by_the_orc()
    entry = fight.push(Wait("オーク"), ScriptedDice([]),
                       {"GM-COMBAT-1": {"party_down_ends_fight": True}})
    assert fight.state.outcome is Outcome.PARTY_DOWN
    assert entry.lines[-1].text == "the fight is over: 全滅 the party is down"
    fight.pop()
    assert fight.state.outcome is None and fight.state.party_down_going_on


def test_a_fight_going_on_with_the_party_down_replays_from_its_file() -> None:
    fight = felled_by_the_orc()
    fight.push(Attack("オーク", PC1), ScriptedDice([(6, 2)]))
    saved = json.loads(json.dumps(fight.to_json(), ensure_ascii=False))
    assert saved["version"] == FILE_VERSION == ENGINE >= 6
    assert all("engine" not in e for e in saved["journal"])
    again = Fight.from_json(RULES, saved)
    assert again.state == fight.state and again.state.party_down_going_on
    assert [e.lines for e in again.journal] == [e.lines for e in fight.journal]


def test_a_revision_4_fight_ended_with_the_party_down_replays_as_played() -> None:
    """fight_party_down_r4.json, written by engine revision 4 (file version 4): the Orc
    felled PC 1 and the fight was over (全滅); ケイ, an NPC of the enemy's side, then cast
    Healing on the Orc after the end, an entry legal only once the fight is over. It
    replays by revision 4: the same lines, the fight over, and the cast after the end."""
    old = json.loads((DATA / "fight_party_down_r4.json").read_text(encoding="utf-8"))
    assert old["version"] == 4 and "party_down_ends_fight" not in old["settings"]["GM-COMBAT-1"]
    fight = Fight.from_json(RULES, old)
    assert [e.to_json()["lines"] for e in fight.journal] == [e["lines"] for e in old["journal"]]
    assert old["journal"][1]["lines"][-1]["text"] == "the fight is over: 全滅 the party is down"
    assert fight.journal[2].action == Cast("ケイ", "healing", ("オーク",))
    assert fight.state.outcome is Outcome.PARTY_DOWN and fight.state.current is None
    # Written anew, each entry names the revision that played it, and replays the same.
    saved = json.loads(json.dumps(fight.to_json(), ensure_ascii=False))
    assert saved["version"] == FILE_VERSION and [e.get("engine") for e in saved["journal"]] \
        == [4, 4, 4]
    again = Fight.from_json(RULES, saved)
    assert again.state == fight.state and again.to_json() == saved


def test_an_action_by_today_s_engine_leaves_a_revision_4_party_down_end_over() -> None:
    """A fight revision 4 ended with the party down stays over: a spell after the end,
    played by today's revision, does not open it again."""
    fight = Fight.from_json(RULES, json.loads(
        (DATA / "fight_party_down_r4.json").read_text(encoding="utf-8")))
    entry = fight.push(Cast("ケイ", "healing", ("ケイ",)), ScriptedDice([]))
    assert entry.engine == ENGINE
    assert fight.state.outcome is Outcome.PARTY_DOWN and fight.state.current is None
    with pytest.raises(IllegalAction, match="the fight is over"):
        fight.push(Attack("オーク", PC1), ScriptedDice([(6, 2)]))


def test_a_party_down_before_the_first_action_is_over_as_before() -> None:
    """A fight whose party is down on the sheets before it begins is over (`fight new`
    refuses it: GM-COMBAT-8), whatever the Default."""
    fight = Fight(RULES, entrants_for(RULES, [replace(preset(RULES, "pc1"), hp=0)],
                                      [("orc", 1)]))
    assert fight.state.outcome is Outcome.PARTY_DOWN and not fight.state.party_down_going_on


# --- fixg64b: the enemy leaving a fallen party, the tag of the finishing blow ---------------


def test_the_orc_fleeing_from_the_fallen_party_ends_the_fight_with_the_party_down() -> None:
    """GM-COMBAT-1 (review64g D1): the enemy all fled ends the fight (PG 4-1 「敵が全て…逃亡」),
    but over a party down it is 全滅, not "勝利 the party won"."""
    fight = felled_by_the_orc()
    flight = fight.push(Flee("オーク"), ScriptedDice([]))
    assert fight.state.outcome is Outcome.PARTY_DOWN and fight.state.current is None
    assert flight.lines[-1].text == "the fight is over: 全滅 the party is down"
    assert "勝利" not in flight.text


def test_the_party_down_outcome_holds_when_a_sleep_raises_the_fallen_after_the_end() -> None:
    """PC 2's Healing on itself spends its last MP (行動不能, GM-COMBAT-8), the Orc flees:
    全滅. A night's sleep after the end gives PC 2 its MP back; the fight ended as it
    ended, not a win after the fact."""
    fight = Fight(RULES, entrants_for(RULES, [replace(preset(RULES, "pc2"), hp=1, mp=4)],
                                      [("orc", 1)]))
    fight.push(Cast(PC2, "healing", (PC2,)), ScriptedDice([]))
    assert fight.state.party_down_going_on
    fight.push(Flee("オーク"), ScriptedDice([]))
    fight.push(Sleep(), ScriptedDice([]))
    assert fight.state.get(PC2).status is Status.ACTIVE
    assert fight.state.outcome is Outcome.PARTY_DOWN and fight.state.current is None
    again = Fight.from_json(RULES, json.loads(json.dumps(fight.to_json(), ensure_ascii=False)))
    assert again.state == fight.state


def test_the_last_pc_felling_the_last_foe_and_itself_is_still_a_win() -> None:
    """PC 2's Lightning (its last 4 MP, GM-MAGIC-11: Magic 6 × 2) kills the last foe and
    leaves PC 2 incapacitated in the same action: the party's own act won the fight, as
    every revision said; only an enemy leaving a party already down is 全滅."""
    mina = replace(preset(RULES, "pc2"), mp=4, spells=("healing", "lightning"))
    thief = replace(preset(RULES, "pc1"), name="盗賊", hp=1)
    fight = Fight(RULES, [Entrant.of_character(mina), Entrant.of_character(thief, Side.ENEMY)])
    entry = fight.push(Cast(PC2, "lightning", ("盗賊",)), ScriptedDice([]))
    assert fight.state.get(PC2).status is Status.INCAPACITATED
    assert fight.state.outcome is Outcome.PARTY_WON
    assert entry.lines[-1].text == "the fight is over: 勝利 the party won"


def test_the_gm_s_end_of_a_fight_whose_party_is_down_names_it_beside_the_end() -> None:
    """Display only (review64g): DECLARED, with the party's state beside it; the journal's
    line is the GM's declaration as before."""
    fight = felled_by_the_orc()
    end = fight.push(EndFight(), ScriptedDice([]))
    assert fight.state.outcome is Outcome.DECLARED
    assert fight.state.outcome_text == "終了 the GM ended the fight — 全滅 the party is down"
    assert [line.text for line in end.lines] == ["the GM declares the end of the fight"]


def test_the_blow_on_the_fallen_is_tagged_gm_combat_8_from_revision_5() -> None:
    """review64g N1: a hit with no defence roll names the rule that says so, GM-COMBAT-8 for
    the incapacitated (GM-COMBAT-5 for a full attacker, GM-MOVE-1 after a full move);
    revision 4 tagged each GM-COMBAT-5 and replays so. PC 2 is down from the start, PC 1
    waits, so the Orc's club (6) falls on PC 2 with the fight going in either revision."""
    party = [preset(RULES, "pc1"), replace(preset(RULES, "pc2"), hp=0)]
    for engine, rule in ((ENGINE, "GM-COMBAT-8"), (4, "GM-COMBAT-5")):
        fight = Fight(RULES, entrants_for(RULES, party, [("orc", 1)]))
        fight.push(Wait(PC1), ScriptedDice([]), engine=engine)
        blow = fight.push(Attack("オーク", PC2), ScriptedDice([(6, 6)]), engine=engine)
        assert (blow.lines[0].rule, blow.lines[0].text) == (
            rule, f"{PC2} cannot dodge (行動不能/incapacitated): the attack hits / 自動命中")
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    fight.push(Move(PC1, "full"), ScriptedDice([]))
    blow = fight.push(Attack("オーク", PC1), ScriptedDice([(6, 1)]))
    assert blow.lines[0].rule == "GM-MOVE-1" and "全力移動後/after a full move" in blow.text
