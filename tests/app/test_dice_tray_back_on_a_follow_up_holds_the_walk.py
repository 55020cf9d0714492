"""The dice tray's back/flee while a table's later die is awaited (review64e RISK 1): one
press dropped the throws taken, and the table picked again threw its first die anew, a free
reroll of an outcome already accepted. It now holds the walk as a failed throw does: *Again*
asks the awaited die with the throws kept, *Menu* gives the table up."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

from companion.app.modes.dice_tray import HELD, HELD_NOTE, DiceTrayMode, Stage
from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.dice import ScriptedDice
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.events.run import run_event
from tests.app.dice_tray_helpers import Keys, Recorded, menu, outcome, quitting, tray
from tests.app.dice_tray_walk_helpers import _monster_after, picked_afresh


def test_back_on_a_follow_up_keeps_the_throws_and_again_asks_the_awaited_die() -> None:
    """The review's repro: a 6 taken, back while the count's die is awaited landed on the
    menu with the 6 gone."""
    mode = _monster_after(6)
    awaited = mode.ask()
    assert isinstance(awaited, RollAsk) and "how many monsters" in awaited.prompt
    mode.answer(Throw(back=True))
    held = mode.ask()
    assert isinstance(held, ChoiceAsk) and held.prompt == HELD
    assert [o.label for o in held.options] == ["Again もう一度", "Menu メニュー"]
    assert mode.view(held.prompt).status == HELD_NOTE
    assert mode.throws == [(6,)]
    # the walk so far stays on the Table panel while the player decides
    assert any("awaiting roll 2" in s.text for s in mode.dice.steps)
    mode.answer(0)  # Again
    assert mode.ask() == awaited and mode.throws == [(6,)]
    assert mode.view("…").status == ""
    mode.answer(Throw((4,)))
    whole = run_event("monster", ScriptedDice([(6, 6), (6, 4)]), mode="generic")
    assert [(s.rule, s.text) for s in mode.dice.steps] == [(s.rule, s.text)
                                                          for s in whole.steps]


def test_menu_after_a_back_on_a_follow_up_gives_the_table_up() -> None:
    mode = _monster_after(6)
    mode.answer(Throw(back=True))
    mode.answer(1)  # Menu
    assert mode.stage is Stage.MENU
    picked_afresh(mode)


def test_back_on_a_tables_first_throw_still_goes_straight_to_the_menu() -> None:
    mode = DiceTrayMode(("1D6",), "camera カメラ")
    mode.answer(1)  # Event table
    mode.answer(3)  # Monster
    mode.answer(Throw(back=True))
    assert mode.stage is Stage.MENU and mode.throws == []


def test_the_journal_replays_a_back_held_walk() -> None:
    """The journal keeps "back" as a throw; replayed, it holds the walk the same way."""
    mode = _monster_after(3)
    mode.answer(Throw(back=True))
    mode.answer(0)  # Again
    again = DiceTrayMode(("1D6", "2D6"), "camera カメラ")
    for answer in mode.journal:
        again.restore(answer)
    assert again.ask() == mode.ask() and again.throws == [(3,)]


def test_the_keypads_back_on_the_count_in_the_session_keeps_the_tables_die() -> None:
    """``play --mode dice --dice typed``: the table's 6 typed, then the keypad's *Back 戻る*
    (beside the faces) pressed at the count's die. *Again* asks the count, not the table's
    die, and the walk is the one the 6 and the count make."""
    console = Console(file=io.StringIO(), width=120)
    display = Recorded(TerminalDisplay(console))

    def typing(what: str) -> Callable[[View], bool]:
        return lambda view: "Type the D6" in view.prompt and what in view.prompt

    def held(view: View) -> bool:
        return view.prompt == HELD

    def whole(view: View) -> bool:
        return outcome(view) and view.prompt != HELD

    keys = Keys(display, [(menu, b"2"), (lambda v: "Which table" in v.prompt, b"4"),
                          (typing("Monster (EV-MON-1)"), b"6"),
                          (typing("how many monsters"), b"f"), (held, b"a"),
                          (typing("how many monsters"), b"4"), (whole, b"f"),
                          (menu, b"f"), (quitting, b"2")])
    controls = Controls([keys.keyboard, display], clock=keys.time_at_the_table)
    rolls = Keypad(controls, 0.0, "typed 手入力", keys.sleep)
    try:
        tray(rolls, controls, display, "typed 手入力", ("2D6",), keys.sleep).run()
    finally:
        keys.close()
    assert not keys.script
    shown = next(v for v in display.views if whole(v))
    walk = run_event("monster", ScriptedDice([(6, 6), (6, 4)]), mode="generic")
    assert shown.dice is not None and shown.dice.faces == (6, 4)
    assert [s.text for s in shown.dice.steps] == [s.text for s in walk.steps]
