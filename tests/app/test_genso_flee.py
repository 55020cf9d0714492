"""Fleeing at a genso table (table audit gc #3, #4): the action menu's Flee, on the button
that is Back everywhere else, asks first, so one press of back never removes a PC; a party
that all fled is told 逃走 the party escaped, not 全滅; a table save written before flight
was asked for still replays."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.app.session.controls import Question
from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.terminal import TerminalDisplay
from companion.systems.genso.combat import Fight, Flee, Outcome, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.dice_tray_helpers import Recorded
from tests.app.table import Buttons

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def new_fight() -> Fight:
    return Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")],
                                     [("orc", 2)]))


def test_flee_asks_first_and_back_there_leaves_the_pc_in_the_fight(tmp_path: Path) -> None:
    """B on PC 1's menu asks "flees the fight?", Back lit; B again goes back, nobody fled;
    B, then item (onto Flee) and A, flees. When both PCs fled the closing line says the party
    escaped."""
    buttons = Buttons()
    console = Console(file=io.StringIO(), width=200)
    display = Recorded(TerminalDisplay(console))
    menu1, menu2 = f"{PC1} PC 1: what now", f"{PC2} PC 2: what now"
    sure1, sure2 = f"{PC1} PC 1 flees the fight? 逃亡する？", f"{PC2} PC 2 flees the fight?"
    presses = [(menu1, "flee"), (sure1, "flee"), (menu1, "flee"), (sure1, "item"),
               (sure1, "attack"), (menu2, "flee"), (sure2, "item"), (sure2, "attack"),
               ("The fight is over", "attack")]
    seen: list[str] = []
    ticks = [0]

    def sleep(_: float) -> None:
        prompt = display.views[-1].prompt
        ticks[0] += 1
        assert ticks[0] < 5000, f"stuck at {prompt!r} waiting for {presses[:1]}"
        if presses and prompt.startswith(presses[0][0]):
            seen.append(prompt)
            buttons.press(presses.pop(0)[1])

    path = tmp_path / "fight.json"
    write_fight_file(path, new_fight())
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=1,
                            choices=buttons.choices(display, sleep), display=display)
    buttons.run(session)
    assert not presses
    mode = session.mode
    assert isinstance(mode, GensoFightMode)
    assert [e.action for e in mode.fight.journal] == [Flee(PC1), Flee(PC2)]
    assert mode.journal == ["flee?", "back", "flee?", "flee", "flee?", "flee", "close"]
    assert mode.fight.state.outcome is Outcome.PARTY_FLED
    assert seen[-1] == "The fight is over 戦闘終了: 逃走 the party escaped"
    assert mode.closing() == "The fight is closed 戦闘終了: 逃走 the party escaped"
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "逃走 the party escaped" in text and "全滅" not in text


def test_the_flee_question_lights_back_on_a_and_b_and_offers_flee_second() -> None:
    """Asked as Undo is (keys75 D1): a double A on a highlighted Flee fled."""
    mode = GensoFightMode(RULES, new_fight())
    mode.restore("flee?")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == f"{PC1} PC 1 flees the fight? 逃亡する？"
    assert [(o.choice, o.label, o.button.name if o.button else None) for o in ask.options] \
        == [("back", "Back 戻る", "FLEE"), ("flee", "Flee 逃亡", None)]
    assert isinstance(ask, Question) and ask.highlight == 0
    assert mode.fight.journal == []


def test_a_table_save_from_before_the_question_replays_its_flight() -> None:
    """A journal written when the action menu's "flee" fled at once: it replays as the
    question and its yes, and the next answers after it as they were."""
    mode = GensoFightMode(RULES, new_fight())
    replay(mode, ["flee", "wait"], 2)
    assert [e.action for e in mode.fight.journal] == [Flee(PC1), Wait(PC2)]
    assert mode.journal == ["flee?", "flee", "wait"]
