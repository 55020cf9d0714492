"""A fight's log: whole entries, newest last, the one the Result panel shows left to it (as the
mode says, ``result_is_newest``: not an action under way whose title is an earlier entry's),
and an entry too long for the log cut at its end (display audit 56, item 6; review 56,
finding 1). Drawn through :class:`ScreenDisplay` on SDL's dummy driver; what was drawn is
read back from the texts it fitted; the fights are real modes played with scripted dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.dice import ScriptedDice
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import BoardView, FightView, PieceView, View, example_fight_view
from companion.systems.coc.combat import Fight as CocFight
from companion.systems.coc.combat import Side as CocSide
from companion.systems.coc.rules import Profile
from companion.systems.coc.rules import load_rules as coc_rules
from companion.systems.genso.combat import Fight as GensoFight
from companion.systems.genso.combat import entrants_for
from companion.systems.genso.rules import load_rules as genso_rules
from companion.systems.genso.sheet import preset
from tests.hw.screen_layout_helpers import Drawn, spy_text
from tests.systems.coc.scripted_fight_helpers import entrant

TITLE = "Bob 攻撃 attacks → Deep [burst 連射] (サブマシンガン/Submachine Gun)"
EARLIER = "Ann 攻撃 attacks → Cult ＞ 成功/success, 4 damage"
NEWEST = f"{TITLE} ＞ 回避/Dodge 失敗/failure, 2 hits, Deep dies"
CRITICAL = ("Cult 攻撃 attacks → Ann (ナイフ/Knife) ＞ 決定的成功/スペシャル (critical, special): "
            "damage 1D4+2+1D4 ＞ 7, Ann takes 7: HP 6/13, major wound 重傷, CON roll to stay "
            "conscious 気絶判定 ＞ 成功/success")


def _fight(view: View) -> FightView:
    assert view.fight is not None
    return view.fight


def _view(board: bool, log: tuple[str, ...], title: str = TITLE, newest: bool = True) -> View:
    view = example_fight_view()
    fight = replace(_fight(view), log=log, result_title=title, result_is_newest=newest,
                    board=BoardView(8, 8, (PieceView(1, 1, "B"),)) if board else None)
    return replace(view, fight=fight)


def _entry_rows(drawn: list[Drawn], entry: str, size: int) -> list[Drawn]:
    """The rows drawn of ``entry``: the longest run of rows at ``size`` that starts it and
    goes on with it (the Result's title, drawn larger, or a result row that happens to open
    as the entry does, "駆け出し冒険者２ PC 2", are shorter runs than the log's own)."""
    best: list[Drawn] = []
    for start, first in enumerate(drawn):
        if first.label or len(first.text) <= 8 or first.size != size \
                or not entry.startswith(first.text.rstrip("…")):
            continue
        rows = [first]
        for d in drawn[start + 1:]:
            joined = " ".join(r.text for r in rows)
            if not d.text or not entry.startswith(f"{joined} {d.text.rstrip('…')}"):
                break
            rows.append(d)
        if len(" ".join(r.shown for r in rows)) > len(" ".join(r.shown for r in best)):
            best = rows
    return best


@pytest.mark.parametrize("board", [False, True])
@pytest.mark.needs_japanese_font
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
    screen.render(_view(board, (EARLIER, NEWEST), title="Ann CON×5 気絶判定", newest=False))
    newest = _entry_rows(drawn, NEWEST, screen.m(TEXT_MIN))
    assert newest and newest[0].shown.startswith("Bob 攻撃")


@pytest.mark.parametrize("board", [False, True])
@pytest.mark.needs_japanese_font
def test_a_log_entry_too_long_for_the_log_keeps_its_start(screen: ScreenDisplay,
                                                         board: bool) -> None:
    """CoC's two-row log showed "…決定的成功/スペシャル (critical, special)": a critical, but
    whose? The entry's first rows are shown, cut at the end with an ellipsis."""
    drawn = spy_text(screen)
    screen.render(_view(board, (EARLIER, CRITICAL), newest=False))
    rows = _entry_rows(drawn, CRITICAL, screen.m(TEXT_MIN))
    assert rows, [d.text for d in drawn]
    assert CRITICAL.startswith(rows[0].shown) and rows[0].shown.startswith("Cult 攻撃")
    assert rows[-1].shown.endswith("…") and all(not d.shown.startswith("…") for d in rows)


def _play(mode: CocFightMode | GensoFightMode, *steps: str | tuple[int, ...]) -> None:
    """Pick each option key, or answer each throw with its faces, in turn."""
    for step in steps:
        ask = mode.ask()
        if isinstance(step, tuple):
            assert isinstance(ask, RollAsk), ask
            mode.answer(Throw(step))
        else:
            assert isinstance(ask, ChoiceAsk), ask
            mode.answer([o.choice for o in ask.options].index(step))


def _log_drawn(screen: ScreenDisplay, mode: CocFightMode | GensoFightMode) \
        -> tuple[FightView, list[str]]:
    """The mode's fight as the screen draws it now, and the log entries it drew past the
    action's name (to its "＞", whole or cut at the end): where the Result is of the same
    action, its title and rows open as the entry does."""
    view = mode.view("what now?")
    fight = _fight(view)
    drawn = spy_text(screen)
    screen.render(view)
    size = screen.m(TEXT_MIN)
    return fight, [entry for entry in fight.log
                   if "＞" in " ".join(d.shown for d in _entry_rows(drawn, entry, size))]


@pytest.mark.needs_japanese_font
def test_a_second_shot_half_thrown_leaves_the_first_shot_in_the_log(
        screen: ScreenDisplay) -> None:
    """CoC, profile 003: Bob fires his revolver at Deep twice in one turn. While the second
    shot's damage is awaited the Result is titled by it, "Bob 攻撃 attacks → Deep", as the
    first shot's log entry starts: the log dropped that entry, and the first shot's outcome
    was in neither panel."""
    rules = coc_rules(Profile.P003)
    mode = CocFightMode(CocFight(rules, [
        entrant(rules, "Bob", 14, ("revolver",), CocSide.INVESTIGATORS, handgun=60),
        entrant(rules, "Deep", 8, ("japanese_sword",), CocSide.FOES, japanese_sword=60)],
        ScriptedDice([])))
    shot = ("attack", "t:Deep", "h:plain", "d:none")
    _play(mode, *shot, (30,), (5,), *shot, (20,))
    fight, logged = _log_drawn(screen, mode)
    assert len(fight.log) == 1 and fight.log[0].startswith(fight.result_title), fight
    assert not fight.result_is_newest
    assert logged == [fight.log[0]]


@pytest.mark.needs_japanese_font
def test_genso_s_log_leaves_the_newest_action_to_the_result_until_the_next_is_thrown(
        screen: ScreenDisplay) -> None:
    """genso: after an action the Result shows it and the log the actions before it (not a
    copy of the Result); once the next action's to-hit is thrown, the Result is of that one,
    and the log shows the action before it again."""
    rules = genso_rules()
    mode = GensoFightMode(rules, GensoFight(rules, entrants_for(
        rules, [preset(rules, "pc1"), preset(rules, "pc2")], [("orc", 2)])), "")
    _play(mode, "attack", "t:オーク1", "w:0", (4, 5), (3,), "dodge")
    fight, logged = _log_drawn(screen, mode)
    attack, dodge = fight.log
    assert fight.result_is_newest and dodge.startswith(fight.result_title)
    assert logged == [attack]
    # オーク1 hits: 駆け出し冒険者１'s defence is thrown, the damage awaited.
    _play(mode, "attack", "t:駆け出し冒険者１", (1, 1))
    fight, logged = _log_drawn(screen, mode)
    assert not fight.result_is_newest and fight.result_title.startswith("オーク1")
    assert logged[-1] == dodge
