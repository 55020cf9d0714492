"""A fight's row with no room for all it carries leaves out whole badges from its end and
counts them, ``+2 more 他2件``, as the window of rows counts the rows out of view. Four
fighters on 003's board at 800x480 (a hold that may choke or throw and a stun on the acting
one, a pin to come, two stuns next round) read ``held by Ann 組み…`` and ``行動不能/no action
next…``: a badge cut in its middle, and Deep's stun and any after the cut lost with no sign
(f77panels, after b9770911 put the square last)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pygame
import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    FighterView,
    FightView,
    Name,
    PieceView,
    View,
)
from tests.hw.screen_layout_helpers import spy_text

INVESTIGATORS, FOES = Name("探索者", "investigators"), Name("敵", "foes")
NEXT_ROUND = "行動不能/no action next round 次R"


def _held_pinned_and_stunned(first: tuple[str, ...] = ("stun 朦朧 2", NEXT_ROUND)) -> View:
    """The badges the coc table gives 003's four fighters (tests/app/
    test_coc_screen_square_last.py): Ann (acting) holds Cult by a full MA success and is
    stunned, Bob's knock-down pins Deep next round, Cult and Deep have no action next
    round, Deep stunned twice. ``first``: Deep's badges in that order instead."""
    board = BoardView(8, 8, (PieceView(3, 2, "A", acting=True), PieceView(1, 5, "B"),
                             PieceView(4, 3, "C", ally=False), PieceView(5, 4, "D", ally=False)))
    fight = FightView(
        title="vs Cult, Deep · profile 003", round=1, turn="Ann",
        fighters=(
            FighterView(Name("A Ann", "A Ann"), INVESTIGATORS, 13, 13, 10, 10,
                        ("AP 3", "holds Cult 組み付き", "may choke/throw 締め上げ/投げ",
                         "stun 朦朧 1", "d3 NE"), acting=True, san=50),
            FighterView(Name("B Bob", "B Bob"), INVESTIGATORS, 13, 13, 10, 10,
                        ("pins Deep next round 押さえ込み", "b6 E"), san=50),
            FighterView(Name("C Cult", "C Cult"), FOES, 13, 13, 10, 10,
                        ("held by Ann 組み付かれ", NEXT_ROUND, "e4 SW"), ally=False, san=50),
            FighterView(Name("D Deep", "D Deep"), FOES, 13, 13, 10, 10,
                        (*first, "f5 W"), ally=False, san=50)),
        board=board)
    return View(floor=None, room=None, room_tiles=(), sheet=None,
                prompt="Ann (3 AP): what now? 行動は？", title="クトゥルフ神話TRPG Fight 戦闘",
                fight=fight)


