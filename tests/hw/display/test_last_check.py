"""The Last check 判定 panel, shortened by a long menu's grid, keeps the check's outcome
(its last line) and marks what it leaves out with ``…`` (display audit 56, item 4). Drawn
through :class:`ScreenDisplay` on SDL's dummy driver; what was drawn is read back from the
texts it fitted."""

from __future__ import annotations

from dataclasses import replace

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import example_view
from tests.hw.test_screen_layout import RING_MENU, screen, spy_text

__all__ = ["screen"]  # the fixture, at both screen sizes and both text scales

CHECK = (
    "melee vs ケンタウロス (centaur): rate 4 = 7 attack − 1 level − 0 strength − 2 weapon; drew 8s "
    "→ 8 ≥ 4 → success 成功",
    "tile drawn 8s → 8 ≥ 4 → hit, damage 2 + 1 weapon − 0 armour = 3 → HP 0",
    "Gold 金 +90 (gold pile 9s) → 90",
    "ケンタウロス (centaur) #33 defeated: +2 XP → 88",
)


def test_a_short_last_check_keeps_its_outcome_and_marks_the_cut(screen: ScreenDisplay) -> None:
    """Under a two-row grid the panel showed the check's first rows only: the outcome line
    was gone, with no mark that anything was."""
    view = replace(example_view(), options=RING_MENU, highlight=0, last_check=CHECK)
    drawn = spy_text(screen)
    screen.render(view)
    # (Past the room's names: "gold" is in the lines too.)
    rows = [d for d in drawn if not d.label and d.text.strip("…")
            and any(d.text.strip("…") in line for line in CHECK)]
    rows = rows[next(i for i, d in enumerate(rows) if len(d.text) > 10):]
    assert rows, [d.text for d in drawn]
    outcome = [d for d in rows if d.text.lstrip("…") in CHECK[-1]]
    assert " ".join(d.shown for d in outcome).lstrip("…") == CHECK[-1]
    shown = " ".join(d.shown for d in rows)
    if shown != " ".join(CHECK):  # something left out: its place is marked
        assert rows[0].shown.startswith("…") or any(
            d.shown.endswith("…") for d in rows[:-len(outcome)]), [d.shown for d in rows]
