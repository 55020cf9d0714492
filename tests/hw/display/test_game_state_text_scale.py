"""With text a quarter larger (``display.text_scale`` 1.25) the game screen keeps every
piece of game state whole: a monster's state in its room cell ("asleep 眠, haste 倍速" was
cut to "asleep 眠, ha…", "deeply asleep 熟睡" to "deeply aslee…"), and every line of the PC
sheet (the second ring worn and the spare rings were cut), at 800x480, 1024x600 and the
720x1280 portrait panel, under a menu's one row and a long menu's grid (screen66 RISK 1;
the state of seed 11's game at its ring menu). The room gives its rows what the states
need, and the log gives way to the sheet. Drawn through :class:`ScreenDisplay` on SDL's
dummy driver; what was drawn is read back from the texts it fitted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.view import Name, SheetView, TileView, View, example_view
from tests.hw.screen_layout_helpers import RING_MENU, Drawn, drawn_on

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": (720, 1280)}
ROOM = (TileView("6z", Name("床", "empty floor")),
        TileView("6s", Name("金塊", "gold"), "60 gold"),
        TileView("4m", Name("大こうもり", "bat"), "deeply asleep 熟睡"),
        TileView("2m", Name("大はやぶさ", "kestrel"), "asleep 眠, haste 倍速"))
ITEMS = ("手裏剣 shuriken ×8 (+2)", "回復薬 healing potion ×3",
         "予備の指輪 spare rings: 隠密 stealth ×2, 増強 strength, 鎧保護 armour protection")


def _view(grid: bool) -> View:
    view = example_view()
    assert view.sheet is not None
    sheet: SheetView = replace(view.sheet, gold=900, ammo=35, items=ITEMS,
                               rings=(Name("隠密", "stealth"), Name("鎧保護", "armour protection")))
    options = RING_MENU if grid else view.options
    return replace(view, room_tiles=ROOM, sheet=sheet, options=options, highlight=0,
                   system=True)


def _whole(line: str, drawn: list[Drawn]) -> bool:
    """Whether ``line`` was drawn whole, in one row or in rows one after another."""
    for start, first in enumerate(drawn):
        if not first.shown or not line.startswith(first.shown):
            continue
        rows = [first.shown]
        for after in drawn[start + 1:]:
            if not line.startswith(" ".join([*rows, after.shown])):
                break
            rows.append(after.shown)
        if " ".join(rows) == line:
            return True
    return False


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("grid", [False, True], ids=["menu", "grid"])
def test_every_monster_state_and_sheet_line_reads_whole(
        size: str, scale: float, grid: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    view = _view(grid)
    assert view.sheet is not None
    drawn = drawn_on(view, size, scale)
    items = next(line for line in view.sheet.lines() if line.startswith("Items"))
    lost = [text for text in [*(t.detail for t in ROOM if t.detail), *view.sheet.lines()]
            if not _whole(text, drawn)]
    if grid and scale > 1:
        # The Items line (the longest) alone gives up its last rows to the log's title and
        # newest row (reviewscreen66 RISK 1), cut at its end: its first row read whole.
        assert lost in ([], [items]), [d.shown for d in drawn]
        assert any(d.shown == d.text and items.startswith(d.shown) and len(d.shown) > 20
                   for d in drawn), [d.shown for d in drawn]
    else:
        assert not lost, [d.shown for d in drawn]
    # and the monsters' names, both languages
    shown = {d.shown for d in drawn}
    assert {"大こうもり", "大はやぶさ"} <= shown and {"bat", "kestrel"} <= shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("grid", [False, True], ids=["menu", "grid"])
def test_the_log_keeps_its_title_and_newest_row(
        size: str, scale: float, grid: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With text a quarter larger under a two-row grid the sheet took the whole log at
    800x480, 1024x600 and 720x1280: an event that is no check (a monster's wake-up, the
    stairs, a room laid) was then on the screen nowhere, the Last check being the last die
    check, not the newest event (reviewscreen66 RISK 1). The log keeps its title and its
    newest entry's row, under the sheet, above the footer."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    newest = "Monster #13: 大蛇 (snake), awake"
    view = replace(_view(grid), log=(*example_view().log, newest))
    drawn = drawn_on(view, size, scale)
    shown = [d.shown for d in drawn]
    assert "Log 記録" in shown, shown
    after = shown[shown.index("Log 記録") + 1:]
    assert after and after[-1] == newest, shown
