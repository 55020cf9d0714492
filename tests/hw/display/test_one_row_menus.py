"""A menu drawn in one row keeps every label whole where the row has the room (a76screen
DEFECT 1 and 2), at 800x480 and on the Touch Display 2 (720x1280, drawn turned), at the
screen's own text size and at 1.25 (``display.text_scale``): its boxes widen past their
widest for a label that reads whole only wider, and a menu whose labels one row would cut at
the larger size takes the grid, as it does at the smaller."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.app.session.controls import Controls
from companion.app.session.system_menu import SystemMenu, menu_prompt
from companion.hw.buttons import Button
from companion.hw.display import screen as screen_module
from companion.hw.display.fonts import holds_japanese
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View, example_view
from tests.hw.display.prompt_fit_helpers import SCALES, SIZES, coc_board_mode
from tests.hw.screen_layout_helpers import spy_text

#: Ann's weapon menu in the coc fight of docs/examples (ann.toml attacks cultist.toml).
WEAPONS = (Option("w:0", "拳銃(リボルバー)/Revolver 6/6"), Option("w:1", "キック/Kick"),
           Option("back", "Back 戻る", Button.FLEE))
#: JongRogue's "What next?" of seven (`companion play --choices auto --seed 11`, frames 26 and
#: 58).
WHAT_NEXT = (Option("fight:2", "Fight 戦う"), Option("shoot:2", "Fire 射撃", Button.RANGED),
             Option("enter", "Enter 入る"), Option("take", "Take 拾う"),
             Option("move:2", "Room 2 部屋2へ"), Option("move:6", "Room 6 部屋6へ"),
             Option("unequip:6p", "Doff stealth 隠密を外す"))
WHAT_NEXT_ARMOUR = (*WHAT_NEXT[:3], *WHAT_NEXT[4:],
                    Option("unequip:8p", "Doff armour protection 鎧保護を外す"))


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def _cut_labels(size: str, scale: float, view: View) -> tuple[list[str], ScreenDisplay]:
    """The option labels a fresh screen draws of ``view`` cut (the screen left open)."""
    screen = ScreenDisplay(size, text_scale=scale)
    drawn = spy_text(screen)
    screen.render(view)
    return [d.text for d in drawn if d.label and d.cut], screen


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_a_one_row_menus_boxes_widen_for_a_label_cut_at_their_widest(size: str,
                                                                     scale: float) -> None:
    """"[A] 拳銃(リボルバー)/Revolver 6/6" read "[A] 拳銃…)/Revolver" at text size 1.25 in
    three boxes at their widest, a third of the row empty beside them. Where it reads whole
    at the widest (text 1.0), the boxes stay at it, so that they do not move for nothing."""
    view = coc_board_mode().view("With which weapon? 武器は？", options=WEAPONS, highlight=0)
    cut, screen = _cut_labels(size, scale, view)
    try:
        assert not screen._grid(view)
        assert cut == [], cut
        widths = {box.w for box, _ in screen._targets}
        assert len(widths) == 1, widths
        width, height = widths.pop(), screen._targets[0][0].h
        if screen._texts_whole(screen._option_texts(view, range(len(WEAPONS))), screen.m(16),
                               screen._box_max_w(), height):
            assert width == screen._box_max_w()
        else:
            assert width > screen._box_max_w()
    finally:
        screen.close()


def _game_menu(menu: str) -> View:
    options = {"system": SystemMenu(Controls([]), "game", 0.05, "systemctl poweroff").options(),
               "what next": WHAT_NEXT, "what next, armour": WHAT_NEXT_ARMOUR}[menu]
    prompt = menu_prompt() if menu == "system" else "What next? どうする？"
    return replace(example_view(), prompt=prompt, options=options, highlight=0, status="")


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", ["800x480", "720x1280"])
@pytest.mark.parametrize("menu", ["system", "what next"])
def test_a_menu_one_row_cuts_at_a_larger_text_size_takes_the_grid(size: str, scale: float,
                                                                 menu: str) -> None:
    """The System menu over a game read "[2] New ga…", "[4] Genso fi…", "[6] Shut do…" at
    text size 1.25 (800x480), and "What next?" of seven "[7] Doff st…" (720x1280): the
    switch to the grid counted the boxes' least width at the screen's own text size. Every
    label reads whole."""
    cut, screen = _cut_labels(size, scale, _game_menu(menu))
    screen.close()
    assert cut == [], cut


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_a_long_label_of_a_menu_of_seven_keeps_its_japanese_at_a_larger_text_size(
        size: str, scale: float) -> None:
    """"[7] Doff ar…" over "鎧…を外す" in one row at text size 1.25 (720x1280): in the grid
    the Japanese reads whole (its English, "[7] Doff armour protection", may still be cut
    at its end in a box of the grid at 1.25, as at 800x480 before)."""
    cut, screen = _cut_labels(size, scale, _game_menu("what next, armour"))
    screen.close()
    assert not [row for row in cut if holds_japanese(row)], cut
