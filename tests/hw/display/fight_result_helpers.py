"""Shared helpers for tests of a fight's Result panel: what the screen drew of it, and a 004
fight whose newest Result runs past the round's end (coc67, reviewcoc67 RISK 1)."""

from __future__ import annotations

from companion.dice import ScriptedDice
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.coc.combat import Attack, EndTurn, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.coc.helpers import person


def result_shown(size: str, scale: float, view: View) -> str:
    """The Result's rule-step text as drawn (its rows joined, spaces dropped)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.show(view)
        start = next(i for i, d in enumerate(drawn) if d.text.startswith("Result 結果"))
        end = next((i for i, d in enumerate(drawn)
                    if i > start and d.text.startswith("Log 記録")), len(drawn))
        rows = [d.shown for d in drawn[start + 1:end] if d.size == screen.m(TEXT_MIN)]
    finally:
        screen.close()
    return "".join(rows).replace(" ", "")


def round_end_burst_004() -> Fight:
    """004: Deep (DEX 15, a vest of 2 uses) and Cult end their turns; Kim, the round's last,
    bursts 14 hits at Deep. After the blow: the vest breaking at the round's end
    (CO-ARMOR-2), "round 2: …", "Deep is skipped" (no "X's turn" line in 004)."""
    rules = load_rules(Profile.P004)
    f = Fight(rules, [
        (person(rules, "Kim", 8, ("smg",), smg=90), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, ("knife",), knife=50), Side.FOES),
        (person(rules, "Deep", 15, ("japanese_sword",), [{"name": "vest", "value": 2,
                                                          "uses": 2}],
                japanese_sword=60, dodge=30), Side.FOES)], ScriptedDice([]))
    f.push(EndTurn("Deep"), ScriptedDice([]))
    f.push(EndTurn("Cult"), ScriptedDice([]))
    f.push(Attack("Kim", "Deep", burst=True), ScriptedDice(
        [(100, 50), (20, 14), *((10, d) for d in (1, 5, 9, 8, 7, 5, 8, 6, 10, 4, 9, 3, 5, 3))]))
    return f
