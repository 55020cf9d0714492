"""Engine revision 10: CO-GRAP-2 (003 l.34 「敵のラウンド時にSTRにて対抗ロールが発生しこれに
負けると＜組みつき＞は解除される。」): the opposed STR roll happens by itself at the start of the
held one's turn, once a round and at no AP, the held side active (the spec's Default). Revision
9 made it a BreakFree action costing the 1 AP CO-GRAP-3 leaves the held one, so a held one that
punched never rolled; a fight played by revision 9 replays as it was played."""

from __future__ import annotations

import json

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import ENGINE, Attack, BreakFree, Delay, EndTurn, Fight, Grapple
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, push, replays
from tests.systems.coc.revision_9_grapple_helpers import (
    ANN,
    CULT,
    as_saved_by_revision_9,
    revision_9_fight,
)


def test_the_held_ones_str_roll_comes_at_the_start_of_its_turn_at_no_ap_003() -> None:
    """The audit's fight: Ann holds Cult; Cult's turn opens with STR 13 vs 13 (50%), lost at
    80, and Cult still has its 1 AP (CO-GRAP-3) to punch with; the next round's turn rolls
    again, and a 30 frees it, with the 3 AP of a turn out of the grapple."""
    f = duel(Profile.P003, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult"), (100, 10), (100, 80))
    assert "Cult STR 13 vs 13 (1d100<=50) ＞ 80 ＞ 失敗/failure (CO-CORE-3, CO-GRAP-2)" in text
    assert "Ann still holds Cult (CO-GRAP-2)" in text
    assert text.index("CO-GRAP-2") < text.index("Cult's turn: 1 AP (CO-TURN-3)")
    assert f.state.get("Cult").held_by == "Ann" and f.state.get("Cult").ap == 1
    push(f, Attack("Cult", "Ann"), (100, 90))  # its 1 AP: the punch misses; round 2
    text = push(f, EndTurn("Ann"), (100, 30))
    assert "Cult breaks free (CO-GRAP-2)" in text and "Cult's turn: 3 AP (CO-TURN-3)" in text
    assert f.state.get("Cult").held_by == "" and f.state.get("Ann").grappling == ""
    replays(f)


def test_the_roll_is_the_tables_with_its_reason_first_003() -> None:
    """The die is asked for as a turn start's roll (the table shows why it is rolled)."""
    f = duel(Profile.P003, ANN, CULT)
    asked: list[str] = []

    class Told(ScriptedDice):
        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            asked.append(purpose)
            return super().roll(count, sides, purpose=purpose)

    f.push(Grapple("Ann", "Cult"), Told([(100, 10), (100, 80)]))
    assert asked[-1] == ("start of Cult's turn 手番開始: Cult is held 組みつき (CO-GRAP-2) — "
                         "Cult STR 13 vs 13 (1D100<=50)")


def test_once_a_round_a_dex_half_turn_does_not_roll_again_003() -> None:
    """With CO-GRAP-3 off the held one keeps 3 AP and may delay: its DEX/2 turn that round
    takes no second roll (「敵のラウンド時に」: once a round)."""
    f = duel(Profile.P003, ANN, CULT, settings={"CO-GRAP-3": {"p003": "off"}})
    push(f, Grapple("Ann", "Cult"), (100, 10))
    push(f, EndTurn("Ann"), (100, 80))  # Cult's turn: the roll fails
    text = push(f, Delay("Cult"))  # its DEX/2 turn comes next, the last of the round
    assert "Cult acts at DEX/2 (5): 3 AP" in text and "STR" not in text
    assert f.state.current is not None and f.state.current.name == "Cult"
    assert f.state.get("Cult").half_dex and f.state.get("Cult").held_by == "Ann"


def test_no_break_free_action_in_003_but_with_each_turn_off() -> None:
    """The roll is no action: refused by name, before any die. CO-GRAP-2.each_turn = false
    plays the action as revision 9 did, at the Default ap."""
    f = duel(Profile.P003, ANN, CULT)
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 80))
    with pytest.raises(IllegalAction, match=r"Cult's STR roll to break free came by itself at "
                                            r"the start of its turn this round, at no AP "
                                            r"\(CO-GRAP-2\)"):
        f.push(BreakFree("Cult"), ScriptedDice([]))
    g = duel(Profile.P003, ANN, CULT, settings={"CO-GRAP-2": {"each_turn": False}})
    text = push(g, Grapple("Ann", "Cult"), (100, 10))
    assert "STR" not in text
    assert "Cult breaks free (CO-GRAP-2)" in push(g, BreakFree("Cult"), (100, 30))
    assert g.state.get("Cult").ap == 0


