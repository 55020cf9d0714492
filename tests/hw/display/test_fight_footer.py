"""A long prompt over a fight in play takes its rows from the Log, never from the combatants
or the Result's outcome (reviews66 DEFECT 1): with the footer grown to three rows for a typed
D6, a fight of six hid two combatants ("▼ 2 more"), rows lost their HP bars, and the Result
lost its last step ("Deep takes 4: HP -3/13") while the Log kept its height.

Mid-fight states (genso with 4, 5 and 6 combatants, the coc board fight), each with a
Result of several steps, under the keypad of a typed D6 / d100 and the Quit to console
question, at 800x480, 1024x600 and 720x1280 (turned), text_scale 1.0 and 1.25: every
combatant's row is drawn with its HP, the Result's newest step reads whole, and so does the
prompt. Also: the status over a keypad's grid is drawn under the prompt's last row (RISK 2),
the MENU legend's width is taken from a fight prompt's (NIT 3), and a dice tray's footer with
nothing under its prompt stays short (NIT 4). A fight that is over reads what ended it whole,
its combatants' last rows scrolled into a window where they must (screen74 NIT 5)."""

from __future__ import annotations

import functools
import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import cv2
import pygame
import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.modes.genso import GensoFightMode
from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.hw.buttons import Button, Pick, Press
from companion.hw.dice.source import CameraDiceSource
from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import TEXT_MIN
from companion.hw.display.option_buttons import MENU_LEGEND
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View
from companion.systems.genso.combat import Fight as GensoFight
from companion.systems.genso.combat import entrants_for
from companion.systems.genso.combat.state import Outcome
from companion.systems.genso.rules import load_rules as genso_rules
from companion.systems.genso.sheet import preset
from tests.hw.dice_photo_helpers import PHOTOS
from tests.hw.display.prompt_fit_helpers import (
    SCALES,
    SIZES,
    Said,
    coc_board_mode,
    fight_said,
    system_said,
    unread,
)
from tests.hw.screen_layout_helpers import spy_text

#: The Result's steps a state has at least ("a Result of several entries").
RESULT_STEPS = 3


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def _genso(orcs: int) -> GensoFightMode:
    rules = genso_rules()
    fight = GensoFight(rules, entrants_for(rules, [preset(rules, "pc1"), preset(rules, "pc2")],
                                           [("orc", orcs)]))
    return GensoFightMode(rules, fight, "simulated 仮想")


def _in_play(mode: Any, seed: int) -> Any:
    """``mode`` walked at random (seeded: any option but going back, ending the turn or
    closing the table, seeded dice) to its first menu with a Result of :data:`RESULT_STEPS`
    steps or more and every combatant still in its rows. (coc's revision 21 no longer
    offers Treat with nobody hurt: the coc walk then took the Keeper's Close table, and the
    fight ended before its Result had several steps.)"""
    pick, dice = random.Random(seed), SimulatedDice.seeded(seed)
    for _ in range(400):
        ask = mode.ask()
        assert ask is not None, "the fight ended before its Result had several steps"
        if isinstance(ask, RollAsk):
            mode.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))
            continue
        view = mode.fight_view()
        if len(view.result) >= RESULT_STEPS:
            return mode
        ways = [i for i, o in enumerate(ask.options) if "undo" not in o.choice
                and o.choice not in ("back", "end", "end?", "close?", "close")] or [0]
        try:
            mode.answer(pick.choice(ways))
        except IllegalAction:
            continue
    raise AssertionError("no Result of several steps")


@functools.cache
def fights() -> dict[str, Any]:
    """The mid-fight states, by name: genso with 2, 3 and 4 Orcs, the coc board fight."""
    return {f"genso {orcs + 2}": _in_play(_genso(orcs), 1) for orcs in (2, 3, 4)} | {
        "coc board": _in_play(coc_board_mode(), 2)}