@pytest.mark.parametrize("size", ["640x480", "800x480", "1024x600"])
def test_a_row_short_of_room_drops_whole_badges_from_its_end_and_counts_them(
        size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read together, each row's lines hold its badges from the first, each whole, and,
    where any is left out, a count of exactly those left out at their end; nothing is cut
    but the pools a narrow row gave up, after every badge. At 800x480 some are left out,
    and the acting Ann's stun is drawn."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, tuple(map(int, size.split("x"))))
    view = _held_pinned_and_stunned()
    assert view.fight is not None
    screen = ScreenDisplay(size)
    rows: dict[str, list[str]] = {}
    fighter = screen._fighter

    def seen(f: FighterView, index: int, rect: pygame.Rect, two_lines: bool,
             second: Sequence[str] = (), *args: Any) -> None:
        rows[f.name.en] = list(second)
        fighter(f, index, rect, two_lines, second, *args)

    given_up: dict[str, str] = {}  # the pools a narrow row gave up to its second line
    pools = screen._pools

    def pools_seen(f: FighterView, *args: Any) -> tuple[pygame.Surface, str]:
        surface, rest = pools(f, *args)
        given_up[f.name.en] = rest
        return surface, rest

    screen.__dict__["_fighter"] = seen
    screen.__dict__["_pools"] = pools_seen
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    left_out = 0
    for f in view.fight.fighters:
        lines, pools = rows[f.name.en], given_up[f.name.en]
        assert lines, f.name.en  # two lines a row
        # Only the pools a narrow row gave up (MP, SAN; no badge) may be cut, after all
        # its badges, at the end of its last line.
        for d in drawn:
            if d.text in lines and d.cut:
                assert pools and d.text.endswith(f" · {pools}"), (f.name.en, d.shown)
                assert d.shown.startswith(d.text[:-len(pools)].rstrip(" ·")), d.shown
        text = " ".join(lines)  # a badge wrapped goes on at the next line's start
        count = next((int(word[1:]) for word in text.split() if word[:1] == "+"), 0)
        shown = len(f.conditions) - count
        for badge in f.conditions[:shown]:
            assert badge in text, (f.name.en, badge, text)
        for badge in f.conditions[shown:]:
            assert badge not in text, (f.name.en, badge, text)
        if count:  # in English alone where that keeps a badge more (f78panels item 2)
            assert text.endswith((f"+{count} more 他{count}件", f"+{count} more")), \
                (f.name.en, text)
        left_out += count
    assert any("stun 朦朧 1" in line for line in rows["A Ann"]), rows["A Ann"]
    assert any("stun 朦朧 2" in line for line in rows["D Deep"]), rows["D Deep"]
    assert (left_out > 0) == (size != "640x480"), rows


def _drawn_rows(view: View, size: str = "800x480") -> dict[str, list[str]]:
    """Each row's lines under its name as ``view`` is drawn at ``size``."""
    screen = ScreenDisplay(size)
    rows: dict[str, list[str]] = {}
    fighter = screen._fighter

    def seen(f: FighterView, index: int, rect: pygame.Rect, two_lines: bool,
             second: Sequence[str] = (), *args: Any) -> None:
        rows[f.name.en] = list(second)
        fighter(f, index, rect, two_lines, second, *args)

    screen.__dict__["_fighter"] = seen
    try:
        screen.render(view)
    finally:
        screen.close()
    return rows


def test_a_row_whose_first_badge_does_not_fit_beside_the_count_keeps_those_that_do() -> None:
    """Deep's row of one line at 800x480, its "行動不能/no action next round 次R" first (as
    coc put it before its stun), read "+3 more 他3件" alone (f78panels item 2): it keeps the
    badges that fit, in their order, whole, and counts the others; never the count alone
    while a badge fits."""
    view = _held_pinned_and_stunned(first=(NEXT_ROUND, "stun 朦朧 2"))
    lines = _drawn_rows(view)["D Deep"]
    text = " ".join(lines)
    assert "stun 朦朧 2" in text and NEXT_ROUND not in text, lines
    count = next(int(word[1:]) for word in text.split() if word[:1] == "+")
    assert count == 2 and text.endswith(("+2 more 他2件", "+2 more")), lines
    assert not text.startswith("+"), lines


def test_without_a_japanese_font_the_count_is_in_english_alone() -> None:
    """With no Japanese font (its words are not drawn), the count reads ``+3 more``, as the
    window of rows' does, and still counts whole badges: Deep bleeding, a part lost and a
    weapon dropped besides."""
    view = _held_pinned_and_stunned()
    assert view.fight is not None
    deep = view.fight.fighters[-1]
    more = (NEXT_ROUND, "stun 朦朧 2", "bleeding 出血 1D3", "lost 欠損 eye ×2",
            "Knife dropped 落とした", "Revolver jammed 弾詰まり", "f5 W")
    fighters = (*view.fight.fighters[:-1], replace(deep, conditions=more))
    screen = ScreenDisplay("800x480", find_font=False)
    rows: dict[str, list[str]] = {}
    fighter = screen._fighter

    def seen(f: FighterView, index: int, rect: pygame.Rect, two_lines: bool,
             second: Sequence[str] = (), *args: Any) -> None:
        rows[f.name.en] = list(second)
        fighter(f, index, rect, two_lines, second, *args)

    screen.__dict__["_fighter"] = seen
    try:
        assert not screen.has_cjk
        screen.render(replace(view, fight=replace(view.fight, fighters=fighters)))
    finally:
        screen.close()
    text = " ".join(rows["D Deep"])
    count = next(int(word[1:]) for word in text.split() if word[:1] == "+")
    assert text.endswith(f"+{count} more") and "他" not in text, text
    assert all(badge in text for badge in more[:len(more) - count]), text
    assert not any(badge in text for badge in more[len(more) - count:]), text
