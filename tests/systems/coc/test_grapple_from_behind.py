"""Engine revision 7: a grapple or a tackle from behind is an attack from behind (CO-DODGE-3,
003 l.99 「回避集中を宣言していない場合、後ろからの攻撃は回避行動を行う事が出来ない。」; the grapple
is a melee attack, l.32 「〇近接攻撃〈組み付き〉について」): without dodge concentration it takes
no dodge or parry, as a punch from there. Entries played by revision 6 replay as they were
played."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Concentrate,
    Defence,
    Fight,
    Grapple,
    Place,
    Tackle,
)
from companion.systems.coc.rules import Profile
from tests.systems.coc.grapple_from_behind_helpers import ANN, CULT, TACKLE_ON, cult_holds_ann
from tests.systems.coc.helpers import at, duel, push, replays


def behind(engine: int, concentrating: bool = False) -> Fight:
    """003 on the board: Ann on d3, Cult on d4 facing N, its back to her; Ann's turn."""
    f = duel(Profile.P003, ANN, CULT, settings=TACKLE_ON)
    if concentrating:
        push(f, Concentrate("Cult"))
    push(f, Place("Cult", "d4", "N"))
    push(f, Place("Ann", "d3", "N"))
    return at(engine, f)


def test_a_punch_from_behind_is_refused_a_dodge_as_before_003() -> None:
    with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
        behind(ENGINE).push(Attack("Ann", "Cult", defence=Defence.DODGE), ScriptedDice([]))


@pytest.mark.parametrize("defence", [Defence.DODGE, Defence.PARRY])
def test_a_grapple_from_behind_takes_no_dodge_or_parry_003(defence: Defence) -> None:
    """Refused before any die, as the punch's dodge is; revision 6 rolled the dodge or the
    knife's parry and let it stop the grapple."""
    with pytest.raises(IllegalAction, match=f"Cult cannot {defence.value} now"):
        behind(ENGINE).push(Grapple("Ann", "Cult", defence=defence), ScriptedDice([]))
    f = behind(ENGINE)
    text = push(f, Grapple("Ann", "Cult"), (100, 30), (100, 90))  # Cult's STR fails (CO-GRAP-2)
    assert f.state.get("Ann").grappling == "Cult" and "Ann holds Cult" in text
    replays(f)
    old = behind(6)
    text = push(old, Grapple("Ann", "Cult", defence=defence), (100, 30), (100, 10))
    assert old.state.get("Ann").grappling == "" and ("回避/Dodge" in text or "parried" in text)
    replays(old)


def test_a_tackle_from_behind_takes_no_dodge_003() -> None:
    """Refused before any die; revision 6 rolled Cult's dodge, which stopped the tackle."""
    with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
        behind(ENGINE).push(Tackle("Ann", "Cult", defence=Defence.DODGE), ScriptedDice([]))
    old = behind(6)
    text = push(old, Tackle("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "回避/Dodge" in text and old.state.get("Cult").hp == 13
    replays(old)


def test_dodge_concentration_dodges_a_grapple_and_a_tackle_from_behind_003() -> None:
    """CO-DODGE-3 lifts with dodge concentration: Cult, concentrating, dodges either."""
    f = behind(ENGINE, concentrating=True)
    text = push(f, Tackle("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Cult").hp == 13
    replays(f)
    f = behind(ENGINE, concentrating=True)
    text = push(f, Grapple("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "回避/Dodge" in text and f.state.get("Ann").grappling == ""
    replays(f)


def test_a_tackle_from_behind_finds_no_human_shield_003() -> None:
    """CO-GRAP-4 (003 l.36 「但し後ろからの攻撃の場合はその限りではない」): Bob's tackle at
    Cult's back hurts Cult, not the Ann it holds; revision 6 put it into Ann's HP."""
    f = cult_holds_ann(ENGINE)
    text = push(f, Tackle("Bob", "Cult"), (100, 20), (6, 3), (4, 1))
    assert "human shield" not in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 9)
    replays(f)
    old = cult_holds_ann(6)
    text = push(old, Tackle("Bob", "Cult"), (100, 20), (6, 3), (4, 1))
    assert "Ann is a human shield and takes 4 (CO-GRAP-4)" in text
    assert (old.state.get("Ann").hp, old.state.get("Cult").hp) == (9, 13)
    replays(old)
