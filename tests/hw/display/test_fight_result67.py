"""coc67 R1: a Result too long for its panel keeps its first rows and its newest step whole;
in coc the newest step after a fatal blow is nearly always the turn's hand-over ("Cult's
turn: 3 AP (CO-TURN-3)"), so the table saw neither "Deep takes 4" nor "Deep dies". A
newest step that only hands the turn over now comes with the outcome step before it,
where both leave a row for the first; a Result without a hand-over (genso's blow) is cut
as before.

Drawn through :class:`ScreenDisplay` on SDL's dummy driver at 800x480 and 1024x600, text
scale 1 and 1.25, with 003's board (the narrow Result column) and without (004, the Log
under the Result); what was drawn is read back from the text the screen fitted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.fight_panels import HAND_OVER
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    FighterView,
    FightView,
    Name,
    View,
)
from tests.hw.test_screen_layout import spy_text

SIZES = ("800x480", "1024x600")
SCALES = (1.0, 1.25)

#: A 003 burst that kills (bench_display's coc script, longer): its lines as the coc mode
#: gives them, the turn passing to Cult last.
BURST = (
    DiceStep("CO-FIRE-6", "Bob fires a burst of 20 (CO-FIRE-6)"),
    DiceStep("CO-CORE-1", "Bob サブマシンガン/Submachine Gun (1D100<=60) ＞ 31 ＞ 成功/success"),
    DiceStep("CO-FIRE-6", "1D20=19 ＞ 19 hit(s) (CO-FIRE-6)"),
    DiceStep("CO-DODGE-2", "Deep 回避/Dodge (1D100<=11) ＞ 70 ＞ 失敗/failure (CO-DODGE-2) "
                           "(Dodge − 19 hits, CO-FIRE-6)"),
    *(step for n, hp in ((1, 8), (2, 3), (3, 0)) for step in (
        DiceStep("", f"bullet {n}: damage (1D10+2) ＞ 3[3]+2=5 = 5"),
        DiceStep("", f"Deep takes 5: HP {hp}/13"))),
    DiceStep("CO-DEATH-1", "Deep is unconscious and dying: CON×5 each round (CO-DEATH-1)"),
    DiceStep("", "bullet 4: damage (1D10+2) ＞ 10[10]+2=12 = 12"),
    DiceStep("", "Deep takes 12: HP -12/13"),
    DiceStep("CO-DEATH-1", "Deep dies: HP below −2 (CO-DEATH-1)"),
    DiceStep("CO-TURN-3", "Cult's turn: 3 AP (CO-TURN-3)"),
)
FIGHTERS = (
    FighterView(Name("Bob", "Bob"), Name("探索者", "investigators"), 13, 13, san=50),
    FighterView(Name("Cult", "Cult"), Name("敵", "foes"), 13, 13, san=50, acting=True,
                ally=False),
    FighterView(Name("Deep", "Deep"), Name("敵", "foes"), -12, 13, san=50, ally=False,
                down=True, conditions=("DEAD 死亡",)),
)


@pytest.fixture(autouse=True)
def _sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for size in SIZES:
        monkeypatch.setitem(screen_module.LAYOUTS, size,
                            tuple(int(n) for n in size.split("x")))
    yield


def _view(result: tuple[DiceStep, ...], board: bool) -> View:
    fight = FightView(title="vs Cult, Deep", round=1, turn="Cult", fighters=FIGHTERS,
                      result=result, result_title="Bob attacks → Deep [burst 連射]",
                      log=("Ann ends the turn ＞ Bob's turn: 3 AP (CO-TURN-3)",),
                      board=BoardView(8, 8) if board else None, result_is_newest=True)
    return View(floor=None, room=None, room_tiles=(), sheet=None, prompt="Cult: what now?",
                fight=fight)


def _result_shown(size: str, scale: float, view: View) -> str:
    """The Result's rule-step text as drawn (its rows joined, spaces dropped)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.show(view)
        start = next(i for i, d in enumerate(drawn) if d.text.startswith("Result 結果"))
        end = next((i for i, d in enumerate(drawn)
                    if i > start and d.text.startswith("Log 記録")), len(drawn))
        rows = [d.shown for d in drawn[start + 1:end] if d.size == screen.m(TEXT_MIN)]
    finally:
        screen.close()
    return "".join(rows).replace(" ", "")


def _squeezed(text: str) -> str:
    return text.replace(" ", "")


def test_the_hand_over_pattern_is_only_the_turn_passing() -> None:
    """coc's and genso's hand-over lines are hand-overs; an outcome is not."""
    for line in ("Cult's turn: 3 AP (CO-TURN-3)", "round 2: Ann(DEX 14), Cult(DEX 10) "
                 "(CO-TURN-1)", "round 3 (10 s each, GM-CORE-2)", "Ann is skipped (stunned)",
                 "Ann acts at DEX/2 (7) (CO-TURN-5)"):
        assert HAND_OVER.search(line), line
    for line in ("Deep dies: HP below −2 (CO-DEATH-1)", "Deep takes 12: HP -12/13",
                 "Ann is unconscious: its turn ends (CO-BASE-8)"):
        assert not HAND_OVER.search(line), line


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["003 board", "004 no board"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_fatal_burst_keeps_its_death_when_the_turn_passes(size: str, scale: float,
                                                           board: bool) -> None:
    """The Result is cut (its first rows end with "…"), and still reads "Deep dies" whole
    before the hand-over, which ends it whole; the old screen showed only the hand-over."""
    shown = _result_shown(size, scale, _view(BURST, board))
    assert "…" in shown, f"the Result fits whole here: nothing is tested ({shown!r})"
    tail = _squeezed(BURST[-2].text) + _squeezed(BURST[-1].text)
    assert shown.endswith(tail), shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_result_without_a_hand_over_keeps_its_newest_step_alone(size: str,
                                                                  scale: float) -> None:
    """Without the hand-over (a genso blow, a coc action that leaves the turn) the Result
    is cut as before: its first rows, "…", then the newest step alone."""
    result = BURST[:-1]
    shown = _result_shown(size, scale, _view(result, True))
    assert "…" in shown
    assert shown.endswith("…" + _squeezed(result[-1].text)), shown
