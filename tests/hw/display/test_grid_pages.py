"""The pages of a long menu's grid (a fight's target menu of fifteen): a last page whose
boxes take one of the grid's two rows has them the whole height of both (a76screen NIT 4),
where they were drawn half as tall in the top row, the second left empty, and cut the
targets' names, at the places and widths of the page before."""

from __future__ import annotations

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.option_buttons import TAP_GAP
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.hw.screen_layout_helpers import spy_text


def _attack_whom(highlight: int) -> View:
    """"Attack whom?" of two PCs against eight orcs and six giant ants (15 options)."""
    rules = load_rules()
    fight = Fight(rules, entrants_for(rules, [preset(rules, "pc1"), preset(rules, "pc2")],
                                      [("orc", 8), ("giant_ant", 6)]))
    mode = GensoFightMode(rules, fight, "simulated 仮想")
    ask = mode.ask()
    mode.answer([o.choice for o in ask.options].index("attack"))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt, options=ask.options, highlight=highlight)


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_last_page_of_one_row_takes_the_grid_s_whole_height(size: str, scale: float) -> None:
    first = _attack_whom(0)
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        # the last page, lit on its first option (keyed A, as the player comes to it)
        last = _attack_whom(len(screen._grid_page(first)[2]))
        screen.render(first)
        page_one = [box for box, _ in screen._targets]
        drawn = spy_text(screen)
        screen.render(last)
        page_two = [box for box, _ in screen._targets]
        assert screen._more is not None
        page_two.append(screen._more[0])
        top_row = [box for box in page_one if box.y == page_one[0].y]
        assert len(page_two) <= len(top_row) < len(page_one)
        # at the places and widths of page one's top row, as tall as its two rows
        assert [(b.x, b.y, b.w) for b in page_two] == [(b.x, b.y, b.w)
                                                      for b in top_row[:len(page_two)]]
        both = page_one[-1].bottom - page_one[0].top
        assert all(box.h == both for box in page_two), (page_two, both)
        assert both >= 2 * page_one[0].h + screen.m(TAP_GAP)
        if scale == 1.0 and size == "800x480":
            # two of its three targets' labels read whole so (the third's key is longer)
            cut = [d.text for d in drawn if d.label and d.cut]
            assert not [t for t in cut if "4" in t or "5" in t], cut
    finally:
        screen.close()


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_a_pick_list_s_page_box_with_nothing_lit_turns_to_the_next_page(size: str) -> None:
    """r76fa DEFECT 1: the list of every tile opens with nothing lit, where the first MENU
    lands on the first option: the page box was keyed M×11 beside option 11's own M×11, and
    a tap on it (eleven MENU presses) only came to 2p, page 1 still shown. It is keyed and
    tapped one press more, onto the next page's first option."""
    from dataclasses import replace

    from companion.app.session.reads import _picked, pick_option
    from companion.hw.buttons import Button
    from companion.hw.display.view import example_view
    from companion.systems.jongrogue.tiles import parse_tiles

    tiles = parse_tiles("123456789m123456789p123456789s1234567z")
    view = replace(example_view(), prompt="Draw a tile: pick the tile laid",
                   options=tuple(pick_option(t) for t in tiles), highlight=None,
                   prompt_tile="back", status="read 5p again: pick the tile laid")
    screen = ScreenDisplay(size)
    try:
        drawn = spy_text(screen)
        screen.render(view)
        shown = [i for _, i in screen._targets]
        assert screen._more is not None
        presses = screen._more[1]
        _, lit, _ = _picked([Button.MENU] * presses, tiles, None)
        assert lit == shown[-1] + 1  # the next page's first option
        keys = [d.shown for d in drawn if d.shown.startswith("[M×")]
        assert len(keys) == len(set(keys)), keys  # no two boxes keyed alike
        screen.render(replace(view, highlight=lit))
        assert next(i for _, i in screen._targets) == lit
    finally:
        screen.close()
