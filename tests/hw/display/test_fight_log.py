"""A fight's log: whole entries, newest last, the one the Result panel shows left to it, and
an entry too long for the log cut at its end (display audit 56, item 6). Drawn through
:class:`ScreenDisplay` on SDL's dummy driver; what was drawn is read back from the texts it
fitted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import BoardView, FightView, PieceView, View, example_fight_view
from tests.hw.test_screen_layout import Drawn, screen, spy_text

__all__ = ["screen"]  # the fixture, at both screen sizes and both text scales

TITLE = "Bob 攻撃 attacks → Deep [burst 連射] (サブマシンガン/Submachine Gun)"
EARLIER = "Ann 攻撃 attacks → Cult ＞ 成功/success, 4 damage"
NEWEST = f"{TITLE} ＞ 回避/Dodge 失敗/failure, 2 hits, Deep dies"
CRITICAL = ("Cult 攻撃 attacks → Ann (ナイフ/Knife) ＞ 決定的成功/スペシャル (critical, special): "
            "damage 1D4+2+1D4 ＞ 7, Ann takes 7: HP 6/13, major wound 重傷, CON roll to stay "
            "conscious 気絶判定 ＞ 成功/success")


def _fight(view: View) -> FightView:
    assert view.fight is not None
    return view.fight


def _view(board: bool, log: tuple[str, ...], title: str = TITLE) -> View:
    view = example_fight_view()
    fight = replace(_fight(view), log=log, result_title=title,
                    board=BoardView(8, 8, (PieceView(1, 1, "B"),)) if board else None)
    return replace(view, fight=fight)


def _entry_rows(drawn: list[Drawn], entry: str, size: int) -> list[Drawn]:
    """The rows drawn of ``entry``: from the one that starts it (not the Result's title,
    drawn larger), those that go on with it."""
    start = next((i for i, d in enumerate(drawn) if not d.label and len(d.text) > 8
                  and d.size == size
                  and entry.startswith(d.text.rstrip("…"))), None)
    if start is None:
        return []
    rows = [drawn[start]]
    for d in drawn[start + 1:]:
        joined = " ".join(r.text for r in rows)
        if not d.text or not entry.startswith(f"{joined} {d.text.rstrip('…')}"):
            break
        rows.append(d)
    return rows


@pytest.mark.parametrize("board", [False, True])
def test_the_log_shows_the_actions_before_the_one_the_result_shows(
        screen: ScreenDisplay, board: bool) -> None:
    """genso's Log 記録 held only a copy of the Result 結果 above it: the newest entry, the
    one the result is of, is left to the result and the log shows the one before, whole."""
    drawn = spy_text(screen)
    screen.render(_view(board, (EARLIER, NEWEST)))
    earlier = " ".join(d.shown for d in _entry_rows(drawn, EARLIER, screen.m(TEXT_MIN)))
    # Whole, or (two rows of larger text beside the board) its start, cut at its end.
    assert earlier == EARLIER or (earlier.endswith("…") and len(earlier) > 20
                                  and EARLIER.startswith(earlier[:-1])), earlier
    assert not _entry_rows(drawn, NEWEST, screen.m(TEXT_MIN))
    drawn.clear()  # a result of something else (a check): the newest stays in the log
    screen.render(_view(board, (EARLIER, NEWEST), title="Ann CON×5 気絶判定"))
    newest = _entry_rows(drawn, NEWEST, screen.m(TEXT_MIN))
    assert newest and newest[0].shown.startswith("Bob 攻撃")


@pytest.mark.parametrize("board", [False, True])
def test_a_log_entry_too_long_for_the_log_keeps_its_start(screen: ScreenDisplay,
                                                         board: bool) -> None:
    """CoC's two-row log showed "…決定的成功/スペシャル (critical, special)": a critical, but
    whose? The entry's first rows are shown, cut at the end with an ellipsis."""
    drawn = spy_text(screen)
    screen.render(_view(board, (EARLIER, CRITICAL)))
    rows = _entry_rows(drawn, CRITICAL, screen.m(TEXT_MIN))
    assert rows, [d.text for d in drawn]
    assert CRITICAL.startswith(rows[0].shown) and rows[0].shown.startswith("Cult 攻撃")
    assert rows[-1].shown.endswith("…") and all(not d.shown.startswith("…") for d in rows)