@functools.cache
def prompts(system: str) -> tuple[Said, ...]:
    """The prompts drawn over a fight of ``system``: the keypad of its longest typed roll
    (a D6 of two, a d100's tens) and the Quit to console question (the save refused)."""
    keypads = [s for s in fight_said(system) if s.name.startswith("keypad")]
    said = {s.name: s for s in system_said()}
    return (max(keypads, key=lambda s: len(s.prompt)), said["quit to console"])


def views() -> Iterator[tuple[str, View]]:
    for name, mode in fights().items():
        for said in prompts(name.split()[0]):
            view = mode.view(said.prompt, options=said.options, highlight=0, status=said.status)
            yield f"{said.name} over {name}", replace(view, guidance=said.guidance, system=True)


def _lost(screen: ScreenDisplay, view: View) -> list[str]:
    """What a player does not see of the fight under ``view``'s prompt: a combatant's row
    (or its HP), the Result's newest step, the prompt read whole (:func:`unread`)."""
    fight = view.fight
    assert fight is not None
    drawn = spy_text(screen)
    rows: list[tuple[str, pygame.Rect, list[str]]] = []
    texts: list[str] | None = None
    text, fighter = screen._text, screen._fighter

    def text_spy(value: str, size: int, *args: Any) -> pygame.Surface:
        if texts is not None:
            texts.append(value)
        return text(value, size, *args)

    def fighter_spy(f: Any, index: int, rect: pygame.Rect, *args: Any) -> None:
        nonlocal texts
        texts = []
        fighter(f, index, rect, *args)
        rows.append((f.name.en, rect.copy(), texts))
        texts = None

    screen.__dict__["_text"] = text_spy
    screen.__dict__["_fighter"] = fighter_spy
    wrong = unread(screen, view)  # renders the view
    del screen.__dict__["_fighter"]
    lost = [wrong] if wrong else []
    footer_top = screen.height - screen._footer_height(view)
    for f in fight.fighters:
        row = next((r for r in rows if r[0] == f.name.en), None)
        if row is None:
            lost.append(f"{f.name.en}'s row is not drawn")
        elif row[1].bottom > footer_top or not any(f.hp_pool() in t for t in row[2]):
            lost.append(f"{f.name.en}'s row or HP not in view: {row[1]}, {row[2]}")
    if any(d.text.lstrip().startswith(("▼", "▲")) for d in drawn):
        lost.append("combatants' rows in a window")
    # The Result's rows: the texts fitted after its title, to the Log's (or the end).
    start = next(i for i, d in enumerate(drawn) if d.text.startswith("Result 結果"))
    end = next((i for i, d in enumerate(drawn) if i > start and d.text.startswith("Log 記録")),
               len(drawn))
    shown = "".join(d.shown for d in drawn[start + 1:end] if d.size == screen.m(TEXT_MIN))
    newest = fight.result[-1].text
    if not shown.replace(" ", "").endswith(newest.replace(" ", "")):
        lost.append(f"the Result's newest step {newest!r} not whole: {shown!r}")
    return lost


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_a_long_prompt_over_a_fight_leaves_every_combatant_and_the_outcome(
        size: str, scale: float) -> None:
    """Each state has 4-6 combatants and a Result of several steps; under the typed die's
    keypad and the Quit to console question every row shows its HP, the Result its newest
    step, and the prompt reads whole."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert {len(mode.fight_view().fighters) for mode in fights().values()} >= {4, 5, 6}
        problems = [f"{name}\n    " + "\n    ".join(lost) for name, view in views()
                    if (lost := _lost(screen, view))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


@pytest.mark.needs_japanese_font
def test_the_log_gives_up_its_rows_before_the_result() -> None:
    """Under each prompt of the mid-fight states with no board (the Log under the Result),
    at 800x480 and each text scale, the Log keeps more than its title and newest row only
    while the Result reads whole; and it does give rows up for it somewhere."""
    shorter = 0
    for scale in SCALES:
        screen = ScreenDisplay("800x480", text_scale=scale)
        m = screen.m
        least = m(24) + screen._step(m(18)) + m(4)
        try:
            for name, view in views():
                fight = view.fight
                assert fight is not None
                if fight.board is not None:
                    continue
                header = m(screen_module.HEADER_HEIGHT)
                body = pygame.Rect(0, header, screen.width,
                                   screen.height - header - screen._footer_height(view))
                _, right, _ = screen._fight_columns(fight, body)
                log_h = screen._log_h(fight, right)
                whole = screen._fight_shown(fight, body)[1] == 2
                assert whole or log_h == least, f"{name} at {scale}"
                shorter += log_h < min(m(98), right.h // 3)
        finally:
            screen.close()
    assert shorter


# ---- the status over a keypad's grid (reviews66 RISK 2) -------------------------------------


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
def test_the_status_over_a_grid_is_under_the_prompts_last_row(scale: float) -> None:
    """The keypad's status ("the camera reads D6 only") is drawn under the prompt's last
    row, not at its place under a prompt of one row, over the second."""
    screen = ScreenDisplay("800x480", text_scale=scale)
    try:
        mode = coc_board_mode()
        said = max((s for s in fight_said("coc") if s.name.startswith("keypad")),
                   key=lambda s: len(s.prompt))
        view = mode.view(said.prompt, options=said.options, highlight=0, status=said.status)
        drawn = spy_text(screen)
        screen.render(view)
        rows = [d for d in drawn if d.size == screen._prompt_size(view) and d.text
                and d.text in view.prompt]
        assert len(rows) >= 2  # the prompt takes rows past its one over the grid
        placed: list[pygame.Rect] = []
        status = screen._status

        def status_spy(text: str, rect: pygame.Rect, *args: Any) -> None:
            placed.append(rect.copy())
            status(text, rect, *args)

        screen.__dict__["_status"] = status_spy
        screen.render(view)
        m = screen.m
        footer_top = screen.height - screen._footer_height(view)
        last_row_top = footer_top + m(6) + (len(rows) - 1) * m(24)
        assert placed and placed[0].top >= last_row_top + m(23)
        # Under the grid's boxes' tops or beside them (a prompt of three rows, since the
        # attack line names an Iai parry, leaves it the boxes' row), never over a box.
        assert not any(box.colliderect(placed[0]) for box, _ in screen._targets)
    finally:
        screen.close()


# ---- the MENU legend's width (reviews66 NIT 3) ----------------------------------------------


@pytest.mark.needs_japanese_font
def test_a_fight_prompt_beside_the_menu_legend_is_wrapped_in_what_it_leaves() -> None:
    """A fight's menu of twelve (its boxes past the tenth keyed M×n, the legend saying what
    M is at the prompt's right): the prompt is wrapped in the footer's width less the
    legend's, so that no row runs under the legend."""
    screen = ScreenDisplay("800x480", text_scale=1.25)
    try:
        fight = coc_board_mode()
        # Flee and Fire their own (no button steps back), so the 11th and 12th are M×n
        # whatever is lit (nothing lit: counted from the first press, a76tilecam DEFECT 1).
        options = (*(Option(f"o{i}", f"Option {i} 選択{i}") for i in range(10)),
                   Option("flee", "Flee 逃走", Button.FLEE),
                   Option("fire", "Fire 射撃", Button.RANGED),
                   *(Option(f"o{i}", f"Option {i} 選択{i}") for i in range(10, 12)))
        prompt = ("Close the table? 卓を閉じますか？ The fight is saved as it stands; "
                  "戦闘は続けられなくなる: a closed table is not played on")
        view = fight.view(prompt, options=options)  # nothing lit
        m = screen.m
        assert screen._menu_keyed(view)
        legend_w = screen._text_width(MENU_LEGEND, m(TEXT_MIN)) + m(12)
        assert screen._prompt_width(view) == screen.width - m(20) - legend_w
        drawn = spy_text(screen)
        screen.render(view)
        rows = [d for d in drawn if d.size == screen._prompt_size(view) and d.text
                and d.text in prompt]
        assert len(rows) >= 2 and all(d.width <= screen.width - m(20) - legend_w
                                      for d in rows)
        assert "".join(d.shown for d in rows).replace(" ", "") == prompt.replace(" ", "")
    finally:
        screen.close()


