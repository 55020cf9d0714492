"""A throw the wrong shape for the roll the engine makes (a 7 on a D6, two dice for one) is
refused by name, in a fight and on the dice tray, and changes nothing (session/rolls.py
``Thrown.roll``; review 3 #6). The camera reads only faces 1–6 and the keypad offers only a
die's faces, so this guards the engines against a reader's or a replay's bug."""

from __future__ import annotations

import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.mode import RollAsk, Throw
from companion.errors import IllegalAction
from tests.app.throw_helpers import damage_awaited


def test_a_fight_refuses_a_face_the_die_does_not_have_and_keeps_its_throws() -> None:
    mode = damage_awaited()
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 6)
    before = mode.fight.to_json()
    with pytest.raises(IllegalAction, match=r"1D6 was wanted, the throw was \[7\]"):
        mode.answer(Throw((7,)))
    assert mode.fight.to_json() == before and mode.ask() == ask  # still awaiting it
    mode.answer(Throw((3,)))
    assert mode.fight.to_json() != before  # the attack, whole with a die it could have


@pytest.mark.parametrize("values", [(7,), (0,), (3, 4)])
def test_the_dice_tray_says_what_was_wanted_and_rolls_nothing(values: tuple[int, ...]) -> None:
    mode = DiceTrayMode(("1D6",), "simulated 仮想")
    mode.answer(0)  # 1D6
    mode.answer(Throw(values))
    assert mode.note == f"1D6 was wanted, the throw was {list(values)}"
    assert mode.dice.rolls == ()
