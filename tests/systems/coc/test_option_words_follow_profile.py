"""The coc engine's option words as the profile has them, dropped weapons, Entry.own.

reviewcoc67's findings in the coc rules engine (seeds 003/004, spec §3):

- DEFECT 1: a weapon dropped by a 003 arm called shot (CO-CALL-1) was refused as "dropped
  (CO-FIRE-4)"; the refusal now names picking it up's rule, whatever dropped it.
- RISK 1 (the engine's part): an entry marks where the action's own lines end
  (:attr:`Entry.own`); what follows hands the turn over, ends the round, starts the next.
- RISK 2: the SAN-loss reading past SAN 0 (CO-BASE-13) is listed as a fixed reading.
- NIT 1: the words offered follow the profile: 003's MA options off say so; 004's fumble
  word with CO-MELEE-4 off is refused (revision 16), not taken and ignored.
- NIT 6: revision-14 surprises and bursts replay without revision 15's new lines.
"""

from __future__ import annotations

import json

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    EndTurn,
    Fight,
    PickUp,
    Tackle,
)
from companion.systems.coc.combat.actions import TACKLE_OPTIONS
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.defaults import fixed_readings
from tests.systems.coc.helpers import (
    MA,
    at,
    duel,
    kill_then_dying_roll_003,
    push,
    refused,
)

P003, P004 = Profile.P003, Profile.P004


# --- DEFECT 1: dropped by an arm hit (CO-CALL-1) ---------------------------------------------

def test_defect1_a_knife_dropped_by_an_arm_hit_names_the_pick_up_not_a_firearm_rule() -> None:
    """003: Ann's revolver hits Cult's arm, Cult fails STR×5 and drops its knife
    (CO-CALL-1); Cult's attack with it is refused naming how to pick it up (1 AP,
    CO-FIRE-4), not "dropped (CO-FIRE-4)", a firearm's fumble it never had."""
    f = duel(P003, {"weapons": ("revolver",), "handgun": 90},
             {"weapons": ("knife",), "knife": 50})
    text = push(f, Attack("Ann", "Cult", called="arm"), (100, 18), (10, 10), (100, 98))
    assert "Cult drops ナイフ/Knife (CO-CALL-1)" in text
    push(f, EndTurn("Ann"))
    with pytest.raises(IllegalAction) as refusal:
        f.push(Attack("Cult", "Ann"), ScriptedDice([]))
    assert str(refusal.value) == ("ナイフ/Knife is dropped 落とした: pick it up first (1 AP, "
                                  "CO-FIRE-4; act pick_up Cult --with weapon=0)")
    # The way out named is the one there is: picking it up, as it said.
    assert push(f, PickUp("Cult", 0)).startswith("Cult picks up ナイフ/Knife (1 AP, CO-FIRE-4)")


# --- RISK 1: the action's own lines and the hand-over (Entry.own) -----------------------------

def test_risk1_a_kill_before_the_rounds_end_marks_the_death_as_its_own() -> None:
    """003: Cult, the round's last, kills Ann; the next round's start (its "begins" line and
    Bob's CON×5), the new round and Zed's turn come after the action's own lines."""
    f = kill_then_dying_roll_003()
    entry = f.journal[-1]
    assert entry.own is not None
    assert entry.lines[entry.own - 1] == "Ann dies: HP below −2 (CO-DEATH-1)"
    assert entry.lines[entry.own] == "round 2 begins 第2ラウンド開始"
    assert entry.lines[entry.own + 1].startswith("Bob CON×5 (1D100<=60)")
    assert entry.lines[-1] == "Zed's turn: 3 AP (CO-TURN-3)"
    # An action that keeps the turn hands nothing over; ending it hands over at once.
    assert f.journal[-4].own == len(f.journal[-4].lines)
    assert f.journal[0].lines[:f.journal[0].own] == ("Ann ends the turn",)
    # Replayed from the file, the mark is the same (it is worked out, never saved).
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert [e.own for e in again.journal] == [e.own for e in f.journal]


# --- RISK 2: the SAN-loss reading is listed (CO-BASE-13) --------------------------------------

def test_risk2_the_loss_past_san_0_is_a_listed_reading() -> None:
    rules = load_rules(P004)
    readings = fixed_readings("companion.systems.coc", rules.defaults)
    line = readings["CO-BASE-13"]
    assert "costs only what was left" in line and "INT×5" in line and "5 or more" in line


# --- NIT 1: the words offered follow the profile ----------------------------------------------

@pytest.mark.parametrize("word", ["follow-up", "forced_", "xyz"])
def test_nit1_003s_ma_options_are_off_and_a_wrong_one_says_so(word: str) -> None:
    f = duel(P003, MA)
    refused(f, Attack("Ann", "Cult", ma=True, ma_option=word),
            rf"^ma_option '{word}': the MA options forced \(必中, CO-MA-3\) and follow_up "
            r"\(追撃, CO-MA-4\) are off in this profile: leave it out$")
    refused(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up"),
            r"^the MA option follow_up \(追撃\) is CO-MA-4, off in this profile$")


@pytest.mark.parametrize("word", ["fall", "break", "brake"])
def test_nit1_004s_fumble_word_with_co_melee_4_off_is_refused(word: str) -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 50})
    refused(f, Attack("Ann", "Cult", fumble=word),
            rf"^fumble '{word}': a fumble's fall \(転倒\) or break \(武器破損\) is CO-MELEE-4, "
            r"off in this profile: leave it out$")


def test_nit1_revision_15_still_plays_004s_fumble_word_as_nothing() -> None:
    """A revision-15 entry with fumble=break in 004 (CO-MELEE-4 off) replays as played: the
    fumble itself, and no break."""
    f = at(15, duel(P004, {"weapons": ("knife",), "knife": 50}))
    text = push(f, Attack("Ann", "Cult", fumble="break"), (100, 99))
    assert "fumble" in text.lower() and "breaks" not in text
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert again.journal[-1].engine == 15 < ENGINE and again.state == f.state


def test_nit3_the_tackle_options_are_one_table() -> None:
    """The refusal lists what :data:`TACKLE_OPTIONS` holds, with its Japanese and rule."""
    f = duel(P004, {"tackle": 70})
    listed = " or ".join(f"{word} ({ja}, {rule})" for word, (ja, rule) in TACKLE_OPTIONS.items())
    with pytest.raises(IllegalAction) as refusal:
        f.push(Tackle("Ann", "Cult", option="blow"), ScriptedDice([]))
    assert listed in str(refusal.value)


# --- NIT 6: revision 14's surprise and burst replay without revision 15's lines ---------------

def test_nit6_a_revision_14_surprise_replays_without_the_luck_terms_line() -> None:
    f = at(14, duel(P004, {"weapons": ("knife",), "knife": 60, "hide": 95}))
    text = push(f, Attack("Ann", "Cult", surprise="hide"), (100, 40), (100, 20), (4, 3),
                (4, 2), (100, 70))
    assert "Cult looks for Ann" in text and "幸運/Luck: base" not in text
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert again.journal[-1].lines == f.journal[-1].lines and again.journal[-1].engine == 14


def test_nit6_a_revision_14_burst_past_the_rounds_loaded_replays_without_the_cap_note() -> None:
    f = at(14, duel(P004, {"weapons": ({"key": "smg", "loaded": 5},), "smg": 60}))
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 30), (20, 15), *((10, 1),) * 5)
    assert "1D20=15 ＞ 5 hit(s) (CO-FIRE-8)" in text and "only 5 loaded" not in text
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert again.journal[-1].lines == f.journal[-1].lines and again.journal[-1].engine == 14
