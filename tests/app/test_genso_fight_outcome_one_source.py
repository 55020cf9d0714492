"""fixgenso71f: the genso table's public words and outcome that `companion genso fight` says
(GM-COMBAT-1, GM-MAGIC-13), one source for both: :meth:`GensoFightMode.outcome_at_end`, the
sides' state at the GM's end as a result beside the table's words (the command line split
the words to find it), and :meth:`GensoFightMode.acts_no_more`, the dead's turn (it read the
table's private menu)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.commands.genso.fights import at_the_end, calendar_view, fight_status
from companion.app.modes.genso.words import FOES_OUT
from companion.systems.genso.combat import Outcome
from tests.app.genso_death_curse_helpers import (
    ACTS_NO_MORE,
    PC1,
    PC2,
    RULES,
    genso,
    pc1_and_pc2_at,
    pc1_dies,
    refused,
    the_orc_fells,
    the_table,
)

GM_END = Outcome.DECLARED.text


def test_the_party_down_at_the_end_is_what_the_table_says_beside_the_gm_s_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    """None while the fight goes on; the party down (the calendar's dead counted) at the GM's
    end: the table's words are the GM's end and then its text, the command line's `at the
    end:` its text, and the JSON's party_out its value."""
    pc1_and_pc2_at(12, 1)
    pc1_dies(capsys)
    genso(capsys, "fight", "wait", PC1)
    genso(capsys, "fight", "wait", PC2)
    the_orc_fells(capsys, PC2)
    assert the_table().outcome_at_end() is None  # going on: the party down is not an end
    genso(capsys, "fight", "end")
    table = the_table()
    assert table.outcome_at_end() is Outcome.PARTY_DOWN
    assert table._outcome() == f"{GM_END} — {Outcome.PARTY_DOWN.text}"
    assert at_the_end(calendar_view(table.fight)) == Outcome.PARTY_DOWN.text
    assert fight_status(RULES, table.fight)[1]["party_out"] == Outcome.PARTY_DOWN.value


def test_the_party_s_win_at_the_end_is_no_party_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """None at a GM's end with both sides able to act; 勝利 the party won when every foe left
    was one the calendar records dead, which the JSON's party_out does not take."""
    genso(capsys, "sheet", "pc2", "--save-as", str(tmp_path / "bandit.toml"))
    genso(capsys, "calendar", "curse", "Mio", PC2)
    genso(capsys, "fight", "new", "--party", "pc1", "--npc", str(tmp_path / "bandit.toml"))
    genso(capsys, "fight", "end")  # the foe alive: both sides could act
    table = the_table()
    assert table.outcome_at_end() is None and table._outcome() == GM_END
    genso(capsys, "fight", "undo")
    genso(capsys, "calendar", "pass", "367")
    assert f"\n{FOES_OUT}: " in genso(capsys, "fight", "wait", PC1)
    genso(capsys, "fight", "end")
    table = the_table()
    assert table.outcome_at_end() is Outcome.PARTY_WON
    assert table._outcome() == f"{GM_END} — {Outcome.PARTY_WON.text}"
    assert fight_status(RULES, table.fight)[1]["party_out"] is None


def test_the_dead_s_turn_is_said_alike_at_the_table_and_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """:meth:`acts_no_more` is the dead's menu prompt at the table and the start of the
    command line's refusal of its action."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    pc1_dies(capsys)
    table = the_table()
    dead = table.fight.state.get(PC1)
    assert table.acts_no_more(dead) == ACTS_NO_MORE
    assert table.ask().prompt == ACTS_NO_MORE  # type: ignore[union-attr]
    assert refused(capsys, "attack", "pc1", "orc", "--dice", "typed").startswith(
        f"companion: error: {ACTS_NO_MORE}: ")
