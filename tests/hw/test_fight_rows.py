"""A fight's rows keep every condition readable (table audit gc #2): a dying investigator
held by a cultist showed "探索者 investigators · 気絶/unconscious · …", ``瀕死/dying`` and
who holds her cut, with room to spare under the rows, at 800x480 and at 1024x600."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    FighterView,
    FightView,
    Name,
    PieceView,
    View,
    example_fight_view,
)
from tests.hw.screen_layout_helpers import Drawn, spy_text

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
