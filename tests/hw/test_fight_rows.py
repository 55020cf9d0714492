"""A fight's rows keep every condition readable (table audit gc #2): a dying investigator
held by a cultist showed "探索者 investigators · 気絶/unconscious · …", ``瀕死/dying`` and
who holds her cut, with room to spare under the rows, at 800x480 and at 1024x600."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
    View,
    example_fight_view,
)
from tests.hw.screen_layout_helpers import Drawn, _big_fight, spy_text

INVESTIGATORS, FOES = Name("探索者", "investigators"), Name("敵", "foes")
ANN = ("気絶/unconscious", "瀕死/dying", "held by Cultist 組み付かれ")


def _coc_fight(board: BoardView | None = None) -> View:
    """The audit's screen (out_cA/0083.png): Ann at HP 0, held, dying; Bob's turn."""
    fight = FightView(
        title="vs Cultist · profile 003", round=1, turn="Bob",
        fighters=(
            FighterView(Name("Ann", "Ann"), INVESTIGATORS, 0, 11, 13, 13, ANN, down=True,
                        san=60),
            FighterView(Name("Bob", "Bob"), INVESTIGATORS, 14, 14, 10, 10, ("AP 1",),
                        acting=True, san=50),
            FighterView(Name("Cultist", "Cultist"), FOES, 5, 12, 12, 12,
                        ("holds Ann 組み付き",), ally=False, san=60),
        ),
        log=("Cultist 組み付き grapples → Ann ＞ 成功/success",), board=board)
    return View(floor=None, room=None, room_tiles=(), sheet=None,
                prompt="Type the D100 you threw, tens 十の位: Ann CON×5 (1D100<=60)",
                title="クトゥルフ神話TRPG Fight 戦闘", fight=fight)


def _rows(drawn: list[Drawn], fighter: FighterView) -> list[Drawn]:
    """What was drawn of ``fighter``'s conditions (its second line and any after)."""
    return [d for d in drawn if any(c in d.text for c in fighter.conditions)]


def _render(size: str, view: View, png: Path | None = None) -> list[Drawn]:
    screen = ScreenDisplay(size)
    try:
        drawn = spy_text(screen)
        screen.render(view)
        if png is not None:
            screen.save_png(png)
    finally:
        screen.close()
    return drawn


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_dying_held_investigator_s_conditions_are_all_shown_whole(
        size: str, tmp_path: Path) -> None:
    """Every condition of Ann's is drawn, none cut: the side word left to the stripe, and
    the conditions on a line more while the panel has room."""
    view = _coc_fight()
    assert view.fight is not None
    drawn = _render(size, view, tmp_path / f"coc-dying-{size}.png")
    ann = _rows(drawn, view.fight.fighters[0])
    assert ann and not [d for d in ann if d.cut], ann
    shown = " · ".join(d.text for d in ann)
    for condition in ANN:
        assert condition in shown
    # The other rows are as before: side and condition on one line.
    (cultist,) = _rows(drawn, view.fight.fighters[2])
    assert cultist.text == "敵 foes · holds Ann 組み付き" and not cultist.cut


def test_beside_a_board_a_narrow_row_s_conditions_are_whole_too() -> None:
    """Beside a board the row is narrow, its pools' MP and SAN on the second line: the
    conditions still come whole, on lines more."""
    board = BoardView(8, 8, (PieceView(1, 1, "A"), PieceView(2, 2, "B"),
                             PieceView(3, 3, "C", ally=False)))
    view = _coc_fight(board)
    assert view.fight is not None
    drawn = _render("800x480", view)
    ann = _rows(drawn, view.fight.fighters[0])
    assert ann and not [d for d in ann if d.cut], ann
    shown = " · ".join(d.text for d in ann)
    for condition in ANN:
        assert condition in shown


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_genso_fight_whose_rows_fit_is_drawn_as_before(size: str) -> None:
    """The example genso fight's rows fit: each second line is its side and conditions,
    whole, one line."""
    view = example_fight_view()
    assert view.fight is not None
    drawn = _render(size, view)
    for fighter in view.fight.fighters:
        want = " · ".join([str(fighter.side), *fighter.conditions])
        assert [d.text for d in drawn if d.text == want] == [want]
        assert not [d for d in drawn if d.text == want and d.cut]