def test_004_keeps_its_own_try_on_its_turn() -> None:
    """CO-GRAP-6's Default is unchanged: no roll by itself; the restrained one's BreakFree."""
    f = duel(Profile.P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult"), (100, 10))
    assert "STR" not in text and f.state.current.name == "Cult"  # type: ignore[union-attr]
    assert "Cult breaks free (CO-GRAP-6)" in push(f, BreakFree("Cult"), (100, 30))


def test_a_revision_9_fight_replays_as_it_was_played() -> None:
    """Each entry replays by revision 9 with the lines it was saved with (a strict replay
    refuses any other); undo takes back the BreakFree; new actions follow revision 10, but
    the turn begun by revision 9 had no roll by itself: BreakFree makes it, at no AP, once
    (review60c R1)."""
    f = revision_9_fight()
    assert all("STR" not in e.text for e in f.journal[:3])
    data = as_saved_by_revision_9(f)
    again = Fight.from_json(load_rules(), data)
    assert [e.lines for e in again.journal] == [e.lines for e in f.journal]
    assert again.state == f.state and again.engine == ENGINE
    again.pop()
    assert again.state == f.states[-2]
    text = push(again, BreakFree("Cult"), (100, 80))  # the turn began by 9: no roll yet
    assert "Cult STR 13 vs 13 (1d100<=50) ＞ 80 ＞ 失敗/failure (CO-CORE-3, CO-GRAP-2)" in text
    assert again.state.get("Cult").ap == 1 and again.state.get("Cult").strain_round == 2
    with pytest.raises(IllegalAction, match="came by itself at the start of its turn this round"):
        again.push(BreakFree("Cult"), ScriptedDice([]))
    again.pop()
    resumed = Fight.from_json(load_rules(), data, playing_on=True)  # a table save's fight
    assert resumed.engine == 9
    resumed.pop()
    assert "CO-GRAP-2" in push(resumed, BreakFree("Cult"), (100, 80))
    replays(f)


def test_a_held_cult_mid_turn_in_a_revision_9_file_still_rolls_once_that_round() -> None:
    """review60c R1's case: a revision-9 fight saved as Cult's round-2 turn begins (held, no
    roll by itself then), continued by this revision: BreakFree is the round's STR roll, at
    no AP and with no reason of a turn's start; Cult, free, keeps its 1 AP to punch with."""
    f = at(9, duel(Profile.P003, ANN, CULT))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    push(f, Attack("Cult", "Ann"), (100, 90))
    push(f, EndTurn("Ann"))  # round 2: Cult's turn begins by revision 9
    data = as_saved_by_revision_9(f)
    g = Fight.from_json(load_rules(), data)
    assert g.state.current.name == "Cult" and g.state.get("Cult").ap == 1  # type: ignore[union-attr]
    asked: list[str] = []

    class Told(ScriptedDice):
        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            asked.append(purpose)
            return super().roll(count, sides, purpose=purpose)

    g.push(BreakFree("Cult"), Told([(100, 30)]))
    assert "Cult breaks free (CO-GRAP-2)" in g.journal[-1].text
    assert asked == ["Cult STR 13 vs 13 (1D100<=50)"]
    assert g.state.get("Cult").held_by == "" and g.state.get("Cult").ap == 1
    assert g.journal[-1].engine == ENGINE
    replays(g)


def fallen_held_cult(engine: int) -> Fight:
    """Ann holds Cult; Cult's 1-AP punch fumbles (CO-MELEE-4: it falls and loses next round's
    actions); played by ``engine``."""
    f = at(engine, duel(Profile.P003, ANN, CULT))
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 80))
    text = push(f, Attack("Cult", "Ann"), (100, 99))
    assert "fumble: Cult falls and loses next round's actions (CO-MELEE-4)" in text
    return f


def test_a_fallen_held_one_still_rolls_str_on_its_skipped_turn_003() -> None:
    """review60c R2: the fumble takes away the choice of actions, not the roll that happens by
    itself (003 l.34 「発生し」): in round 2 Cult is skipped, after its STR roll, which frees it
    at 30 (from revision 12); and once a round still."""
    f = fallen_held_cult(ENGINE)
    text = push(f, EndTurn("Ann"), (100, 30))
    assert text.index("Cult STR 13 vs 13 (1d100<=50) ＞ 30 ＞ 成功/success") \
        < text.index("Cult is skipped (cannot act)") < text.index("round 3")
    assert "Cult breaks free (CO-GRAP-2)" in text
    assert f.state.get("Cult").held_by == "" and f.state.get("Ann").grappling == ""
    replays(f)
    g = fallen_held_cult(ENGINE)
    text = push(g, EndTurn("Ann"), (100, 80))
    assert "Ann still holds Cult (CO-GRAP-2)" in text and text.count("STR") == 1
    replays(g)


def test_a_revision_11_fight_skips_the_fallen_held_ones_roll_as_it_was_played() -> None:
    """Revision 11 skipped the roll with the turn; its fight replays so (no die asked)."""
    f = fallen_held_cult(11)
    text = push(f, EndTurn("Ann"))
    assert "STR" not in text and "Cult is skipped (cannot act)" in text
    assert f.state.get("Cult").held_by == "Ann"
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert [e.lines for e in again.journal] == [e.lines for e in f.journal]
    assert [e.engine for e in again.journal] == [11, 11, 11]
