"""A one-line fight row whose conditions do not all fit counts those it leaves out as the
other rows and the window of rows count theirs, ``+3 more 他3件`` (``+3 more`` in English
alone without a Japanese font, or where that keeps a condition more), not a bare ``+3 ·``,
the one count on the screen that did not say what it counted (f78panels item 4). Eight
fighters put the rows in one line each; the last condition stays whole after the count (its
end tells the Death Curse's countdown)."""

from __future__ import annotations

import re

import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import FighterView, FightView, Name, View
from tests.hw.screen_layout_helpers import spy_text

CONDITIONS = ("転倒", "毒 poison", "沈黙 silence", "暗闇 blind", "呪殺呪 curse 12d")
#: Without a Japanese font its words are not drawn, and those five fit: longer English ones
ENGLISH = ("knocked prone", "poisoned", "silenced", "blinded", "confused", "呪殺呪 curse 12d")


def _eight_orcs(conditions: tuple[str, ...]) -> View:
    party = Name("味方", "party")
    fighters = tuple(FighterView(Name(f"オーク{i}", f"Orc {i}"), party, 7, 12,
                                 conditions=conditions if i == 0 else ()) for i in range(8))
    return View(floor=None, room=None, room_tiles=(), sheet=None, prompt="Orc 0: what now?",
                title="幻想迷宮 Fight", fight=FightView(title="vs orcs", round=1, turn="Orc 0",
                                                       fighters=fighters))


@pytest.mark.parametrize(("find_font", "conditions"), [
    pytest.param(True, CONDITIONS, marks=pytest.mark.needs_japanese_font), (False, ENGLISH)])
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_one_line_row_counts_what_it_leaves_out_in_words(
        size: str, find_font: bool, conditions: tuple[str, ...]) -> None:
    screen = ScreenDisplay(size, find_font=find_font)
    try:
        drawn = spy_text(screen)
        screen.render(_eight_orcs(conditions))
        cjk = screen.has_cjk
    finally:
        screen.close()
    (row,) = [d for d in drawn if "curse 12d" in d.text]
    assert not row.cut, row
    match = re.fullmatch(r"(.*?) ?· ?\+(\d+) more( 他\2件)? · 呪殺呪 curse 12d", row.text)
    assert match is not None, row.text
    kept, count = match.group(1), int(match.group(2))
    shown = [c for c in conditions[:-1] if c in kept]
    assert shown == list(conditions[:len(shown)]), row.text
    assert shown and len(shown) + count == len(conditions) - 1, row.text
    assert (match.group(3) is not None) == cjk, row.text  # both languages where they fit
