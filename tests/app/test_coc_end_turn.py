"""Ending a turn at a coc table asks first (buttons-only audit F5): the action menu's End
turn 手番終了 is on flee/back (B, f, Esc), the button that is Back in every other menu, and
each B pressed on "what now?" ended a turn, three presses three turns. Now B asks
"end the turn? 手番を終える？" and B there goes back, so one press of back never ends a
turn; a table save written before the question still replays."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from companion.app.modes.coc import CocFightMode, table_session
from companion.app.modes.fight_file import write_fight_file
from companion.app.session.controls import Question
from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.terminal import TerminalDisplay
from companion.systems.coc.combat import EndTurn
from tests.app.dice_tray_helpers import Recorded
from tests.app.table import Buttons
from tests.systems.coc.scripted_fight_helpers import fight_003, fight_004

ANN, SURE = "Ann: what now", "Ann: end the turn? 手番を終える？"


def on_the_buttons(tmp_path: Path, presses: list[tuple[str, str]]) -> CocFightMode:
    """Profile 004's fight on the buttons: each (prompt, button) pressed once that prompt is
    shown, in turn; the table stops (a power cut) once they run out."""
    buttons = Buttons()
    display = Recorded(TerminalDisplay(Console(file=io.StringIO(), width=200)))
    script = list(presses)
    ticks = [0]

    def sleep(_: float) -> None:
        prompt = display.views[-1].prompt
        ticks[0] += 1
        assert ticks[0] < 5000, f"stuck at {prompt!r} waiting for {script[:1]}"
        if not script:
            raise KeyboardInterrupt
        if prompt.startswith(script[0][0]):
            buttons.press(script.pop(0)[1])

    write_fight_file(tmp_path / "fight.json", fight_004()[0])
    session = table_session(tmp_path / "fight.json", tmp_path / "table.json", resume=False,
                            seed=1, choices=buttons.choices(display, sleep), display=display)
    with pytest.raises(KeyboardInterrupt):
        buttons.run(session)
    assert not script
    assert isinstance(session.mode, CocFightMode)
    return session.mode


def test_back_out_of_a_menu_and_one_back_too_many_ends_no_turn(tmp_path: Path) -> None:
    """The audit's presses: Attack (A), Back (B) to the action menu, then B again, and B on
    every "what now?" after: each asks, Back lit, each B there goes back; B, then item (onto
    End turn) and A, ends it."""
    mode = on_the_buttons(tmp_path, [
        (ANN, "attack"), ("Attack whom", "flee"), (ANN, "flee"), (SURE, "flee"),
        (ANN, "flee"), (SURE, "flee"), (ANN, "flee"), (SURE, "item"), (SURE, "attack"),
        ("Bob: what", "flee")])
    assert [e.action for e in mode.fight.journal] == [EndTurn("Ann")]
    assert mode.journal == ["attack", "back", "end?", "back", "end?", "back", "end?", "end",
                            "end?"]


def test_the_question_lights_back_offers_end_turn_second_with_the_ap_left() -> None:
    """In 003 it says the action points the turn gives up (CO-TURN-3). Asked as Undo is
    (keys75 D1): a double A on a highlighted End turn ended the turn."""
    mode = CocFightMode(fight_003()[0])
    mode.restore("end?")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == "Ann (3 AP): end the turn? 手番を終える？"
    assert [(o.choice, o.label, o.button.name if o.button else None) for o in ask.options] \
        == [("back", "Back 戻る", "FLEE"), ("end", "End turn 手番終了", None)]
    assert isinstance(ask, Question) and ask.highlight == 0
    assert mode.fight.journal == []


def test_a_table_save_from_before_the_question_replays_its_ends() -> None:
    """A journal written when the action menu's "end" ended the turn at once: it replays as
    the question and its yes, and the answers after it as they were."""
    mode = CocFightMode(fight_004()[0])
    replay(mode, ["end", "end", "attack", "t:Bob"], 2)
    assert [e.action for e in mode.fight.journal] == [EndTurn("Ann"), EndTurn("Bob")]
    assert mode.journal == ["end?", "end", "end?", "end", "attack", "t:Bob"]
    assert mode.path == ["attack", "t:Bob"]  # Cult's attack on Bob, as the save left it
