"""GM-COMBAT-1 at the genso table (fixg64): with the party down (全滅) the fight goes on
(PG 4-1: only the enemy's side and the GM's word end it), so the table asks the GM once,
as a guarded :class:`Question`: "The party is down: end the fight? 全滅: 戦闘終了？". Yes is
the GM's End fight; no (lit, on Back's button) plays on, the monster's menu saying how to
end it later. An undo of the fall asks again. A table save of engine revision 4, whose
fight ended at the fall and went on to its fight-over menu, resumes as it was played.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.app.session.controls import Question
from companion.dice import SimulatedDice
from companion.systems.genso.combat import EndFight, Fight, Outcome, Status, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import Player, asked, choices, played_keys

RULES = load_rules()
DATA = Path(__file__).parents[1] / "systems" / "genso" / "data"
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
QUESTION = ("The party is down: end the fight? 全滅: 戦闘終了？ (ＧＭは戦闘終了を宣言する; no: "
            "the fight goes on)")
#: PC 1 waits; the Orc's club hits it (its defence 1+1, the club's 6): HP 1 → −5, 行動不能.
FELLED = ("wait", "attack", f"t:{PC1}", "1,1", "6")


def felled() -> GensoFightMode:
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [replace(preset(RULES, "pc1"), hp=1)], [("orc", 1)])))
    for key in FELLED:
        mode.restore(key)
    assert mode.fight.state.party_down_going_on
    return mode


def test_the_party_down_asks_whether_to_end_the_fight_and_yes_ends_it() -> None:
    mode = felled()
    ask = asked(mode)
    assert isinstance(ask, Question) and ask.prompt == QUESTION and ask.highlight == 0
    assert [(o.choice, o.label, o.button.name if o.button else None) for o in ask.options] \
        == [("play on", "No, play on いいえ、続行", "FLEE"),
            ("end", "Yes, end it はい、終了", None)]
    mode.restore("end")
    assert mode.fight.journal[-1].action == EndFight()
    assert mode.fight.state.outcome is Outcome.DECLARED
    assert asked(mode).prompt.startswith("The fight is over 戦闘終了: 終了 the GM ended the fight")


def test_no_plays_on_the_orc_finishes_the_fallen_and_the_question_is_not_asked_again() -> None:
    mode = felled()
    mode.restore("play on")
    assert mode.fight.journal[-1].action != EndFight() and len(mode.fight.journal) == 2
    menu = asked(mode)
    assert menu.prompt == ("オーク Orc: what now? 行動は？ 全滅 party down: GM → End fight ends "
                           "the fight")
    for key in ("attack", f"t:{PC1}", "6"):  # no defence roll: 行動不能 (GM-COMBAT-8)
        mode.restore(key)
    assert mode.fight.state.get(PC1).status is Status.DEAD
    assert "cannot dodge (行動不能/incapacitated)" in mode.fight.journal[-1].text
    # The Orc's menu again, not the question (no Attack: nobody is left to strike)
    assert not isinstance(asked(mode), Question) and "wait" in choices(mode)
    for key in ("gm", "end?", "end"):
        mode.restore(key)
    assert mode.fight.state.outcome is Outcome.DECLARED


def test_an_undone_fall_is_asked_again_when_it_falls_anew() -> None:
    """PC 1 (1 HP) attacks the Wight all out (全力攻撃: it cannot dodge, GM-COMBAT-5); the
    Wight's drain then hits it with no die thrown (GM-MON-4): HP −5, 行動不能. The GM plays
    on, then undoes the drain; the drain again is a new fall, asked again."""
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [replace(preset(RULES, "pc1"), hp=1)], [("wight", 1)])))
    played_keys(mode, ("full", "t:ワイト", "w:0"), SimulatedDice.seeded(1))
    drain = ("attack", f"t:{PC1}")
    played_keys(mode, drain, SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].dice == ()
    assert mode.fight.state.party_down_going_on and asked(mode).prompt == QUESTION
    mode.restore("play on")
    for key in ("gm", "undo?", "undo"):
        mode.restore(key)
    assert not mode.fight.state.party_down_going_on
    played_keys(mode, drain, SimulatedDice.seeded(1))
    assert mode.fight.state.party_down_going_on and asked(mode).prompt == QUESTION


def test_a_party_up_again_and_down_anew_is_asked_again() -> None:
    """PC 2's Healing on itself spends its last MP (行動不能, GM-COMBAT-8; the cast asked first,
    genso74 RISK 3): asked, the GM plays on; a night's sleep (GM-HEAL-2) gives PC 2 its MP
    back, and the Orc fells it by its HP: the fall is a new one, asked again."""
    pc2 = replace(preset(RULES, "pc2"), hp=1, mp=4)
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, [pc2], [("orc", 1)])))
    played_keys(mode, ("cast", "s:healing", f"t:{PC2}", "cast anyway"), SimulatedDice.seeded(1))
    assert mode.fight.state.get(PC2).status is Status.INCAPACITATED
    assert asked(mode).prompt == QUESTION
    mode.restore("play on")
    for key in ("gm", "sleep"):
        mode.restore(key)
    state = mode.fight.state
    assert state.get(PC2).status is Status.ACTIVE and not state.party_down_going_on
    for _ in range(4):  # the Orc's club, 6 a hit (its defence 1+1); PC 2 waits between
        current = mode.fight.state.current
        assert current is not None and not mode.fight.state.party_down_going_on
        for key in (("attack", f"t:{PC2}", "1,1", "6") if current.name == "オーク"
                    else ("wait",)):
            mode.restore(key)
        if mode.fight.state.party_down_going_on:
            break
    assert mode.fight.state.party_down_going_on and asked(mode).prompt == QUESTION


def test_a_table_stopped_after_playing_on_resumes_at_the_orcs_menu(tmp_path: Path) -> None:
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    write_fight_file(fight, Fight(RULES, entrants_for(
        RULES, [replace(preset(RULES, "pc1"), hp=1)], [("orc", 1)])))
    # seed 2 throws the defence 1,1 and the club's 1: HP 1 → 0, 行動不能
    session = table_session(RULES, fight, state, resume=False, seed=2,
                            choices=Player(["wait", "attack", f"t:{PC1}", "play on"]))
    try:
        session.run()
    except KeyboardInterrupt:  # the script ran out: the power goes
        pass
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.journal == ["wait", "attack", f"t:{PC1}", "1,1", "1", "play on"]
    again = table_session(RULES, fight, state, resume=True, seed=None, choices=Player([]))
    try:
        again.run()
    except KeyboardInterrupt:
        pass
    mode = again.mode
    assert isinstance(mode, GensoFightMode) and mode.journal == session.mode.journal
    assert mode.fight.state.party_down_going_on and "attack" in choices(mode)


def test_a_revision_4_table_whose_party_fell_resumes_over_as_played(tmp_path: Path) -> None:
    """table_party_down_r4.json: the table of engine revision 4 played PC 1's wait, the
    Orc's felling blow (the fight over: 全滅) and a night's sleep from the fight-over menu,
    then stopped. Resumed, it plays on by revision 4: the fight over, the sleep replayed,
    the fight-over menu again, the fight file's entries as the table left them (each now
    naming revision 4)."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    shutil.copyfile(DATA / "table_party_down_r4_fight.json", fight)
    saved = json.loads((DATA / "table_party_down_r4.json").read_text(encoding="utf-8"))
    assert saved["inputs"][-1] == "sleep" and saved["fight"]["version"] == 4
    saved["fight_path"] = str(fight.resolve())
    state.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    on_file = json.loads(fight.read_text(encoding="utf-8"))
    told: list[str] = []
    session = table_session(RULES, fight, state, resume=True, seed=None, choices=Player([]),
                            tell=told.append)
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    mode = session.mode
    assert isinstance(mode, GensoFightMode) and mode.fight.engine == 4
    assert mode.journal == saved["inputs"] and len(mode.fight.journal) == 3
    assert mode.fight.state.outcome is Outcome.PARTY_DOWN
    assert asked(mode).prompt.startswith("The fight is over 戦闘終了: 全滅 the party is down")
    written = json.loads(fight.read_text(encoding="utf-8"))
    assert written == mode.fight.to_json()
    assert [e.get("engine") for e in written["journal"]] == [4, 4, 4]
    assert [e["lines"] for e in written["journal"]] == [e["lines"] for e in on_file["journal"]]
    assert not list(tmp_path.glob("table.json.corrupt*")) and not told


