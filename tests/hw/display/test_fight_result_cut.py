"""A fight's Result too long for its panel: the action's outcome whole, the hand-over cut.

coc67 R1, reviewcoc67 RISK 1: a Result too long for its panel keeps its first rows and
the action's own outcome whole. In coc the steps after a fatal blow are the turn's hand-over
("Cult's turn: 3 AP (CO-TURN-3)") and, after a round's last actor, the round's end and the
next one's start ("Deep's armour breaks at the end of the round", a dying CON×5, "round 2:
…"): the engine marks where the action's own lines end (:attr:`Entry.own`), the mode marks
the steps after it :attr:`DiceStep.hand_over`, and the panel keeps the last own step whole,
the hand-over only where the action's steps all fit (a step of it too long for the rows left
shows its first rows, ending "…": reviewgc67b RISK 2). coc67's fix guessed the hand-over from
its English and kept a round's end as "the outcome". A Result with none marked (genso's) is
cut as before: its newest step alone after the "…".

Drawn through :class:`ScreenDisplay` on SDL's dummy driver at 800x480 and 1024x600, text
scale 1 and 1.25, with 003's board (the narrow Result column) and without (004, the Log
under the Result); what was drawn is read back from the text the screen fitted."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    FighterView,
    FightView,
    Name,
    View,
)
from companion.systems.coc.combat import Entry
from companion.systems.coc.combat.fight import line_rules
from tests.hw.display.fight_result_helpers import result_shown, round_end_burst_004
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.coc.helpers import kill_then_dying_roll_003

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
    DiceStep("CO-TURN-3", "Cult's turn: 3 AP (CO-TURN-3)", hand_over=True),
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


def _view(result: tuple[DiceStep, ...], board: bool, round_: int = 1) -> View:
    fight = FightView(title="vs Cult, Deep", round=round_, turn="Cult", fighters=FIGHTERS,
                      result=result, result_title="Bob attacks → Deep [burst 連射]",
                      log=("Ann ends the turn ＞ Bob's turn: 3 AP (CO-TURN-3)",),
                      board=BoardView(8, 8) if board else None, result_is_newest=True)
    return View(floor=None, room=None, room_tiles=(), sheet=None, prompt="Cult: what now?",
                fight=fight)


def _squeezed(text: str) -> str:
    return text.replace(" ", "")


def _whole_then_cut(shown: str, squeezed: list[str], least: int) -> bool:
    """Whether ``shown`` is the first ``least`` or more steps whole, then (if any are left)
    nothing or the first part of the next one ending "…" (reviewgc67b RISK 2: the hand-over
    step that does not fit whole fills the rows left)."""
    for n in range(least, len(squeezed) + 1):
        whole = "".join(squeezed[:n])
        if shown == whole:
            return True
        rest = shown.removeprefix(whole)
        if n < len(squeezed) and rest != shown and rest.endswith("…") \
                and squeezed[n].startswith(rest[:-1]) and len(rest) > 1:
            return True
    return False


def _own_then_whole(shown: str, squeezed: list[str], own: int) -> bool:
    """Whether ``shown`` is the first ``own`` steps whole, then some of the steps after them
    in their order, each whole, one of them perhaps a round's order ("round …") cut short,
    ending "…" (reviews68 RISK 1: no other step is cut)."""
    if not shown.startswith("".join(squeezed[:own])):
        return False

    def rest_of(rest: str, n: int) -> bool:
        if not rest:
            return True
        if n == len(squeezed):
            return False
        step = squeezed[n]
        if rest.startswith(step) and rest_of(rest[len(step):], n + 1):
            return True
        if step.startswith("round") and "…" in rest:
            cut = rest[:rest.index("…")]
            if len(cut) > 1 and step.startswith(cut) and rest_of(rest[len(cut) + 1:], n + 1):
                return True
        return rest_of(rest, n + 1)

    return rest_of(shown.removeprefix("".join(squeezed[:own])), own)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["003 board", "004 no board"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_fatal_burst_keeps_its_death_when_the_turn_passes(size: str, scale: float,
                                                           board: bool) -> None:
    """The Result is cut and still reads "Deep dies" whole, the action's last step: after
    its first rows ending with "…", or after all of the action with only the hand-over left
    out, unmarked (the heading says whose turn it is; reviewgc67b NIT 2). The coc67 screen
    showed only the hand-over."""
    shown = result_shown(size, scale, _view(BURST, board))
    squeezed = [_squeezed(step.text) for step in BURST]
    assert shown != "".join(squeezed), "the Result fits whole here: nothing is tested"
    death = squeezed[-2]
    assert shown == "".join(squeezed[:-1]) or shown.endswith("…" + death), shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_result_without_a_hand_over_keeps_its_newest_step_alone(size: str,
                                                                  scale: float) -> None:
    """Without the hand-over (a genso blow, a coc action that leaves the turn) the Result
    is cut as before: its first rows, "…", then the newest step alone."""
    result = BURST[:-1]
    shown = result_shown(size, scale, _view(result, True))
    assert "…" in shown
    assert shown.endswith("…" + _squeezed(result[-1].text)), shown


# --- reviewcoc67 RISK 1: engine-made Results, marked as the coc mode marks them ----------------

def _steps(entry: Entry) -> tuple[DiceStep, ...]:
    """An entry's lines as the coc mode gives the Result: each with its rule ID, those after
    the action's own (:attr:`Entry.own`) marked as the hand-over."""
    return tuple(DiceStep(rule, line, hand_over=entry.own is not None and n >= entry.own)
                 for n, (rule, line) in enumerate(line_rules(entry.lines)))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["narrow", "wide"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_round_end_burst_keeps_its_last_hit_not_the_round_end(size: str, scale: float,
                                                               board: bool) -> None:
    """The 004 burst's Result ends with its last hit, "Deep takes 3: HP -70/13", whole;
    the vest breaking at the round's end and "round 2" are not kept as its outcome (coc67's
    guess kept them, and lost the HP lines before)."""
    steps = _steps(round_end_burst_004().journal[-1])
    last = next(step for step in reversed(steps) if not step.hand_over)
    assert last.text == "Deep takes 3: HP -70/13"
    shown = result_shown(size, scale, _view(steps, board))
    assert "…" in shown, f"the Result fits whole here: nothing is tested ({shown!r})"
    assert shown.endswith(_squeezed(last.text)), shown
    assert "armourbreaksattheendoftheround" not in shown, shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["narrow", "wide"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_kill_before_a_dying_roll_keeps_the_death(size: str, scale: float,
                                                    board: bool) -> None:
    """003: "Ann dies" is the action's outcome, shown whole; Bob's CON×5 at the next
    round's start is the hand-over, after it only with the action whole before it."""
    entry = kill_then_dying_roll_003().journal[-1]
    steps = _steps(entry)
    death = next(step for step in reversed(steps) if not step.hand_over)
    assert death.text == "Ann dies: HP below −2 (CO-DEATH-1)"
    view = _view(steps, board)
    assert view.fight is not None
    shown = result_shown(size, scale, view)
    squeezed = [_squeezed(step.text) for step in steps]
    assert entry.own is not None
    own = squeezed[:entry.own]
    if "".join(own) in shown:  # the action whole: then hand-over steps, whole, whose turn
        # it is next first, a round's order cut short in the rows left (reviews68 RISK 1), a
        # hand-over left out whole unmarked (reviewgc67b NIT 2); or all of it
        assert _own_then_whole(shown, squeezed, entry.own), shown
    else:
        assert shown.endswith("…" + own[-1]), shown
        assert "CON×5" not in shown, shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_the_action_whole_is_shown_before_a_hand_over_cut_short(size: str,
                                                                scale: float) -> None:
    """When the action's own steps all fit but its hand-over does not, they are all shown,
    then the hand-over's last step (whose turn it is next) and its first steps as fit, each
    whole: none of them is a round's order, so none is cut short (reviews68 RISK 1); a
    hand-over step left out whole gets no "…" (the heading says whose turn and round it is;
    reviewgc67b NIT 2): nothing of the action is cut."""
    hand = tuple(DiceStep("CO-DEATH-1", f"Cult{n} CON×5 (1D100<=60) ＞ 20 ＞ 成功/success "
                                        "(CO-DEATH-1)", hand_over=True) for n in range(30))
    own = (DiceStep("CO-CORE-1", "Bob 拳銃/Handgun (1D100<=90) ＞ 31 ＞ 成功/success"),
           DiceStep("", "Deep takes 10: HP -7/13"))
    shown = result_shown(size, scale, _view((*own, *hand), False))
    squeezed = [_squeezed(step.text) for step in (*own, *hand)]
    assert shown != "".join(squeezed), "the Result fits whole here: nothing is tested"
    assert "…" not in shown, shown
    assert shown.endswith(squeezed[-1]), shown
    assert _whole_then_cut(shown.removesuffix(squeezed[-1]), squeezed, len(own)), shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["narrow", "wide"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_a_nearly_full_last_outcome_row_is_drawn_whole(size: str, scale: float,
                                                       board: bool) -> None:
    """reviewgc67b DEFECT 1: the action's own steps fit, its hand-over does not, and the
    outcome's last row ("Deep One of t takes 12: HP -12/13") is as wide as the column: it is
    drawn whole. An ellipsis added after it did not fit, and the screen's cut took the
    outcome's end ("… HP -12/1…")."""
    hand = DiceStep("CO-DEATH-1", " ".join(f"Cult{n} CON×5 (1D100<=60) ＞ 20 ＞ 成功/success"
                                           for n in range(40)), hand_over=True)

    def steps(name: str) -> tuple[DiceStep, ...]:
        return (*BURST[:4], DiceStep("", f"{name} takes 12: HP -12/13"), hand)

    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.show(_view(steps("Deep"), board))
        width = next(d.width for d in drawn if d.text == "Deep takes 12: HP -12/13")
        size_px = screen.m(TEXT_MIN)
        # The outcome row the column's width, with no room for a "…" after it.
        full = [row for row in ("Deep One of the Reef Hybrid Elder Spawn"[:n].rstrip()
                                + " takes 12: HP -12/13" for n in range(4, 40))
                if screen._text_width(row, size_px) <= width
                < screen._text_width(row + "…", size_px)]
        assert full, "no outcome row fills the column: nothing is tested"
        for row in full:
            drawn.clear()
            screen.show(_view(steps(row.removesuffix(" takes 12: HP -12/13")), board))
            start = next(i for i, d in enumerate(drawn) if d.text.startswith("Result 結果"))
            end = next((i for i, d in enumerate(drawn)
                        if i > start and d.text.startswith("Log 記録")), len(drawn))
            rows = [d for d in drawn[start + 1:end] if d.size == size_px]
            outcome = [d for d in rows if d.text.startswith("Deep One")]
            assert outcome, "the outcome is not shown: nothing is tested"
            # the hand-over's first rows may follow it, the last of them ending "…"
            # (reviewgc67b RISK 2); the outcome's own row is drawn whole
            assert outcome[-1].shown == row, (row, outcome[-1].shown)
    finally:
        screen.close()


def test_the_mark_is_unsaid_and_replays() -> None:
    """The mark is the engine's, not the file's: a saved fight replays to the same one."""
    entry = round_end_burst_004().journal[-1]
    assert entry.own is not None and entry.lines[entry.own] == (
        "Deep's armour breaks at the end of the round (CO-ARMOR-2)")
    assert "own" not in entry.to_json()
    assert replace(entry, own=None) == entry  # not part of an entry's equality


# --- reviewgc67b RISK 2: no empty rows under a hand-over cut short ---------------------------

#: The next round's order after a round's last action (fight 012's "round 13: …"), longer
#: than the rows any Result has left for it.
ROUND_ORDER = DiceStep("CO-BASE-5", "round 13: " + ", ".join(
    f"Cult{n}(DEX {n % 18 + 1}, 1D100={n * 7 % 100})" for n in range(24)) + " (CO-BASE-5)",
    hand_over=True)


def _result_and_log(size: str, scale: float, view: View) -> tuple[list[str], list[str]]:
    """The Result's rule-step rows and the Log's rows, as drawn."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.show(view)
        start = next(i for i, d in enumerate(drawn) if d.text.startswith("Result 結果"))
        log = next(i for i, d in enumerate(drawn) if d.text.startswith("Log 記録"))
        end = log if log > start else len(drawn)
        result = [d.shown for d in drawn[start + 1:end] if d.size == screen.m(TEXT_MIN)]
        log_rows = [d.shown for d in drawn[log + 1:] if d.text in view.fight.log] \
            if view.fight is not None else []
    finally:
        screen.close()
    return result, log_rows


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["003 board", "004 no board"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", [*SIZES, "720x1280"])
def test_a_hand_over_cut_short_fills_the_rows_left(monkeypatch: pytest.MonkeyPatch, size: str,
                                                   scale: float, board: bool) -> None:
    """reviewgc67b RISK 2: the action whole, the armour breaking whole, and the next round's
    order too long for the rows left: its first rows fill them, the last ending "…", as
    many rows as the same Result with one-row hand-over steps fills (the panel's rows). It
    was left out over empty rows (two at 720x1280, fight 012). The Log keeps its rows."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", (720, 1280))
    own = (DiceStep("CO-CORE-1", "Cult 拳銃/Revolver (1D100<=40) ＞ 15 ＞ 成功/success"),
           DiceStep("CO-ARMOR-2", "Deep takes 5: HP 2/14"))
    armour = DiceStep("CO-ARMOR-2", "Deep's armour breaks at the end of the round "
                                    "(CO-ARMOR-2)", hand_over=True)
    one_row = DiceStep("", "Ann's turn", hand_over=True)
    def view(result: tuple[DiceStep, ...]) -> View:
        plain = _view(result, board, 13)  # the heading names the round its order starts
        assert plain.fight is not None
        return replace(plain, fight=replace(plain.fight, log=(
            "Bob ends the turn ＞ Deep's turn (CO-TURN-3)", "Deep ends the turn",
            "Cult attacks → Deep")))

    full, full_log = _result_and_log(size, scale, view((*own, armour, *[one_row] * 40)))
    rows, log = _result_and_log(size, scale, view((*own, armour, ROUND_ORDER)))
    assert full[-1] == "Ann's turn", full
    assert len(rows) == len(full), rows  # no row left empty
    shown = "".join(rows).replace(" ", "")
    assert shown.startswith("".join(_squeezed(step.text) for step in (*own, armour))), shown
    order = _squeezed(ROUND_ORDER.text)
    rest = shown.removeprefix("".join(_squeezed(step.text) for step in (*own, armour)))
    assert rest.startswith("round13:") and rest.endswith("…"), rest
    assert order.startswith(rest[:-1]), rest  # the order's start, cut at its end only
    assert log == full_log and log, (log, full_log)  # the Log keeps its rows


#: fight017-003 e84 (reviews68 RISK 1): Deep ends the turn, Cult dies of its CON×5, and the
#: hand-over is round 17's order, Ann's escape roll at her turn's start, the hold kept, and
#: Ann's turn, here with a round's order too long for any panel.
ESCAPE_HAND_OVER = (
    DiceStep("CO-TURN-1", "round 17: " + ", ".join(
        f"Cult{n}(DEX {n % 18 + 1}, 1D100={n * 7 % 100})" for n in range(24)) + " (CO-TURN-1)",
        hand_over=True),
    DiceStep("CO-CORE-3", "Ann STR 13 vs 13 (1d100<=50) ＞ 60 ＞ 失敗/failure (CO-CORE-3, "
                          "CO-GRAP-2)", hand_over=True),
    DiceStep("CO-GRAP-2", "Bob still holds Ann (CO-GRAP-2)", hand_over=True),
    DiceStep("CO-TURN-3", "Ann's turn: 1 AP (CO-TURN-3)", hand_over=True),
)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("board", [True, False], ids=["003 board", "004 no board"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", [*SIZES, "720x1280"])
def test_the_turn_handed_over_is_kept_whole_and_no_roll_is_cut(
        monkeypatch: pytest.MonkeyPatch, size: str, scale: float, board: bool) -> None:
    """reviews68 RISK 1 (fight017-003 e84): the rows left after the action are filled with
    whole hand-over steps, whose turn it is next first ("Ann's turn: 1 AP"), and only the
    round's order is cut short in the rows still left; the escape roll was cut before its
    ``＞ 60 ＞ 失敗/failure`` and "Ann's turn" left out. No row is left empty."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", (720, 1280))
    own = (DiceStep("", "Deep ends the turn"),
           DiceStep("", "Cult is skipped (cannot act)"),
           DiceStep("CO-DEATH-1", "Cult CON×5 (1D100<=60) ＞ 97 ＞ 致命的失敗/fumble "
                                  "(CO-DEATH-1)"),
           DiceStep("CO-DEATH-1", "Cult dies: failed CON×5 while dying (CO-DEATH-1)"))
    one_row = DiceStep("", "x", hand_over=True)
    full, _ = _result_and_log(size, scale, _view((*own, *[one_row] * 40), board, 17))
    rows, _ = _result_and_log(size, scale, _view((*own, *ESCAPE_HAND_OVER), board, 17))
    assert len(rows) == len(full), (rows, full)  # no row left empty
    shown = _squeezed("".join(rows))
    squeezed = [_squeezed(step.text) for step in (*own, *ESCAPE_HAND_OVER)]
    assert shown.startswith("".join(squeezed[:len(own)])), shown  # the action whole
    assert shown.endswith(squeezed[-1]), shown  # then Ann's turn, whole, last
    roll, hold = squeezed[len(own) + 1], squeezed[len(own) + 2]
    # the roll whole or not at all: never its terms without its outcome
    assert roll in shown or "STR13vs13" not in shown, shown
    assert hold in shown or "stillholds" not in shown, shown
    # what else is shown is the round's order, its first rows ending "…"
    rest = shown.removeprefix("".join(squeezed[:len(own)])).removesuffix(squeezed[-1])
    rest = rest.replace(roll, "").replace(hold, "")
    assert rest == "" or (rest.endswith("…") and squeezed[len(own)].startswith(rest[:-1])
                          and rest.startswith("round17:")), rest
