"""Undo, the Keeper's Close table and the GM's End fight ask first, Back lit (sweep 53): on
the GM's and the Keeper's menus Undo was lit first and taken at once, so a double A took an
action back (thrown again with other dice); the Keeper's Close ended a running fight that the
table then could not carry on; and End fight with a second A closed the fight."""

from __future__ import annotations

from companion.app.modes.coc import CocFightMode
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.systems.coc.combat import Defence
from companion.systems.genso.combat import EndFight
from tests.app.fight_log_helpers import cult_attacks_ann, orc_attacks


def lit(mode: CocFightMode | GensoFightMode) -> str:
    """The key of the option an A takes now, which it then takes."""
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    key = ask.options[ask.highlight].choice
    mode.answer(ask.highlight)
    return key


def keys(mode: CocFightMode | GensoFightMode) -> list[str]:
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return [o.choice for o in ask.options]


def test_a_double_a_on_the_gms_menu_takes_nothing_back() -> None:
    mode = orc_attacks(6, 6)
    mode.restore("gm")
    assert [lit(mode), lit(mode)] == ["undo?", "back"]
    assert len(mode.fight.journal) == 2 and not mode.undone
    mode.restore("undo?")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("Undo オーク")
    mode.restore("undo")
    assert len(mode.fight.journal) == 1 and mode.undone.startswith("取り消し undone: オーク")


def test_the_gms_end_fight_asks_first() -> None:
    mode = orc_attacks(6, 6)
    mode.restore("gm")
    mode.restore("end?")
    assert keys(mode) == ["back", "end"] and lit(mode) == "back"
    assert mode.fight.state.current is not None  # the fight runs on, the GM's menu shown
    for key in ("end?", "end"):
        mode.restore(key)
    assert isinstance(mode.fight.journal[-1].action, EndFight)


def test_a_genso_journal_from_before_the_questions_replays() -> None:
    """A table save written when Undo and End fight were one press: `gm`, `undo` and `gm`,
    `end`, and `undo` on the fight-over menu, replay as the question and its yes."""
    mode = orc_attacks(6, 6)
    for key in ("gm", "undo"):
        mode.restore(key)
    assert len(mode.fight.journal) == 1
    for key in ("gm", "end"):
        mode.restore(key)
    assert mode.fight.state.current is None
    mode.restore("undo")  # on the fight-over menu
    assert mode.fight.state.current is not None and len(mode.fight.journal) == 1
    assert mode.journal == ["gm", "undo?", "undo", "gm", "end?", "end", "undo?", "undo"]


def test_the_keepers_close_asks_first_and_says_a_running_fight_cannot_go_on() -> None:
    mode = cult_attacks_ann("003", [(100, 30), (100, 3)], defence=Defence.DODGE)
    mode.restore("keeper")
    assert keys(mode)[:2] == ["undo?", "close?"]
    assert [lit(mode), lit(mode)] == ["undo?", "back"]  # a double A: nothing undone
    assert len(mode.fight.journal) == 2
    mode.restore("close?")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert ask.prompt == ("Close the table? 閉じる？ The fight is not over: the table cannot "
                          "carry it on after 戦闘は続けられなくなる")
    assert lit(mode) == "back" and not mode.done
    for key in ("close?", "close"):
        mode.restore(key)
    assert mode.done and mode.ask() is None


def test_a_coc_journal_from_before_the_questions_replays() -> None:
    mode = cult_attacks_ann("003", [(100, 30), (100, 3)], defence=Defence.DODGE)
    for key in ("keeper", "close"):
        mode.restore(key)
    assert mode.done and mode.journal == ["keeper", "close?", "close"]
