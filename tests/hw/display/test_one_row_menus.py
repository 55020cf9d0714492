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
from companion.app.session.reads import OTHER, pick_option
from companion.app.session.system_menu import SystemMenu, menu_prompt
from companion.hw.buttons import Button
from companion.hw.display import screen as screen_module
from companion.hw.display.fonts import holds_japanese
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View, example_view
from companion.systems.jongrogue.tiles import parse_tiles
from tests.hw.display.prompt_fit_helpers import SCALES, SIZES, coc_board_mode, unread
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


#: JongRogue's "What next?" of six (`companion play --choices auto --seed 11`, frame 14), and
#: the event newest in its log then: two rows in the Log panel under a footer of one row.
WHAT_NEXT_SIX = (Option("fight:1", "Fight 戦う"), Option("shoot:1", "Fire 射撃", Button.RANGED),
                 Option("enter", "Enter 入る"), Option("move:3", "Room 3 部屋3へ"),
                 Option("move:5", "Room 5 部屋5へ"), Option("move:9", "Room 9 部屋9へ"))
NEWEST = ("Monster #1: 大はやぶさ (kestrel), asleep (睡眠) (sleep check: row 7z, column 7m, "
          "0 ring(s)), hasted (倍速)")


def _log_rows(screen: ScreenDisplay, view: View) -> list[str]:
    """The rows ``screen`` draws in the Log panel of ``view`` (its title first)."""
    drawn = spy_text(screen)
    rows: list[str] = []
    lines = screen._lines

    def spy(title: str, *args: object, **kwargs: object) -> None:
        start = len(drawn)
        lines(title, *args, **kwargs)  # type: ignore[arg-type]
        if title == "Log 記録":
            rows.extend(d.shown for d in drawn[start:])

    screen.__dict__["_lines"] = spy
    screen.render(view)
    return rows


@pytest.mark.parametrize("size", ["1024x600", "1280x720", "720x1280"])
@pytest.mark.parametrize("menu", ["what next of six", "system"])
def test_a_menu_of_six_whose_labels_read_whole_in_one_row_stays_in_it(
        monkeypatch: pytest.MonkeyPatch, size: str, menu: str) -> None:
    """At text size 1.25 every menu of six took the grid, its labels whole in one row (the
    System menu, and "What next?" of frame 14 with its Room 3/5/9): the grid's taller footer
    left the Log's newest entry its first row alone, "Monster #1: 大はやぶさ (kestrel),
    asleep (睡眠)…", and cut the Last check's middle (r76screen DEFECT 1). The menu keeps its
    one row, every label whole, and the Log the two rows it had."""
    monkeypatch.setitem(screen_module.LAYOUTS, "1280x720", (1280, 720))
    game = example_view()
    view = replace(game, prompt="What next? どうする？", options=WHAT_NEXT_SIX, highlight=0,
                   status="", log=(*game.log, NEWEST))
    if menu == "system":
        view = replace(view, prompt=menu_prompt(), options=_game_menu("system").options)
    screen = ScreenDisplay(size, text_scale=1.25)
    try:
        rows = _log_rows(screen, view)
        newest = [row for row in rows if row.startswith("Monster #1:")]
        assert newest, rows
        assert len(rows[rows.index(newest[0]):]) >= 2, rows
        assert not screen._grid(view)
        cut, _ = _cut_labels(size, 1.25, view)
        assert cut == [], cut
    finally:
        screen.close()


@pytest.mark.parametrize("scale", [1.1, 1.25])
@pytest.mark.parametrize("size", ["1024x600", "1280x720", "720x1280"])
def test_a_menu_of_six_beside_the_prompt_s_tile_takes_the_grid_where_one_row_cuts(
        monkeypatch: pytest.MonkeyPatch, size: str, scale: float) -> None:
    """Whether one row cuts a label is judged in the row the boxes have: beside the prompt's
    tile on a game screen, not the footer's whole width. Judged at the whole width, six tile
    picks with no status stayed in one row and read "(3 o…cters)" (r76screen DEFECT 1's
    fix, first form)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "1280x720", (1280, 720))
    picks = tuple(pick_option(tile) for tile in parse_tiles("3m 6m 9m 1p 2p"))
    view = replace(example_view(), prompt="Draw a tile and put it on the draw slot 牌を引いて"
                   "引き牌の枠に置いて: 1d9 for the start room 開始部屋の1d9",
                   options=(*picks, pick_option(OTHER)), prompt_tile="back", highlight=0,
                   status="")
    cut, screen = _cut_labels(size, scale, view)
    screen.close()
    assert [text for text in cut if text != view.prompt] == [], cut


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", ["800x480", "1024x600", "720x1280"])
def test_a_prompt_over_a_menu_that_takes_the_grid_reads_whole(
        size: str, scale: float) -> None:
    """A game screen's prompt over the grid kept its one row: six tile picks with no status,
    in the grid at text 1.25 for their labels, read "Draw a tile and put it…いて: 1d9 for the
    start room 開始部屋の1d9", whole in two rows in one row's footer before (r76screen RISK
    1). It has two rows, and its boxes stay under them a fingertip tall."""
    picks = tuple(pick_option(tile) for tile in parse_tiles("3m 6m 9m 1p 2p"))
    view = replace(example_view(), prompt="Draw a tile and put it on the draw slot 牌を引いて"
                   "引き牌の枠に置いて: 1d9 for the start room 開始部屋の1d9",
                   options=(*picks, pick_option(OTHER)), prompt_tile="back", highlight=0,
                   status="", last_check=())
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert unread(screen, view) == ""
    finally:
        screen.close()