# ---- a dice tray's footer with nothing under its prompt (reviews66 NIT 4) -------------------


def test_a_dice_trays_prompt_with_nothing_under_it_keeps_the_short_footer() -> None:
    """A prompt of two rows with no options and no status (the frame before a throw, the
    tray closing) has its three rows in the footer's own height: the tray keeps its body."""
    screen = ScreenDisplay("800x480")
    try:
        tray = DiceTrayMode(("1D6", "2D6"), "typed 手入力")
        view = tray.view("Throw 2D6 in the dice area ダイスエリアに振ってください: 2D6, roll 1 "
                         "1投目 — a long enough prompt to wrap onto a second row here")
        assert not view.options and not view.status
        assert len(screen._prompt_rows(view, screen._prompt_width(view))) == 2
        assert screen._footer_height(view) == screen.m(96)
    finally:
        screen.close()


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [*SCALES, 1.1])
@pytest.mark.parametrize("size", [*SIZES, "640x384"])
def test_a_fight_over_reads_what_ended_it_whole(size: str, scale: float,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """genso's fight of seven ended by the GM, some of the party fled: at text 1.25 the
    prompt had one row, cut in its middle, "the GM ended the fight" lost (screen74 NIT 5).
    Over, the fight asks nothing more of its combatants: the prompt takes a second row."""
    monkeypatch.setitem(screen_module.LAYOUTS, "640x384", (640, 384))
    view = _fight_of_seven_over()
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert screen._grid(view)
        assert unread(screen, view) == ""
    finally:
        screen.close()


def _fight_of_seven_over(orcs: int = 3, ants: int = 2) -> View:
    """genso's fight of two PCs, three orcs and two giant ants (or ``orcs`` and ``ants``),
    ended by the GM with some of the party fled, on its closing menu."""
    rules = genso_rules()
    mode = GensoFightMode(rules, GensoFight(rules, entrants_for(
        rules, [preset(rules, "pc1"), preset(rules, "pc2")],
        [("orc", orcs), ("giant_ant", ants)])), "simulated 仮想")
    ended = f"{Outcome.DECLARED.text} — {Outcome.PARTY_FLED_SOME_DOWN.text}"
    options = (Option("close", "Close 閉じる", Button.ATTACK), Option("undo", "Undo 取り消し"),
               Option("sleep", "Sleep 睡眠 (MP)"), Option("sunrise", "Sunrise 日の出"),
               Option("sunset", "Sunset 日没"), Option("check", "Check 判定"))
    view = mode.view(f"The fight is over 戦闘終了: {ended}", options=options, highlight=0)
    assert view.fight is not None and len(view.fight.fighters) == 2 + orcs + ants
    return replace(view, fight=replace(view.fight, outcome=ended, turn=""))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [*SCALES, 1.1])
