"""The Result's hand-over marks at the coc and genso tables; the Keeper menu's SAN loss.

reviewcoc67 at the table: the coc mode marks the Result's steps after the action's own
(the engine's :attr:`Entry.own`) as the hand-over, genso's the new round its action's end
began (RISK 1); the Keeper's menu offers no SAN loss with CO-BASE-13 off (NIT 4)."""

from __future__ import annotations

from companion.app.modes.coc import CocFightMode
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Fight
from companion.systems.genso.combat import Wait
from tests.app.coc_table_helpers import new_fight, pick
from tests.app.genso_table_helpers import RULES
from tests.app.genso_table_helpers import new_fight as genso_fight
from tests.hw.display.fight_result_helpers import round_end_burst_004
from tests.systems.coc.helpers import kill_then_dying_roll_003


def _marks(mode: CocFightMode | GensoFightMode) -> list[tuple[str, bool]]:
    fight = mode.view("next?").fight
    assert fight is not None
    return [(step.text, step.hand_over) for step in fight.result]


def test_the_coc_result_marks_the_round_end_and_the_next_round_as_the_hand_over() -> None:
    for made, outcome, first in (
            (round_end_burst_004(), "Deep takes 3: HP -70/13",
             "Deep's armour breaks at the end of the round (CO-ARMOR-2)"),
            (kill_then_dying_roll_003(), "Ann dies: HP below −2 (CO-DEATH-1)",
             "round 2 begins 第2ラウンド開始")):
        marks = _marks(CocFightMode(made))
        own = [text for text, hand_over in marks if not hand_over]
        hand = [text for text, hand_over in marks if hand_over]
        assert own[-1] == outcome and hand[0] == first, marks
        assert marks == [(text, False) for text in own] + [(text, True) for text in hand]


def test_a_coc_action_that_keeps_the_turn_marks_nothing() -> None:
    f = kill_then_dying_roll_003()
    f.pop()  # the shot that waited for DEX/2 is now the newest: nothing handed over
    f.pop()
    assert not any(hand_over for _, hand_over in _marks(CocFightMode(f)))


def test_the_genso_result_marks_the_new_round_its_last_action_began() -> None:
    fight = genso_fight()
    while fight.state.round == 1:
        entry = fight.push(Wait(fight.state.current.name), ScriptedDice([]))  # type: ignore[union-attr]
    assert entry.lines[-1].text.startswith("round 2 (")
    marks = _marks(GensoFightMode(RULES, fight))
    assert marks[-1][1] and not any(hand_over for _, hand_over in marks[:-1]), marks
    fight.push(Wait(fight.state.current.name), ScriptedDice([]))  # type: ignore[union-attr]
    assert not any(hand_over for _, hand_over in _marks(GensoFightMode(RULES, fight)))


def test_the_keeper_menu_offers_no_san_loss_with_co_base_13_off() -> None:
    def menu(fight: Fight) -> list[str]:
        ask = pick(CocFightMode(fight), "keeper")
        assert isinstance(ask, ChoiceAsk)
        return [o.choice for o in ask.options]

    base = new_fight("004")
    off = Fight(base.rules.with_overrides({"CO-BASE-13": {"p004": "off"}}), base.entrants,
                ScriptedDice(list(base.opening.dice)))
    assert "san" in menu(base)
    assert "san" not in menu(off) and "burn" in menu(off)  # the rest as before
