"""fixgenso71b, the review of fixgenso71 (reviewg71): the genso table's fighter the calendar
records dead of a Death Curse (呪殺呪, GM-MAGIC-13)."""

from __future__ import annotations

import pytest

from tests.genso71_helpers import PC1, PC2, keys, pc1_dies, pick, table

# --- DEFECT 1 ------------------------------------------------------------------------------


def test_a_monster_named_as_a_recorded_death_is_a_new_one_and_acts(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """A Death Curse recorded on the orc of an earlier fight (by its fighter's name,
    `オーク`): this fight's orc is another, and acts, rolls, and is the other side."""
    pc1_dies(capsys, "オーク")
    mode = table()
    ask = pick(mode, "wait", "wait")
    assert mode.fight.state.current is not None and mode.fight.state.current.name == "オーク"
    assert "attack" in keys(ask) and "what now?" in str(getattr(ask, "prompt", ""))
    orc = mode.fight_view().fighters[2]
    assert orc.name.ja == "オーク" and not orc.down and not orc.conditions
    mode.path = ["check", "c:opposed", f"t:{PC1}"]
    assert keys(mode.ask()) == [f"t:{PC2}", "t:オーク", "back"]
