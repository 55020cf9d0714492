"""A game screen's prompt in the footer reads whole: the System menu's own screens over the
JongRogue view, and a tile prompt beside a read on offer or a misread's picks (display
audit 56, items 1 and 2). Drawn through :class:`ScreenDisplay` on SDL's dummy driver; what
was drawn is read back from the texts it fitted, and where from the option boxes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hw.buttons import Button
from companion.hw.display.option_buttons import TAP_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View, example_view
from tests.hw.screen_layout_helpers import spy_text

BACK = (Option("ok", "Back to the table 戻る", Button.ATTACK),)
TILE_PROMPT = ("Draw a tile and put it on the draw slot 牌を引いて引き牌の枠に置いて: ranged "
               "combat goes on 遠隔戦闘の継続 (判定 1d9 >= 3)")
SCREENS = {
    "shutting down": replace(
        example_view(), prompt="Shutting down 電源を切っています: unplug once the Pi's green "
        "light stays off 緑のランプが消えたら抜いてください", options=BACK, highlight=0),
    "not safe": replace(
        example_view(), prompt="Not safe to unplug yet 電源を抜かないで: the save could not be "
        "written ([Errno 28] No space left on device). Each step saves again; once one says "
        "saved again 保存再開, it is", options=BACK, highlight=0),
    "leave": replace(
        example_view(), prompt="Leave this game for a new one? この冒険をやめて新しく始める？ (it "
        "is kept aside, not lost 保存して残す)", highlight=0,
        options=(Option("no", "No, back いいえ"), Option("yes", "Yes, new game はい"))),
    "read offered": replace(
        example_view(), prompt=TILE_PROMPT, prompt_tile="6m", highlight=0, guidance=True,
        options=(Option("accept", "Accept 確定", Button.ATTACK),
                 Option("reject", "Reject やり直し", Button.FLEE)),
        status="read 6m 六萬 (6 of characters): B rejects, A accepts; counts in 3 s Bでやり直し、"
               "3秒で確定"),
    "misread picks": replace(
        example_view(), prompt=TILE_PROMPT, prompt_tile="back",
        options=(Option("5z", "5z 白"), Option("1s", "1s 一索"), Option("7p", "7p 七筒")),
        status="cannot read the draw tile: straighten it 読めない: まっすぐ置いて; or pick: item "
               "moves, A takes 選ぶ: I移動 A決定"),
}


@pytest.mark.parametrize("name", list(SCREENS))
@pytest.mark.needs_japanese_font
def test_a_game_screen_prompt_reads_whole_above_its_options(screen: ScreenDisplay,
                                                            name: str) -> None:
    """Over the JongRogue view the footer gave the prompt one row, cut in its middle: "un…s
    green light stays off", "t…saves again" (the reason lost), "put it on th…" (the slot
    lost). Every row of it is drawn uncut, together the whole prompt, and the option boxes
    stand under its last row, a fingertip tall."""
    view: View = replace(SCREENS[name], system=True)
    drawn = spy_text(screen)
    screen.render(view)
    rows = [d for d in drawn if not d.label and d.text and d.text in view.prompt]
    assert rows, [d.text for d in drawn]
    assert not any(d.cut or "…" in d.shown for d in rows), [d.shown for d in rows]
    assert " ".join(d.shown for d in rows) == view.prompt
    m = screen.m
    footer_top = screen.height - screen._footer_height(view)
    last_row_bottom = footer_top + m(6) + len(rows) * m(24)
    boxes = [rect for rect, _ in screen._targets]
    assert len(boxes) == len(view.options)
    assert all(box.top >= last_row_bottom and box.h >= m(TAP_MIN) for box in boxes), \
        (boxes, last_row_bottom)
