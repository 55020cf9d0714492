"""A table cast that leaves its caster below 1 MP is asked for first (GM-MAGIC-1 Default:
"a cast that leaves MP below 1 is warned of, then leaves the caster incapacitated"):
genso74 RISK 3, the warning came as a line of the cast already made, the caster out of the
fight (GM-COMBAT-8). A table journal from before the question replays as it was cast."""

from __future__ import annotations

from companion.app.session.controls import Question
from companion.app.session.host import replay
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Cast, Status, Wait
from tests.app.genso_ring_table_helpers import PC1, PC2, ringed_table
from tests.app.table import choices, played_keys

CAST = ("wait", "cast", "s:healing", f"t:{PC1}")


def test_a_cast_leaving_the_caster_below_1_mp_is_asked_first() -> None:
    """pc2 with 4 MP casts Healing (4 MP): asked before the cast is made; Back leaves it
    unmade, its yes makes it, the caster then incapacitated. Back is lit, as Undo's is
    (keys75 D1)."""
    mode = ringed_table(mp=4, rings_left=(), storage_mp=0)
    played_keys(mode, CAST, SimulatedDice.seeded(1))
    assert choices(mode) == ["back", "cast anyway"]
    ask = mode.ask()
    assert ask is not None and "falls below 1 MP and is incapacitated 行動不能" in ask.prompt
    assert "(MP 4 → 0) anyway?" in ask.prompt
    assert isinstance(ask, Question) and ask.highlight == 0
    assert len(mode.fight.journal) == 1 and mode.fight.state.get(PC2).mp == 4
    played_keys(mode, ("back",), SimulatedDice.seeded(1))
    assert f"t:{PC1}" in choices(mode) and len(mode.fight.journal) == 1
    played_keys(mode, (f"t:{PC1}", "cast anyway"), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,))
    caster = mode.fight.state.get(PC2)
    assert (caster.mp, caster.status) == (0, Status.INCAPACITATED)


def test_a_cast_the_ring_pays_is_not_asked() -> None:
    """With a Ring of Storage (GM-ITEM-3) the question follows the payment: own MP only
    leaves 0 and is asked; the ring's stored MP leaves own MP whole and is not."""
    mode = ringed_table(mp=4)
    played_keys(mode, (*CAST, "pay:mp"), SimulatedDice.seeded(1))
    assert choices(mode) == ["back", "cast anyway"]
    mode = ringed_table(mp=4)
    played_keys(mode, (*CAST, "pay:ring"), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,), None, None, True)
    assert mode.fight.state.get(PC2).mp == 4


def test_a_journal_from_before_the_question_replays_as_it_was_cast() -> None:
    """A table journal written before the question cast straight after the target, and
    went on with the next choice; or stopped there, its events counting the cast."""
    mode = ringed_table(mp=4, rings_left=(), storage_mp=0)
    for choice in (*CAST, "wait"):
        mode.restore(choice)
    cast, wait = (e.action for e in mode.fight.journal[-2:])
    assert cast == Cast(PC2, "healing", (PC1,)) and wait == Wait("オーク")
    mode = ringed_table(mp=4, rings_left=(), storage_mp=0)
    replay(mode, list(CAST), 2)
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,))
    mode = ringed_table(mp=4, rings_left=(), storage_mp=0)
    replay(mode, list(CAST), 1)  # a save of today's, stopped at the question
    assert choices(mode) == ["back", "cast anyway"] and mode.progress() == 1
