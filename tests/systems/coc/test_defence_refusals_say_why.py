"""The coc engine's refused defences say why, with the rule (CO-DODGE-2/3/4).

cli59 F1: a declared defence refused says why, with the rule (from behind CO-DODGE-3, the
round's dodge used CO-DODGE-2/CO-DODGE-4 and the Luck that may lift it), not "cannot dodge
now" alone; and an attack 003's board puts behind its target says so (CO-DODGE-3), from
engine revision 9. A fight played by revision 8 replays as it was."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Defence, EndTurn, Place
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

ANN: dict[str, Any] = {"weapons": ("fist",), "fist": 60}
CULT: dict[str, Any] = {"weapons": ("knife",), "knife": 50, "dodge": 50}


def test_a_dodge_from_behind_names_the_attacker_and_co_dodge_3() -> None:
    f = duel(Profile.P003, ANN, CULT)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", defence=Defence.DODGE, from_behind=True), ScriptedDice([]))
    assert str(refused.value) == ("Cult cannot dodge now: Ann attacks from behind and Cult is "
                                  "not concentrating on dodging (CO-DODGE-3)")


def test_the_rounds_dodge_used_is_said_003() -> None:
    f = duel(Profile.P003, ANN, CULT, third=ANN)
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    push(f, EndTurn("Ann"))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Bob", "Cult", defence=Defence.DODGE), ScriptedDice([]))
    assert str(refused.value) == ("Cult cannot dodge now: Cult has used this round's dodge "
                                  "(CO-DODGE-2)")


def test_the_rounds_dodge_used_names_the_luck_that_may_lift_it_004() -> None:
    f = duel(Profile.P004, ANN, CULT, third=ANN)
    push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Bob", "Cult", defence=Defence.DODGE), ScriptedDice([]))
    assert str(refused.value) == ("Cult cannot dodge now: Cult has used this round's dodge "
                                  "(CO-DODGE-4); a second needs Luck, the Keeper allowing "
                                  "(luck_dodge)")
    # The Keeper allowing it, the second dodge is Luck's.
    text = push(f, Attack("Bob", "Cult", defence=Defence.DODGE, luck_dodge=True),
                (100, 30), (100, 10))
    assert "a second dodge by Luck" in text


def on_the_board(engine: int) -> Any:
    """Ann on d3 at the back of Cult on d4, who faces north (CO-TURN-2)."""
    f = duel(Profile.P003, ANN, CULT)
    push(f, Place("Ann", "d3", "N"))
    push(f, Place("Cult", "d4", "N"))
    return at(engine, f)


def test_an_attack_the_board_puts_behind_says_so() -> None:
    f = on_the_board(9)
    with pytest.raises(IllegalAction, match=r"Ann attacks from behind .* \(CO-DODGE-3\)"):
        f.push(Attack("Ann", "Cult", defence=Defence.DODGE), ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult"), (100, 30), (3, 2), (4, 2))
    assert text.splitlines()[0] == ("Ann on d3 is behind Cult on d4 facing N: from behind "
                                    "(CO-DODGE-3)")
    replays(f)


def test_revision_8_played_it_unsaid() -> None:
    f = on_the_board(8)
    text = push(f, Attack("Ann", "Cult"), (100, 30), (3, 2), (4, 2))
    assert "from behind" not in text
    replays(f)