@pytest.mark.parametrize("size", [*SIZES, "640x384"])
def test_a_fight_over_hides_none_of_its_combatants(size: str, scale: float,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With the prompt's second row, the fight of seven over drew six rows and "▼ 1 more",
    which nothing scrolls: the last giant ant, how it ended, was not to be seen
    (reviewscreen74 RISK 2). Over, the heading's row (the round and the outcome the prompt
    says whole) gives way to the combatants: every one is drawn, no window, the prompt
    still whole."""
    monkeypatch.setitem(screen_module.LAYOUTS, "640x384", (640, 384))
    view = _fight_of_seven_over()
    assert view.fight is not None
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert unread(screen, view) == ""
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    shown = [d.shown for d in drawn]
    assert not [text for text in shown if "more" in text]
    for fighter in view.fight.fighters:
        assert any(text.lstrip("▶ ") == fighter.name.ja for text in shown), fighter.name


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
def test_a_fight_over_still_in_a_window_keeps_its_heading(scale: float) -> None:
    """A fight of ten over (two PCs, four orcs, four giant ants) dropped its heading's row
    though its combatants stayed in a window ("▼ 2 more" at 800x480, text 1.0): the round
    and outcome lost for nothing (reviewy74 RISK 2). The heading gives way only where that
    ends the window."""
    view = _fight_of_seven_over(orcs=4, ants=4)
    assert view.fight is not None
    screen = ScreenDisplay("800x480", text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    shown = [d.shown for d in drawn]
    assert [text for text in shown if "more" in text], shown  # still a window
    # the heading, cut at its end to its row
    assert any(text.startswith(f"Round {view.fight.round} ") for text in shown), shown


class _Typing:
    """A player at the camera's question for a die it cannot read: types 2, then 5, then
    accepts the read; never two presses within a double press of each other. Keeps each
    question asked, with what it was shown with."""

    def __init__(self) -> None:
        self.script: list[tuple[str, Press]] = [
            ("Type the die", Pick(1)), ("Type the die", Pick(4)),
            ("Read 読み取り", Button.ATTACK)]
        self.shown = ""
        self.asked: dict[str, dict[str, Any]] = {}
        self.pressed_at = -DOUBLE_PRESS_SECONDS

    def show(self, prompt: str, **kwargs: Any) -> None:
        self.shown = prompt
        if prompt.startswith("Type the die"):
            self.asked[prompt] = kwargs

    def poll(self) -> list[Press]:
        if (not self.script or not self.shown.startswith(self.script[0][0])
                or time.monotonic() - self.pressed_at <= DOUBLE_PRESS_SECONDS):
            return []
        self.pressed_at = time.monotonic()
        return [self.script.pop(0)[1]]


@functools.cache
def _typed_die_asked() -> tuple[str, dict[str, Any]]:
    """The camera's longest question for a die it cannot read (the second of two unclear
    dice of a 4D6 photo: "(2 of 2: 2*, [?], 3, 2)"), as the session shows it."""
    player = _Typing()
    controls = Controls([player])
    photo = cv2.imread(str(PHOTOS / "nb_IMG_20191209_095929.jpg"))
    stream = CameraFrames(iter([photo] * 6), controls, lambda frame: False,
                          sleep=lambda s: None)
    clock = itertools.count().__next__
    source = CameraDiceSource(frames=stream, timeout_s=600.0, clock=clock,
                              sleep=lambda s: None)
    CameraRolls(source, stream, controls, accept_seconds=3.0, poll_seconds=0.0,
                sleep=lambda s: None, clock=clock).next_throw(RollAsk("", 4, 6), player.show)
    assert not player.script and len(player.asked) == 2, player.asked
    return max(player.asked.items(), key=lambda asked: len(asked[0]))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", ["640x480", "800x480"])
def test_the_typed_die_question_over_a_fight_leaves_every_combatant_and_the_outcome(
        size: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera's question for a die it cannot read, longer since 2e3a74aa placed the die
    among the others, over genso's fights and coc's board, where fewer rows are free than at
    the tray (r77dice: not checked): it reads whole, and so does the fight under it."""
    monkeypatch.setitem(screen_module.LAYOUTS, "640x480", (640, 480))
    prompt, kwargs = _typed_die_asked()
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        problems = [f"{name}\n    " + "\n    ".join(lost) for name, mode in fights().items()
                    if (lost := _lost(screen, mode.view(prompt, **kwargs)))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)