# --- fixg64b -----------------------------------------------------------------------------


def test_yes_ends_it_and_the_fight_over_screen_names_the_party_down() -> None:
    """review64g: the GM's end names 全滅 beside it, on the prompt, the heading and the
    closing line (display only: the journal's line is the GM's declaration)."""
    mode = felled()
    mode.restore("end")
    said = "終了 the GM ended the fight — 全滅 the party is down"
    assert asked(mode).prompt.startswith(f"The fight is over 戦闘終了: {said}")
    assert mode.fight_view().outcome == said
    assert mode.closing().startswith(f"The fight is closed 戦闘終了: {said}")
    assert mode.fight.journal[-1].text.endswith("the GM declares the end of the fight")


def test_a_wights_kill_after_yes_end_it_rises_at_sunset_from_the_fight_over_menu() -> None:
    """review64g R1: the Wight drains PC 1 down (the GM plays on), then kills it where it
    lies (GM-MON-5); "Yes, end it" is not asked again, so the GM ends it from its menu; the
    fight-over menu has Sunset, as `fight sunset` plays it after the end, and PC 1 rises."""
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [replace(preset(RULES, "pc1"), hp=1)], [("wight", 1)])))
    played_keys(mode, ("full", "t:ワイト", "w:0"), SimulatedDice.seeded(1))
    played_keys(mode, ("attack", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert asked(mode).prompt == QUESTION
    mode.restore("play on")
    played_keys(mode, ("attack", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert mode.fight.state.get(PC1).rises_as == "ワイト"
    for key in ("gm", "end?", "end"):
        mode.restore(key)
    assert choices(mode) == ["close", "undo?", "sleep", "sunrise", "sunset", "check"]
    mode.restore("sunset")
    assert mode.fight.journal[-1].lines[0].text == f"{PC1} rises as ワイト's kind"
    assert mode.fight.state.get(PC1).rises_as == "" and mode.fight.state.current is None


def test_with_every_pc_dead_the_monster_is_offered_no_attack() -> None:
    """review64g N2: the Orc's finishing blow kills PC 1; with no one left to strike, its
    menu has no Attack (it led to an empty "Attack whom?"), only what it can still do."""
    mode = felled()
    mode.restore("play on")
    for key in ("attack", f"t:{PC1}", "6"):
        mode.restore(key)
    assert mode.fight.state.get(PC1).status is Status.DEAD
    assert mode.fight.state.party_down_going_on
    offered = choices(mode)
    assert "attack" not in offered and "full" not in offered
    assert {"wait", "gm", "flee?"} <= set(offered)


def test_some_fled_and_the_rest_down_asks_the_same_question() -> None:
    """GM-COMBAT-1 (fixg64b): PC 2 lies down (HP 0) and PC 1 flees: the fallen are still on
    the field, the fight goes on, and the GM is asked once, in the same words for the
    party's state; no plays on, the Orc's menu saying how to end it."""
    party = [preset(RULES, "pc1"), replace(preset(RULES, "pc2"), hp=0)]
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, party, [("orc", 1)])))
    for key in ("flee?", "flee"):
        mode.restore(key)
    ask = asked(mode)
    assert isinstance(ask, Question) and ask.prompt == (
        "Some fled, the rest are down: end the fight? 一部逃走: 戦闘終了？ "
        "(ＧＭは戦闘終了を宣言する; no: the fight goes on)")
    assert [o.choice for o in ask.options] == ["play on", "end"]
    mode.restore("play on")
    assert asked(mode).prompt == ("オーク Orc: what now? 行動は？ 一部逃走 some fled, the rest "
                                  "down: GM → End fight ends the fight")
    for key in ("attack", f"t:{PC2}", "6"):  # no defence roll: 行動不能 (GM-COMBAT-8)
        mode.restore(key)
    assert mode.fight.state.get(PC2).status is Status.DEAD
    for key in ("gm", "end?", "end"):
        mode.restore(key)
    assert mode.fight_view().outcome == ("終了 the GM ended the fight — 逃走 some escaped, the "
                                         "rest are down 一部が逃走、残りは戦闘不能")
