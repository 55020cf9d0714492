"""GM-COMBAT-1: a party that flees is not wiped out (table audit gc #3). 全滅 is said only
when no PC fled; every PC fled is 逃走 the party escaped; some fled and the rest down is an
outcome of its own, and like 全滅 it leaves the fight going until the GM ends it (GM-COMBAT-1
``party_down_ends_fight`` off, engine revision 5 on: the fallen are still on the field). The
outcome is judged from the combatants' states, so a fight file an older companion wrote (its
last line saying 全滅 for a fled party) loads and replays to it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems.genso.combat import (
    Attack,
    EndFight,
    Fight,
    Flee,
    Outcome,
    Status,
    Wait,
    entrants_for,
)
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def fight_of(rules: GensoRules = RULES, **pc2: object) -> Fight:
    party = [preset(rules, "pc1"), replace(preset(rules, "pc2"), **pc2)]  # type: ignore[arg-type]
    return Fight(rules, entrants_for(rules, party, [("orc", 1)]))


def test_every_pc_fleeing_unhurt_is_an_escape_not_a_wipe_out() -> None:
    fight = fight_of()
    fight.push(Flee(PC1), ScriptedDice([]))
    entry = fight.push(Flee(PC2), ScriptedDice([]))
    assert fight.state.outcome is Outcome.PARTY_FLED
    assert entry.lines[-1].text == "the fight is over: 逃走 the party escaped"
    assert "全滅" not in entry.text


ENDS = {"GM-COMBAT-1": {"party_down_ends_fight": True}}


@pytest.mark.parametrize("how", ["default on", "revision 4"])
def test_some_fled_and_the_rest_down_is_neither_a_wipe_out_nor_an_escape(how: str) -> None:
    """With GM-COMBAT-1 ``party_down_ends_fight`` on, or played by engine revision 4, the
    fight ends at once when some fled and the rest are down."""
    rules = RULES.with_overrides(ENDS) if how == "default on" else RULES
    fight = fight_of(rules, hp=0)  # PC 2 is down from the start (GM-COMBAT-8)
    assert fight.state.get(PC2).status is not Status.ACTIVE
    entry = fight.push(Flee(PC1), ScriptedDice([]), engine=4 if how == "revision 4" else None)
    assert fight.state.outcome is Outcome.PARTY_FLED_SOME_DOWN
    assert "逃走" in entry.lines[-1].text and "全滅" not in entry.text
    assert "the rest are down" in fight.state.outcome.text
    assert entry.lines[-1].text.startswith("the fight is over: ")


def test_some_fled_and_the_rest_down_goes_on_until_the_gm_ends_it() -> None:
    """GM-COMBAT-1 (fixg64b, PG 4-1: only the enemy's side and the GM's word end a fight):
    the fallen are still on the field when the others fled, so PC 1's flight does not
    shield PC 2 from the Orc's finishing blow (GM-COMBAT-8: no defence roll); the GM ends
    the fight, and the end names the party's state beside it."""
    fight = fight_of(hp=0)
    flight = fight.push(Flee(PC1), ScriptedDice([]))
    assert fight.state.outcome is None and fight.state.party_down_going_on
    assert fight.state.party_out is Outcome.PARTY_FLED_SOME_DOWN
    assert fight.state.current is not None and fight.state.current.name == "オーク"
    assert flight.lines[-1].text.startswith(
        "逃走 some escaped, the rest are down 一部が逃走、残りは戦闘不能: the fight goes on until "
        "the GM declares its end")
    blow = fight.push(Attack("オーク", PC2), ScriptedDice([(6, 6)]))
    assert blow.lines[0].text == f"{PC2} cannot dodge (行動不能/incapacitated): the attack hits" \
        " / 自動命中"
    assert fight.state.get(PC2).status is Status.DEAD and fight.state.outcome is None
    fight.push(EndFight(), ScriptedDice([]))
    assert fight.state.outcome is Outcome.DECLARED
    assert fight.state.outcome_text == ("終了 the GM ended the fight — 逃走 some escaped, the "
                                        "rest are down 一部が逃走、残りは戦闘不能")


def test_a_wights_kill_of_one_left_behind_is_played() -> None:
    """GM-MON-5: PC 2 lies down (HP 0) as PC 1 flees; the Wight's drain kills it where it
    lies (no die), and it will rise at sunset."""
    party = [preset(RULES, "pc1"), replace(preset(RULES, "pc2"), hp=0)]
    fight = Fight(RULES, entrants_for(RULES, party, [("wight", 1)]))
    fight.push(Flee(PC1), ScriptedDice([]))
    fight.push(Attack("ワイト", PC2), ScriptedDice([]))
    assert fight.state.get(PC2).status is Status.DEAD
    assert fight.state.get(PC2).rises_as == "ワイト" and fight.state.outcome is None


def test_the_orc_fleeing_from_the_one_left_behind_ends_it_so() -> None:
    """The enemy all fled ends the fight (PG 4-1), with the party's state: some fled and
    the rest down, not 勝利 (review64g D1)."""
    fight = fight_of(hp=0)
    fight.push(Flee(PC1), ScriptedDice([]))
    entry = fight.push(Flee("オーク"), ScriptedDice([]))
    assert fight.state.outcome is Outcome.PARTY_FLED_SOME_DOWN
    assert entry.lines[-1].text == ("the fight is over: 逃走 some escaped, the rest are down "
                                    "一部が逃走、残りは戦闘不能")


def test_a_party_down_with_none_fled_is_still_down() -> None:
    fight = fight_of(hp=0)
    state = fight.state
    pc1 = replace(state.get(PC1), status=Status.DEAD)
    down = replace(state, combatants=tuple(pc1 if c.name == PC1 else c
                                           for c in state.combatants))
    assert down.outcome is Outcome.PARTY_DOWN and down.outcome.text == "全滅 the party is down"


def test_a_fight_file_written_when_flight_was_called_a_wipe_out_still_loads() -> None:
    fight = fight_of()
    fight.push(Wait(PC1), ScriptedDice([]))
    fight.push(Flee(PC2), ScriptedDice([]))
    fight.push(Wait("オーク"), ScriptedDice([]))
    fight.push(Flee(PC1), ScriptedDice([]))
    old = json.loads(json.dumps(fight.to_json(), ensure_ascii=False)
                     .replace("逃走 the party escaped", "全滅 the party is down"))
    assert "全滅 the party is down" in json.dumps(old, ensure_ascii=False)
    again = Fight.from_json(RULES, old)
    assert again.state == fight.state and again.state.outcome is Outcome.PARTY_FLED
    assert again.to_json() == fight.to_json()  # written anew, it says what happened


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_fight_show_says_the_party_fled(user_dirs: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    run(capsys, "fight", "flee", PC1)
    fled = run(capsys, "fight", "flee", PC2)
    assert fled["entry"]["lines"][-1]["text"] == "the fight is over: 逃走 the party escaped"
    assert run(capsys, "fight", "show")["outcome"] == "party_fled"
    assert main(["genso", "fight", "show"]) == 0
    assert "over: 逃走 the party escaped" in capsys.readouterr().out
