"""GM-MAGIC-3 「武器に付与」, GM-MON-2, GM-MAGIC-4: Exorcism cast on one of two weapons of a kind
is on that weapon alone (engine revision 10, a78gensofight item 2). Revision 9 kept the
weapon's key, so the club never enchanted harmed a Wight (「通常攻撃は無効」) and a Dispel on
either club cancelled it; a fight of revision 9 resumes and replays as it was played."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from companion.dice import ScriptedDice
from companion.systems.genso.combat import Attack, Cast, Entry, Fight, Wait, entrants_for
from companion.systems.genso.combat.journal import ENGINE
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PRIEST, FIGHTER, WIGHT = "一般的な神官（女性）", "駆け出し冒険者１", "ワイト"


def _fight(engine: int = ENGINE) -> Fight:
    """pc1 with two clubs and a priest against a Wight; the priest's turn, pc1 waited."""
    party = [replace(preset(RULES, "pc1"), weapons=("club", "club")), preset(RULES, "priest_f")]
    fight = Fight(RULES, entrants_for(RULES, party, [("wight", 1)]))
    fight.push(Wait(FIGHTER), ScriptedDice([]), engine=engine)
    return fight


def _exorcise_club_0(fight: Fight, engine: int) -> None:
    """The priest's Exorcism on pc1's club 0, the Wight waits: pc1's turn."""
    fight.push(Cast(PRIEST, "exorcism", (FIGHTER,), weapon=0), ScriptedDice([]), engine=engine)
    fight.push(Wait(WIGHT), ScriptedDice([]), engine=engine)


def _club_1_hits(fight: Fight, engine: int) -> Entry:
    """pc1 at the Wight with club 1, the dice a sure hit (6, 6) and 3 damage."""
    return fight.push(Attack(FIGHTER, WIGHT, weapon=1),
                      ScriptedDice([(6, 6), (6, 6), (6, 3)]), engine=engine)


def _resumed(fight: Fight) -> Fight:
    return Fight.from_json(RULES, json.loads(json.dumps(fight.to_json())))


def test_exorcism_on_club_0_leaves_club_1_normal() -> None:
    """The Wight is immune to club 1 after the cast on club 0, and club 0 harms it; the row
    names which club carries it."""
    fight = _fight()
    _exorcise_club_0(fight, ENGINE)
    entry = _club_1_hits(fight, ENGINE)
    assert "immune to normal attacks (通常攻撃無効): 棍棒/Club does nothing" in entry.text
    assert fight.state.get(WIGHT).hp == 6
    assert fight.state.get(FIGHTER).enchanted(0) and not fight.state.get(FIGHTER).enchanted(1)
    effect = fight.state.get(FIGHTER).effects[0]
    assert fight.state.get(FIGHTER).weapon_label(effect) == "club 0"
    assert _resumed(fight).state == fight.state


def test_dispel_on_club_1_leaves_club_0s_exorcism() -> None:
    """GM-MAGIC-4 on weapon 1 finds no spell there; on weapon 0 it cancels the Exorcism."""
    fight = _fight()
    _exorcise_club_0(fight, ENGINE)
    fight.push(Wait(FIGHTER), ScriptedDice([]))
    entry = fight.push(Cast(PRIEST, "dispel", (FIGHTER,), weapon=1), ScriptedDice([]))
    assert f"no spell on {FIGHTER}'s 棍棒/Club can be cancelled" in entry.text
    assert fight.state.get(FIGHTER).enchanted(0)


def test_a_revision_9_fight_resumes_and_replays_as_played() -> None:
    """Entries of revision 9 (a file of version 9) put the Exorcism on every club: club 1
    harmed the Wight then, and does on the resume; what is played on follows revision 10
    only for spells cast from then on."""
    fight = _fight(9)
    _exorcise_club_0(fight, 9)
    hit = _club_1_hits(fight, 9)
    assert fight.state.get(WIGHT).hp == 3
    data: dict[str, Any] = json.loads(json.dumps(fight.to_json()))
    for entry in data["journal"]:  # as revision 9 saved it: the file's version, no "engine"
        assert entry.pop("engine") == 9
    data["version"] = 9
    resumed = Fight.from_json(RULES, data)
    assert resumed.journal[-1].lines == hit.lines and resumed.state == fight.state
    assert resumed.state.get(FIGHTER).enchanted(1)
