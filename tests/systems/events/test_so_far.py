"""System `events` (spec §1): a walk whose dice run out hands its caller the steps so far.

The dice tray walks a table over the throws it has and asks for the next where the walk
stops; ``run_event``'s ``so_far`` is handed what was walked before (EV-POI-4's row and its
EV-POI-1 steps; EV-MON-1's row, under way while its count is awaited), and the same dice
walked whole still give the same report.
"""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice, SimulatedDice
from companion.systems.events.report import EventReport
from companion.systems.events.rules import EVENT_TABLES, load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member, load_rating_table

PARTY = (Member("Aki", adventurer=3, thief=3, dexterity=3, agility=2, vitality=2),
         Member("Ben", adventurer=2, sage=2, sorcerer=2, intelligence=3))
#: Ratings 0 and 5: DM Lv 1's (the Default) recovery and traps, an explosion resisted.
RATINGS = load_rating_table("rating,2,3,4,5,6,7,8,9,10,11,12\n"
                            "0,*,0,0,0,1,2,2,3,3,4,4\n5,*,0,1,1,2,3,4,4,5,5,6\n")


class OutOfDice(Exception):
    """The source has no die left (the tray's NeedDice, which the engine knows nothing of)."""


class Rolls:
    """The rolls given, one whole roll each (as the tray's throws are), then OutOfDice; each
    roll handed out is kept in ``given``."""

    def __init__(self, rolls: list[list[int]]) -> None:
        self.rolls = list(rolls)
        self.given: list[list[int]] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        if not self.rolls:
            raise OutOfDice(purpose)
        values = self.rolls.pop(0)
        assert len(values) == count and all(1 <= v <= sides for v in values)
        self.given.append(values)
        return values


class Recording(Rolls):
    """A seeded simulated source, each roll it gave kept in ``given``."""

    def __init__(self, seed: int) -> None:
        super().__init__([])
        self.dice = SimulatedDice.seeded(seed)

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        values = self.dice.roll(count, sides, purpose=purpose)
        self.given.append(values)
        return values


def stopped(table: str, rolls: list[list[int]], **kw: object) -> EventReport:
    """The report ``so_far`` is handed when the walk runs out after ``rolls``."""
    told: list[EventReport] = []
    with pytest.raises(OutOfDice):  # the source's own error goes on, not wrapped
        run_event(table, Rolls(rolls), so_far=told.append, **kw)  # type: ignore[arg-type]
    (report,) = told
    assert not report.finished
    return report


def test_a_poison_row_awaiting_its_duration_is_handed_on_as_walked() -> None:
    """EV-POI-4 row 6, its EV-POI-1 duration die awaited: the row (能力値±６/Ability ±6) and
    the EV-POI-1 steps before the duration are the first steps of the whole walk."""
    so_far = stopped("poison", [[6]], mode="generic")
    whole = run_event("poison", ScriptedDice([(6, 6), (6, 4), (4, 4), (6, 1)]), mode="generic")
    assert [s.rule for s in so_far.steps] == ["EV-POI-4", "EV-POI-1", "EV-POI-1"]
    assert "能力値±６/Ability ±6" in so_far.steps[0].text
    assert so_far.steps == whole.steps[:3] and so_far.under_way is None


def test_a_monster_row_awaiting_its_count_is_handed_on_under_way() -> None:
    """EV-MON-1 row 5 (level ±0, 1D6 of them), the count's die awaited: no step is written
    yet (the row's step says the count), so the row is handed on as the step under way, with
    its roll, level and the dice for how many; walked whole, the step is as it always was."""
    so_far = stopped("monster", [[5]], mode="generic")
    whole = run_event("monster", ScriptedDice([(6, 5), (6, 4)]), mode="generic")
    row = load_rules().tables["monster"].row_for(5)
    assert so_far.steps == ()
    under = so_far.under_way
    assert under is not None and under.rule == "EV-MON-1" and under.depth == 0
    assert under.text.startswith(f"モンスター/Monsters: (1D6) ＞ 5 ＞ {row['ja']} ＞ level-1 ")
    assert under.text.endswith("how many 何体: 1D6")
    assert under.roll == whole.steps[0].roll
    assert whole.steps[0].text == (
        f"モンスター/Monsters: (1D6) ＞ 5 ＞ {row['ja']} ＞ 1D6: (1D6) ＞ 4 ＞ 4 × level-1 "
        "monsters (DM Lv 1 (default) ± 0); the GM picks the species")


@pytest.mark.parametrize("mode", ["generic", "sw"])
@pytest.mark.parametrize("table", list(EVENT_TABLES))
def test_every_walk_stopped_short_is_the_start_of_the_whole_one(table: str, mode: str) -> None:
    """Every table, many dice: stopped after each roll, the steps handed on are the first of
    the whole walk's; and the whole walk with ``so_far`` given is the walk without it (the
    engine stays pure: the same dice, the same report)."""
    kw: dict[str, object] = {"mode": mode, "party": PARTY if mode == "sw" else ()}
    if mode == "sw":  # sw recovery reads its base power off the table (reviewe70 DEFECT 1)
        kw["rating_table"] = RATINGS
    for seed in range(12):
        source = Recording(seed)
        told: list[EventReport] = []
        whole = run_event(table, source, so_far=told.append, **kw)  # type: ignore[arg-type]
        assert not told and whole.finished and whole.under_way is None
        assert whole == run_event(table, SimulatedDice.seeded(seed), **kw)  # type: ignore[arg-type]
        for n in range(len(source.given)):
            so_far = stopped(table, source.given[:n], **kw)
            assert so_far.steps == whole.steps[:len(so_far.steps)], (seed, n)
            if so_far.under_way is not None:  # the row under way is the next step's start
                assert so_far.under_way.roll == whole.steps[len(so_far.steps)].roll
