"""The PC sheet's Items line shows every ring kind carried, under a long menu's grid
(display audit 56, item 10). Drawn through :class:`ScreenDisplay` on SDL's dummy driver;
what was drawn is read back from the texts it fitted."""

from __future__ import annotations

from dataclasses import replace

from companion.hw.display.fonts import without_cjk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Name, SheetView, example_view
from tests.hw.screen_layout_helpers import RING_MENU, at_own_text_size, spy_text

KINDS = ("隠密 stealth ×2", "増強 strength", "鎧保護 armour protection ×2", "飾り adornment ×2")
ITEMS = ("回復薬 healing potion ×4", "予備の指輪 spare rings: " + ", ".join(KINDS))


def test_the_items_line_shows_every_ring_kind_under_a_grid(screen: ScreenDisplay) -> None:
    """The line ended "…, 鎧保護 …": armour protection and adornment were shown nowhere."""
    at_own_text_size(screen)
    sheet = example_view().sheet
    assert isinstance(sheet, SheetView)
    sheet = replace(sheet, items=ITEMS, rings=(Name("隠密の指輪", "ring of stealth"),
                                               Name("鎧保護の指輪", "ring of armour protection")))
    drawn = spy_text(screen)
    screen.render(replace(example_view(), sheet=sheet, options=RING_MENU, highlight=0))
    items = next(line for line in sheet.lines() if line.startswith("Items"))
    if not screen.has_cjk:  # drawn as its English halves: the kinds' English read whole
        items = without_cjk(items)
    start = next(i for i, d in enumerate(drawn) if d.text.startswith("Items"))
    rows: list[str] = []
    for d in drawn[start:]:
        if not items.startswith(" ".join([*rows, d.shown])):
            break
        rows.append(d.shown)
    assert " ".join(rows) == items, rows
