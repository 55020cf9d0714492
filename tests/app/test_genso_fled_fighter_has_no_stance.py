"""a78screen DEFECT 1: a genso fighter who fled keeps no stance in its row. A stance lasts
until the fighter's next action (GM-COMBAT-5 全力攻撃), and one who fled (GM-COMBAT-1) has
none: its row said "FLED 逃亡" and "全力攻撃 full attack" both, and the 800x480 screen's
one-line rows of a crowded fight showed the stale stance and hid FLED behind "+1"."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Attack, Fight, Flee, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_json_helpers import genso
from tests.hw.screen_layout_helpers import drawn_on

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def _fled_after_full_attack(crowd: bool) -> GensoFightMode:
    """PC 1 full-attacks the orc in round 1, everyone else waits, and PC 1 flees in round 2."""
    foes = [("orc", 1)] + ([("undead_corpse", 4), ("giant_ant", 4)] if crowd else [])
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], foes))
    dice = SimulatedDice.seeded(5)
    fled = False
    while not fled:
        current = fight.state.current
        assert current is not None
        if current.name != PC1:
            fight.push(Wait(current.name), dice)
        elif fight.state.round == 1:
            fight.push(Attack(PC1, "オーク", 0, full=True), dice)
        else:
            fight.push(Flee(PC1), dice)
            fled = True
    return GensoFightMode(RULES, fight, "simulated 仮想")


def test_the_fled_fighters_row_says_fled_and_no_stance() -> None:
    mode = _fled_after_full_attack(crowd=False)
    row = next(r for r in mode.fight_view().fighters if r.name.ja == PC1)
    assert row.down
    assert row.conditions == ("FLED 逃亡",)


@pytest.mark.needs_japanese_font
def test_a_crowded_800x480_row_shows_fled_whole() -> None:
    """Eleven fighters: one-line rows, the conditions beside the name."""
    mode = _fled_after_full_attack(crowd=True)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0))
    assert any(d.shown == "FLED 逃亡" for d in drawn), [d.shown for d in drawn]
    rows = [d for d in drawn if not d.label]  # the menu offers 全力攻撃 to PC 2
    assert not any("全力攻撃 full attack" in d.text for d in rows), [d.text for d in rows]


def test_fight_show_lists_no_stance_for_the_fled(user_dirs: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`genso fight show` on a computer, its text and its --json, as the table's row: the
    full attack of round 1 is listed while PC 1 fights on, and gone once it fled."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--full", "--seed", "5")
    assert "全力攻撃 full attack" in _shown_row(capsys, PC1)
    genso(capsys, "fight", "wait", "pc2")
    genso(capsys, "fight", "wait", "orc")
    genso(capsys, "fight", "flee", "pc1", "--seed", "1")
    row = _shown_row(capsys, PC1)
    assert "FLED 逃亡" in row and "全力攻撃" not in row, row
    shown = genso(capsys, "fight", "show")["combatants"]
    assert [(c["status"], c["stance"]) for c in shown if c["name"] == PC1] == [("fled", "none")]


def _shown_row(capsys: pytest.CaptureFixture[str], name: str) -> str:
    assert main(["genso", "fight", "show"]) == 0
    return next(line for line in capsys.readouterr().out.splitlines() if name in line)