def test_with_no_room_left_the_last_line_ends_with_an_ellipsis() -> None:
    """Rows that fill the panel get no line more: the conditions are cut, marked …, never
    dropped silently."""
    view = _coc_fight()
    assert view.fight is not None
    many = tuple(replace(view.fight.fighters[0], name=Name(f"Ann {i}", f"Ann {i}"))
                 for i in range(6))
    drawn = _render("800x480", replace(view, fight=replace(view.fight, fighters=many)))
    rows = [d for d in drawn if "気絶/unconscious" in d.text]
    # Or, a one-line row's, the ones left out counted: "+2 · held by Cultist 組み…"
    # (reviews72 NIT 4), the last condition after the count.
    counted = [d for d in drawn if d.text.startswith("+") and d.text.endswith(" · ")]
    assert rows or counted
    assert all(d.cut or all(c in d.text for c in ANN) or " +1 · " in d.text for d in rows)
    assert all(d.text == f"+{len(ANN) - 1} · " for d in counted)
    assert len([d for d in drawn if d.text == ANN[-1]]) >= len(counted)


def _held_beside_a_board() -> View:
    """A cultist holding Ann beside the board, Bob's turn (screen72 NIT 3's ``cocheld``):
    each row narrow, its MP and SAN given up to its second line, every row's conditions
    on lines more than the panel over its menu's grid has at 640x384 and 800x480 with text
    a quarter larger."""
    board = BoardView(8, 8, (PieceView(2, 2, "A"), PieceView(2, 3, "C", ally=False),
                             PieceView(3, 1, "B")))
    fight = FightView(
        title="vs Cult · profile 003", round=2, turn="Bob",
        fighters=(
            FighterView(Name("A Ann", "A Ann"), INVESTIGATORS, 13, 13, 10, 10,
                        ("d3 S", "held by Cult 組み付かれ"), san=50),
            FighterView(Name("C Cult", "C Cult"), FOES, 13, 13, 10, 10,
                        ("d3 S", "holds Ann 組み付き"), ally=False, san=50),
            FighterView(Name("B Bob", "B Bob"), INVESTIGATORS, 13, 13, 10, 10,
                        ("AP 3", "d2 N"), acting=True, san=50),
        ),
        log=("Cult 組み付き grapples → Ann ＞ 成功/success",), board=board)
    menu = ("Attack 攻撃", "Grapple 組み付き", "Tackle タックル", "Spot Hidden 目星", "Move 移動",
            "Jump over 跳び越え", "Turn 向きを変える", "Delay DEX/2 遅延", "End turn 手番終了",
            "Keeper 進行")
    return View(floor=None, room=None, room_tiles=(), sheet=None,
                prompt="Bob (3 AP): what now? 行動は？", title="クトゥルフ神話TRPG Fight 戦闘",
                fight=fight, options=tuple(Option(f"o{n}", label)
                                           for n, label in enumerate(menu)), highlight=0)


@pytest.mark.parametrize("size", ["640x384", "800x480"])
def test_crowded_narrow_rows_keep_every_condition_before_their_pools(
        size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the panel has no room for every narrow row's lines, each row's conditions are
    drawn whole (who holds whom, the acting one's AP) and the pools given up to the
    second line are what is cut: the held one's lines took the room, and the rows under
    it read ``MP 10/10  SAN 50 …`` (screen72 NIT 3, fixscreen72's "still open")."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, tuple(map(int, size.split("x"))))
    view = _held_beside_a_board()
    assert view.fight is not None
    screen = ScreenDisplay(size, text_scale=1.25)
    try:
        drawn = spy_text(screen)
        screen.render(view)
        shown = [d.shown for d in drawn]
        for fighter in view.fight.fighters:
            for condition in fighter.conditions:
                assert any(condition in text for text in shown), (condition, shown)
    finally:
        screen.close()


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("acting", [0, 6, 12])
def test_the_window_s_more_marks_count_in_japanese_too(acting: int, scale: float) -> None:
    """``▼ 6 more`` over a window of a fight of thirteen's rows had no Japanese, though the
    Rules line's count has (``+3 more 他3件``; a76screen NIT 3): each mark reads ``▲ 5 more
    他5件``, whole, its two counts the same, and together they count the rows not shown."""
    view = _big_fight(acting)
    assert view.fight is not None
    screen = ScreenDisplay("800x480", text_scale=scale)
    try:
        shown: list[FighterView] = []
        fighter = screen._fighter

        def spy(f: FighterView, *args: Any) -> None:
            shown.append(f)
            fighter(f, *args)

        screen.__dict__["_fighter"] = spy
        drawn = spy_text(screen)
        screen.render(view)
        marks = [d for d in drawn if d.text[:1] in "▲▼" and "more" in d.text]
        assert marks and all(not d.cut for d in marks), marks
        counts = []
        for mark in marks:
            found = re.fullmatch(r"[▲▼] (\d+) more(?: 他(\d+)件)?", mark.text)
            assert found is not None, mark.text
            assert (found[2] is not None) == screen.has_cjk, mark.text
            assert found[2] in (None, found[1]), mark.text
            counts.append(int(found[1]))
        assert sum(counts) == len(view.fight.fighters) - len(shown)
    finally:
        screen.close()
