"""The AP that 003's jump, grapple, choke, throw, break-free and tackle cost are read from
rules.toml, each under its rule ID: the seed's numbers in ``[source]`` (CO-SKILL-6's 2,
CO-GRAP-1's 1 as an attack's「攻撃×1ポイント」, CO-MA-2's choke and throw at CO-GRAP-3's 1),
the ones it leaves unsaid as Defaults (CO-GRAP-2's break-free, CO-TACKLE-1's tackle where it
is optional). Each test loads the data with one value changed and sees the cost follow."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import (
    BreakFree,
    Choke,
    EndTurn,
    Fight,
    Grapple,
    Jump,
    Place,
    Side,
    Tackle,
    Throw,
)
from companion.systems.coc.rules import CocRules, Profile, load_rules
from tests.systems.coc.helpers import person, push
from tests.systems.coc.rules_file_helpers import edited


def two(rules: CocRules, ann: dict[str, Any], cult: dict[str, Any] | None = None) -> Fight:
    """003: Ann (DEX 14, acts first, 3 AP) against Cult (DEX 10) under ``rules``."""
    return Fight(rules, [(person(rules, "Ann", 14, **ann), Side.INVESTIGATORS),
                         (person(rules, "Cult", 10, **(cult or {})), Side.FOES)],
                 ScriptedDice([]))


def source_set(header: str, key: str, value: str) -> CocRules:
    return load_rules(Profile.P003, texts={"rules.toml": edited(header, key, value)})


@pytest.mark.parametrize("ap, left", [(2, 1), (3, 0)])
def test_a_jump_costs_co_skill_6s_ap(ap: int, left: int) -> None:
    """003 跳躍「行動ポイントを2ポイント消費し」: [source."CO-SKILL-6"] ap."""
    f = two(source_set('source."CO-SKILL-6"', "ap", str(ap)), {"jump": 60})
    push(f, Place("Ann", "b2"))
    push(f, Place("Cult", "c3"))
    assert "leaps over Cult to d4" in push(f, Jump("Ann", "Cult"), (100, 30))
    assert f.state.get("Ann").ap == left


@pytest.mark.parametrize("ap, left", [(1, 2), (2, 1)])
def test_a_grapple_costs_co_grap_1s_ap(ap: int, left: int) -> None:
    """003's 〈組み付き〉 is a 近接攻撃 at 「攻撃×1ポイント」: [source."CO-GRAP-1"] ap (a failed
    grapple leaves the rest of the round's AP)."""
    f = two(source_set('source."CO-GRAP-1"', "ap", str(ap)), {"grapple": 60})
    assert "失敗" in push(f, Grapple("Ann", "Cult"), (100, 80))
    assert f.state.get("Ann").ap == left


@pytest.mark.parametrize("option, dice", [(Choke("Ann"), ((6, 4), (4, 2), (100, 90))),
                                          (Throw("Ann"), ((6, 4), (2, 1)))])
def test_a_choke_or_throw_costs_co_grap_3s_ap(option: Choke | Throw,
                                              dice: tuple[tuple[int, int], ...]) -> None:
    """CO-MA-2's choke and throw each cost the AP CO-GRAP-3 allows (spec CO-MA-2): with 2 a
    round, Ann's next-round choke or throw takes both."""
    f = two(source_set('source."CO-GRAP-3"', "action_points", "2"),
            {"grapple": 60, "martial_arts": 60})
    text = push(f, Grapple("Ann", "Cult", ma=True), (100, 40), (100, 90))  # Cult's STR fails
    assert "the grapple is Ann's 2 AP this round while grappling" in text
    push(f, EndTurn("Cult"))
    assert f.state.get("Ann").ap == 2
    push(f, option, *dice)
    assert f.state.get("Ann").ap == 0


def test_breaking_free_costs_the_co_grap_2_default() -> None:
    """CO-GRAP-2's try as an action (each_turn off; the seed's own roll costs nothing): the
    Default ap, 1; at 2 the held one, whom CO-GRAP-3 leaves 1 AP, cannot try."""
    for ap, refused in ((1, False), (2, True)):
        rules = load_rules(Profile.P003).with_overrides(
            {"CO-GRAP-2": {"ap": ap, "each_turn": False}})
        f = two(rules, {"grapple": 60})
        push(f, Grapple("Ann", "Cult"), (100, 40))
        if refused:
            with pytest.raises(IllegalAction, match=r"Cult has 1 AP, needs 2 \(CO-GRAP-2\)"):
                f.push(BreakFree("Cult"), ScriptedDice([]))
        else:
            push(f, BreakFree("Cult"), (100, 80))
            assert f.state.get("Cult").ap == 0


@pytest.mark.parametrize("ap, left", [(1, 2), (2, 1)])
def test_a_tackle_in_003_costs_the_co_tackle_1_default(ap: int, left: int) -> None:
    """CO-TACKLE-1 is optional in 003 and 004 has no AP: its 003 cost is the Default ap."""
    rules = load_rules(Profile.P003).with_overrides(
        {"CO-TACKLE-1": {"p003": "optional_on", "ap": ap}})
    f = two(rules, {"tackle": 60})
    assert "失敗" in push(f, Tackle("Ann", "Cult"), (100, 80))
    assert f.state.get("Ann").ap == left


@pytest.mark.parametrize("rule, value", [("CO-GRAP-2", 0), ("CO-GRAP-2", 4),
                                         ("CO-TACKLE-1", 0), ("CO-TACKLE-1", 4)])
def test_the_new_ap_defaults_are_range_checked(rule: str, value: int) -> None:
    with pytest.raises(DataError, match=rf"{rule}.ap must be from 1 to 3 "
                                        rf"\(CO-TURN-3.action_points\), found {value}"):
        load_rules(Profile.P003).with_overrides({rule: {"ap": value}})
