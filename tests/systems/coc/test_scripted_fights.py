"""Scripted fights, one per profile: grapple → choke, a burst of fire with reloading, a
martial-arts combination roll with a partial success, a parry that breaks a weapon, a lost
body part (004) and a death; each replayed from its log with identical results."""

from __future__ import annotations

from companion.dice import ScriptedDice
from companion.systems.coc.combat import Fight, Side
from companion.systems.coc.rules import load_rules
from tests.systems.coc.scripted_fight_helpers import fight_003, fight_004, play


def replayed(fight: Fight) -> Fight:
    again = Fight.from_json(load_rules(), fight.to_json())
    assert again.state == fight.state
    assert [e.lines for e in again.journal] == [e.lines for e in fight.journal]
    assert again.opening.lines == fight.opening.lines
    return again


def test_scripted_fight_003() -> None:
    """CO-MA-1 partial, CO-MA-2 grapple → choke, CO-DEATH-1 death, CO-FIRE-6 burst and
    CO-FIRE-1 reload, CO-PARRY-1 a parry that breaks the shinai, CO-MELEE-4 a broken sword."""
    fight, steps = fight_003()
    play(fight, steps)
    log = "\n".join(e.text for e in fight.journal)
    for rule in ("CO-MA-1", "CO-MA-2", "CO-DEATH-1", "CO-FIRE-6", "CO-FIRE-1", "CO-PARRY-1",
                 "CO-MELEE-4"):
        assert rule in log, rule
    state = fight.state
    assert "部分的成功/partial success" in fight.journal[0].text
    assert state.get("Cult").dead and state.get("Ann").grappling == ""
    assert state.get("Bob").sheet.weapons[0].loaded == 20
    assert state.get("Bob").sheet.weapons[1].broken and state.get("Bob").hp == 11
    assert state.get("Deep").sheet.weapons[0].broken
    deep = state.get("Deep")
    assert deep.hp == -2 and deep.unconscious and not deep.dead
    assert state.outcome() is Side.INVESTIGATORS and state.order == ()
    replayed(fight)


def test_scripted_fight_004() -> None:
    """CO-BASE-6 partial, CO-FIRE-8 burst with CO-DODGE-7 and CO-BASE-12 reload, CO-PARRY-4
    with CO-WEAP-1 breaking the blackjack, CO-BODY-2/5/6 a lost arm, CO-GRAP-6/7 grapple →
    choke, CO-BASE-8 a death at the end of the next round."""
    fight, steps = fight_004()
    play(fight, steps)
    log = "\n".join(e.text for e in fight.journal)
    for rule in ("CO-BASE-6", "CO-FIRE-8", "CO-DODGE-7", "CO-BASE-12", "CO-PARRY-4",
                 "CO-WEAP-1", "CO-BODY-2", "CO-BODY-5", "CO-BODY-6", "CO-GRAP-6", "CO-GRAP-7",
                 "CO-BASE-8"):
        assert rule in log, rule
    state = fight.state
    assert "部分的成功/partial success" in fight.journal[0].text
    cult = state.get("Cult")
    assert cult.sheet.weapons[0].broken and cult.hp == 1 and cult.unconscious
    deep = state.get("Deep")
    assert deep.lost == ("arm",) and deep.dead and deep.hp == -4
    assert (deep.sheet.stat("STR"), deep.sheet.stat("SIZ"), deep.sheet.stat("DEX")) == (11, 12, 6)
    assert state.get("Boss").hp == 24 and state.get("Boss").held_by == "Bob"
    assert state.get("Bob").sheet.weapons[0].loaded == 20
    assert state.round == 5
    replayed(fight)
    # Undo the last step and play it again: the same result.
    last = fight.journal[-1]
    fight.pop()
    fight.push(last.action, ScriptedDice(last.dice))
    assert fight.state == state
