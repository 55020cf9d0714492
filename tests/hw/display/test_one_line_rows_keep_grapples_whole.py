"""A one-line fighter row (ten coc fighters at 800x480, text 1.0) says a grapple whole or
counts it, never cut in its middle: the held cultist's row read "he…み付かれ" and the
Professor's "+1 · m…/投げ", who held whom nowhere on the screen (a78screen item 4)."""

from __future__ import annotations

import re

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import ScriptedDice
from companion.hw.display.screen import ScreenDisplay
from companion.systems.coc.combat import Fight, Grapple, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.coc.scripted_fight_helpers import entrant

PROFESSOR = "Professor Bartholomew Hargreaves-Whitcombe 教授"
HELD = "狂信者 Cultist 4"


def ten_with_a_grapple() -> Fight:
    """Two investigators and eight foes; the Professor holds Cultist 4 by a full MA success
    (CO-MA-2), so that both rows have a grapple to say."""
    rules = load_rules(Profile.P003)
    foes = [entrant(rules, "深きものども Deep One", 10, ("fist",), Side.FOES)]
    foes += [entrant(rules, f"狂信者 Cultist {n}", 10 - n, ("fist",), Side.FOES)
             for n in range(1, 8)]  # no two of one DEX: no tie rolled
    fight = Fight(rules, [
        entrant(rules, PROFESSOR, 18, ("fist",), Side.INVESTIGATORS, martial_arts=60,
                grapple=70),
        entrant(rules, "Bob", 12, ("fist",), Side.INVESTIGATORS), *foes], ScriptedDice([]))
    # 5 makes the grapple with MA (a full success); 90 fails the STR roll to break free
    fight.push(Grapple(PROFESSOR, HELD, ma=True), ScriptedDice([(100, 5), (100, 5), (100, 90)]))
    return fight


@pytest.mark.needs_japanese_font
def test_a_crowded_row_says_a_grapple_whole_or_counts_it() -> None:
    fight = ten_with_a_grapple()
    held = next(c for c in fight.state.combatants if c.name == HELD)
    assert held.held_by == PROFESSOR
    mode = CocFightMode(fight)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options, highlight=0)
    screen = ScreenDisplay("800x480", text_scale=1.0)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    assert view.fight is not None
    said = {c for f in view.fight.fighters for c in f.conditions
            if "組み付" in c or "締め上げ" in c}
    assert len(said) == 3  # held by, holds, may choke/throw
    grapples = [d for d in drawn if any(c in d.text for c in said)]
    counts = [d for d in drawn if re.fullmatch(r"\d+ conditions? 状態\d+件|状態\d+件", d.text)]
    assert [d.shown for d in grapples if d.cut] == []
    # each of the two rows says its grapple whole, or counts it
    assert len([d for d in grapples if not d.label]) + len(counts) >= 2
